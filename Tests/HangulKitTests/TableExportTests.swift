import Foundation
import HangulKit
import Testing

/// hangul-reviews(1): table exports. Their fast path must accept exactly the
/// records the parser does; their fields must be written as each format reads them.
struct TableExportTests {
  /// The fixture's records, each on one line, as seeds for mutations.
  static let seeds: [[UInt8]] = [
    #"{"content": "e\u0301 ㄱㅏ", "z": 0, "a": -0.0, "m": 1.50, "e": 1e3, "E": 2E-7, "big": 123456789012345678901234567890, "esc": "tab\there \"quoted\" \\ \/ \u00e9 \ud83d\ude00 \u0000 \b\f\n\r", "nul": null, "t": true, "f": false, "nested": {"b": [1, {"c": [ ]}, "x"], "a": {}}, "dup": 1, "dup": 2, "한글키": "값"}"#,
    #"{"b": 1, "content": "이미 NFC", "a": [ 1 , 2 ], "createdAt": "2022-07-21T11:53:58.652Z"}"#,
    #"{"content": "ᄒ\u1161ᆫ 😀", "createdAt": 1658404438.5}"#,
  ].map { Array($0.utf8) }

  /// Bytes that make or break JSON.
  static let alphabet: [UInt8] =
    Array(#"{}[]",:\ /"0123456789.eE+-tfnulrbu"#.utf8) + [
      0x00, 0x0A, 0x1F, 0x80, 0xC0, 0xE0, 0xED, 0xF0, 0xF5, 0xFF,
    ]

  @Test("JSONValidator accepts exactly what JSONParser parses, on 20,000 mutated records")
  func validatorAgreesWithParser() {
    var generator = SeededGenerator(seed: 19)
    var accepted = 0
    for round in 0..<20_000 {
      var bytes = Self.seeds[round % Self.seeds.count]
      for _ in 0...Int.random(in: 0...2, using: &generator) {
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        let byte = Self.alphabet.randomElement(using: &generator) ?? 0
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[position] = byte
        case 1: bytes.insert(byte, at: position)
        default: bytes.remove(at: position)
        }
      }
      let parses = (try? JSONParser.parse(bytes)) != nil
      if parses {
        accepted += 1
        let fromValidator = JSONValidator.memberIndex(bytes)?.members ?? []
        let scanned = JSONMemberIndex(bytes).members
        #expect(
          fromValidator.map(\.name) == scanned.map(\.name)
            && fromValidator.map(\.value) == scanned.map(\.value),
          "\(fromValidator) \(scanned) \(String(decoding: bytes, as: UTF8.self))")
      }
      #expect(
        JSONValidator.isValid(bytes) == parses, "\(String(decoding: bytes, as: UTF8.self))")
    }
    #expect(accepted > 1000)
    #expect(
      !JSONValidator.isValid(
        Array(String(repeating: "[", count: 513).utf8)
          + Array(String(repeating: "]", count: 513).utf8)))
    #expect(
      JSONValidator.isValid(
        Array(String(repeating: "[", count: 512).utf8)
          + Array(String(repeating: "]", count: 512).utf8)))
  }

  @Test("--to csv skips exactly the records --to jsonl skips")
  func fastPathSkipsWhatTheParserSkips() throws {
    var generator = SeededGenerator(seed: 7)
    var lines: [UInt8] = []
    for round in 0..<3000 {
      var bytes = Self.seeds[round % Self.seeds.count]
      let position = Int.random(in: 0..<bytes.count, using: &generator)
      if round % 2 == 0 { bytes[position] = Self.alphabet.randomElement(using: &generator) ?? 0 }
      lines += bytes.map { $0 == 0x0A ? 0x20 : $0 } + [0x0A]
    }
    func skipped(_ shape: ReviewExportFilter.Shape) throws -> [String] {
      var messages: [String] = []
      var filter = ReviewExportFilter(
        to: shape, table: ReviewTableWriter(format: .csv, columns: ["big"], nul: .replace)
      ) { messages.append($0.description) }
      _ = try filter.filtered(lines)
      return messages
    }
    let jsonl = try skipped(.jsonl)
    #expect(jsonl.count > 100)
    #expect(try skipped(.csv) == jsonl)
  }

  @Test(
    "fields are written as each format reads them",
    arguments: [
      (
        ReviewTableWriter.Format.csv, #"{"a":"x,\"y\"\r\nz","b":null,"c":"","d":"\\."}"#,
        "a,b,c,d\r\n\"x,\"\"y\"\"\r\nz\",,\"\",\"\\.\"\r\n"
      ),
      (.tsv, #"{"a":"x\ty\\z\r\n","b":null,"c":"","d":1.50}"#, "x\\ty\\\\z\\r\\n\t\\N\t\t1.50\n"),
      (
        .sql(.sqlite), #"{"a":"it's\r\n","b":null}"#,
        "BEGIN;\nCREATE TABLE IF NOT EXISTS \"t\" (\"a\" text, \"b\" text);\nINSERT INTO \"t\" (\"a\", \"b\") VALUES\n(CAST(X'697427730D0A' AS TEXT), NULL);\nCOMMIT;\n"
      ),
      (
        .sql(.postgresql), #"{"a":"it's\\\r\n","b":{"x" : [1, 2.0]}}"#,
        "BEGIN;\nCREATE TABLE IF NOT EXISTS \"t\" (\"a\" text, \"b\" text);\nINSERT INTO \"t\" (\"a\", \"b\") VALUES\n(E'it''s\\\\\\r\\n', '{\"x\":[1,2.0]}');\nCOMMIT;\n"
      ),
    ])
  func fields(format: ReviewTableWriter.Format, record: String, expected: String) {
    var writer = ReviewTableWriter(format: format, table: "t")
    var output: [UInt8] = []
    #expect(writer.write(Array(record.utf8), into: &output) == nil)
    writer.finish(into: &output)
    #expect(String(decoding: output, as: UTF8.self) == expected)
  }

  @Test("member names that cannot be column names skip the records, with the reason")
  func badDefaultColumnNames() {
    let long = String(repeating: "가", count: 22)
    for (format, record, reason) in [
      (ReviewTableWriter.Format.sql(.postgresql), #"{"\#(long)":1}"#, "63 bytes"),
      (.csv, #"{"a\u0000b":1}"#, "holds U+0000"),
    ] {
      var writer = ReviewTableWriter(format: format)
      var output: [UInt8] = []
      #expect(writer.write(Array(record.utf8), into: &output)?.contains(reason) == true)
      #expect(writer.write(Array(record.utf8), into: &output)?.contains(reason) == true)
      #expect(output.isEmpty)
    }
    var sqlite = ReviewTableWriter(format: .sql(.sqlite))
    var output: [UInt8] = []
    #expect(sqlite.write(Array(#"{"\#(long)":1}"#.utf8), into: &output) == nil)
  }

  @Test("columns find members by their decoded names, nested paths included")
  func escapedNames() {
    let record = Array(
      #"{"c\u006fntent":"x","user":{"user\u004eame":"민지","n":1},"content":"y"}"#.utf8)
    let index = JSONMemberIndex(record)
    let content = index.valueRange(of: [Array("content".utf8)], in: record)
    #expect(content.map { String(decoding: record[$0], as: UTF8.self) } == #""x""#)
    let name = index.valueRange(of: [Array("user".utf8), Array("userName".utf8)], in: record)
    #expect(name.map { String(decoding: record[$0], as: UTF8.self) } == #""민지""#)
    #expect(index.valueRange(of: [Array("user".utf8), Array("x".utf8)], in: record) == nil)
    #expect(index.valueRange(of: [Array("conten".utf8)], in: record) == nil)
  }
}
