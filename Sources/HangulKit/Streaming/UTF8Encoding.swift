/// What the lead byte of a UTF-8 sequence says of the bytes after it: how
/// many continuation bytes follow, and the range the first of them must be
/// in (narrower after E0, ED, F0 and F4, which rules out overlong forms,
/// surrogates and values past U+10FFFF); `nil` for a byte that cannot lead
/// a sequence of two or more. Unicode's table 3-7, in one place for the
/// readers that take UTF-8 a byte at a time.
///
///     UTF8Lead(0xED)   // following 2, second byte 0x80...0x9F
@usableFromInline struct UTF8Lead {
  @usableFromInline let following: Int
  @usableFromInline let secondLow: UInt8
  @usableFromInline let secondHigh: UInt8

  @inlinable @inline(__always)
  init?(_ lead: UInt8) {
    switch lead {
    case 0xC2...0xDF: (following, secondLow, secondHigh) = (1, 0x80, 0xBF)
    case 0xE0: (following, secondLow, secondHigh) = (2, 0xA0, 0xBF)
    case 0xED: (following, secondLow, secondHigh) = (2, 0x80, 0x9F)
    case 0xE1...0xEF: (following, secondLow, secondHigh) = (2, 0x80, 0xBF)
    case 0xF0: (following, secondLow, secondHigh) = (3, 0x90, 0xBF)
    case 0xF1...0xF3: (following, secondLow, secondHigh) = (3, 0x80, 0xBF)
    case 0xF4: (following, secondLow, secondHigh) = (3, 0x80, 0x8F)
    default: return nil
    }
  }
}

extension Array where Element == UInt8 {
  /// The three-byte scalar that ends the array, if the array ends with one
  /// (U+0800–U+FFFF, where all Hangul lives).
  @inlinable
  func lastThreeByteScalar() -> UInt32? {
    guard count >= 3 else { return nil }
    let lead = self[count - 3]
    let second = self[count - 2]
    let third = self[count - 1]
    guard lead & 0xF0 == 0xE0, second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return nil }
    return UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
  }

  /// Removes the last character as ``removeLastCharacter()`` does, except
  /// that a syllable written as conjoining jamo (initials, then vowels, then
  /// finals: ᄀ ᅡ ᇮ) goes whole. Returns `false` when the array is empty.
  @discardableResult
  mutating func removeLastSyllableBlock() -> Bool {
    var removed = false
    for isPart in [ConjoiningJamo.isFinal, ConjoiningJamo.isVowel, ConjoiningJamo.isInitial] {
      while let last = lastThreeByteScalar(), isPart(last) {
        removeLast(3)
        removed = true
      }
    }
    return removed || removeLastCharacter()
  }

  /// Removes the last character: a well-formed UTF-8 sequence, or one byte
  /// that is not part of one. Returns `false` when the array is empty.
  @discardableResult
  mutating func removeLastCharacter() -> Bool {
    guard let last = self.last else { return false }
    if last < 0x80 {
      removeLast()
      return true
    }
    // Look back over at most three continuation bytes for the lead byte.
    var start = count - 1
    while start > 0, count - start < 4, self[start] & 0xC0 == 0x80 { start -= 1 }
    let length = count - start
    let isComplete = withUnsafeBufferPointer { buffer -> Bool in
      if case .scalar(_, let decoded) = UTF8Stream.step(buffer, at: start) {
        return decoded == length
      }
      return false
    }
    removeLast(isComplete ? length : 1)
    return true
  }
}
