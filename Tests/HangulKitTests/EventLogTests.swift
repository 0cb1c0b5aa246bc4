import HangulKit
import Testing

/// hangul-compose(1): `--format events` and `--stats`.
@Suite("Event logs")
struct EventLogTests {
  /// Runs the event filter over `lines`; returns the output, the errors and the statistics.
  func run(
    _ lines: [String], keys: KeyEncoding = .jamo, options: ComposerOptions = ComposerOptions(),
    startMode: InputMode = .korean, output: EventLogFilter.Output = .text,
    includesStatistics: Bool = false, maximumLineLength: Int = LineEditor.defaultMaximumLineLength
  ) -> (output: String, errors: [PositionedError], statistics: StatisticsReport) {
    let errors = ErrorList()
    var filter = EventLogFilter(
      keys: keys, options: options, maximumLineLength: maximumLineLength, startMode: startMode,
      output: output, includesStatistics: includesStatistics
    ) { errors.items.append($0) }
    filter.beginInput(named: "log.jsonl")
    let output = (try? filter.filtered(Array(lines.joined(separator: "\n").utf8))) ?? []
    return (String(decoding: output, as: UTF8.self), errors.items, filter.statistics)
  }

  final class ErrorList: @unchecked Sendable {
    var items: [PositionedError] = []
  }

  func keys(_ names: String...) -> [String] {
    names.map { #"{"key":\#(JSONWriter.quoted($0))}"# }
  }

  @Test("jamo keys compose; the whole log is one document followed by a newline")
  func jamoKeys() {
    #expect(run(keys("ㄷ", "ㅏ", "ㄹ", "ㄱ", "ㅏ")).output == "달가\n")
    #expect(run(keys("ㅎ", "ㅘ")).output == "화\n")
    #expect(run([]).output == "")
  }

  @Test(
    "each named key",
    arguments: [
      (["ㄱ", "ㅏ", "ㄱ", "Backspace"], "가\n"), (["ㄱ", "ㅏ", "Space", "ㅏ"], "가 ㅏ\n"),
      (["ㄱ", "ㅏ", "Enter", "Backspace", "ㄴ"], "가ㄴ\n"), (["ㄱ", "ㅏ", "Tab", "ㄴ"], "가\tㄴ\n"),
      (["Shift", "ㄱ", "ㄱ", "ㅏ"], "ㄲ가\n"), (["Shift", "ㅐ"], "ㅒ\n"), (["Shift", "ㅏ"], "ㅏ\n"),
      (["Shift", "1"], "!\n"), (["Shift", "Space", "ㄱ"], " ㄱ\n"),
      (["ㄱ", "ㅏ", "Space", "ㄴ", "ㅏ", "ㄴ", "Space", "Space", "DeleteWord"], "가 \n"),
      (["ㄱ", "ㅏ", "Space", "ㄴ", "ㅏ", "DeleteWord", "ㄷ", "ㅏ"], "가 다\n"),
      (["ㄱ", "DeleteWord", "DeleteWord", "ㅏ"], "ㅏ\n"),
    ])
  func namedKeys(typed: [String], expected: String) {
    let result = run(typed.map { #"{"key":\#(JSONWriter.quoted($0))}"# })
    #expect(result.output == expected)
    #expect(result.errors.isEmpty)
  }

  @Test("letters are keys under --keys qwerty and text otherwise; Shift applies to them")
  func letters() {
    #expect(run(keys("d", "k", "s", "s", "u", "d"), keys: .qwerty).output == "안녕\n")
    #expect(run(keys("Shift", "r", "k", "r"), keys: .qwerty).output == "깍\n")
    #expect(run(keys("Shift", "r", "k"), keys: .jamo).output == "Rk\n")
    #expect(run(keys("가", "é", "e\u{301}")).output == "가éé\n")
  }

  @Test("\"text\" inserts a phrase after committing, even in the middle of a syllable")
  func textInsertion() {
    #expect(
      run([#"{"key":"ㄱ"}"#, #"{"key":"ㅏ"}"#, #"{"text":"감사합니다!"}"#, #"{"key":"ㅏ"}"#]).output
        == "가감사합니다!ㅏ\n")
    #expect(
      run([#"{"key":"ㄷ"}"#, #"{"key":"ㅏ"}"#, #"{"key":"ㄹ"}"#, #"{"text":"~"}"#, #"{"key":"ㅏ"}"#])
        .output == "달~ㅏ\n")
    // The phrase is text: its jamo are not keys, and Backspace deletes it a character at a time.
    #expect(run([#"{"text":"ㄱㅏ"}"#, #"{"key":"Backspace"}"#]).output == "ㄱ\n")
    #expect(
      run([
        #"{"text":"안녕\n하세요"}"#, #"{"key":"Backspace"}"#, #"{"key":"Backspace"}"#,
        #"{"key":"Backspace"}"#, #"{"key":"Backspace"}"#,
      ]).output == "안녕\n")
  }

  @Test(
    "a new \"doc\" value starts a new document; events without \"doc\" continue the current one")
  func documents() {
    let result = run(
      [
        #"{"key":"ㄱ","doc":"a"}"#, #"{"key":"ㅏ"}"#, #"{"key":"ㄴ","doc":2}"#,
        #"{"key":"ㅏ","doc":2}"#,
        #"{"key":"Backspace","doc":"a"}"#, #"{"key":"ㄷ","doc":"a"}"#,
      ], includesStatistics: true)
    #expect(result.output == "가\n나\nㄷ\n")
    #expect(result.statistics.documents.map(\.document) == ["a", "2", "a"])
    #expect(result.statistics.documents.map(\.backspacesWithoutEffect) == [0, 0, 1])
  }

  @Test("unknown members are ignored")
  func unknownMembers() {
    #expect(
      run([#"{"key":"ㄱ","device":"phone","extra":{"nested":[1,2]}}"#, #"{"key":"ㅏ"}"#]).output
        == "가\n")
  }

  @Test(
    "every kind of bad line is reported with its line and column, and skipped",
    arguments: [
      ("junk", "not valid JSON: unexpected character", 1),
      ("[1]", "must be a JSON object, not an array", 1),
      (#"{"t":5}"#, #"needs "key", "code" or "text""#, 1),
      (#"{"key":"ㄱ","text":"x"}"#, "either", 19),
      (#"{"key":"Escape"}"#, #"unknown key "Escape""#, 8), (#"{"key":""}"#, "unknown key", 8),
      (#"{"key":5}"#, "must be a string", 8), (#"{"text":null}"#, "must be a string", 9),
      (#"{"key":"ㄱ","t":"soon"}"#, "must be a number", 16),
      (#"{"key":"ㄱ","t":50}"#, "went backwards", 16),
      (#"{"key":"ㄱ","doc":1.5}"#, "string or an integer", 18),
      (#"{"key":"ㄱ","doc":[1]}"#, "string or an integer", 18),
      (#"{"key":"ㄱ""#, "not valid JSON: expected ',' or '}'", 11),
      (#"{"key":"ㄱ","t":1e999}"#, #""t" is too large for a number of milliseconds: 1e999"#, 16),
      (#"{"key":"ㄱ","t":-1e999}"#, #""t" is too large"#, 16),
      (#"  {"key":"ㄱ",x}"#, "not valid JSON: expected a member name", 14),
    ])
  func badLines(line: String, message: String, column: Int) {
    let result = run([#"{"key":"ㄱ","t":100}"#, line, #"{"key":"ㅏ","t":200}"#, "", "  "])
    #expect(result.output == "가\n")
    #expect(result.errors.count == 1)
    #expect(result.errors.first?.line == 2)
    #expect(result.errors.first?.column == column)
    #expect(result.errors.first?.file == "log.jsonl")
    #expect(result.errors.first?.message.contains(message) == true, "\(result.errors)")
    #expect(result.errors.first?.description.hasPrefix("log.jsonl:2:\(column): ") == true)
  }

  @Test("a \"t\" past Int.max is reported, not a trap (found by fuzzing)")
  func hugeTime() {
    let result = run([#"{"key":"ㄱ","t":17000000000000003366}"#, #"{"key":"ㅏ","t":5}"#])
    #expect(result.output == "ㄱ\n")
    #expect(result.errors.first?.message.contains("went backwards: 5 after 1.7") == true)
    #expect(result.statistics.json.contains(#""typingTimeMs":0"#))
  }

  @Test("times at the ends of what a double holds give no inf or nan; \"t\":1e999 is an error")
  func extremeTimes() {
    let wide = run(
      [
        #"{"key":"ㄱ","t":-1e308,"doc":"a"}"#, #"{"key":"ㅏ","t":1e308}"#,
        #"{"key":"ㄴ","t":1e999}"#,
      ], output: .jsonl, includesStatistics: true)
    #expect(
      wide.errors.map(\.description) == [
        #"log.jsonl:3:16: "t" is too large for a number of milliseconds: 1e999"#
      ])
    #expect(wide.output.hasPrefix(#"{"doc":"a","text":"가","stats":{"keys":2,"#))
    // A span of 5e-324 ms: its rate is past what a double holds.
    let narrow = run(
      [#"{"key":"ㄱ","t":0,"doc":"b"}"#, #"{"key":"ㅏ","t":5e-324}"#], output: .jsonl,
      includesStatistics: true)
    for result in [wide, narrow] {
      for text in [result.output, result.statistics.json, result.statistics.text] {
        #expect(!text.contains("inf") && !text.contains("nan"), "\(text)")
      }
    }
    #expect(wide.statistics.documents.map(\.typingTime) == [nil])
    #expect(narrow.statistics.documents.map(\.typingTime) == [Double.leastNonzeroMagnitude])
    #expect(narrow.statistics.documents.map(\.charactersPerMinute) == [nil])
  }

  /// A span of 5e-304 ms makes a rate of 1.2e308 per minute: a double, but
  /// scaled by 10 to round it to one decimal it was not, and was written
  /// `"charactersPerMinute":inf` (not JSON) and `inf` in the table.
  @Test(
    "a rate near the largest double is written as a number, never inf", arguments: [5e-304, 4e-304])
  func rateNearTheLargestDouble(span: Double) throws {
    let result = run(
      [#"{"key":"ㄱ","t":0,"doc":"b"}"#, #"{"key":"ㅏ","t":\#(span)}"#], output: .jsonl,
      includesStatistics: true)
    let rate = try #require(result.statistics.documents.first?.charactersPerMinute)
    #expect(rate > 1e307 && rate.isFinite)
    for text in [result.output, result.statistics.json, result.statistics.text] {
      #expect(!text.contains("inf") && !text.contains("nan"), "\(text)")
    }
    for line in result.output.split(separator: "\n") {
      #expect(throws: Never.self) { try JSONParser.parse(Array(line.utf8)) }
    }
  }

  @Test("without --stats the documents written are not kept")
  func documentsNotKept() {
    let lines = (0..<50).map { #"{"doc":\#($0),"key":"ㄱ","t":\#($0)}"# }
    #expect(run(lines).statistics.documents.isEmpty)
    #expect(run(lines, includesStatistics: true).statistics.documents.count == 50)
  }

  @Test("statistics of a hand-computed log")
  func statistics() {
    // A Backspace at the start of the document that deletes nothing, 가 (2
    // keys), a Backspace that undoes ㅏ, ㅏ again, Space, Enter, a phrase;
    // 60 s from first to last event.
    let result = run([
      #"{"key":"Backspace","t":0}"#, #"{"key":"ㄱ","t":1000}"#, #"{"key":"ㅏ","t":2000}"#,
      #"{"key":"Backspace","t":3000}"#, #"{"key":"ㅏ","t":4000}"#, #"{"key":"Space","t":5000}"#,
      #"{"key":"Enter","t":6000}"#, #"{"text":"감사합니다!","t":60000}"#,
    ])
    #expect(result.output == "가 \n감사합니다!\n")
    let total = result.statistics.total
    #expect(total.keystrokes == 8)
    #expect(total.backspaces == 2)
    #expect(total.backspacesWithoutEffect == 1)
    #expect(total.characters == 9)  // 가, space, newline, 감사합니다! (6)
    #expect(total.syllables == 6)
    #expect(total.typingTime == 60_000)
    #expect(total.charactersPerMinute == 9.0)
    #expect(result.statistics.documents.isEmpty)
    #expect(result.statistics.text.contains("total"))
    #expect(
      result.statistics.json
        == #"{"documents":[],"total":{"keys":8,"backspaces":2,"backspacesWithoutEffect":1,"characters":9,"syllables":6,"kspc":0.889,"typingTimeMs":60000,"charactersPerMinute":9.0}}"#
        + "\n")
  }

  @Test(
    "one rule for newlines in --stats: Enter is a keystroke and its newline a character",
    arguments: [
      (["ㄱ", "ㅏ", "Enter"], 3, 2, 1.5), (["ㄱ", "ㅏ"], 2, 1, 2.0),
      (["ㄱ", "ㅏ", "Enter", "Enter"], 4, 3, 4.0 / 3.0),
    ])
  func newlineRule(typed: [String], keystrokes: Int, characters: Int, kspc: Double) {
    let total = run(typed.map { #"{"key":\#(JSONWriter.quoted($0))}"# }).statistics.total
    #expect(total.keystrokes == keystrokes)
    #expect(total.characters == characters)
    #expect(total.keystrokesPerCharacter == kspc)
    // The same in a text log: the newline typed is a keystroke and a character.
    var filter = ComposeFilter()
    let log = typed.map { $0 == "Enter" ? "\n" : $0 }.joined()
    _ = try? filter.filtered(Array(log.utf8))
    #expect(filter.statistics.total.keystrokes == keystrokes)
    #expect(filter.statistics.total.characters == characters)
  }

  @Test("statistics of a text log: every character is a keystroke")
  func textStatistics() {
    var filter = ComposeFilter()
    _ = try? filter.filtered(Array("ㄱㅏㄱ\u{8}\n\u{8}ㄳ".utf8))
    let total = filter.statistics.total
    #expect(total.keystrokes == 8)  // ㄱ ㅏ ㄱ BS newline BS ㄱ ㅅ
    #expect(total.backspaces == 2)
    #expect(total.backspacesWithoutEffect == 1)
    #expect(total.characters == 3)  // 가, the newline, ㄳ
    #expect(total.syllables == 1)
    #expect(total.typingTime == nil)
  }

  @Test(
    "Backspace at a line start joins the lines, in both Backspace modes",
    arguments: ComposerOptions.Backspace.allCases)
  func backspaceJoinsLines(mode: ComposerOptions.Backspace) {
    let options = ComposerOptions(backspace: mode)
    #expect(
      run(keys("ㄱ", "ㅏ", "Enter", "ㄴ", "Home", "Backspace"), options: options).output == "가ㄴ\n")
    // Then the character before: 가; at the start of the document, nothing.
    let result = run(
      keys("ㄱ", "ㅏ", "Enter", "Backspace", "Backspace", "Backspace"), options: options)
    #expect(result.output == "\n")
    #expect(result.statistics.total.backspacesWithoutEffect == 1)
  }

  @Test("a document that ends with Enter is written with no extra blank line; JSON keeps it")
  func trailingEnter() {
    #expect(run(keys("ㄱ", "ㅏ", "Enter")).output == "가\n")
    #expect(run(keys("ㄱ", "ㅏ", "Enter", "Enter")).output == "가\n\n")
    #expect(run(keys("Enter")).output == "\n")
    #expect(run(keys("ㄱ")).output == "ㄱ\n")
    #expect(run(keys("ㄱ", "ㅏ", "Enter"), output: .jsonl).output == #"{"text":"가\n"}"# + "\n")
  }

  @Test("each document is written as soon as it ends")
  func documentsStream() {
    var filter = EventLogFilter { _ in }
    var output: [UInt8] = []
    Array(
      (#"{"key":"ㄱ","doc":1}"# + "\n" + #"{"key":"ㅏ","doc":1}"# + "\n" + #"{"key":"ㄴ","doc":2}"#
        + "\n").utf8
    )
    .withUnsafeBufferPointer { filter.process($0, into: &output) }
    #expect(String(decoding: output, as: UTF8.self) == "가\n")
  }

  @Test("Backspaces that cannot reach flushed text are counted in --stats (hangul-compose(1))")
  func blockedByFlushInStatistics() {
    var filter = ComposeFilter(maximumLineLength: 8)
    _ = try? filter.filtered(Array((String(repeating: "각", count: 4) + "\u{8}\u{8}\u{8}").utf8))
    let report = filter.statistics
    // The third 각 takes the 8-byte line past the limit and is flushed with
    // the first two (as one character at a time would, whatever the chunks):
    // the first Backspace deletes the fourth, the other two reach nothing.
    #expect(report.total.backspacesWithoutEffect == 2)
    #expect(report.total.backspacesBlockedByFlush == 2)
    #expect(report.json.contains(#""backspacesBlockedByFlush":2"#))
    #expect(
      report.text.hasSuffix(
        "2 of the Backspaces with no effect could not reach text already flushed (--max-line)\n"))
    var plain = ComposeFilter()
    _ = try? plain.filtered(Array("ㄱ\u{8}\u{8}".utf8))
    #expect(!plain.statistics.json.contains("backspacesBlockedByFlush"))
    #expect(!plain.statistics.text.contains("flushed"))
  }
}
