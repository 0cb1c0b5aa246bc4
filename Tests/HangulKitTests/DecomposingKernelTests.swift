import HangulKit
import Testing

/// The decomposing kernel of NFD and NFKD (ASCII by words, syllables by
/// their table entries, two to a word, stable code points as they are)
/// against ICU and against the general path, and the normalizer's own UTF-8
/// check that lets the runner skip its validator scan.
@Suite("Decomposing kernel")
struct DecomposingKernelTests {
  /// Units the kernel takes or must stop at: ASCII (NUL and newline too),
  /// syllables at the ends of the block, stable two-, three- and four-byte
  /// code points, code points it must leave to the general path (marks,
  /// compatibility characters, conjoining and compatibility jamo, code points
  /// from U+30000), and every kind of byte sequence that is not UTF-8.
  static let pieces: [[UInt8]] =
    [
      "a", " ", "\n", "\0", "abcdefgh", "0123456789 ", "가", "각", "닭", "힣", "뷁", "한국어",
      "\u{AC00}\u{D7A3}", "\u{ABFF}", "\u{D7A4}", "\u{D7B0}", "\u{1100}", "\u{1161}", "\u{11A8}",
      "ㄱ", "ㅏ", "\u{200C}", "é", "·", "“", "…", "①", "\u{301}", "\u{323}", "ﬁ", "ά", "\u{800}",
      "\u{FFFD}", "\u{FFFF}", "😀", "𝔸", "\u{2F800}", "\u{30000}", "\u{E0100}", "\u{10FFFF}",
    ].map { Array($0.utf8) }
    + [
      [0xFF], [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
      [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xEA, 0xB0], [0xEA], [0xEA, 0x30, 0x80],
      [0xEA, 0xB0, 0x30], [0xEA, 0xF0, 0x80], [0xF0, 0x9F], [0xF0, 0x8F, 0xBF, 0xBF],
      [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xC3],
      [0xC3, 0x28],
    ]

  static func randomText(_ generator: inout SeededGenerator, length: Int) -> [UInt8] {
    var text: [UInt8] = []
    for _ in 0..<length {
      text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
    }
    return text
  }

  static func icu(_ form: ICUNormalizer.Form, _ bytes: [UInt8]) throws -> [UInt8] {
    var output: [UInt8] = []
    let normalizer = try ICUNormalizer(form)
    bytes.withUnsafeBufferPointer { normalizer.normalize(utf8: $0, into: &output) }
    return output
  }

  /// The filter's output for `text` in chunks of the given sizes (cycled).
  static func filtered(_ form: ICUNormalizer.Form, _ text: [UInt8], chunks sizes: [Int]) throws
    -> [UInt8]
  {
    var filter = try NormalizeFilter(form: form)
    var output: [UInt8] = []
    var start = 0
    var turn = 0
    while start < text.count {
      let end = min(text.count, start + sizes[turn % sizes.count])
      try filter.process(Array(text[start..<end]), into: &output)
      start = end
      turn += 1
    }
    filter.finish(into: &output)
    return output
  }

  @Test("every syllable at every alignment, between ASCII runs of 0 to 9 bytes, equals ICU")
  func everySyllableEveryAlignment() throws {
    var text: [UInt8] = []
    for value in UInt32(0xAC00)...0xD7A3 {
      text += Array(String(Unicode.Scalar(value) ?? " ").utf8)
      text += Array("abcdefghi".utf8.prefix(Int(value % 10)))
    }
    for form in [ICUNormalizer.Form.nfd, .nfkd] {
      let expected = try Self.icu(form, text)
      expectSameBytes(try UnicodeNormalizer(form).normalized(text), expected)
      expectSameBytes(try Self.filtered(form, text, chunks: [4093, 1, 8191, 7]), expected)
    }
  }

  @Test(
    "random text with every kind of unit and byte equals ICU, whole, in large and in tiny chunks",
    arguments: [ICUNormalizer.Form.nfd, .nfkd, .nfc])
  func randomTextAgrees(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 2016 + UInt64(form.rawValue))
    let normalizer = try UnicodeNormalizer(form)
    for round in 0..<400 {
      let text = Self.randomText(&generator, length: Int.random(in: 1...120, using: &generator))
      let expected = try Self.icu(form, text)
      let whole = normalizer.normalized(text)
      expectSameBytes(whole, expected)
      // Chunks of a few bytes leave the kernel nothing to do: the general
      // path alone must write the same.
      let tiny = try Self.filtered(form, text, chunks: [1, 3, 2, 7])
      expectSameBytes(tiny, whole)
      let large = try Self.filtered(
        form, text, chunks: [Int.random(in: 8...200, using: &generator)])
      expectSameBytes(large, expected)
      if whole != expected || tiny != whole || large != expected { Issue.record("round \(round)") }
    }
  }

  @Test(
    "Korean prose (words of 1 to 7 syllables, spaces, punctuation, line ends) in random chunks equals ICU",
    arguments: [ICUNormalizer.Form.nfd, .nfkd])
  func proseAgrees(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 4242 + UInt64(form.rawValue))
    let separators = [" ", " ", " ", "  ", ". ", ", ", "\n", ".\n", " (", ") ", "·", " 1) ", "\t"]
      .map { Array($0.utf8) }
    for round in 0..<60 {
      var text: [UInt8] = []
      for _ in 0..<Int.random(in: 1...3_000, using: &generator) {
        for _ in 0..<Int.random(in: 1...7, using: &generator) {
          // Any syllable: with and without a final, all over the table.
          let value = 0xAC00 + UInt32.random(in: 0..<11_172, using: &generator)
          text += Array(String(Unicode.Scalar(value) ?? " ").utf8)
        }
        text += separators[Int.random(in: 0..<separators.count, using: &generator)]
      }
      if round % 10 == 0 { text += Self.randomText(&generator, length: 20) }
      let expected = try Self.icu(form, text)
      let sizes = (0..<5).map { _ in Int.random(in: 1...20_000, using: &generator) }
      let chunked = try Self.filtered(form, text, chunks: sizes)
      expectSameBytes(chunked, expected)
      if chunked != expected { Issue.record("\(form) round \(round), chunks \(sizes)") }
    }
  }

  @Test("a block cut at every offset, syllables and sequences split anywhere, equals ICU")
  func everyCut() throws {
    let text =
      Array(
        ("한국어 문장입니다.\n가각갂 닭\0뷁힣 abcdefgh “인용” ① 가\u{301}각\u{323} "
          + "\u{1100}\u{1161}\u{11A8} ㄱㅏ 😀𝔸 é\u{30000}힣힣힣 끝\n").utf8)
      + [0xFF, 0xEA, 0xB0, 0x20, 0xED, 0xA0, 0x80] + Array("한글 12345678".utf8)
    for form in [ICUNormalizer.Form.nfd, .nfkd] {
      let expected = try Self.icu(form, text)
      for cut in 0...text.count {
        var filter = try NormalizeFilter(form: form)
        var output: [UInt8] = []
        try filter.process(Array(text[..<cut]), into: &output)
        try filter.process(Array(text[cut...]), into: &output)
        filter.finish(into: &output)
        expectSameBytes(output, expected)
        if output != expected { Issue.record("\(form) cut at \(cut)") }
      }
    }
  }

  @Test(
    "written straight from the sink or handed over in it, in random chunks (some after bytes already in the output), equals ICU",
    arguments: [ICUNormalizer.Form.nfd, .nfkd, .nfc])
  func writingFromTheSinkAgrees(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 77 + UInt64(form.rawValue))
    for round in 0..<300 {
      // Korean-like runs and every other kind of unit, long enough for
      // several pieces and a flush of the sink in one chunk.
      var text: [UInt8] = []
      for _ in 0..<Int.random(in: 1...400, using: &generator) {
        if Bool.random(using: &generator) {
          text += Self.randomText(&generator, length: Int.random(in: 1...8, using: &generator))
        } else {
          text += Array("한국어 문장입니다 ".utf8)
        }
      }
      if round % 50 == 0 {
        // Over a flush of the sink (2 MiB) in one chunk.
        text = Array(repeating: text, count: 2_400_000 / max(text.count, 1) + 1).flatMap { $0 }
      }
      let longestChunk = round % 50 == 0 ? 1_100_000 : 300_000
      let expected = try Self.icu(form, text)
      var filter = try NormalizeFilter(form: form)
      // What came out, in order; a sink handed over is read only at the end
      // (the filter must not write into it again).
      var parts: [() -> [UInt8]] = []
      var start = 0
      while start < text.count {
        let end = min(text.count, start + Int.random(in: 1...longestChunk, using: &generator))
        // Now and then something is in the output already: it must come first.
        var output: [UInt8] = []
        if Int.random(in: 0..<4, using: &generator) == 0 {
          try filter.process(Array(text[start..<min(end, start + 5)]), into: &output)
          start = min(end, start + 5)
        }
        try Array(text[start..<end]).withUnsafeBufferPointer { chunk in
          // Written (then emptied and reused) and kept in turn (the long rounds too).
          let keeps = (round / 50 + round) % 2 != 0
          try filter.process(chunk, into: &output) { sink in
            if keeps {
              parts.append { Array(sink.bytes) }
            } else {
              let copy = Array(sink.bytes)
              parts.append { copy }
            }
            return keeps
          }
        }
        let rest = output
        parts.append { rest }
        start = end
      }
      var rest: [UInt8] = []
      filter.finish(into: &rest)
      let written = parts.flatMap { $0() } + rest
      expectSameBytes(written, expected)
      if written != expected { Issue.record("\(form) round \(round)") }
    }
  }

  @Test(
    "the validator finds the same first fault when it skips the chunks the normalizer checked",
    arguments: [ICUNormalizer.Form.nfd, .nfc])
  func validatorShortcutAgrees(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 99)
    var skipped = 0
    var faults = 0
    for _ in 0..<3_000 {
      let text = Self.randomText(&generator, length: Int.random(in: 1...30, using: &generator))
      var full = UTF8Validator()
      var shortcut = UTF8Validator()
      var filter = try NormalizeFilter(form: form)
      var output: [UInt8] = []
      let size = Int.random(in: 1...24, using: &generator)
      var start = 0
      while start < text.count {
        let chunk = Array(text[start..<min(text.count, start + size)])
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
      if full.firstInvalid != nil { faults += 1 }
      #expect(shortcut.firstInvalid == full.firstInvalid, "\(text) in chunks of \(size)")
    }
    #expect(skipped > 1_000)
    #expect(faults > 1_000)
  }

  @Test(
    "a chunk with a byte that is not UTF-8, or that breaks a carried sequence, is not vouched for")
  func invalidChunkIsNotVouchedFor() throws {
    var filter = try NormalizeFilter(form: .nfd)
    var output: [UInt8] = []
    try filter.process(Array("가나다라마바사 abc".utf8), into: &output)
    #expect(filter.lastChunkWasUTF8)
    try filter.process([0x61, 0xFF, 0x62], into: &output)
    #expect(!filter.lastChunkWasUTF8)
    // A sequence cut off at the end is left to the validator ...
    try filter.process(Array("가나다라마바사 ".utf8) + [0xEA, 0xB0], into: &output)
    #expect(filter.lastChunkWasUTF8)
    // ... and the chunk that does not finish it is not vouched for.
    try filter.process(Array("a 가나다라마바사".utf8), into: &output)
    #expect(!filter.lastChunkWasUTF8)
    try filter.process(Array("가나다라마바사 ".utf8) + [0xEA, 0xB0], into: &output)
    try filter.process([0x80] + Array(" 가나다라마바사".utf8), into: &output)
    #expect(filter.lastChunkWasUTF8)
  }
}
