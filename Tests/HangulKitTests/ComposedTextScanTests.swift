@testable import HangulKit
import Testing

/// The sixteen-byte scan of the composing forms (`ComposedTextScan`) on
/// runs long enough for it, with one code point or byte it must not vouch
/// for put at every offset: each agrees with ICU in every form, and bytes
/// that are not UTF-8 are seen (the program warns of them).
@Suite("Composed text scan")
struct ComposedTextScanTests {
  /// Text the scan takes in NFC: ASCII, syllables at the edges of their
  /// lead bytes (가 EA B0 80, 깋 EA BF BF, 하, 힣 ED 9E A3) and two-byte code
  /// points below U+0300 (¡, é, ʿ U+02BF, ˿ U+02FF); U+00A0 too, which NFKC
  /// changes.
  static let safeRun = Array("가깋 하힣a¡é\u{2BF}\u{2FF}\u{A0}한국어 문장입니다. ok 가나다라마바사".utf8)

  /// What the scan must leave to the loop: a mark, a conjoining final
  /// (joins the syllable before it), code points just past the syllables
  /// and just below them under EA, a conjoining vowel, and bytes that are
  /// not UTF-8 (a stray continuation, a cut lead, an overlong, a surrogate,
  /// 0xFF) or four bytes long.
  static let spoilers: [[UInt8]] =
    [
      "\u{300}", "\u{301}", "\u{11A8}", "\u{1161}", "\u{D7A4}", "\u{D7B0}", "\u{ABFF}", "\u{A960}",
      "\u{340}", "😀", "\u{FB01}",
    ].map { Array($0.utf8) } + [
      [0x80], [0xEB], [0xEB, 0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xFF],
    ]

  @Test(
    "a spoiler at every offset of a long run agrees with ICU",
    arguments: ICUNormalizer.Form.allCases)
  func spoilerAtEveryOffset(form: ICUNormalizer.Form) throws {
    let normalizer = try UnicodeNormalizer(form)
    let run = Self.safeRun + Self.safeRun
    var checked = 0
    for spoiler in Self.spoilers {
      for offset in 0...run.count {
        // Only at code point starts: elsewhere the run itself is broken,
        // which the spoilers already cover.
        guard offset == run.count || run[offset] & 0xC0 != 0x80 else { continue }
        let text = Array(run[..<offset]) + spoiler + Array(run[offset...]) + Self.safeRun
        let expected = try UnicodeNormalizerTests.icu(form, text)
        let sink = ByteSink(capacity: text.count * 3 + 64)
        let wasUTF8 = text.withUnsafeBufferPointer {
          normalizer.normalizeReportingUTF8($0, isLast: true, into: sink).wasUTF8
        }
        let output = Array(sink.bytes)
        expectSameBytes(output, expected)
        #expect(
          wasUTF8 == (String(validating: text, as: UTF8.self) != nil),
          "spoiler \(spoiler) at \(offset)")
        if output != expected { Issue.record("spoiler \(spoiler) at \(offset)") }
        checked += 1
      }
    }
    #expect(checked > 1_000)
  }

  @Test(
    "long runs, already in the form or not, agree with ICU", arguments: ICUNormalizer.Form.allCases)
  func longRuns(form: ICUNormalizer.Form) throws {
    var text: [UInt8] = []
    for _ in 0..<200 { text += Self.safeRun }
    text += Array("가\u{11A8}".utf8)
    for _ in 0..<50 { text += Self.safeRun }
    let expected = try UnicodeNormalizerTests.icu(form, text)
    expectSameBytes(try UnicodeNormalizer(form).normalized(text), expected)
  }
}
