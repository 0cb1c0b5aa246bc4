/// The UTF-8 that each syllable (and, for the key forms, each compatibility
/// jamo) decomposes to, computed once so that decomposing is a table lookup.
struct DecompositionTable: Sendable {
  /// The longest output of one syllable: six keys of three bytes.
  static let stride = 18

  /// `bytes[index * stride ..< index * stride + lengths[index]]` for syllable
  /// `index`; jamo follow the syllables.
  let bytes: [UInt8]
  let lengths: [UInt8]

  /// The tables of the 2-set keyboard, built once on first use.
  private static let twoSetKeys = DecompositionTable(building: .keys, keyboard: .twoSet)
  private static let twoSetJamo = DecompositionTable(building: .jamo, keyboard: .twoSet)
  private static let twoSetNFD = DecompositionTable(building: .nfd, keyboard: .twoSet)
  private static let twoSetQwerty = DecompositionTable(building: .qwerty, keyboard: .twoSet)
  private static let twoSetInitials = DecompositionTable(building: .initials, keyboard: .twoSet)

  /// The table for `form` on `keyboard`: shared for the 2-set keyboard, built otherwise.
  init(form: DecompositionForm, keyboard: Keyboard) {
    guard keyboard == .twoSet else {
      self.init(building: form, keyboard: keyboard)
      return
    }
    switch form {
    case .keys: self = Self.twoSetKeys
    case .jamo: self = Self.twoSetJamo
    case .nfd: self = Self.twoSetNFD
    case .qwerty: self = Self.twoSetQwerty
    case .initials: self = Self.twoSetInitials
    }
  }

  private init(building form: DecompositionForm, keyboard: Keyboard) {
    var letters = [UInt8](repeating: 0, count: Jamo.count)
    for code in (UInt8(ascii: "a")...UInt8(ascii: "z")) + Array("QWERTOP".utf8) {
      if let jamo = keyboard.jamo(forASCII: code), letters[Int(jamo.offset)] == 0 {
        letters[Int(jamo.offset)] = code
      }
    }
    // What each compatibility jamo, as a part of a syllable, becomes: the
    // 51 pieces every entry is made of, computed once.
    let pieces: [[UInt8]] = Jamo.all.map { jamo in
      var output: [UInt8] = []
      switch form {
      case .keys: for key in jamo.keys { output.appendUTF8(key.scalar) }
      case .qwerty: for key in jamo.keys { output.append(letters[Int(key.offset)]) }
      case .jamo, .initials, .nfd: output.appendUTF8(jamo.scalar)
      }
      return output
    }
    // Eight bytes of slack, so that an entry can be read in whole words.
    var bytes = [UInt8](
      repeating: 0, count: (HangulSyllable.count + Jamo.count) * Self.stride + 8)
    var lengths = [UInt8](repeating: 0, count: HangulSyllable.count + Jamo.count)
    func store(_ index: Int, _ parts: Jamo...) {
      var length = 0
      for part in parts {
        for byte in pieces[Int(part.offset)] {
          bytes[index * Self.stride + length] = byte
          length += 1
        }
      }
      lengths[index] = UInt8(length)
    }
    for index in 0..<HangulSyllable.count {
      let syllable = HangulSyllable(index: index)
      switch form {
      case .nfd:
        var output: [UInt8] = []
        for scalar in syllable.conjoiningJamo { output.appendUTF8(scalar) }
        for (position, byte) in output.enumerated() { bytes[index * Self.stride + position] = byte }
        lengths[index] = UInt8(output.count)
      case .jamo, .keys, .qwerty:
        if let final = syllable.final {
          store(index, syllable.initial, syllable.vowel, final)
        } else {
          store(index, syllable.initial, syllable.vowel)
        }
      case .initials: store(index, syllable.initial)
      }
    }
    for jamo in Jamo.all {
      if form.isKeystrokes {
        store(HangulSyllable.count + Int(jamo.offset), jamo)
      } else {
        var output: [UInt8] = []
        output.appendUTF8(jamo.scalar)
        for (position, byte) in output.enumerated() {
          bytes[(HangulSyllable.count + Int(jamo.offset)) * Self.stride + position] = byte
        }
        lengths[HangulSyllable.count + Int(jamo.offset)] = UInt8(output.count)
      }
    }
    self.bytes = bytes
    self.lengths = lengths
  }

  @inline(__always)
  func append(syllable index: Int, to output: inout [UInt8]) {
    let start = index * Self.stride
    output.append(contentsOf: bytes[start..<(start + Int(lengths[index]))])
  }

  @inline(__always)
  func append(jamo: Jamo, to output: inout [UInt8]) {
    append(syllable: HangulSyllable.count + Int(jamo.offset), to: &output)
  }
}
