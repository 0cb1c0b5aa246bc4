import HangulKit
import Testing

/// How much of an object with a records member is read before it is taken for an envelope.
enum JSONRecordSplitterLimits {
  static let envelopeDecision = 1 << 20
}

/// hangul-reviews(1) input: any sequence of JSON values, split into records with
/// positions, conformance with RFC 8259, and resynchronization.
@Suite("JSON record stream")
struct JSONStreamTests {
  struct Split {
    var records: [JSONRecordSplitter.Record] = []
    var problems: [JSONRecordSplitter.Problem] = []
  }

  /// Splits `input` fed in pieces of `chunk` bytes.
  func split(_ input: [UInt8], chunk: Int = 1 << 20, recordsField: String = "data") -> Split {
    var splitter = JSONRecordSplitter(recordsField: recordsField)
    var result = Split()
    var start = 0
    repeat {
      let end = min(start + chunk, input.count)
      splitter.feed(Array(input[start..<end]), isLast: end == input.count) {
        result.records.append($0)
      }
      result.problems += splitter.takeStructureProblems()
      start = end
    } while start < input.count
    return result
  }

  func split(_ input: String, chunk: Int = 1 << 20) -> Split {
    split(Array(input.utf8), chunk: chunk)
  }

  // MARK: - Conformance (cases in the style of JSONTestSuite: y_ must parse, n_ must not)

  static let accepted: [String] = [
    "[]", "{}", #"[""]"#, "[null]", "[true]", "[false]", "[0]", "[-0]", "[1E22]", "[1e-2]",
    "[1.5e+9]", "[-1.0]", "[123e65]", "[0e1]", "[-123]", "[1E+2]", "[20E-1]",
    #"["\u0060\u012a\u12AB"]"#, #"["\uD801\udc37"]"#, #"["\ud83d\ude39\ud83d\udc8d"]"#,
    #"["\"\\\/\b\f\n\r\t"]"#, #"["\u0000"]"#, #"["\u200B"]"#, #"["\uFFFF"]"#,
    "[\"\u{7F}\"]", "[\"가각\u{1100}\u{1161}\"]", "[\"\u{10FFFF}\"]", "[\"😀\"]",
    #"{"a":[]}"#, #"{"a":"b","a":"c"}"#, #"{"":0}"#, #"{"\u0000":1}"#, "[[[[[]]]]]",
    " [1] ", "[1\n,\n2]", "{\"a\" : { \"b\" : [ 1 , {\"c\":null} ] } }", "\t[\r\n]",
    #"[{"a":"b"},{"c":[1,2,{"d":"e"}]}]"#, "1", "-0.5e-3", "\"x\"", "true", "null",
  ]

  static let refused: [String] = [
    "[1,]", "[,1]", "[1,,2]", "[1 2]", "[\"a\" \"b\"]", "{\"a\":1,}", "{,}", "{\"a\" 1}",
    "{\"a\"::1}", "{1:1}", "{\"a\":}", "{'a':1}", "{a:1}", "[01]", "[-]", "[1.]", "[.1]",
    "[1e]", "[1e+]", "[+1]", "[0x1]", "[Infinity]", "[NaN]", "[-01]", "[1.e1]", "[tru]",
    "[nul]", "[True]", "[\"\\x\"]", "[\"\\u12\"]", "[\"\\uD800\"]", "[\"\\uDC00\"]",
    "[\"\\uD800\\u0041\"]", "[\"\\\"]", "[\"a\u{0}\"]", "[\"a\u{1F}\"]", "[\"a\nb\"]", "[\"abc",
    "[", "{", "{\"a\"", "{\"a\":1", "[1", "[\"\\", "]", "}", "[}", "{]", "[1}", "{\"a\":1]",
    "[\"\\u00G0\"]",
  ]

  static let refusedBytes: [[UInt8]] = [
    [0x5B, 0x22, 0xFF, 0x22, 0x5D],  // a byte that is never UTF-8
    [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D],  // overlong
    [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D],  // an encoded surrogate
    [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D],  // past U+10FFFF
    [0x5B, 0x22, 0xE3, 0x81, 0x22, 0x5D],  // cut short
    [0x5B, 0x22, 0x80, 0x22, 0x5D],  // a lone continuation byte
    [0x5B, 0xE3, 0x81, 0x82, 0x5D],  // a character outside a string
  ]

  @Test(
    "every valid JSON text is one record, byte for byte, equal to the parser's value",
    arguments: accepted)
  func acceptsValid(text: String) throws {
    let result = split("[" + text + "]")
    #expect(result.problems.isEmpty)
    let record = try #require(result.records.first)
    #expect(result.records.count == 1)
    #expect(record.problem == nil)
    let trimmed = text.trimmingSpaces
    #expect(String(decoding: record.bytes, as: UTF8.self) == trimmed)
    #expect(try JSONParser.parse(record.bytes) == JSONParser.parse(Array(text.utf8)))
  }

  @Test(
    "every invalid JSON text is reported: a record's problem or a structure problem",
    arguments: refused)
  func refusesInvalid(text: String) {
    let result = split("[" + text + "]")
    let reported = !result.problems.isEmpty || result.records.contains { $0.problem != nil }
    #expect(
      reported, "\(text): \(result.records.map { String(decoding: $0.bytes, as: UTF8.self) })")
    #expect((try? JSONParser.parse(Array(text.utf8))) == nil)
  }

  @Test(
    "invalid UTF-8 is reported at the byte that cannot be UTF-8 there, naming it",
    arguments: zip(refusedBytes, [3, 3, 4, 4, 4, 3, 2]))
  func refusesInvalidBytes(bytes: [UInt8], column: Int) throws {
    let result = split(bytes)
    let problem = try #require(result.records.compactMap(\.problem).first ?? result.problems.first)
    #expect(problem.line == 1)
    #expect(problem.column == column)
    #expect(problem.message.contains("UTF-8") || problem.message.contains("U+3042"))
  }

  // MARK: - Shapes

  @Test(
    "each top-level value is a record, an array of records or an envelope, in any sequence",
    arguments: [1, 2, 5, 64, 1 << 20])
  func shapes(chunk: Int) {
    let input = """
      \u{FEFF}{"content":"a"}
      [{"content":"b"},{"content":"c"}]
      {"success":true,"data":[{"content":"d"}],"page":{"n":[1,{"data":[]}]},"data":[{"content":"e"}]}{"content":"f"}
      [{"content":"g"}] 7 "text" {"data":"not an array","content":"h"}
      """
    let result = split(input, chunk: chunk)
    #expect(result.problems.isEmpty)
    let texts = result.records.map { String(decoding: $0.bytes, as: UTF8.self) }
    #expect(
      texts == [
        #"{"content":"a"}"#, #"{"content":"b"}"#, #"{"content":"c"}"#, #"{"content":"d"}"#,
        #"{"content":"e"}"#, #"{"content":"f"}"#, #"{"content":"g"}"#, "7", #""text""#,
        #"{"data":"not an array","content":"h"}"#,
      ])
    #expect(result.records.map(\.index) == Array(0..<10))
    #expect(result.records.map(\.line) == [1, 2, 2, 3, 3, 3, 4, 4, 4, 4])
    #expect(result.records.map(\.column) == [1, 2, 18, 25, 79, 96, 2, 19, 21, 28])
  }

  struct Either: Sendable, CustomStringConvertible {
    var input: String
    var records: [String]
    var problems: [String] = []
    var description: String { input }
  }

  static let eitherCases: [Either] = [
    // A content string makes an object with a data array a record, wherever it stands.
    Either(
      input: #"{"_id":1,"data":[1,2],"content":"리뷰"}"#,
      records: [#"{"_id":1,"data":[1,2],"content":"리뷰"}"#]),
    Either(
      input: #"{"data":[{"url":"a"}],"content":"y","data":[]}"#,
      records: [#"{"data":[{"url":"a"}],"content":"y","data":[]}"#]),
    Either(
      input: #"{"con\u0074ent":"y","data":[{"content":"x"}]}"#,
      records: [#"{"con\u0074ent":"y","data":[{"content":"x"}]}"#]),
    // Without one, an envelope: its records, its other members read past.
    Either(
      input: "{\"ok\":1,\"data\":[{\"a\":1},\n 7, {\"b\":[2]}],\"content\":5} {\"c\":3}",
      records: [#"{"a":1}"#, "7", #"{"b":[2]}"#, #"{"c":3}"#]),
    Either(input: #"{"data":[],"page":2}"#, records: []),
    // A record in the records member tells at once: an envelope, whose own content is reported.
    Either(
      input: #"{"data":[{"x":1},{"content":"a"},{"content":"b"}],"content":"own"}"#,
      records: [#"{"x":1}"#, #"{"content":"a"}"#, #"{"content":"b"}"#],
      problems: [
        #"1:61: the envelope's own "content" string is not imported: its "data" was already read as records"#
      ]),
    // Broken: read again as an envelope, each broken record rejected on its own.
    Either(
      input: "{\"data\":[{\"x\":1,,\"y\":2},\n{\"content\":\"a\"}]}\n{\"content\":\"b\"}",
      records: [#"{"x":1,,"y":2} ! unexpected ','"#, #"{"content":"a"}"#, #"{"content":"b"}"#]),
    Either(
      input: "{\"data\":[{\"x\":1},{\"y\":",
      records: [#"{"x":1}"#, #"{"y": ! unexpected end of input"#],
      problems: ["1:23: unexpected end of input inside the envelope that starts at 1:1"]),
  ]

  @Test(
    "an object with a records member is a record when it has a content string, else an envelope",
    arguments: eitherCases)
  func envelopeOrRecord(_ example: Either) {
    for chunk in [1, 2, 5, 1 << 20] {
      let result = split(example.input, chunk: chunk)
      let records = result.records.map { record in
        String(decoding: record.bytes, as: UTF8.self)
          + (record.problem.map { " ! " + $0.message } ?? "")
      }
      #expect(records == example.records, "chunk \(chunk)")
      #expect(result.records.map(\.index) == Array(0..<example.records.count))
      #expect(
        result.problems.map { "\($0.line):\($0.column): \($0.message)" } == example.problems,
        "chunk \(chunk)")
    }
  }

  @Test("an object read for 1 MiB without a content string is an envelope; a later one is reported")
  func envelopeDecidedByLength() throws {
    let elements = (0..<40_000).map { "{\"n\":\($0),\"pad\":\"0123456789\"}" }
    let input = "{\"data\":[" + elements.joined(separator: ",") + "],\"content\":\"late\"}"
    #expect(input.utf8.count > JSONRecordSplitterLimits.envelopeDecision)
    let result = split(Array(input.utf8), chunk: 64 * 1024)
    #expect(result.records.count == 40_000)
    #expect(result.records.last.map { String(decoding: $0.bytes, as: UTF8.self) } == elements.last)
    #expect(result.problems.map { String($0.message.prefix(25)) } == ["the envelope's own \"conte"])
  }

  @Test("--records-field names the envelope's member, escaped or not")
  func recordsField() {
    let input = Array(#"{"items":[{"a":1}]} {"it\u0065ms":[{"b":2}]} {"data":[{"c":3}]}"#.utf8)
    let result = split(input, recordsField: "items")
    #expect(
      result.records.map { String(decoding: $0.bytes, as: UTF8.self) } == [
        #"{"a":1}"#, #"{"b":2}"#, #"{"data":[{"c":3}]}"#,
      ])
  }

  // MARK: - Broken structure

  struct Broken: Sendable, CustomStringConvertible {
    var input: String
    /// Each record: its text, and its problem's message if it has one.
    var records: [String]
    var problems: [String]
    var description: String { input }
  }

  static let broken: [Broken] = [
    Broken(
      input: #"[{"content":"a"},]"#, records: [#"{"content":"a"}"#],
      problems: ["1:18: unexpected ']' after ','"]),
    Broken(
      input: #"[,{"content":"a"}]"#, records: [#"{"content":"a"}"#],
      problems: ["1:2: unexpected ','"]),
    Broken(
      input: #"[{"a":1},,{"b":2}]"#, records: [#"{"a":1}"#, #"{"b":2}"#],
      problems: ["1:10: unexpected ','"]),
    Broken(
      input: #"{"data":[{"a":1}],}"#, records: [#"{"a":1}"#],
      problems: ["1:19: unexpected '}' after ','"]),
    Broken(
      input: "[{\"a\":1}] xyz\n{\"b\":2}", records: [#"{"a":1}"#, #"{"b":2}"#],
      problems: ["1:11: unexpected 'x' between values"]),
    Broken(
      input: #"[{"a":1} {"b":2}]"#, records: [#"{"a":1}"#, #"{"b":2}"#],
      problems: ["1:10: missing ',' before '{'"]),
    Broken(
      input: "[{\"a\":1}}, {\"b\":2}]", records: [#"{"a":1}"#, #"{"b":2}"#],
      problems: ["1:9: unexpected '}'"]),
    // A stray bracket inside a record: the record is rejected, the others stay.
    Broken(
      input: "{\"a\":1]}\n{\"b\":2}\n{\"c\":3}\n{\"d\":4}",
      records: ["{\"a\":1]} ! unexpected ']'", #"{"b":2}"#, #"{"c":3}"#, #"{"d":4}"#],
      problems: []),
    Broken(
      input: "[{\"a\":[1}, {\"b\":2}, {\"c\":3}]",
      records: ["{\"a\":[1} ! unexpected '}'", #"{"b":2}"#, #"{"c":3}"#], problems: []),
    // A record cut short: the next line's record is still found.
    Broken(
      input: "{\"a\":\"x\n{\"b\":2}\n{\"c\":\"y\"\n{\"d\":4}",
      records: [
        "{\"a\":\"x ! a line break inside a string (escape it)", #"{"b":2}"#,
        "{\"c\":\"y\" ! unexpected '{'", #"{"d":4}"#,
      ], problems: []),
    Broken(
      input: "hello world\n{\"b\":2}", records: ["hello world ! unexpected 'h'", #"{"b":2}"#],
      problems: []),
    Broken(
      input: "[{\"a\":1},\n{\"b\":2", records: [#"{"a":1}"#, "{\"b\":2 ! unexpected end of input"],
      problems: ["2:7: unexpected end of input inside the array that starts at 1:1"]),
    Broken(
      input: "[{\"a\":1}]]\n{\"b\":2}", records: [#"{"a":1}"#, #"{"b":2}"#],
      problems: ["1:10: unexpected ']'"]),
    Broken(
      input: "{\"a\":1} oops, {\"b\":2} 12x [3]", records: [#"{"a":1}"#, #"{"b":2}"#, "12", "3"],
      problems: ["1:9: unexpected 'o' between values", "1:25: unexpected 'x' between values"]),
    // A broken record after another value on its line: the next line's value starts the next record.
    Broken(
      input: "{\"a\":1} {\n{\"b\":2}\n{\"c\":3}",
      records: [#"{"a":1}"#, "{ ! unexpected '{'", #"{"b":2}"#, #"{"c":3}"#], problems: []),
    Broken(
      input: "[{\"a\":1}, {\"b\"\n{\"c\":3},\n{\"d\":4}]",
      records: [#"{"a":1}"#, "{\"b\" ! unexpected '{'", #"{"c":3}"#, #"{"d":4}"#],
      problems: []),
    // A file cut short and padded with NUL bytes ends inside what it cut.
    Broken(
      input: "{\"a\":1}\n{\"b\":\"x\u{0}\u{0}\u{0}",
      records: [
        #"{"a":1}"#,
        "{\"b\":\"x\u{0}\u{0}\u{0} ! unexpected end of input inside a string (the rest of the input is 3 NUL bytes, as in a truncated file)",
      ], problems: []),
    Broken(
      input: "{\"a\":1,\u{0}",
      records: [
        "{\"a\":1,\u{0} ! unexpected end of input (the rest of the input is 1 NUL byte, as in a truncated file)"
      ], problems: []),
    // NUL bytes with more after them are only that.
    Broken(
      input: "{\"b\":\"x\u{0}\u{0}y\"}",
      records: ["{\"b\":\"x\u{0}\u{0}y\"} ! U+0000 inside a string (escape it)"], problems: []),
    // Closers with nothing open: one report for the run.
    Broken(
      input: "{\"a\":1}]]]]}}]\n{\"b\":2}", records: [#"{"a":1}"#, #"{"b":2}"#],
      problems: ["1:8: unexpected ']'"]),
    // Lines indented further right than the broken record stay in it.
    Broken(
      input: "{\"a\":1} {\"b\":[1,,\n              {\"c\":3}]}\n{\"d\":4}",
      records: [
        #"{"a":1}"#, "{\"b\":[1,,\n              {\"c\":3}]} ! unexpected ','", #"{"d":4}"#,
      ], problems: []),
  ]

  @Test(
    "a broken array or envelope: reported with its position, every record still found",
    arguments: broken)
  func brokenStructure(_ broken: Broken) {
    for chunk in [1, 3, 1 << 20] {
      let result = split(broken.input, chunk: chunk)
      let records = result.records.map { record in
        String(decoding: record.bytes, as: UTF8.self)
          + (record.problem.map { " ! " + $0.message } ?? "")
      }
      #expect(records == broken.records, "chunk \(chunk)")
      #expect(
        result.problems.map { "\($0.line):\($0.column): \($0.message)" } == broken.problems,
        "chunk \(chunk)")
    }
  }

  @Test(
    "a record that cannot be a review is kept as its first 64 KiB, cut at a character boundary",
    arguments: [
      "{\"content\":\"BODY", "BODY\n", "[{\"a\":1,,\"content\":\"BODY\"}]", "\"BODY\"",
      "{\"a\":[[[BODY]]]}",
    ])
  func sample(template: String) throws {
    // 100,000 bytes of three-byte characters: the sample cannot end on a whole one by chance.
    let body = String(repeating: "가", count: 33_334)
    let parts = template.components(separatedBy: "BODY")
    let input = Array((parts[0] + body + parts[1]).utf8)
    for chunk in [4096, 1 << 20] {
      let record = try #require(split(input, chunk: chunk).records.first)
      #expect(record.isTruncated)
      #expect(record.bytes.count <= JSONRecordSplitter.sampleLimit)
      #expect(record.bytes.count > JSONRecordSplitter.sampleLimit - 4)
      let start = record.column - 1  // all ASCII before it
      #expect(Array(input[start..<(start + record.bytes.count)]) == record.bytes)
      #expect(String(validating: record.bytes, as: UTF8.self) != nil)
    }
    // A valid object is kept whole, whatever its size: it may be a review.
    let valid = Array(("{\"content\":\"" + body + "\"}").utf8)
    let whole = try #require(split(valid, chunk: 4096).records.first)
    #expect(!whole.isTruncated)
    #expect(whole.bytes == valid)
  }

  @Test("garbage nested deeper than the limit is counted, not kept: its closers still match")
  func deepGarbage() throws {
    let deep =
      "{\"a\":," + String(repeating: "[", count: 100_000)
      + String(repeating: "]", count: 100_000) + "}\n{\"b\":2}"
    let result = split(deep, chunk: 777)
    #expect(result.records.map { $0.problem?.message } == ["unexpected ','", nil])
    #expect(result.records.last.map { String(decoding: $0.bytes, as: UTF8.self) } == #"{"b":2}"#)
  }

  @Test("nesting deeper than the parser's limit is a syntax error in the record, not a crash")
  func deepNesting() throws {
    let depth = JSONRecordSplitter.maximumDepth
    func nested(_ count: Int) -> String {
      "{\"a\":" + String(repeating: "[", count: count) + String(repeating: "]", count: count) + "}"
    }
    let result = split(nested(depth - 1) + "\n" + nested(depth) + "\n{}")
    #expect(result.records.map { $0.problem?.message } == [nil, "nesting deeper than 512", nil])
    #expect(result.records[1].problem?.column == 5 + depth)
  }

  @Test("a problem's position is the offending character's line and column in characters")
  func positions() throws {
    let input =
      "{\"data\": [\n  {\n    \"content\": \"가나\",\n    \"n\": 1,\n    \"가\": tru\n  }\n]}"
    let result = split(input, chunk: 4)
    let problem = try #require(result.records.first?.problem)
    #expect(problem.line == 5)
    #expect(problem.column == 13)
    #expect(problem.message == "unexpected U+000A in 'true'")
    #expect(result.records.first?.line == 2)
    #expect(result.records.first?.column == 3)
  }

  // MARK: - Property: layout does not change what is imported

  static let sampleRecords: [String] = [
    #"{"content":"ㄱㅏ e\u0301","n":1.50,"createdAt":"2022-07-21T11:53:58.652Z"}"#,
    #"{"content":"둘째\n줄","user":{"isAdmin":false,"tags":["a",{"b":[]}]},"createdAt":"2022-07-23T19:00:00"}"#,
    #"{"x":null,"content":"셋째 \ud55c\uae00","content":"중복","createdAt":1658404438652}"#,
    #"{"content":"","e":[],"o":{},"s":"\"\\\/"}"#,
  ]

  /// `value` written with random whitespace between its tokens.
  static func scatter(_ json: String, using generator: inout SeededGenerator) -> String {
    let whitespace = [" ", "\n", "\t", "\r\n", "  "]
    var output = ""
    var inString = false
    var escaped = false
    for scalar in json.unicodeScalars {
      let text = String(scalar)
      if inString {
        output += text
        if escaped {
          escaped = false
        } else if scalar == "\\" {
          escaped = true
        } else if scalar == "\"" {
          inString = false
        }
        continue
      }
      if scalar == "\"" { inString = true }
      if "{}[],:".unicodeScalars.contains(scalar), Bool.random(using: &generator) {
        output += whitespace.randomElement(using: &generator) ?? " "
      }
      output += text
      if "{}[],:".unicodeScalars.contains(scalar), Bool.random(using: &generator) {
        output += whitespace.randomElement(using: &generator) ?? " "
      }
    }
    return output
  }

  @Test(
    "random whitespace, pretty-printing, arrays, envelopes and concatenation import the same JSON Lines"
  )
  func layoutDoesNotMatter() throws {
    let expected = try importLines(Self.sampleRecords.joined(separator: "\n"))
    #expect(expected.split(separator: "\n").count == Self.sampleRecords.count)
    var generator = SeededGenerator(seed: 12)
    for round in 0..<200 {
      var text = Bool.random(using: &generator) ? "\u{FEFF}" : ""
      var remaining = Self.sampleRecords[...]
      while !remaining.isEmpty {
        let take = Int.random(in: 1...remaining.count, using: &generator)
        let group = remaining.prefix(take).map { Self.scatter($0, using: &generator) }
        remaining = remaining.dropFirst(take)
        let separator = ["", " ", "\n", "\n\n", "\t"].randomElement(using: &generator) ?? ""
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: text += group.joined(separator: separator) + separator
        case 1: text += "[" + group.joined(separator: ",\n") + "]" + separator
        case 2: text += #"{"data":["# + group.joined(separator: ",") + "]}" + separator
        default:
          text +=
            #"{"ok":true,"meta":{"data":1},"data":["# + group.joined(separator: ", ")
            + #"],"page":[1,2]}"# + separator
        }
      }
      let chunk = Int.random(in: 1...97, using: &generator)
      #expect(try importLines(text, chunk: chunk) == expected, "round \(round): \(text)")
    }
  }

  func importLines(_ input: String, chunk: Int = 1 << 20) throws -> String {
    var filter = try ReviewImportFilter { reject in Issue.record("rejected: \(reject.message)") }
    var output: [UInt8] = []
    let bytes = Array(input.utf8)
    var start = 0
    while start < bytes.count {
      let end = min(start + chunk, bytes.count)
      try filter.process(Array(bytes[start..<end]), into: &output)
      start = end
    }
    filter.finish(into: &output)
    #expect(filter.structureProblemCount == 0)
    return String(decoding: output, as: UTF8.self)
  }

  // MARK: - Content normalization

  @Test("the content normalizer agrees with ICU NFC on random text with escapes")
  func normalizerAgreesWithICU() throws {
    let pieces: [String] = [
      "가", "각", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{1112}", "\u{1175}", "\u{11C2}", "e",
      "\u{301}", "\u{323}", "A", "\u{30A}", "\u{212B}", "\u{F900}", "ㄱ", "ㅏ", "⭐", "\u{FE0F}",
      " ", "\\n", "\\u1100", "\\u1161", "\\u0301", "\\\"", "\\\\", "\\ud83d\\ude00", "\u{1113}",
      "\u{D7B0}", "\u{A960}", "é", "\u{0344}", "\u{0F73}",
    ]
    var normalizer = try JSONStringNormalizer()
    let nfc = try ICUNormalizer(.nfc)
    var generator = SeededGenerator(seed: 5)
    for _ in 0..<3000 {
      let count = Int.random(in: 0...12, using: &generator)
      let body = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
      let token = Array(("\"" + body + "\"").utf8)
      var output: [UInt8] = []
      normalizer.normalize(token, into: &output)
      let original = try #require(try JSONParser.parse(token).stringValue)
      let result = try JSONParser.parse(output).stringValue
      #expect(
        result.map { Array($0.unicodeScalars) } == Array(nfc.normalized(original).unicodeScalars),
        "\(body)")
      if nfc.normalized(original).unicodeScalars.elementsEqual(original.unicodeScalars) {
        #expect(output == token, "unchanged text keeps its escapes: \(body)")
      }
    }
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var scalars = Substring(self).unicodeScalars
    while let first = scalars.first, " \t\r\n".unicodeScalars.contains(first) {
      scalars.removeFirst()
    }
    while let last = scalars.last, " \t\r\n".unicodeScalars.contains(last) { scalars.removeLast() }
    return String(scalars)
  }
}
