import HangulKit
import Testing

/// The table-driven loop of `DecomposeFilter` against the decomposer it
/// stands for, and the validator's shortcut for chunks the filter checked.
struct DecomposeFastPathTests {
  /// Pieces of text for everything the loop takes or stops at.
  static let pieces: [[UInt8]] =
    [
      "가", "닭", "뷁", "힣", "각", "ㅋ", "ㄱ", "ㅏ", "ㄻ", "ㅄ", "ㄲ", "ㅘ", "ㆍ", "ㆎ", "\u{1100}", "\u{1161}",
      "\u{11A8}",
      "\u{115F}", "\u{A960}", "\u{D7B0}", "\u{D7FF}", "\u{200C}", "\u{2060}", "\u{200D}", "é", "·",
      "“", "…", "\u{800}", "\u{FFFD}", "😀", "𝔸", "\u{10FFFF}", " ", "\n", "a", "Z", "\u{8}",
      "\u{7F}", "\0", "abcdefgh", "12345678 ", "        ", "hello, world", "a\u{8}b\u{7F}cdefgh",
    ].map { Array($0.utf8) }
    + [
      [0xFF], [0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xEA, 0xB0],
      [0xF0, 0x9F], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xC3],
    ]

  static func randomText(_ generator: inout SeededGenerator) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: 0...40, using: &generator) {
      bytes += pieces.randomElement(using: &generator) ?? []
    }
    return bytes
  }

  /// What the decomposer writes for `bytes`, one decoded unit at a time.
  static func reference(
    _ bytes: [UInt8], _ form: DecompositionForm, plain: Bool, splitClusters: Bool = false
  ) -> [UInt8] {
    var decomposer = Decomposer(form: form, plain: plain, splitClusters: splitClusters)
    var stream = UTF8Stream()
    var output: [UInt8] = []
    stream.decode(bytes, isLast: true) { decomposer.decompose($0, into: &output) }
    decomposer.finish(into: &output)
    return output
  }

  /// What the filter writes for `bytes` split at `cuts`.
  static func filtered(
    _ bytes: [UInt8], _ form: DecompositionForm, plain: Bool, splitClusters: Bool = false,
    cuts: [Int]
  ) -> [UInt8] {
    var filter = DecomposeFilter(form: form, plain: plain, splitClusters: splitClusters)
    var output: [UInt8] = []
    var start = 0
    for cut in cuts.sorted() + [bytes.count] {
      Array(bytes[start..<cut]).withUnsafeBufferPointer { filter.process($0, into: &output) }
      start = cut
    }
    filter.finish(into: &output)
    return output
  }

  static let options: [(DecompositionForm, Bool)] = [
    (.keys, false), (.keys, true), (.qwerty, false), (.qwerty, true), (.jamo, false),
    (.initials, false), (.nfd, false),
  ]

  @Test("the filter writes what the decomposer writes, on random text split anywhere")
  func agreesWithDecomposer() {
    var generator = SeededGenerator(seed: 17)
    for _ in 0..<3_000 {
      let bytes = Self.randomText(&generator)
      let cuts = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
        Int.random(in: 0...bytes.count, using: &generator)
      }
      for (form, plain) in Self.options {
        let expected = Self.reference(bytes, form, plain: plain)
        #expect(
          Self.filtered(bytes, form, plain: plain, cuts: cuts) == expected,
          "\(form) plain \(plain) \(bytes) cut at \(cuts)")
      }
    }
  }

  @Test("initials with clusters split: the filter writes what the decomposer writes")
  func splitClustersAgree() {
    var generator = SeededGenerator(seed: 32)
    let every = Self.pieces.flatMap { $0 + Array("ㄻ닭 ".utf8) }
    let expected = Self.reference(every, .initials, plain: false, splitClusters: true)
    #expect(String(decoding: expected, as: UTF8.self).contains("ㄹㅁㄹㅁㄷ ㅂㅅㄹㅁㄷ ㄲㄹㅁㄷ ㅘㄹㅁㄷ "))
    for cut in 0...every.count {
      #expect(
        Self.filtered(every, .initials, plain: false, splitClusters: true, cuts: [cut]) == expected,
        "\(cut)")
    }
    for _ in 0..<2_000 {
      let bytes = Self.randomText(&generator)
      let cuts = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
        Int.random(in: 0...bytes.count, using: &generator)
      }
      #expect(
        Self.filtered(bytes, .initials, plain: false, splitClusters: true, cuts: cuts)
          == Self.reference(bytes, .initials, plain: false, splitClusters: true),
        "\(bytes) cut at \(cuts)")
    }
  }

  @Test("a text with every kind of unit agrees when split at every offset")
  func agreesAtEveryOffset() {
    let bytes = Self.pieces.flatMap { $0 + Array("닭 ".utf8) }
    for (form, plain) in Self.options {
      let expected = Self.reference(bytes, form, plain: plain)
      for cut in 0...bytes.count {
        #expect(Self.filtered(bytes, form, plain: plain, cuts: [cut]) == expected, "\(form) \(cut)")
      }
    }
  }

  @Test("a text longer than the loop's slices agrees, units cut at slice ends included")
  func agreesOverSlices() {
    var generator = SeededGenerator(seed: 29)
    var bytes: [UInt8] = []
    while bytes.count < 100_000 { bytes += Self.randomText(&generator) }
    for (form, plain) in Self.options {
      let expected = Self.reference(bytes, form, plain: plain)
      #expect(Self.filtered(bytes, form, plain: plain, cuts: []) == expected, "\(form) whole")
      for _ in 0..<3 {
        let cuts = (0..<4).map { _ in Int.random(in: 0...bytes.count, using: &generator) }
        #expect(Self.filtered(bytes, form, plain: plain, cuts: cuts) == expected, "\(form) \(cuts)")
      }
    }
    // Every offset of a three-byte syllable and a four-byte scalar around the first slice end.
    for form in [DecompositionForm.keys, .qwerty] {
      for shift in 0..<4 {
        let text =
          Array(repeating: UInt8(ascii: "a"), count: 16 * 1024 - 6 + shift)
          + Array("닭😀각ㅏ 가\n".utf8)
        let expected = Self.reference(text, form, plain: false)
        #expect(Self.filtered(text, form, plain: false, cuts: []) == expected, "\(form) \(shift)")
      }
    }
  }

  @Test("the validator finds the same first fault when it skips the chunks the filter checked")
  func validatorShortcutAgrees() {
    var generator = SeededGenerator(seed: 7)
    var skipped = 0
    for _ in 0..<5_000 {
      let bytes = Self.randomText(&generator)
      var full = UTF8Validator()
      var shortcut = UTF8Validator()
      var filter = DecomposeFilter(form: .keys)
      var output: [UInt8] = []
      let size = Int.random(in: 1...12, using: &generator)
      var start = 0
      while start < bytes.count {
        let chunk = Array(bytes[start..<min(bytes.count, start + size)])
        chunk.withUnsafeBufferPointer { buffer in
          full.scan(buffer)
          filter.process(buffer, into: &output)
          if filter.lastChunkWasUTF8 {
            shortcut.skipValid(buffer)
            skipped += 1
          } else {
            shortcut.scan(buffer)
          }
        }
        start += size
      }
      full.finish()
      shortcut.finish()
      #expect(shortcut.firstInvalid == full.firstInvalid, "\(bytes) in chunks of \(size)")
    }
    #expect(skipped > 1_000)
  }

  @Test("a chunk with a byte that is not UTF-8 is not reported as checked")
  func invalidChunkIsNotChecked() {
    var filter = DecomposeFilter(form: .keys)
    var output: [UInt8] = []
    [0x61, 0xFF, 0x62].withUnsafeBufferPointer { filter.process($0, into: &output) }
    #expect(!filter.lastChunkWasUTF8)
    Array("가나".utf8).withUnsafeBufferPointer { filter.process($0, into: &output) }
    #expect(filter.lastChunkWasUTF8)
  }
}
