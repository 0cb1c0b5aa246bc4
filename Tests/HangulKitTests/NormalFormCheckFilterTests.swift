import HangulKit
import Testing

/// ``NormalFormCheckFilter`` finds the same places however its input is cut
/// into chunks, and each line once.
@Suite("NormalFormCheckFilter")
struct NormalFormCheckFilterTests {
  static let text =
    Array(
      ("가나 \u{1100}\u{1161}\u{11A8}\u{1100}\u{1161} e\u{301}\ncafé\n\n하\u{11AB} ok\r\n"
        + "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}\n" + "Å \u{212B}\n"
        + "ok\u{1100}\u{1161}")
        .utf8) + [0xFF, 0x0A] + Array("a\u{301}\u{301}\u{301}".utf8)

  /// A problem the filter's log wrote: `p: NAME:LINE:COLUMN: message`.
  struct Problem: Equatable {
    var file: Substring
    var line: Int
    var column: Int
    var message: Substring

    init(_ text: Substring) {
      let parts = text.dropFirst(3).split(separator: ":", maxSplits: 3)
      file = parts[0]
      line = Int(parts[1]) ?? 0
      column = Int(parts[2]) ?? 0
      message = parts[3]
    }
  }

  /// What the filter reports when given `input` in chunks of `size` bytes
  /// (in two inputs when `split` is set), and how many lines it counted.
  static func problems(_ input: [UInt8], chunk size: Int, split: Int? = nil) throws -> (
    [Problem], Int
  ) {
    var filter = try NormalFormCheckFilter(form: .nfc, program: "p")
    var output: [UInt8] = []
    let parts =
      split.map { [("a", Array(input[..<$0])), ("b", Array(input[$0...]))] } ?? [("a", input)]
    for (name, part) in parts {
      filter.beginInput(named: name)
      var start = 0
      while start < part.count {
        let end = min(part.count, start + size)
        try filter.process(Array(part[start..<end]), into: &output)
        start = end
      }
    }
    filter.finish(into: &output)
    #expect(output.isEmpty)
    var text = ""
    filter.log.drain(shift: 0) { text += String(decoding: $0, as: UTF8.self) }
    return (text.split(separator: "\n").map(Problem.init), filter.lineCount)
  }

  @Test("every chunk size finds the same first place of each line", arguments: 1...40)
  func chunkSizes(size: Int) throws {
    let (whole, lines) = try Self.problems(Self.text, chunk: Self.text.count)
    #expect(whole.map(\.line) == [1, 4, 5, 6, 7, 8])
    #expect(whole.first?.column == 4)
    #expect(lines == 8)
    let (cut, cutLines) = try Self.problems(Self.text, chunk: size)
    #expect(cut == whole)
    #expect(cutLines == lines)
  }

  @Test("two inputs: lines count from each input's start, an unended last line ends with its input")
  func inputs() throws {
    let first = Array("ok\n\u{1100}\u{1161}".utf8)
    let second = Array("e\u{301}\nok\n".utf8)
    for size in [1, 3, 100] {
      let (problems, lines) = try Self.problems(first + second, chunk: size, split: first.count)
      #expect(problems.map { "\($0.file):\($0.line):\($0.column)" } == ["a:2:1", "b:1:1"])
      #expect(lines == 4)
    }
  }

  @Test("a line longer than the held limit is checked in parts, its places found")
  func longLine() throws {
    let line = Array(String(repeating: "가나다 ", count: 200_000).utf8) + Array("e\u{301}\n".utf8)
    let (problems, lines) = try Self.problems(line, chunk: 65536)
    #expect(problems.map(\.column) == [800_001])
    #expect(lines == 1)
  }
}
