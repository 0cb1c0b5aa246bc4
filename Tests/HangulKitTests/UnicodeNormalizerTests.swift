import Foundation
import HangulKit
import Testing

/// ``UnicodeNormalizer`` and its filter against ICU, the oracle, on random
/// text that mixes every kind of segment the fast paths distinguish.
@Suite("Unicode normalizer")
struct UnicodeNormalizerTests {
  /// Pieces random text is made of: ASCII, syllables, conjoining and
  /// compatibility jamo, old jamo, Latin with combining marks, Vietnamese,
  /// Greek, compatibility characters, emoji, marks out of order, supplementary
  /// decompositions, and bytes that are not UTF-8.
  static let pieces: [[UInt8]] =
    [
      "a", " ", "\n", "e", "가", "닭", "한", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{11B0}", "ㄱ",
      "ㅅ", "ㅏ", "ㄳ", "\u{200C}", "\u{1113}", "\u{1176}", "\u{11C3}", "\u{A960}", "\u{D7B0}",
      "\u{115F}", "\u{1160}", "\u{301}", "\u{323}", "\u{308}", "é", "ệ", "ở", "ά", "ὧ", "\u{345}",
      "ﬁ", "①", "ﾊ", "ﾟ", "\u{FFA1}", "😀", "👍🏽", "\u{200D}", "\u{FE0F}", "\u{1D15E}",
      "\u{2F800}", "\u{0F73}", "\u{0CCB}", "\u{0CC2}", "\u{0CD5}", "Å", "\u{212B}", "\u{1E0A}",
      "\u{0344}", "\u{FDFA}", "\u{3099}", "か", "\u{E0100}", "\u{110BA}", "\u{11131}",
    ].map { Array($0.utf8) } + [[0xFF], [0xE1, 0x84], [0xCC], [0x80], [0xED, 0xA0, 0x80]]

  static func randomText(_ generator: inout SeededGenerator, length: Int) -> [UInt8] {
    var text: [UInt8] = []
    for _ in 0..<length {
      text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
    }
    return text
  }

  /// ICU's normalization of bytes (the oracle copies bytes that are not UTF-8).
  static func icu(_ form: ICUNormalizer.Form, _ bytes: [UInt8]) throws -> [UInt8] {
    var output: [UInt8] = []
    let normalizer = try ICUNormalizer(form)
    bytes.withUnsafeBufferPointer { normalizer.normalize(utf8: $0, into: &output) }
    return output
  }

  @Test(
    "random mixed text equals ICU in every form, whole and streamed",
    arguments: ICUNormalizer.Form.allCases)
  func randomTextAgrees(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 13 + UInt64(form.rawValue))
    let normalizer = try UnicodeNormalizer(form)
    for round in 0..<300 {
      let text = Self.randomText(&generator, length: Int.random(in: 0...60, using: &generator))
      let expected = try Self.icu(form, text)
      expectSameBytes(normalizer.normalized(text), expected)
      var filter = try NormalizeFilter(form: form)
      var output: [UInt8] = []
      var start = 0
      while start < text.count {
        let end = min(text.count, start + Int.random(in: 1...9, using: &generator))
        try filter.process(Array(text[start..<end]), into: &output)
        start = end
      }
      filter.finish(into: &output)
      expectSameBytes(output, expected)
      if output != expected { Issue.record("round \(round)") }
    }
  }

  /// Text for the word-wise fast paths: runs of ASCII longer than a word,
  /// precomposed and conjoining syllables (with and without finals, and
  /// followed by finals, marks and compatibility jamo that join them in some
  /// forms), stable two- and four-byte code points, and a byte that is not UTF-8.
  static let fastPathText: [UInt8] =
    Array(
      ("abcdefghij 한국어 문장입니다. \u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF} "
        + "\u{1100}\u{1161}\u{1100}\u{1161}\u{11A8}x가\u{11A8} 각\u{301} "
        + "\u{1100}\u{1161}\u{3133} \u{1100}\u{1161}\u{301}\u{11A8} 힣훿 café ĉa 😀👍🏽 "
        + "\u{1100}\u{1161}\u{11C2}\u{1100}\u{1161}\u{11C3} 0123456789abcdef\n").utf8)
    + [0xFF] + Array("\u{1100}\u{1161}\u{11A8}끝".utf8)

  @Test(
    "the fast paths agree with ICU wherever a block boundary falls",
    arguments: ICUNormalizer.Form.allCases)
  func everySplitAgrees(form: ICUNormalizer.Form) throws {
    let text = Self.fastPathText
    let expected = try Self.icu(form, text)
    for cut in 0...text.count {
      for second in [cut, min(text.count, cut + 1), min(text.count, cut + 7)] {
        var filter = try NormalizeFilter(form: form)
        var output: [UInt8] = []
        try filter.process(Array(text[..<cut]), into: &output)
        try filter.process(Array(text[cut..<second]), into: &output)
        try filter.process(Array(text[second...]), into: &output)
        filter.finish(into: &output)
        expectSameBytes(output, expected)
        if output != expected { Issue.record("cut at \(cut) and \(second)") }
      }
    }
  }

  @Test("long random runs of Korean, NFD jamo, ASCII and marks equal ICU in 4 KiB-ish blocks")
  func longTextAgrees() throws {
    var generator = SeededGenerator(seed: 1317)
    let words: [[UInt8]] = [
      "한국어", "문장", "입니다.", "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}", " ", " ",
      "\n", "abcdefghijkl", "e\u{301}", "\u{11A8}", "ㄳ", "\u{1100}\u{1161}", "힣", "😀", "ά",
    ].map { Array($0.utf8) }
    var text: [UInt8] = []
    while text.count < 60_000 { text += words[Int.random(in: 0..<words.count, using: &generator)] }
    for form in ICUNormalizer.Form.allCases {
      let expected = try Self.icu(form, text)
      var filter = try NormalizeFilter(form: form)
      var output: [UInt8] = []
      var start = 0
      while start < text.count {
        let end = min(text.count, start + Int.random(in: 3000...5000, using: &generator))
        try filter.process(Array(text[start..<end]), into: &output)
        start = end
      }
      filter.finish(into: &output)
      expectSameBytes(output, expected)
    }
  }

  @Test("every syllable, alone and in a run, decomposes and composes back as ICU says")
  func everySyllable() throws {
    var text: [UInt8] = []
    for value in 0xAC00...0xD7A3 {
      if let scalar = Unicode.Scalar(UInt32(value)) { text += Array("\(scalar)".utf8) }
      if value % 7 == 0 { text.append(0x20) }
    }
    let nfd = try UnicodeNormalizer(.nfd).normalized(text)
    expectSameBytes(nfd, try Self.icu(.nfd, text))
    expectSameBytes(try UnicodeNormalizer(.nfc).normalized(nfd), try Self.icu(.nfc, nfd))
  }

  @Test("text is never read as keys", arguments: ICUNormalizer.Form.allCases)
  func noKeys(form: ICUNormalizer.Form) throws {
    let normalizer = try UnicodeNormalizer(form)
    for text in ["ㄱㅅ 메모", "ㅇㅏ 그렇구나", "한\u{200C}글", "ㄷㅏㄹㄱ"] {
      let expected = try ICUNormalizer(form).normalized(text)
      #expect(normalizer.normalized(text) == expected)
      if !form.name.contains("k") {
        #expect(
          normalizer.normalized(text)
            == (form == .nfd ? try ICUNormalizer(.nfd).normalized(text) : text))
      }
    }
    // NFKC maps compatibility jamo as ICU does: ㄱㅏ becomes 가.
    if form == .nfkc { #expect(normalizer.normalized("ㄱㅏ") == "가") }
  }

  @Test("nothing composes across a byte that is not UTF-8")
  func invalidBytesAreBoundaries() throws {
    let normalizer = try UnicodeNormalizer(.nfc)
    let input: [UInt8] =
      Array("\u{1100}".utf8) + [0xFF] + Array("\u{1161}e".utf8) + [0x80] + Array("\u{301}".utf8)
    #expect(normalizer.normalized(input) == input)
  }

  @Test("the checker proves normalized text by its tables and finds what is not, with its place")
  func checker() throws {
    var checker = try NormalFormChecker(form: .nfc)
    checker.beginInput(named: "a.txt")
    checker.check(Array("가 café\n한글 ㄱㅅ\n".utf8)[...])
    #expect(checker.firstProblem == nil)
    checker.check(Array("ok\n가 \u{1100}\u{1161} e\u{301}\n".utf8)[...])
    let problem = try #require(checker.firstProblem)
    #expect(problem.file == "a.txt")
    #expect(problem.line == 4)
    #expect(problem.column == 3)
    #expect(
      problem.message == "not NFC: \"\u{1100}\u{1161}\" (U+1100 U+1161), ICU NFC \"가\" (U+AC00)")
    #expect(checker.problemCount == 2)
    var records = try NormalFormChecker(form: .nfd, separator: 0)
    records.check(Array("a\nb\u{0}\u{0}xx가".utf8)[...])
    #expect(records.firstProblem?.line == 3)
    #expect(records.firstProblem?.column == 3)
  }

  @Test(
    "the checked filter passes its own output in every form", arguments: ICUNormalizer.Form.allCases
  )
  func checkedFilter(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 7)
    var filter = try CheckedNormalizeFilter(form: form, verify: true)
    let text = Self.randomText(&generator, length: 5000)
    _ = try filter.filtered(text)
    #expect(filter.checker?.firstProblem == nil)
  }
}
