import HangulKit
import Testing

/// Events pretty-printed over several lines (`jq .`), records cut off by the
/// next, and inputs that end without a newline (hangul-keylog(5), "One event
/// a line").
@Suite("Event logs: events over several lines")
struct PrettyEventLogTests {
  /// Runs `files` (name, contents) through one filter, as the programs do.
  func run(_ files: [(String, String)]) -> (output: String, errors: [String]) {
    let errors = EventLogTests.ErrorList()
    var filter = EventLogFilter(
      keys: .jamo, options: ComposerOptions(), maximumLineLength: 1 << 16, startMode: .korean,
      output: .text, includesStatistics: false
    ) { errors.items.append($0) }
    var output: [UInt8] = []
    for (name, contents) in files {
      filter.beginInput(named: name)
      Array(contents.utf8).withUnsafeBufferPointer { filter.process($0, into: &output) }
    }
    filter.finish(into: &output)
    return (String(decoding: output, as: UTF8.self), errors.items.map(\.description))
  }

  static let compact = [
    #"{"key":"ㄱ","t":100}"#, #"{"key":"ㅏ","t":200}"#, #"{"key":"ㄴ","t":300,"doc":1}"#,
  ]

  /// The lines `jq .` writes for a flat object: braces alone, a member a line.
  static func pretty(_ line: String) -> String {
    let inner = line.dropFirst().dropLast()
    var members: [String] = []
    var current = ""
    var inString = false
    for character in inner {
      if character == "\"" { inString.toggle() }
      if character == ",", !inString {
        members.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    members.append(current)
    let spaced = members.map { "  " + $0.replacingFirstColon() }
    return "{\n" + spaced.joined(separator: ",\n") + "\n}"
  }

  @Test("jq's pretty output replays as the compact log does")
  func prettyAsCompact() {
    let compact = run([("log", Self.compact.joined(separator: "\n") + "\n")])
    let pretty = run([("log", Self.compact.map(Self.pretty).joined(separator: "\n") + "\n")])
    #expect(compact.errors.isEmpty)
    #expect(pretty.errors.isEmpty, "\(pretty.errors)")
    #expect(pretty.output == compact.output)
    #expect(pretty.output == "가\nㄴ\n")
  }

  @Test("an error inside a pretty-printed event is reported at its own line and column")
  func errorPositions() {
    let log =
      Self.pretty(#"{"key":"ㄱ","t":100}"#) + "\n"
      + "{\n  \"key\": \"ㅏ\",\n  \"t\": \"soon\"\n}\n" + Self.pretty(#"{"key":"ㄴ","t":300}"#)
    let result = run([("log", log)])
    // The second event starts on line 5; its "t" value is on line 7, column 8.
    #expect(result.errors == [#"log:7:8: "t" must be a number of milliseconds, not a string"#])
    #expect(result.output == "ㄱㄴ\n")  // the bad event is skipped
  }

  @Test(
    "a record cut off before the next one's '{' is an error where it stops; the next is read",
    arguments: [
      (#"{"key":"ㄱ","#, "log:1:12: not valid JSON: expected a member name"),
      (#"{"key":"ㄱ""#, "log:1:11: not valid JSON: expected ',' or '}'"),
      (#"{"key":"#, "log:1:8: not valid JSON: unexpected end of input"),
      (#"{"key""#, "log:1:7: not valid JSON: expected ':'"),
    ])
  func cutOff(record: String, error: String) {
    let result = run([("log", record + "\n" + #"{"key":"ㅏ"}"# + "\n" + #"{"key":"ㄴ"}"# + "\n")])
    #expect(result.errors == [error])
    #expect(result.output == "ㅏㄴ\n")
  }

  @Test("a cut-off record's error names its last line with text, past blank lines")
  func cutOffAfterBlankLines() {
    let result = run([("log", "{\n  \"key\": \"ㄱ\",\n\n   \n{\"key\":\"ㅏ\"}\n  {\"key\":\"ㄴ\"}\n")])
    #expect(result.errors == ["log:2:14: not valid JSON: expected a member name"])
    #expect(result.output == "ㅏㄴ\n")
  }

  @Test("a pretty-printed event broken in the middle is one error; the next event is read")
  func brokenPrettyEvent() {
    let result = run([
      ("log", "{\n  \"key\": \"ㄱ\",\n  \"t\": 1x,\n  \"doc\": 1\n}\n  {\n \"key\": \"ㅏ\"\n}\n")
    ])
    #expect(result.errors == ["log:3:9: not valid JSON: expected ',' or '}'"])
    #expect(result.output == "ㅏ\n")
  }

  @Test("a file that ends inside an event does not run on into the next file")
  func fileBoundary() {
    for first in [
      #"{"key":"ㄱ"}"# + "\n" + #"{"key":"ㅏ""#, #"{"key":"ㄱ"}"# + "\n{\n \"key\": \"ㅏ\"\n",
    ] {
      let result = run([("one", first), ("two", #"{"key":"ㄴ"}"# + "\n")])
      #expect(result.output == "ㄱㄴ\n", "\(first)")
      #expect(result.errors.count == 1, "\(result.errors)")
      #expect(result.errors.first?.hasPrefix("one:") == true, "\(result.errors)")
    }
  }
}

extension String {
  /// `"a":1` as jq writes it, `"a": 1`.
  fileprivate func replacingFirstColon() -> String {
    guard let colon = range(of: "\":") else { return self }
    return replacingCharacters(in: colon, with: "\": ")
  }
}
