import Foundation
import Testing

@testable import HangulKit

/// The sixteen-byte scan (`NormalizedTextScan`) on runs long enough for it,
/// composed and decomposed, with one code point or byte it must not vouch
/// for put at every offset: each agrees with ICU in every form, and bytes
/// that are not UTF-8 are seen (the program warns of them).
@Suite("Normalized text scan")
struct NormalizedTextScanTests {
  /// Text the composing scan takes in NFC: ASCII, syllables at the edges of
  /// their lead bytes (가 EA B0 80, 깋 EA BF BF, 하, 힣 ED 9E A3) and two-byte
  /// code points below U+0300 (¡, é, ʿ U+02BF, ˿ U+02FF); U+00A0 too, which
  /// NFKC changes.
  static let composedRun = Array("가깋 하힣a¡é\u{2BF}\u{2FF}\u{A0}한국어 문장입니다. ok 가나다라마바사".utf8)

  /// Text the decomposing scan takes in NFD: conjoining jamo (the first
  /// and last of U+1100-U+11FF among them), ASCII, ¡ and U+00A0 (NFKD changes it).
  static let decomposedRun =
    Array("\u{1100}\u{1161}\u{11FF} a¡\u{A0}".utf8)
    + Array("한국어 문장입니다. ok 가나다라".decomposedStringWithCanonicalMapping.utf8)

  /// What the scans must leave to the loops: marks, a conjoining final
  /// (joins a syllable before it) and vowel, code points just past the
  /// syllables and just below them under EA, E1 sequences that are not
  /// jamo, a syllable and À (not in NFD), and bytes that are not UTF-8 (a
  /// stray continuation, cut leads, an overlong, a surrogate, 0xFF) or four
  /// bytes long.
  static let spoilers: [[UInt8]] =
    [
      "\u{300}", "\u{301}", "\u{11A8}", "\u{1161}", "\u{D7A4}", "\u{D7B0}", "\u{ABFF}", "\u{A960}",
      "\u{340}", "😀", "\u{FB01}", "\u{1000}", "\u{10FF}", "\u{1200}", "\u{1039}\u{1037}", "가", "À",
    ].map { Array($0.utf8) }
    + [
      [0x80], [0xEB], [0xEB, 0x80], [0xE1], [0xE1, 0x84], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xFF],
      // The leads whose second byte is checked, cut short before ASCII.
      [0xEA, 0x41], [0xED, 0x41], [0xEA, 0xB0, 0x41], [0xED, 0x9D, 0x41],
    ]

  @Test(
    "a spoiler at every offset of a long run agrees with ICU",
    arguments: ICUNormalizer.Form.allCases)
  func spoilerAtEveryOffset(form: ICUNormalizer.Form) throws {
    let normalizer = try UnicodeNormalizer(form)
    var checked = 0
    for safe in [Self.composedRun, Self.decomposedRun] {
      let run = safe + safe
      for spoiler in Self.spoilers {
        for offset in 0...run.count {
          // Only at code point starts: elsewhere the run itself is broken,
          // which the spoilers already cover.
          guard offset == run.count || run[offset] & 0xC0 != 0x80 else { continue }
          let text = Array(run[..<offset]) + spoiler + Array(run[offset...]) + safe
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
    }
    #expect(checked > 3_000)
  }

  @Test(
    "long runs, already in the form or not, agree with ICU", arguments: ICUNormalizer.Form.allCases)
  func longRuns(form: ICUNormalizer.Form) throws {
    for safe in [Self.composedRun, Self.decomposedRun] {
      var text: [UInt8] = []
      for _ in 0..<200 { text += safe }
      text += Array("가\u{11A8}".utf8)
      for _ in 0..<50 { text += safe }
      let expected = try UnicodeNormalizerTests.icu(form, text)
      expectSameBytes(try UnicodeNormalizer(form).normalized(text), expected)
    }
  }
}
