@testable import HangulKit
import Testing

/// ``EventLineReader`` reads event lines as they stream in; ``JSONParser``
/// reads a whole line. On random lines, well-formed and broken, read in
/// random pieces, the reader must accept exactly the objects the parser
/// accepts, keep what the parser finds of the members an event uses, and
/// reject everything else with the parser's message at the parser's place.
@Suite("Event lines read as they stream in, against the whole-line parser")
struct EventLineReaderTests {
  static let names = [
    "key", "code", "text", "t", "doc", "shiftKey", "ke", "keys", "x", "k\\u0065y",
  ]

  static func randomString(_ generator: inout SeededGenerator) -> String {
    let pieces = [
      "a", "ㄱ", "가", "é", "😀", "\\n", "\\\"", "\\\\", "\\/", "\\u0041", "\\uAC00", "\\ud83d\\ude00",
      " ", "\\t", "Backspace", "KeyR",
    ]
    return "\""
      + (0..<Int.random(in: 0...4, using: &generator)).map { _ in
        pieces.randomElement(using: &generator) ?? "a"
      }.joined() + "\""
  }

  static func randomValue(_ generator: inout SeededGenerator, depth: Int) -> String {
    switch Int.random(in: 0..<10, using: &generator) {
    case 0..<3: return randomString(&generator)
    case 3:
      return ["0", "-1", "12.5", "1e3", "-0.25E-2", "100", "1e999", "17000000000000003366"]
        .randomElement(using: &generator) ?? "0"
    case 4: return ["true", "false", "null"].randomElement(using: &generator) ?? "null"
    case 5 where depth < 3:
      return "["
        + (0..<Int.random(in: 0...3, using: &generator)).map { _ in
          randomValue(&generator, depth: depth + 1)
        }.joined(separator: ",") + "]"
    case 6 where depth < 3:
      return randomObject(&generator, depth: depth + 1)
    default: return randomString(&generator)
    }
  }

  static func randomObject(_ generator: inout SeededGenerator, depth: Int) -> String {
    let members = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
      let name = names.randomElement(using: &generator) ?? "key"
      let space = Bool.random(using: &generator) ? " " : ""
      return "\"\(name)\"\(space):\(space)" + randomValue(&generator, depth: depth)
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  /// A random line: an object, now and then another value, and now and then broken.
  static func randomLine(_ generator: inout SeededGenerator) -> [UInt8] {
    var line = Array(
      (Int.random(in: 0..<10, using: &generator) == 0
        ? randomValue(&generator, depth: 0) : randomObject(&generator, depth: 0)).utf8)
    if Bool.random(using: &generator) { line = Array("  ".utf8) + line + Array(" \r".utf8) }
    let mutations =
      Int.random(in: 0..<3, using: &generator) == 0 ? 0 : Int.random(in: 0...2, using: &generator)
    for _ in 0..<mutations where !line.isEmpty {
      let index = Int.random(in: 0..<line.count, using: &generator)
      let bytes: [UInt8] = [
        0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x75, 0x30, 0x2D, 0x2E, 0x65, 0x00, 0x1F,
        0x80, 0xC0, 0xE0, 0xED, 0xF4, 0xFF, 0x20, 0x74, 0x6E,
      ]
      switch Int.random(in: 0..<4, using: &generator) {
      case 0: line.remove(at: index)
      case 1: line.insert(bytes.randomElement(using: &generator) ?? 0, at: index)
      case 2: line[index] = bytes.randomElement(using: &generator) ?? 0
      default: line.removeSubrange(index...)
      }
    }
    return line
  }

  /// What the reader made of `line` read in random pieces: the line, and the rejection.
  static func read(_ line: [UInt8], _ generator: inout SeededGenerator, limit: Int = 1 << 20)
    -> (EventLineReader.Line, EventLineReader.Rejection?)
  {
    var reader = EventLineReader(limit: limit)
    reader.byteOrderMarkAllowed = false
    let bytes = line + [0x0A]
    var rejection: EventLineReader.Rejection?
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + Int.random(in: 1...8, using: &generator))
      let piece = Array(bytes[start..<end])
      var offset = 0
      while offset < piece.count {
        let (next, ended) = piece.withUnsafeBufferPointer { reader.read($0, from: offset) }
        if let found = reader.takeRejection() {
          #expect(rejection == nil, "rejected twice")
          rejection = found
        }
        if ended {
          #expect(end == bytes.count && next == piece.count)
          return (reader.takeLine(), rejection)
        }
        offset = next
      }
      start = end
    }
    // An object left open at its newline goes on in the next line (SPEC
    // 3.6, pretty-printed events); here the input ends instead.
    reader.endLine()
    if let found = reader.takeRejection() {
      #expect(rejection == nil, "rejected twice")
      rejection = found
    }
    #expect(rejection == nil || rejection?.line == 0, "the error is on the line")
    return (reader.takeLine(), rejection)
  }

  /// A value as the reader keeps it: containers without their contents.
  static func kept(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object: .object([])
    case .array: .array([])
    default: value
    }
  }

  /// The column of byte `offset` of `line`, counted in characters from 1.
  static func column(of offset: Int, in line: [UInt8]) -> Int {
    line[..<min(offset, line.count)].filter { $0 & 0xC0 != 0x80 }.count + 1
  }

  @Test("random lines: the reader agrees with the parser", arguments: 0..<4)
  func agreement(seed: UInt64) {
    var generator = SeededGenerator(seed: 0x5EED_0000 + seed)
    var counts = (accepted: 0, notObjects: 0, broken: 0)
    for _ in 0..<2_500 {
      let line = Self.randomLine(&generator)
      let (result, rejection) = Self.read(line, &generator)
      let shown = String(decoding: line, as: UTF8.self)
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
        #expect(result == .blank, "\(shown)")
        continue
      }
      do {
        let value = try JSONParser.parse(line)
        guard case .object(let members) = value else {
          counts.notObjects += 1
          #expect(result == .rejected, "\(shown)")
          #expect(rejection?.message == "an event must be a JSON object, not \(value.kindName)")
          continue
        }
        counts.accepted += 1
        var expected: [JSONValue.Member] = []
        for member in members
        where EventLineReader.usedNames.contains(Array(member.name.utf8))
          && !expected.contains(where: { $0.name == member.name })
        {
          expected.append(JSONValue.Member(member.name, Self.kept(member.value)))
        }
        guard case .event(let keptMembers, _) = result else {
          Issue.record("\(shown): rejected: \(String(describing: rejection))")
          continue
        }
        #expect(
          keptMembers.map { JSONValue.Member($0.name, $0.value) } == expected, "\(shown)")
      } catch {
        counts.broken += 1
        #expect(result == .rejected, "\(shown)")
        let first = line.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
        guard first == UInt8(ascii: "{") else { continue }
        #expect(rejection?.message == "not valid JSON: " + error.message, "\(shown)")
        // Where fewer than four bytes are left the parser points at the
        // first digit of a `\u` escape; the reader at the bad one.
        if error.message != "invalid \\u escape" {
          #expect(
            rejection?.column == Self.column(of: error.offset, in: line),
            "\(shown): \(error.message)")
        }
      }
    }
    #expect(counts.accepted > 500 && counts.broken > 500 && counts.notObjects > 50)
  }

  @Test("nesting: 512 containers are read, the 513th is an error at its bracket")
  func nesting() {
    var generator = SeededGenerator(seed: 1)
    let deepest = Array(
      (#"{"a":"# + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}")
        .utf8)
    #expect(Self.read(deepest, &generator).0 == .event(members: [], column: 1))
    let deeper = Array(
      (#"{"a":"# + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}")
        .utf8)
    let (line, rejection) = Self.read(deeper, &generator)
    #expect(line == .rejected)
    #expect(rejection == .init(message: "not valid JSON: nesting deeper than 512", column: 517))
  }

  @Test("a kept value past the limit is rejected at its column; others are not kept")
  func limit() {
    var generator = SeededGenerator(seed: 2)
    let long = String(repeating: "가", count: 100)
    let (text, textRejection) = Self.read(
      Array(#"{"t":1, "text":"\#(long)"}"#.utf8), &generator, limit: 64)
    #expect(text == .rejected)
    #expect(
      textRejection
        == .init(message: #""text" is longer than --max-line allows (64 bytes)"#, column: 16))
    let (number, numberRejection) = Self.read(
      Array(#"{"key":"a","t":\#(String(repeating: "1", count: 65))}"#.utf8), &generator,
      limit: 64)
    #expect(number == .rejected)
    #expect(numberRejection?.message == #""t" is longer than --max-line allows (64 bytes)"#)
    // A long member no event uses, and a long second "text", are only checked.
    let (other, _) = Self.read(
      Array(#"{"key":"a","note":"\#(long)","text":"b","text":"\#(long)"}"#.utf8), &generator,
      limit: 64)
    #expect(
      other
        == .event(
          members: [
            .init(name: "key", value: .string("a"), column: 8),
            .init(name: "text", value: .string("b"), column: 129),
          ], column: 1))
  }

  /// Found by fuzzing (fuzz/run.sh events): the first bytes of a byte order
  /// mark and nothing more were skipped silently, as a blank line.
  @Test(
    "the start of a byte order mark alone is an error at column 1, never a blank line",
    arguments: [[0xEF], [0xEF, 0xBB], [0xEF, 0x0A], [0xEF, 0xBB, 0x0A]] as [[UInt8]])
  func partialByteOrderMark(start: [UInt8]) throws {
    var errors: [PositionedError] = []
    var filter = EventLogFilter { errors.append($0) }
    filter.beginInput(named: "log")
    let end: [UInt8] = start.last == 0x0A ? Array(#"{"key":"ㄱ"}"#.utf8) + [0x0A] : []
    let output = try filter.filtered(start + end)
    #expect(
      errors == [
        PositionedError(
          file: "log", line: 1, column: 1, message: "not valid JSON: unexpected character")
      ])
    #expect(output == (end.isEmpty ? [] : Array("ㄱ\n".utf8)))
  }
}
