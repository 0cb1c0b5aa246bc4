import Foundation
import HangulKit
import HangulWrongMode
import Testing

@Suite("Wrong mode: the filter")
struct WrongModeFilterTests {
  static let lexicon = Result { try WrongModeLexicon(typing: WrongModeTyping(keyboard: .twoSet)) }

  /// Runs `text` through a filter in `mode`, in chunks of `chunkSize` bytes.
  static func run(
    _ text: [UInt8], mode: WrongModeFilter.Mode = .fix, chunkSize: Int = 1 << 20,
    options: WrongModeOptions = WrongModeOptions(), lexicon: WrongModeLexicon? = nil
  ) throws -> (output: [UInt8], spans: [WrongModeSpan]) {
    var filter = WrongModeFilter(
      lexicon: try lexicon ?? Self.lexicon.get(), options: options, mode: mode)
    var output: [UInt8] = []
    var start = 0
    repeat {
      let end = min(text.count, start + chunkSize)
      try filter.process(Array(text[start..<end]), into: &output)
      start = end
    } while start < text.count
    try filter.finish(into: &output)
    return (output, filter.findings.take().map(\.span))
  }

  static func fixed(_ text: String) throws -> String {
    String(decoding: try run(Array(text.utf8)).output, as: UTF8.self)
  }

  @Test func theIssueExample() throws {
    let text = "iPhone 15 dkssud gktpdy! ㅗ디ㅣㅐ world\n"
    let (output, spans) = try Self.run(Array(text.utf8))
    #expect(String(decoding: output, as: UTF8.self) == "iPhone 15 안녕 하세요! hello world\n")
    #expect(spans.map(\.column) == [11, 18, 26])
    #expect(spans.map(\.line) == [1, 1, 1])
    #expect(spans.map(\.direction) == [.englishMode, .englishMode, .koreanMode])
    #expect(
      spans.first?.message(file: "a.txt")
        == "a.txt:1:11: \"dkssud\" looks like 안녕 typed in English mode")
    #expect(
      spans.last?.message(file: "a.txt")
        == "a.txt:1:26: \"ㅗ디ㅣㅐ\" looks like hello typed in Korean mode")
    let (checked, _) = try Self.run(Array(text.utf8), mode: .check)
    #expect(checked.isEmpty)
  }

  @Test(arguments: [
    "hello 안녕\n", "안녕하세요. 오늘 날씨가 좋네요\n", "The quick brown fox jumps over the lazy dog.\n",
    "ㅋㅋㅋ ㅎㅎ ㅠㅠ 진짜?\n", "ㄱ ㄴ ㄷ ㅏ ㅢ\n",
  ])
  func textInTheRightModeIsLeftAlone(_ text: String) throws {
    let (output, spans) = try Self.run(Array(text.utf8))
    #expect(spans.isEmpty)
    #expect(output == Array(text.utf8))
  }

  /// Each token holds dkssud (안녕 in English mode), but is not a word.
  @Test(arguments: [
    "https://dkssud.example.com/gktpdy", "www.dkssud.com", "dkssud@example.com", "@dkssud",
    "/home/dkssud", "dkssud.txt", "dkssud123", "h264dkssud", "dkssud_gktpdy", "DKSSUD",
    "getDkssud", "dkssud-gktpdy", "don't", "SGVsbG8gd29ybGQ=", "deadbeefcafe", "--dkssud",
    "#dkssud", "C:\\dkssud", "v1.dkssud", "a+dkssud", "dkssud=1", "<dkssud>", "`dkssud`",
  ])
  func codeAndAddressesAreLeftAlone(_ token: String) throws {
    let text = "보세요 \(token) 여기\n"
    let (output, spans) = try Self.run(Array(text.utf8))
    #expect(spans.isEmpty, "\(spans)")
    #expect(output == Array(text.utf8))
  }

  /// Everything but the spans comes out byte for byte: bytes that are not
  /// UTF-8, NUL, CR LF, tabs, a missing last newline.
  @Test func otherBytesPassThrough() throws {
    var text: [UInt8] = Array("a\u{0}\tdkssud\r\n".utf8)
    text += [0xFF, 0xC7, 0xD1, 0x20] + Array("gktpdy \u{3000}ㅗ디ㅣㅐ".utf8) + [0xE0, 0x80]
    let (output, spans) = try Self.run(text)
    var expected: [UInt8] = Array("a\u{0}\t안녕\r\n".utf8)
    expected += [0xFF, 0xC7, 0xD1, 0x20] + Array("하세요 \u{3000}hello".utf8) + [0xE0, 0x80]
    #expect(output == expected)
    #expect(spans.map(\.line) == [1, 2, 2])
    // Columns count characters; each byte that is not UTF-8 is one.
    #expect(spans.map(\.column) == [4, 5, 13])
  }

  /// The output and the spans do not depend on where the reads end.
  @Test(arguments: [1, 2, 3, 7, 64, 4096])
  func chunkingChangesNothing(chunkSize: Int) throws {
    let text = Array(
      "iPhone 15 dkssud gktpdy! ㅗ디ㅣㅐ world\n한국어 dkssudgktpdy\n\u{FF}rkatkgkqslek ㅅㅗ\n".utf8)
    let whole = try Self.run(text)
    let chunked = try Self.run(text, chunkSize: chunkSize)
    #expect(chunked.output == whole.output)
    #expect(chunked.spans == whole.spans)
    #expect(whole.spans.count == 5)
  }

  /// A line longer than the filter holds at once is judged in pieces cut at
  /// white space, with the columns of the whole line.
  @Test func longLinesAreJudgedInPieces() throws {
    let filler = String(repeating: "word ", count: WrongModeFilter.segmentLimit / 5 + 10)
    let text = Array((filler + "dkssud " + filler + "gktpdy\n").utf8)
    let (output, spans) = try Self.run(text, chunkSize: 4096)
    #expect(String(decoding: output, as: UTF8.self) == filler + "안녕 " + filler + "하세요\n")
    let fillerColumns = filler.unicodeScalars.count
    #expect(spans.map(\.column) == [fillerColumns + 1, 2 * fillerColumns + 8])
  }

  /// An ambiguous word (수 is typed tn, an English abbreviation) is reported
  /// between spans typed in the same mode, not beside English.
  @Test func neighboursDecideAmbiguousWords() throws {
    #expect(try Self.fixed("gkf tn dlTek\n") == "할 수 있다\n")
    #expect(try Self.fixed("I can tn\n") == "I can tn\n")
    #expect(try Self.fixed("I said dkssud to him\n") == "I said 안녕 to him\n")
  }

  @Test func thresholdsAreOptions() throws {
    let text = Array("dl dkssud\n".utf8)
    #expect(try Self.run(text).spans.count == 2)
    let long = try Self.run(text, options: WrongModeOptions(minLength: 3))
    #expect(long.spans.map(\.from) == ["dkssud"])
    let sure = try Self.run(text, options: WrongModeOptions(minScore: 0.999))
    #expect(sure.spans.allSatisfy { $0.score >= 0.999 })
  }

  @Test func reportLinesAreJSON() throws {
    let span = WrongModeSpan(
      line: 2, column: 3, from: "ㅗ디ㅣㅐ", to: "hello", direction: .koreanMode, score: 0.98765)
    let line = span.jsonLine(file: "a \"b\".txt")
    #expect(
      line == #"{"file":"a \"b\".txt","line":2,"column":3,"from":"ㅗ디ㅣㅐ","to":"hello","#
        + #""direction":"korean-mode","score":0.988}"#)
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    #expect(object?["to"] as? String == "hello")
  }

  @Test func anotherKeyboardTypesItsOwnKeys() throws {
    let typing = try WrongModeTyping(keyboard: Keyboard(id: "3f"))
    let keys = try #require(typing.keys(typing: Array("안녕하세요".unicodeScalars)))
    let lexicon = try WrongModeLexicon(typing: typing)
    let text = Array(("iPhone " + String(decoding: keys, as: UTF8.self) + "\n").utf8)
    let (output, spans) = try Self.run(text, lexicon: lexicon)
    #expect(String(decoding: output, as: UTF8.self) == "iPhone 안녕하세요\n")
    #expect(spans.map(\.column) == [8])
  }

  @Test func phoneKeypadsAreRefused() throws {
    #expect(throws: WrongModeTyping.UnsupportedKeyboard.self) {
      try WrongModeTyping(keyboard: Keyboard(id: "cheonjiin"))
    }
  }

  @Test func missingDictionaryIsAnError() throws {
    #expect(throws: WrongModeLexicon.DictionaryError.self) {
      try WrongModeLexicon(
        typing: WrongModeTyping(keyboard: .twoSet), koreanDictionary: "/nonexistent/ko")
    }
  }

  @Test func lexiconFacts() throws {
    let lexicon = try Self.lexicon.get()
    let common = (0..<HangulSyllable.count).filter {
      lexicon.isCommonSyllable(Unicode.Scalar(0xAC00 + UInt32($0))!)
    }
    #expect(common.count == 2_350)
    // 안녕 typed in English mode looks typed; "thought" looks spelled.
    #expect(lexicon.keyPairEvidence(Array("dkssud".utf8)) > 0.5)
    #expect(lexicon.keyPairEvidence(Array("thought".utf8)) < 0)
    #expect(lexicon.englishKnows(Array("world".utf8)))
    #expect(!lexicon.englishKnows(Array("dkssud".utf8)))
  }
}
