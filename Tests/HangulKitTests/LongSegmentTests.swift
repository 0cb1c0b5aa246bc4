import HangulKit
import Testing

/// Runs with no normalization boundary longer than
/// ``UnicodeNormalizer/longestSegment`` (thousands of combining marks on one
/// letter): normalized whole, byte for byte what ICU writes for the whole
/// run, in every form, however the text is cut into reads; `--verify` finds
/// such a run normalized in pieces; a run longer than the filter holds is
/// counted and reported.
@Suite("Long runs with no normalization boundary")
struct LongSegmentTests {
  /// Marks of many combining classes (230, 220, 240, 232, 216, 214, 202, 1,
  /// 8, 10, 129, 130), some that decompose into two (U+0344, U+0F73: a
  /// starter whose decomposition is two marks), and, for NFKC/NFKD, the
  /// halfwidth voiced mark (a starter that is class 8 once decomposed).
  static let marks: [String] = [
    "\u{301}", "\u{323}", "\u{345}", "\u{315}", "\u{31B}", "\u{1DCE}", "\u{327}", "\u{334}",
    "\u{3099}", "\u{5B0}", "\u{F71}", "\u{F72}", "\u{344}", "\u{F73}", "\u{FF9E}", "\u{20D0}",
    "\u{302A}",
  ]

  /// A base and `count` marks: alternating two classes, or drawn at random.
  static func run(
    base: String, count: Int, alternating: Bool, _ generator: inout SeededGenerator
  ) -> [UInt8] {
    var text = base
    for index in 0..<count {
      text +=
        alternating
        ? (index % 2 == 0 ? "\u{20D0}" : "\u{302A}")
        : marks.randomElement(using: &generator) ?? "\u{301}"
    }
    return Array(text.utf8)
  }

  /// Text cut into reads of random sizes through a fresh filter.
  static func filtered(
    _ text: [UInt8], _ form: ICUNormalizer.Form, _ generator: inout SeededGenerator
  )
    throws -> [UInt8]
  {
    var filter = try NormalizeFilter(form: form)
    var output: [UInt8] = []
    var start = 0
    while start < text.count {
      let end = min(text.count, start + Int.random(in: 1...20_000, using: &generator))
      try filter.process(Array(text[start..<end]), into: &output)
      start = end
    }
    filter.finish(into: &output)
    #expect(filter.overlongRuns == 0)
    return output
  }

  @Test(
    "thousands of marks on one letter equal ICU on the whole run",
    arguments: ICUNormalizer.Form.allCases)
  func equalsICU(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 15 + UInt64(form.rawValue))
    let normalizer = try UnicodeNormalizer(form)
    // 12,000 three-byte marks alternating classes 230 and 218 (36 KB: longer
    // than a piece of the filter), and runs of random marks after letters,
    // a syllable, a kana, between words and lines.
    var texts = [Self.run(base: "a", count: 12_000, alternating: true, &generator)]
    for base in ["a", "가", "か", "\u{1100}", "ﬁ"] {
      texts.append(
        Array("x ".utf8) + Self.run(base: base, count: 2_500, alternating: false, &generator)
          + Array(" é\ny".utf8))
    }
    // A run with every kind of segment after it and around it.
    for _ in 0..<4 {
      texts.append(
        UnicodeNormalizerTests.randomText(&generator, length: 50)
          + Self.run(base: "e", count: 1_500, alternating: false, &generator)
          + UnicodeNormalizerTests.randomText(&generator, length: 200))
    }
    for text in texts {
      let expected = try UnicodeNormalizerTests.icu(form, text)
      expectSameBytes(normalizer.normalized(text), expected)
      expectSameBytes(try Self.filtered(text, form, &generator), expected)
    }
  }

  @Test(
    "--verify passes the exact output and finds a run normalized in pieces",
    arguments: ICUNormalizer.Form.allCases)
  func verifyFindsPieces(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 21)
    let text = Self.run(base: "a", count: 3_000, alternating: true, &generator)
    var checked = try CheckedNormalizeFilter(form: form, verify: true)
    _ = try checked.filtered(Array("ok\n".utf8) + text + [0x0A])
    #expect(checked.checker?.firstProblem == nil)
    // What the filter wrote before: ICU on pieces of 1 KiB.
    var pieces: [UInt8] = []
    var start = 0
    while start < text.count {
      var end = min(text.count, start + 1024)
      while end < text.count, text[end] & 0xC0 == 0x80 { end += 1 }
      pieces += try UnicodeNormalizerTests.icu(form, Array(text[start..<end]))
      start = end
    }
    var checker = try NormalFormChecker(form: form)
    checker.beginInput(named: "out")
    checker.check((Array("ok\n".utf8) + pieces + [0x0A])[...])
    #expect(checker.firstProblem?.line == 2)
    #expect(checker.firstProblem?.column == 1)
    let message = checker.firstProblem?.message ?? ""
    #expect(message.hasPrefix("not \(form.name.uppercased()): \""), "\(message)")
    #expect(message.contains("… 3001 code points), ICU"), "\(message)")
  }

  @Test("a run longer than the filter holds is normalized in pieces, counted and reported")
  func overlong() throws {
    var generator = SeededGenerator(seed: 22)
    let count = NormalizeFilter.longestHeldRun / 3 + 1000
    let text = Array("ok\n".utf8) + Self.run(base: "a", count: count, alternating: true, &generator)
    var checked = try CheckedNormalizeFilter(form: .nfc, verify: true)
    checked.beginInput(named: "in")
    var output: [UInt8] = []
    var start = 0
    while start < text.count {
      let end = min(text.count, start + 128 * 1024)
      try checked.process(Array(text[start..<end]), into: &output)
      start = end
    }
    checked.finish(into: &output)
    #expect(checked.inner.overlongRuns == 1)
    var tally = VerificationTally()
    tally.add(checked, at: PiecePlace())
    var messages: [String] = []
    #expect(tally.reportProblems(form: .nfc) { messages.append($0) })
    #expect(
      messages.first
        == "in: a run of more than 1 MiB with no normalization boundary (combining marks on one "
        + "character) was normalized in pieces: it is not NFC as a whole")
    // --verify finds it too, where it starts.
    #expect(messages.count == 2)
    #expect(messages.last?.hasPrefix("in:2:1: not NFC") == true, "\(messages)")
  }
}
