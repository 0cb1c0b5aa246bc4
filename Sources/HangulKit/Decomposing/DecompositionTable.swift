/// The UTF-8 that each syllable (and, for the key forms, each compatibility
/// jamo) decomposes to, computed once so that decomposing is a table lookup.
///
/// Each entry is ``words`` 8-byte words: the UTF-8 from its first byte on, and
/// its length in its last byte, so that a loop copies an entry in whole words
/// and finds its length in the last word it loaded.
///
///     let table = DecompositionTable(form: .qwerty, keyboard: .twoSet)
///     var output: [UInt8] = []
///     table.append(syllable: 0x2B4D, to: &output)  // 닭: "ekfr", entry 65 6B 66 72 0 0 0 4
///
/// Building takes O(11,172) once (once per run for the 2-set keyboard).
struct DecompositionTable: Sendable {
  /// How many 8-byte words an entry takes: enough for the longest output and its length.
  let words: Int
  /// `words` words for each syllable by index, then for each compatibility jamo.
  let entries: [UInt64]
  /// The length of the longest syllable's entry.
  let longestSyllable: Int

  /// The tables of the 2-set keyboard, built once on first use.
  private static let twoSetKeys = DecompositionTable(building: .keys, keyboard: .twoSet)
  private static let twoSetJamo = DecompositionTable(building: .jamo, keyboard: .twoSet)
  private static let twoSetNFD = DecompositionTable(building: .nfd, keyboard: .twoSet)
  private static let twoSetQwerty = DecompositionTable(building: .qwerty, keyboard: .twoSet)
  private static let twoSetInitials = DecompositionTable(building: .initials, keyboard: .twoSet)
  private static let twoSetInitialsSplit = DecompositionTable(
    building: .initials, keyboard: .twoSet, splitClusters: true)

  /// The table for `form` on `keyboard`: shared for the 2-set keyboard,
  /// built otherwise. With `splitClusters` (``DecompositionForm/initials``
  /// only), a compatibility jamo that is a consonant cluster (ㄻ) is
  /// written as its two consonants (ㄹㅁ).
  init(form: DecompositionForm, keyboard: Keyboard, splitClusters: Bool = false) {
    guard keyboard == .twoSet else {
      self.init(building: form, keyboard: keyboard, splitClusters: splitClusters)
      return
    }
    switch form {
    case .keys: self = Self.twoSetKeys
    case .jamo: self = Self.twoSetJamo
    case .nfd: self = Self.twoSetNFD
    case .qwerty: self = Self.twoSetQwerty
    case .initials: self = splitClusters ? Self.twoSetInitialsSplit : Self.twoSetInitials
    }
  }

  private init(building form: DecompositionForm, keyboard: Keyboard, splitClusters: Bool = false) {
    var letters = [UInt8](repeating: 0, count: Jamo.count)
    for code in (UInt8(ascii: "a")...UInt8(ascii: "z")) + Array("QWERTOP".utf8) {
      if let jamo = keyboard.jamo(forASCII: code), letters[Int(jamo.offset)] == 0 {
        letters[Int(jamo.offset)] = code
      }
    }
    // What each compatibility jamo, alone or as a part of a syllable, becomes.
    func piece(_ jamo: Jamo) -> [UInt8] {
      var output: [UInt8] = []
      switch form {
      case .keys: for key in jamo.keys { output.appendUTF8(key.scalar) }
      case .qwerty: for key in jamo.keys { output.append(letters[Int(key.offset)]) }
      case .jamo, .initials, .nfd: output.appendUTF8(jamo.scalar)
      }
      return output
    }
    func utf8(_ value: UInt32) -> [UInt8] {
      var output: [UInt8] = []
      output.appendUTF8(Unicode.Scalar(value) ?? "\u{FFFD}")
      return output
    }
    // The parts every syllable is made of, by index (finals from 1).
    let initials = (0..<19).map { index -> [UInt8] in
      form == .nfd
        ? utf8(0x1100 + UInt32(index)) : piece(HangulSyllable(index: index * 588).initial)
    }
    let vowels = (0..<21).map { index -> [UInt8] in
      switch form {
      case .nfd: utf8(0x1161 + UInt32(index))
      case .initials: []
      default: piece(HangulSyllable(index: index * 28).vowel)
      }
    }
    let finals = (0..<28).map { index -> [UInt8] in
      guard index > 0, form != .initials, let final = HangulSyllable(index: index).final else {
        return []
      }
      return form == .nfd ? utf8(0x11A7 + UInt32(index)) : piece(final)
    }
    let jamo = Jamo.all.map { jamo -> [UInt8] in
      if form.isKeystrokes { return piece(jamo) }
      guard splitClusters, !jamo.isVowel, jamo.keys.count == 2 else {
        return utf8(jamo.scalar.value)
      }
      // ㄳ ㄵ ㄶ ㄺ ㄻ ㄼ ㄽ ㄾ ㄿ ㅀ ㅄ: the two consonants typed (ㄲ is one key, kept).
      var output: [UInt8] = []
      for key in jamo.keys { output.appendUTF8(key.scalar) }
      return output
    }
    func longest(_ parts: [[UInt8]]) -> Int { parts.map(\.count).max() ?? 0 }
    let longestSyllable = longest(initials) + longest(vowels) + longest(finals)
    let words = (max(longestSyllable, longest(jamo)) + 8) / 8
    let stride = words * 8
    var entries = [UInt64](repeating: 0, count: (HangulSyllable.count + Jamo.count) * words)
    entries.withUnsafeMutableBytes { raw in
      func store(_ index: Int, _ first: [UInt8], _ second: [UInt8] = [], _ third: [UInt8] = []) {
        var length = 0
        func copy(_ part: [UInt8]) {
          for byte in part {
            raw[index * stride + length] = byte
            length += 1
          }
        }
        copy(first)
        copy(second)
        copy(third)
        raw[index * stride + stride - 1] = UInt8(length)
      }
      for index in 0..<HangulSyllable.count {
        let syllable = HangulSyllable(index: index)
        store(
          index, initials[syllable.initialIndex], vowels[syllable.vowelIndex],
          finals[syllable.finalIndex])
      }
      for (offset, bytes) in jamo.enumerated() { store(HangulSyllable.count + offset, bytes) }
    }
    self.words = words
    self.entries = entries
    self.longestSyllable = longestSyllable
  }

  /// The length of entry `index`.
  @inline(__always)
  func length(of index: Int) -> Int {
    Int(UInt64(littleEndian: entries[index &* words &+ words &- 1]) >> 56)
  }

  @inline(__always)
  func append(syllable index: Int, to output: inout [UInt8]) {
    let length = length(of: index)
    entries.withUnsafeBytes { raw in
      let start = index * words * 8
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)]))
    }
  }

  @inline(__always)
  func append(jamo: Jamo, to output: inout [UInt8]) {
    append(syllable: HangulSyllable.count + Int(jamo.offset), to: &output)
  }
}
