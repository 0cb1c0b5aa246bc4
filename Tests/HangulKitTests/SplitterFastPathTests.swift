import HangulKit
import Testing

/// The record splitter's fast paths (string bodies eight bytes at a time,
/// runs of multi-byte characters, structure inside a record without the
/// general state machine, columns counted eight bytes at a time) against
/// oracles: JSONParser and JSONMemberIndex for what is valid and where the
/// members are, and the same input fed one byte at a time (every string
/// byte through the general state machine, every sequence cut between
/// chunks) or cut at every offset for where records, problems and positions are.
@Suite("JSON record splitter fast paths")
struct SplitterFastPathTests {
  /// Text pieces for string bodies: ASCII runs longer than a word, every
  /// escape, Hangul (precomposed and conjoining), two- and four-byte characters.
  static let pieces: [String] = [
    "a", "hello, world ", "0123456789abcdef", " ", "가", "한글 리뷰", "\u{1100}\u{1161}\u{11A8}", "é",
    "😀", "⭐", "👨‍👩‍👧", #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\r\n"#, #"\t"#, #"\u0000"#, #"\u00e9"#,
    #"\uD83D\uDE00"#, #"\b\f"#, "~", "\u{7F}",
  ]

  static func randomString(_ generator: inout SeededGenerator) -> String {
    var text = "\""
    for _ in 0..<Int.random(in: 0...12, using: &generator) {
      text += pieces.randomElement(using: &generator) ?? ""
    }
    return text + "\""
  }

  static func randomSpace(_ generator: inout SeededGenerator) -> String {
    ["", "", "", " ", "\t", "  ", "\r\n  "].randomElement(using: &generator) ?? ""
  }

  static func randomValue(_ generator: inout SeededGenerator, depth: Int) -> String {
    let choice = Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &generator)
    switch choice {
    case 0: return randomString(&generator)
    case 1:
      return ["0", "-0", "12", "-3.25", "1e9", "2E-7", "1.5e+10", "123456789012345678901234567890"]
        .randomElement(using: &generator) ?? "0"
    case 2: return ["true", "false", "null"].randomElement(using: &generator) ?? "null"
    case 3: return randomString(&generator)
    case 4:
      let elements = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
        randomSpace(&generator) + randomValue(&generator, depth: depth + 1)
          + randomSpace(&generator)
      }
      return "[" + elements.joined(separator: ",") + "]"
    default: return randomObject(&generator, depth: depth + 1)
    }
  }

  static func randomObject(_ generator: inout SeededGenerator, depth: Int) -> String {
    let names = ["_id", "content", "user", "userName", "createdAt", "c\\u006fntent", "한글", "a"]
    let members = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
      let name = "\"" + (names.randomElement(using: &generator) ?? "a") + "\""
      return randomSpace(&generator) + name + randomSpace(&generator) + ":"
        + randomSpace(&generator) + randomValue(&generator, depth: depth) + randomSpace(&generator)
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  /// Bytes that make or break JSON and UTF-8.
  static let alphabet: [UInt8] =
    Array(#"{}[]",:\ /"0123456789.eE+-tfnulu"#.utf8) + [
      0x00, 0x0A, 0x0D, 0x1F, 0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xEA, 0xED, 0xF0, 0xF4, 0xF5, 0xFF,
    ]

  /// `count` records on lines of their own, every other one mutated (one to three bytes).
  static func lines(count: Int, seed: UInt64) -> [[UInt8]] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { round in
      var bytes = Array(randomObject(&generator, depth: 0).utf8)
      if round % 2 == 1 {
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
          let position = Int.random(in: 0..<bytes.count, using: &generator)
          let byte = alphabet.randomElement(using: &generator) ?? 0
          switch Int.random(in: 0..<3, using: &generator) {
          case 0: bytes[position] = byte
          case 1: bytes.insert(byte, at: position)
          default: if bytes.count > 1 { bytes.remove(at: position) }
          }
        }
      }
      return bytes.map { $0 == 0x0A ? 0x20 : $0 }
    }
  }

  /// What the splitter makes of an input, in a form that compares.
  struct Outcome: Equatable, CustomStringConvertible {
    var records: [String] = []
    var problems: [JSONRecordSplitter.Problem] = []

    /// The first record or problem where two outcomes part.
    func difference(from other: Outcome) -> String {
      for (mine, theirs) in zip(records, other.records) where mine != theirs {
        return "\(mine)\n  vs \(theirs)"
      }
      for (mine, theirs) in zip(problems, other.problems) where mine != theirs {
        return "\(mine)\n  vs \(theirs)"
      }
      return
        "\(records.count) records, \(problems.count) problems vs \(other.records.count), \(other.problems.count)"
    }

    var description: String { "\(records.count) records, \(problems.count) problems" }
  }

  static func describe(_ record: JSONRecordSplitter.Record) -> String {
    let members = record.members.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
    return
      "\(record.index)@\(record.line):\(record.column) \(record.isObject) \(record.hasWhitespace) "
      + "\(record.problem.map { "\($0.message) \($0.line):\($0.column)+\($0.offset)" } ?? "ok") "
      + "[\(members)] \(record.bytes)"
  }

  /// Splits `input` cut before each offset in `cuts`.
  static func split(_ input: [UInt8], cuts: [Int]) -> Outcome {
    var splitter = JSONRecordSplitter()
    var outcome = Outcome()
    var start = 0
    for end in cuts + [input.count] where end >= start {
      splitter.feed(Array(input[start..<end]), isLast: end == input.count) {
        outcome.records.append(describe($0))
      }
      outcome.problems += splitter.takeStructureProblems()
      start = end
    }
    return outcome
  }

  @Test("valid records agree with JSONParser and JSONMemberIndex; broken ones are reported")
  func agreesWithTheParser() {
    var valid = 0
    for line in Self.lines(count: 4000, seed: 1919) {
      var splitter = JSONRecordSplitter()
      var records: [JSONRecordSplitter.Record] = []
      splitter.feed(line, isLast: true) { records.append($0) }
      let problems = splitter.takeStructureProblems()
      let text = String(decoding: line, as: UTF8.self)
      if (try? JSONParser.parse(line)) != nil, line.first == UInt8(ascii: "{") {
        valid += 1
        #expect(records.count == 1 && problems.isEmpty, "\(text)")
        guard let record = records.first else { continue }
        #expect(record.problem == nil, "\(text): \(String(describing: record.problem))")
        #expect(record.bytes == line, "\(text)")
        let index = JSONMemberIndex(line)
        #expect(record.members.map(\.name) == index.members.map(\.name), "\(text)")
        #expect(record.members.map(\.value) == index.members.map(\.value), "\(text)")
      } else {
        #expect(
          records.contains { $0.problem != nil } || !problems.isEmpty
            || line.first != UInt8(ascii: "{"), "\(text)")
      }
    }
    #expect(valid > 1500)
  }

  @Test("byte-at-a-time feeding (the general state machine) gives what the fast paths give")
  func byteAtATime() {
    for seed: UInt64 in [1, 2, 3] {
      let input = Self.lines(count: 150, seed: seed).joined(separator: [0x0A]).map { $0 }
      let whole = Self.split(input, cuts: [])
      #expect(whole.records.count >= 50 && whole.records.contains { $0.contains(" ok ") })
      let bytes = Self.split(input, cuts: Array(1..<input.count))
      #expect(bytes == whole, "seed \(seed): \(bytes.difference(from: whole))")
      let sevens = Self.split(input, cuts: Array(stride(from: 7, to: input.count, by: 7)))
      #expect(sevens == whole, "seed \(seed): \(sevens.difference(from: whole))")
    }
  }

  @Test("a cut at every offset of the input gives the same records, problems and positions")
  func cutAtEveryOffset() {
    let envelope =
      Array(#"{"ok":true, "data":[ "#.utf8)
      + Self.lines(count: 12, seed: 7).joined(separator: Array(",\n  ".utf8)) + Array("\n]}".utf8)
    let minified = Self.lines(count: 12, seed: 8).joined(separator: [0x20]).map { $0 }
    for input in [envelope, minified] {
      let whole = Self.split(input, cuts: [])
      for offset in 0...input.count {
        let cut = Self.split(input, cuts: [offset])
        #expect(cut == whole, "cut at \(offset): \(cut.difference(from: whole))")
        if cut != whole { break }
      }
    }
  }

  @Test(
    "a special byte or a multi-byte character at every place of a string's eight-byte words",
    arguments: [
      [0x22], [0x5C, 0x6E], [0x0A], [0x00], [0x1F], [0x7F], [0xC3, 0xA9], [0xEA, 0xB0, 0x80],
      [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xE0, 0x9F, 0x80], [0xF0, 0x9F, 0x98, 0x80],
      [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0x80], [0xFF], [0xEA, 0xB0], [0xF0, 0x9F, 0x98],
    ] as [[UInt8]])
  func specialByteAtEveryPlace(special: [UInt8]) {
    for before in 0..<20 {
      for after in [0, 1, 5, 9] {
        let body =
          Array(repeating: UInt8(ascii: "x"), count: before) + special
          + Array(repeating: UInt8(ascii: "y"), count: after)
        let line = Array(#"{"content":""#.utf8) + body + Array(#"","n":1}"#.utf8)
        let whole = Self.split(line, cuts: [])
        let bytes = Self.split(line, cuts: Array(1..<line.count))
        #expect(bytes == whole, "\(body): \(bytes.difference(from: whole))")
        var splitter = JSONRecordSplitter()
        var problem: JSONRecordSplitter.Problem?
        splitter.feed(line, isLast: true) { problem = problem ?? $0.problem }
        let parses = (try? JSONParser.parse(line)) != nil
        #expect((problem == nil) == parses, "\(body)")
        if special == [0x22], let problem {
          // The string ends early: what follows is the problem.
          #expect(problem.column == 13 + before + 1, "\(body)")
        }
      }
    }
  }
}

@Suite("UTF-8 validator fast path")
struct UTF8ValidatorFastPathTests {
  /// The first invalid byte's place as the validator reports it, fed in chunks of `chunk` bytes.
  static func firstInvalid(_ bytes: [UInt8], chunk: Int) -> [Int]? {
    var validator = UTF8Validator()
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + chunk)
      Array(bytes[start..<end]).withUnsafeBufferPointer { validator.scan($0) }
      start = end
    }
    validator.finish()
    return validator.firstInvalid.map { [$0.line, $0.column, Int($0.byte)] }
  }

  @Test("whole three-byte sequences taken at once give the places byte-at-a-time feeding gives")
  func agreesByteAtATime() {
    var generator = SeededGenerator(seed: 31)
    let pieces: [[UInt8]] = [
      Array("가".utf8), Array("한글 ".utf8), Array("\n".utf8), Array("abcdefghij".utf8),
      [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEA, 0xB0],
      [0xEF, 0xBF, 0xBF], [0xE1, 0x80, 0x41], [0x80], Array("😀".utf8), [0xC3, 0xA9],
    ]
    for _ in 0..<3000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...10, using: &generator) {
        bytes += pieces.randomElement(using: &generator) ?? []
      }
      let whole = Self.firstInvalid(bytes, chunk: 1 << 20)
      #expect(Self.firstInvalid(bytes, chunk: 1) == whole, "\(bytes)")
      #expect((whole == nil) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
    }
  }
}

@Suite("table rows from the splitter's member list")
struct TableRowFastPathTests {
  @Test(
    "export writes the rows the general path (JSONMemberIndex, JSONParser's check) writes",
    arguments: [
      ReviewTableWriter.Format.csv, .tsv, .sql(.sqlite), .sql(.postgresql),
    ])
  func agreesWithGeneralPath(format: ReviewTableWriter.Format) throws {
    let columns = ["content", "user.userName", "_id", "a", "한글", "user", "createdAt.x"]
    var generator = SeededGenerator(seed: 23)
    var records: [[UInt8]] = []
    while records.count < 1500 {
      let text = SplitterFastPathTests.randomObject(&generator, depth: 0)
      let bytes = Array(text.utf8)
      // Records the export takes: an object with a string content, no creation time.
      guard case .object(let members)? = try? JSONParser.parse(bytes),
        members.contains(where: { $0.name == "content" }),
        members.allSatisfy({ $0.name != "content" || $0.value.stringValue != nil }),
        !members.contains(where: { $0.name == "createdAt" || $0.name == "created_at" })
      else { continue }
      records.append(bytes)
    }
    for nul in ReviewTableWriter.NULPolicy.allCases {
      var general = ReviewTableWriter(format: format, columns: columns, nul: nul)
      var expected: [UInt8] = []
      var expectedSkips = 0
      for record in records where general.write(record, into: &expected) != nil {
        expectedSkips += 1
      }
      general.finish(into: &expected)
      let shape: ReviewExportFilter.Shape =
        switch format {
        case .csv: .csv
        case .tsv: .tsv
        case .sql: .sql
        }
      var skips = 0
      var filter = ReviewExportFilter(
        to: shape, table: ReviewTableWriter(format: format, columns: columns, nul: nul)
      ) { _ in skips += 1 }
      let input = records.joined(separator: Array("\n".utf8)).map { $0 }
      let output = try filter.filtered(input)
      #expect(skips == expectedSkips, "\(format) \(nul)")
      #expect(nul == .replace || skips > 0, "some records hold U+0000")
      #expect(String(decoding: output, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
  }
}
