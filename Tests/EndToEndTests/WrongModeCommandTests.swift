import Foundation
import HangulKit
import Testing

/// `hangul-wrongmode` (hangul-wrongmode(1)) run as a user runs it.
@Suite("hangul-wrongmode end to end")
struct WrongModeCommandTests {
  let program = Executable("hangul-wrongmode")
  static let example = "iPhone 15 dkssud gktpdy! ㅗ디ㅣㅐ world\n"

  @Test func fixRewritesOnlyTheSpans() throws {
    let result = try program.run(["fix"], input: Data(Self.example.utf8))
    #expect(result.text == "iPhone 15 안녕 하세요! hello world\n")
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
  }

  @Test func checkNamesTheColumnsAndExitsOne() throws {
    let result = try program.run(["check"], input: Data(Self.example.utf8))
    #expect(
      result.text == """
        (standard input):1:11: "dkssud" looks like 안녕 typed in English mode
        (standard input):1:18: "gktpdy" looks like 하세요 typed in English mode
        (standard input):1:26: "ㅗ디ㅣㅐ" looks like hello typed in Korean mode

        """)
    #expect(result.status == 1)
  }

  @Test(arguments: ["check", "fix"])
  func textInTheRightModeExitsZero(mode: String) throws {
    let result = try program.run([mode], input: Data("hello 안녕\n".utf8))
    #expect(result.status == 0)
    #expect(result.text == (mode == "fix" ? "hello 안녕\n" : ""))
  }

  /// Files are named in messages and reports, each counting lines from 1;
  /// the report holds what check writes, as JSON Lines.
  @Test func filesAndReport() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = folder.appendingPathComponent("a.txt")
    let second = folder.appendingPathComponent("b.txt")
    try Data(("좋아요\n" + Self.example).utf8).write(to: first)
    try Data("rkatkgkqslek\n".utf8).write(to: second)
    let report = folder.appendingPathComponent("spans.jsonl")
    let result = try program.run(["check", "--report", report.path, first.path, second.path])
    #expect(result.status == 1)
    let messages = result.text.split(separator: "\n")
    #expect(messages.count == 4)
    #expect(messages.first == "\(first.path):2:11: \"dkssud\" looks like 안녕 typed in English mode")
    #expect(
      messages.last == "\(second.path):1:1: \"rkatkgkqslek\" looks like 감사합니다 typed in English mode"
    )
    let lines = try String(contentsOf: report, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 4)
    let objects = try lines.map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects[2]["from"] as? String == "ㅗ디ㅣㅐ")
    #expect(objects[2]["to"] as? String == "hello")
    #expect(objects[2]["direction"] as? String == "korean-mode")
    #expect(objects[2]["line"] as? Int == 2)
    #expect(objects[2]["column"] as? Int == 26)
    #expect(objects[3]["file"] as? String == second.path)
    #expect((objects[0]["score"] as? Double).map { $0 > 0.5 && $0 <= 1 } == true)
    // fix writes the same report.
    let fixReport = folder.appendingPathComponent("fix.jsonl")
    let fixed = try program.run(["fix", "--report", fixReport.path, first.path, second.path])
    #expect(fixed.status == 0)
    #expect(try Data(contentsOf: fixReport) == Data(contentsOf: report))
  }

  /// Bytes that are not UTF-8 pass through and are warned about, as in the other programs.
  @Test func bytesThatAreNotUTF8() throws {
    var input = Data("dkssud ".utf8)
    input += Data([0xC7, 0xD1, 0x0A])
    let result = try program.run(["fix"], input: input)
    var expected = Data("안녕 ".utf8)
    expected += Data([0xC7, 0xD1, 0x0A])
    #expect(result.stdout == expected)
    #expect(result.stderr.contains("(standard input):1:8: warning: byte 0xC7 is not UTF-8"))
  }

  /// Korean prose (1.5 MB, read twice: pieces of 2 MiB for several threads)
  /// with words retyped in English mode here and there, and a byte that is
  /// not UTF-8.
  static func prose(in folder: URL) throws -> URL {
    // Beside the clone, as bench/run.py finds it (not at one machine's path).
    let corpus = repositoryRoot.appendingPathComponent("../shared/corpus/ko-prose.txt")
    let sample = repositoryFile("Tests/HangulWrongModeTests/Fixtures/ko-prose-sample.txt")
    let text =
      try (try? String(contentsOf: corpus, encoding: .utf8))
      ?? String(repeating: String(contentsOf: sample, encoding: .utf8), count: 10)
    var lines: [String] = []
    var size = 0
    for (number, line) in text.split(separator: "\n").enumerated() where size < 1_500_000 {
      size += line.utf8.count + 1
      var words = line.split(separator: " ").map(String.init)
      if number % 3 == 0, let index = words.indices.last {
        words[index] = words[index].decomposed(to: .qwerty, plain: true)
      }
      lines.append(words.joined(separator: " "))
    }
    var data = Data(lines.joined(separator: "\n").utf8)
    let middle = data[(data.count / 2)...].firstIndex(of: 0x0A) ?? data.count
    data.insert(contentsOf: [0xFF, 0x0A], at: middle + 1)
    let url = folder.appendingPathComponent("prose.txt")
    try data.write(to: url)
    return url
  }

  @Test("--jobs 2 and 0 write what --jobs 1 writes", arguments: ["check", "fix"])
  func jobs(mode: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try Self.prose(in: folder).path
    func run(_ jobs: String) throws -> (Executable.Result, Data) {
      let report = folder.appendingPathComponent("report-\(jobs).jsonl")
      let result = try program.run([mode, "--jobs", jobs, "--report", report.path, path, path])
      return (result, try Data(contentsOf: report))
    }
    let (single, report) = try run("1")
    #expect(single.status == (mode == "check" ? 1 : 0))
    #expect(single.stderr.contains(": warning: byte 0xFF is not UTF-8"))
    #expect(report.count > 100_000)
    for jobs in ["2", "0"] {
      let (parallel, parallelReport) = try run(jobs)
      #expect(parallel.status == single.status)
      #expect(parallel.stdout == single.stdout)
      #expect(parallel.stderr == single.stderr)
      #expect(parallelReport == report)
    }
  }

  /// Memory does not grow with the input: 40,000 and 400,000 distinct
  /// made-up words (each asked of the English dictionary, so the caches
  /// fill and are overwritten many times) peak within 4 MiB of each other.
  @Test func memoryStaysBounded() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var generator = SystemRandomNumberGenerator()
    func words(_ count: Int) -> Data {
      let consonants = Array("rsefaqtdwczxvg".utf8)
      let vowels = Array("kijuhynbml".utf8)
      var text: [UInt8] = []
      for index in 0..<count {
        for _ in 0..<3 {
          text.append(consonants.randomElement(using: &generator)!)
          text.append(vowels.randomElement(using: &generator)!)
        }
        text.append(index % 10 == 9 ? 0x0A : 0x20)
      }
      return Data(text)
    }
    var peaks: [Int] = []
    for count in [40_000, 400_000] {
      let input = folder.appendingPathComponent("words-\(count).txt")
      try words(count).write(to: input)
      let result = try program.shell(
        "/usr/bin/time -f %M \"$EXE\" check '\(input.path)' 2>&1 >/dev/null | tail -n 1")
      peaks.append(try #require(Int(result.text.trimmingCharacters(in: .whitespacesAndNewlines))))
    }
    #expect(peaks[1] - peaks[0] < 4 * 1024, "peak KiB: \(peaks)")
  }

  /// `check | head` ends quietly: a closed pipe is not an error to report.
  @Test func closedPipeIsQuiet() throws {
    let result = try program.shell(
      "yes 'dkssud gktpdy' | head -n 100000 | \"$EXE\" check | head -n 1; echo \"${PIPESTATUS[2]}\""
    )
    #expect(
      result.text == "(standard input):1:1: \"dkssud\" looks like 안녕 typed in English mode\n1\n")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test func errors() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in.txt")
    try Data("dkssud\n".utf8).write(to: input)
    let missing = try program.run(["check", folder.appendingPathComponent("none").path, input.path])
    #expect(missing.status == 66)
    #expect(missing.stderr.hasPrefix("hangul-wrongmode: "))
    #expect(missing.text.contains("in.txt:1:1: \"dkssud\""))
    let dictionary = try program.run(["fix", "--korean-dictionary", "/nonexistent/ko", input.path])
    #expect(dictionary.status == 66)
    #expect(dictionary.stderr.contains("cannot read dictionary /nonexistent/ko.aff"))
    for arguments in [
      ["check", "--bogus"], ["check", "--min-score", "2"], ["fix", "--min-length", "0"],
      ["fix", "--keyboard", "cheonjiin"], ["fix", "--keyboard", "nosuch"],
      ["check", "--report", input.path, input.path],
    ] {
      let result = try program.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.contains("Try 'hangul-wrongmode"), "\(arguments)")
    }
  }
}
