import Foundation
import HangulKit
import Testing

/// `hangul-compose --output keystrokes` on text logs: each key's commit and
/// preedit, as ``HangulInputContext`` reports them.
@Suite("The per-key view of text logs")
struct KeystrokeLogTests {
  /// The objects the filter writes for `log`, parsed.
  static func records(
    _ log: String, keys: KeyEncoding = .qwerty, keyboard: String = "2",
    options: ComposerOptions = ComposerOptions()
  ) throws -> [[String: Any]] {
    try records(Array(log.utf8), keys: keys, keyboard: Keyboard(id: keyboard), options: options)
  }

  static func records(
    _ log: [UInt8], keys: KeyEncoding, keyboard: Keyboard, options: ComposerOptions
  ) throws -> [[String: Any]] {
    var filter = KeystrokeLogFilter(keys: keys, keyboard: keyboard, options: options)
    let output = try filter.filtered(log)
    return try output.split(separator: 0x0A).map { line in
      try #require(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }
  }

  /// Each record as key commit/preedit.
  static func pairs(_ records: [[String: Any]]) -> [String] {
    records.map { record in
      "\(record["key"] as? String ?? "?") \(record["commit"] as? String ?? "?")/\(record["preedit"] as? String ?? "?")"
    }
  }

  @Test(
    "the issue's examples, exactly",
    arguments: [
      (
        "dkssud\n", "2",
        ["d /ㅇ", "k /아", "s /안", "s 안/ㄴ", "u /녀", "d /녕", "Enter 녕/"]
      ),
      ("rkt\u{8}s\n", "2", ["r /ㄱ", "k /가", "t /갓", "Backspace /가", "s /간", "Enter 간/"]),
      (
        "jfshea\n", "3f",
        ["j /ㅇ", "f /아", "s /안", "h 안/ㄴ", "e /녀", "a /녕", "Enter 녕/"]
      ),
    ])
  func issueExamples(log: String, keyboard: String, expected: [String]) throws {
    let records = try Self.records(log, keyboard: keyboard)
    #expect(Self.pairs(records) == expected)
    #expect(records.map { $0["n"] as? Int } == Array(1...expected.count))
    #expect(records.allSatisfy { $0.count == 4 })
  }

  @Test("the objects as written: members in order, no spaces")
  func exactBytes() throws {
    var filter = KeystrokeLogFilter(keys: .qwerty)
    let output = try filter.filtered(Array("d\n".utf8))
    #expect(
      String(decoding: output, as: UTF8.self)
        == "{\"n\":1,\"key\":\"d\",\"commit\":\"\",\"preedit\":\"ㅇ\"}\n"
        + "{\"n\":2,\"key\":\"Enter\",\"commit\":\"ㅇ\",\"preedit\":\"\"}\n")
  }

  @Test("a key the keyboard does not take commits what was composing, and is itself text")
  func notTaken() throws {
    #expect(try Self.pairs(Self.records("r1 \n")) == ["r /ㄱ", "1 ㄱ1/", "   /", "Enter /"])
    // Under --keys jamo a letter is text; a jamo is a key.
    #expect(
      try Self.pairs(Self.records("ㄱa\"\n", keys: .jamo))
        == ["ㄱ /ㄱ", "a ㄱa/", "\" \"/", "Enter /"])
  }

  @Test("Backspace: a step, then the character before the cursor (delete), then nothing")
  func backspace() throws {
    let records = try Self.records("rk \u{8}\u{8}\u{8}\u{8}\n")
    #expect(
      Self.pairs(records)
        == [
          "r /ㄱ", "k /가", "  가 /", "Backspace /", "Backspace /", "Backspace /", "Backspace /",
          "Enter /",
        ])
    #expect(records.map { $0["delete"] as? Int ?? 0 } == [0, 0, 0, 1, 1, 0, 0, 0])
    // A newline ends the line for good.
    let next = try Self.records("r\n\u{8}\n")
    #expect(next[2]["delete"] == nil)
  }

  @Test("the separator commits; the literal prefix makes the next character text and has no object")
  func controls() throws {
    #expect(
      try Self.pairs(Self.records("r\u{200C}k\u{2060}k\n"))
        == ["r /ㄱ", "\u{200C} ㄱ/", "k /ㅏ", "k ㅏk/", "Enter /"])
  }

  @Test("a byte that is not UTF-8 is a key of its own, written as U+FFFD with its value")
  func invalidByte() throws {
    let records = try Self.records(
      Array("r".utf8) + [0xFF] + Array("\n".utf8), keys: .qwerty, keyboard: .twoSet,
      options: ComposerOptions())
    #expect(Self.pairs(records) == ["r /ㄱ", "\u{FFFD} ㄱ\u{FFFD}/", "Enter /"])
    #expect(records[1]["byte"] as? Int == 255)
  }

  @Test("a phone keypad's press that retypes the jamo before says what it deletes")
  func keypadEdit() throws {
    // 천지인: ㅇ ㅣ ㆍ ㄴ commits nothing yet; ㅅ then ㅅ again makes 않.
    let records = try Self.records("ㅇㅣㆍㄴㅅㅅ\n", keys: .jamo, keyboard: "cheonjiin")
    #expect(records.contains { $0["delete"] as? Int ?? 0 > 0 })
    // Applying each object in turn (delete, then insert the commit) gives the text.
    var text = String.UnicodeScalarView()
    for record in records {
      text.removeLast(record["delete"] as? Int ?? 0)
      text.append(contentsOf: (record["commit"] as? String ?? "").unicodeScalars)
    }
    #expect(String(text) == "않")
  }

  /// libhangul's key-by-key fixtures (tools/libhangul-oracle/libhangul-keys.c):
  /// every key string typed as a line of the log. A key libhangul takes has
  /// its commit and preedit; one it does not take (0) commits the same and
  /// is itself text; Enter commits what hangul_ic_flush commits.
  /// libhangul's option sets, by the name the fixtures use.
  static let optionSets: [String: ComposerOptions] = [
    "default": ComposerOptions(), "auto-reorder": ComposerOptions(autoReorder: true),
    "double-stroke": ComposerOptions(doubleStroke: true),
    "no-bare-clusters": ComposerOptions(bareClusters: false),
  ]

  static let fixtureCases: [(String, String)] = [
    "2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn",
  ]
  .flatMap { id in optionSets.keys.sorted().map { (id, $0) } }

  @Test(
    "every key's commit and preedit are libhangul's, on 300 key strings of each keyboard and option set",
    arguments: fixtureCases)
  func libhangulAgreement(id: String, optionSet: String) throws {
    let options = try #require(Self.optionSets[optionSet])
    let fixture = repositoryRoot.appendingPathComponent(
      "Tests/HangulInputTests/Fixtures/libhangul-keys/\(id).\(optionSet).txt.bz2")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["bzip2", "-dc", fixture.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    var log: [UInt8] = []
    var expected: [String] = []
    var strings = 0
    for record in Array(data).split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
      let fields = record.split(separator: 0x09, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
      if fields[0].isEmpty {
        log.append(0x0A)
        expected.append("Enter \(fields[1])/")
        strings += 1
        if strings == 300 { break }
        continue
      }
      let key = Array(fields[0].utf8)[0]
      log.append(key)
      let name = key == 0x08 || key == 0x7F ? "Backspace" : String(Unicode.Scalar(key))
      let taken = fields[0].hasSuffix("1")
      let text = taken || name == "Backspace" ? "" : name
      expected.append("\(name) \(fields[1])\(text)/\(fields[2])")
    }
    let records = try Self.records(log, keys: .qwerty, keyboard: Keyboard(id: id), options: options)
    let found = Self.pairs(records)
    #expect(strings == 300)
    #expect(expected.count > 3_000)
    #expect(found.count == expected.count)
    let mismatches = zip(found, expected).enumerated().filter { $0.element.0 != $0.element.1 }
    #expect(mismatches.isEmpty, "\(mismatches.count) keys, first: \(mismatches.prefix(3))")
  }
}
