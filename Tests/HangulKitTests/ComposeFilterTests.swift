import HangulKit
import Testing

/// hangul-compose(1): text input; output, streaming, memory on the filter.
@Suite("Text keystroke logs")
struct ComposeFilterTests {
  @Test(
    "a compound jamo counts as the keys that type it",
    arguments: [
      ("ㄷㅏㄺㅏ", "달가"), ("ㅎㅘ", "화"), ("ㄱㅏㄳ", "갃"), ("ㄱㅏㄳㅏ", "각사"), ("ㅢ", "ㅢ"), ("ㅂㅞㄺ", "뷁"),
    ])
  func compoundJamoKeys(input: String, expected: String) {
    #expect(composed(input) == expected)
  }

  @Test(
    "everything that is not a key ends the syllable and passes through",
    arguments: [
      ("ㄱㅏ1ㄴ", "가1ㄴ"), ("ㄱㅏ ㅏ", "가 ㅏ"), ("rk", "rk"), ("ㄱ.ㅏ", "ㄱ.ㅏ"), ("가ㅏ", "가ㅏ"),
      ("ㄱㅏ😀ㄴㅏ", "가😀나"), ("\u{FEFF}ㄱㅏ", "\u{FEFF}가"), ("ㄱㅏ\r\nㄴ", "가\r\nㄴ"), ("ㆍㄱㅏ", "ㆍ가"),
      ("ㅤㄱ", "ㅤㄱ"), ("\0ㄱㅏ\0", "\0가\0"),
    ])
  func passThrough(input: String, expected: String) {
    #expect(composed(input) == expected)
  }

  @Test(
    "--keys qwerty: letters are key positions, jamo are keys too, the rest passes",
    arguments: [
      ("dkssudgktpdy", "안녕하세요"), ("rkRk", "가까"), ("RK", "까"), ("Gksrmf", "한글"), ("rㅏ", "가"),
      ("rk 1.", "가 1."), ("dkssud!", "안녕!"), ("OP", "ㅒㅖ"), ("ekfrk", "달가"),
    ])
  func qwerty(input: String, expected: String) {
    #expect(composed(input, keys: .qwerty) == expected)
  }

  @Test("BS and DEL are both Backspace")
  func backspaceBytes() {
    #expect(composed("ㄱㅏㄱ\u{8}") == "가")
    #expect(composed("ㄱㅏㄱ\u{7F}") == "가")
  }

  @Test(
    "conjoining jamo (NFD) compose by the canonical algorithm",
    arguments: [
      ("\u{1100}\u{1161}", "가"), ("\u{1100}\u{1161}\u{11A8}", "각"), ("가\u{11A8}", "각"),
      ("ㄱㅏ\u{11A8}", "각"), ("각\u{11A8}", "각\u{11A8}"), ("\u{1100}\u{1100}\u{1161}", "\u{1100}가"),
      ("\u{1161}", "\u{1161}"), ("\u{11A8}", "\u{11A8}"),
      ("\u{1100}x\u{1161}", "\u{1100}x\u{1161}"),
      ("\u{1113}\u{1161}", "\u{1113}\u{1161}"), ("\u{1100}\u{1176}", "\u{1100}\u{1176}"),
      ("\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}", "한글"),
    ])
  func conjoiningJamo(input: String, expected: String) {
    let output = composed(input)
    #expect(Array(output.unicodeScalars) == Array(expected.unicodeScalars))
  }

  @Test("an NFD file name from macOS comes out NFC")
  func nfdText() {
    let nfc = "한국어 문서_최종본(2).txt\n"
    let nfd = nfc.decomposedStringWithCanonicalMappingForTests
    #expect(Array(nfd.unicodeScalars) != Array(nfc.unicodeScalars))
    #expect(Array(composed(nfd).unicodeScalars) == Array(nfc.unicodeScalars))
  }

  @Test("bytes that are not UTF-8 are copied unchanged", arguments: invalidSamples)
  func invalidBytes(input: [UInt8]) {
    let expected = input
    #expect(composedBytes(input) == expected)
    #expect(composedBytes(input, keys: .qwerty) == expected)
  }

  static let invalidSamples: [[UInt8]] = [
    [0x80], [0xFF, 0xFE], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
    [0xF4, 0x90, 0x80, 0x80],
    [0xEA, 0xB0], [0xEA], [0x31, 0xEA, 0xB0, 0x31], [0xF0, 0x9F, 0x98], [0xC3],
  ]

  @Test("invalid bytes end the syllable like any other non-key")
  func invalidEndsSyllable() {
    #expect(
      composedBytes(Array("ㄱㅏ".utf8) + [0xFF] + Array("ㅏ".utf8)) == Array("가".utf8) + [0xFF]
        + Array("ㅏ".utf8))
  }

  @Test("output does not depend on where the input is split into blocks")
  func splitAnywhere() {
    let text: [UInt8] =
      Array("ㄷㅏㄹㄱㅏ dkssud\n\u{1100}\u{1161}\u{11A8} 😀 ㅂㅞㄺ\u{8}\u{8}x\n".utf8) + [0xE0, 0x80, 0xEA]
      + Array("ㅎㅏㄴ".utf8)
    let whole = composedBytes(text, keys: .qwerty)
    for cut in 0...text.count {
      for secondCut in stride(from: cut, through: text.count, by: 7) {
        var filter = ComposeFilter(keys: .qwerty)
        var output: [UInt8] = []
        for range in [0..<cut, cut..<secondCut, secondCut..<text.count] {
          Array(text[range]).withUnsafeBufferPointer { filter.process($0, into: &output) }
        }
        filter.finish(into: &output)
        #expect(output == whole, "cut at \(cut) and \(secondCut)")
      }
    }
  }

  @Test("a line's result is written when its newline arrives, not held back")
  func linesAreWrittenPromptly() {
    var filter = ComposeFilter(keys: .qwerty)
    var output: [UInt8] = []
    Array("dkssud\nrk".utf8).withUnsafeBufferPointer { filter.process($0, into: &output) }
    #expect(String(decoding: output, as: UTF8.self) == "안녕\n")
  }

  @Test("a line past --max-line is flushed in pieces; Backspace cannot reach flushed text")
  func maximumLineLength() {
    let keys = String(repeating: "ㄱㅏㄱ", count: 10)
    let output = composed(keys + String(repeating: "\u{8}", count: 23), maximumLineLength: 8)
    // 10 syllables of 3 bytes: the first 9 were flushed, three at a time,
    // before the Backspaces came; the 10th takes 3 Backspaces, the rest find nothing.
    #expect(output == String(repeating: "각", count: 9))
    #expect(
      composed(keys + "\n" + keys, maximumLineLength: 8)
        == String(repeating: "각", count: 10) + "\n" + String(repeating: "각", count: 10))
    var editor = LineEditor(maximumLineLength: 8)
    for _ in 0..<4 { editor.insert("각") }
    editor.backspace()
    editor.backspace()
    #expect(editor.counts.linesFlushed == 1)
    #expect(editor.counts.backspacesBlockedByFlush == 1)
  }

  @Test("a flush keeps back an open syllable so a following conjoining final still composes")
  func flushKeepsComposableTail() {
    let input = String(repeating: "가", count: 4) + "\u{11A8}"
    #expect(composed(input, maximumLineLength: 8) == "가가가각")
  }
}

extension String {
  /// NFD without Foundation's bridging in the test target's hot path.
  var decomposedStringWithCanonicalMappingForTests: String {
    var result = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      if let syllable = HangulSyllable(scalar) {
        result.append(contentsOf: syllable.conjoiningJamo)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }
}
