import Foundation
import HangulKit
import Testing

/// `hangul-normalize --check`: the lines it reports are exactly the lines
/// `hangul-normalize` changes, in every form, on one thread or several;
/// `--names` reports the names `--rename` would change and changes nothing.
@Suite("hangul-normalize --check")
struct NormalizeCheckTests {
  let normalize = Executable("hangul-normalize")

  /// Lines of every kind, a third of them NFD, with lines that are not UTF-8.
  static func mixedText(lines: Int) throws -> Data {
    let nfd = try ICUNormalizer(.nfd)
    let kinds = [
      "한글 맞춤법 café", "ㄱㅅ ㄳ ㅇㅏ 한\u{200C}글", "ﬁ ① ｶ Tiếng Việt ὧ", "e\u{301}\u{302} a\u{323}\u{302}",
      "👍🏽 👩\u{200D}💻", "ᄀᆞᆯ ᄒᆞᆫ", "plain ASCII line", "", "윈도우 줄 끝\r", "가\u{11A8} 각",
      "\u{1100}\u{1161}\u{11A8}\u{11A8}", "Å Ω K", "\u{0958} \u{FB2C}",
    ]
    var data = Data()
    for index in 0..<lines {
      let line = kinds[index % kinds.count]
      let text = index % 3 == 1 ? nfd.normalized(line) : line
      data.append(contentsOf: text.utf8)
      if index % 97 == 5 { data.append(contentsOf: [0xFF, 0xE1, 0x84]) }
      data.append(0x0A)
    }
    return data
  }

  /// The lines (1-based) that `hangul-normalize --form FORM` changes.
  func changedLines(_ input: URL, form: String) throws -> Set<Int> {
    let normalized = try normalize.run(["--form", form, input.path]).stdout
    let before = try Data(contentsOf: input).split(
      separator: 0x0A, omittingEmptySubsequences: false)
    let after = normalized.split(separator: 0x0A, omittingEmptySubsequences: false)
    #expect(before.count == after.count)
    return Set(
      zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 })
  }

  /// The lines `--check` reported for `file`.
  static func reportedLines(_ stderr: String, file: String) -> [Int] {
    stderr.split(separator: "\n").compactMap { line in
      let prefix = "hangul-normalize: \(file):"
      guard line.hasPrefix(prefix), line.contains(": not ") else { return nil }
      return Int(line.dropFirst(prefix.count).prefix { $0 != ":" })
    }
  }

  @Test(
    "each line --check reports is a line hangul-normalize changes, and each such line is reported",
    arguments: ICUNormalizer.Form.allCases)
  func sameLinesAsNormalizing(form: ICUNormalizer.Form) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var input = try Self.mixedText(lines: 3000)
    if let corpus = sharedCorpus, let prose = FileManager.default.contents(atPath: corpus.path) {
      input.append(prose.prefix(300_000))
      input.append(
        Data(
          try ICUNormalizer(.nfd).normalized(String(decoding: prose.prefix(100_000), as: UTF8.self))
            .utf8))
    }
    if let test = try? String(
      contentsOfFile: "/usr/share/unicode/NormalizationTest.txt", encoding: .utf8)
    {
      // Every column of the conformance test, one string a line.
      for line in test.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("@") {
        for column in line.split(separator: ";").prefix(5) {
          let scalars = column.split(separator: " ").compactMap {
            UInt32($0, radix: 16).flatMap(Unicode.Scalar.init)
          }
          input.append(contentsOf: String(String.UnicodeScalarView(scalars)).utf8)
          input.append(0x0A)
        }
      }
    }
    let file = folder.appendingPathComponent("input.txt")
    try input.write(to: file)
    // The lines normalizing changes, and those with bytes that are not UTF-8.
    var expected = try changedLines(file, form: form.name)
    for (index, line) in input.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
    where String(validating: line, as: UTF8.self) == nil {
      expected.insert(index + 1)
    }
    let result = try normalize.run(["--check", "--form", form.name, file.path])
    let reported = Self.reportedLines(result.stderr, file: file.path)
    #expect(result.stdout.isEmpty)
    #expect(!expected.isEmpty)
    #expect(result.status == 1)
    #expect(reported == reported.sorted(), "in line order")
    #expect(
      Set(reported) == expected, "missed: \(expected.subtracting(reported).sorted().prefix(5))")
    #expect(reported.count == expected.count, "one report a line")
    let lines = input.filter { $0 == 0x0A }.count + (input.last == 0x0A ? 0 : 1)
    #expect(
      result.stderr.hasSuffix(
        "hangul-normalize: checked \(lines) lines: \(expected.count) not \(form.name.uppercased())\n"
      ))
  }

  @Test("the message names the first segment not in the form, its column and its normal form")
  func message() throws {
    let input = Data(
      "가나\n\u{1100}\u{1161} ok\ncafe\u{301} e\u{301}\nok\n\u{1112}\u{1161}\u{11AB}".utf8)
    let result = try normalize.run(["--check"], input: input)
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr == """
        hangul-normalize: (standard input):2:1: not NFC: "가" (U+1100 U+1161)
        hangul-normalize: (standard input):3:4: not NFC: "é" (U+0065 U+0301)
        hangul-normalize: (standard input):5:1: not NFC: "한" (U+1112 U+1161 U+11AB)
        hangul-normalize: checked 5 lines: 3 not NFC

        """)
    let nfd = try normalize.run(["--check", "--form", "nfd", "-z"], input: Data("a\0한\0".utf8))
    #expect(nfd.status == 1)
    #expect(
      nfd.stderr == """
        hangul-normalize: (standard input):2:1: not NFD: "한" (U+D55C)
        hangul-normalize: checked 2 records: 1 not NFD

        """)
  }

  @Test(
    "thousands of marks on one letter: out of order reported once with a short message, in order not"
  )
  func longRuns() throws {
    // q takes none of these marks; 220 after 230 is out of canonical order.
    func marks(_ count: Int, ordered: Bool) -> String {
      ordered
        ? String(repeating: "\u{316}", count: count / 2)
          + String(repeating: "\u{301}", count: count / 2)
        : String(repeating: "\u{301}\u{316}", count: count / 2)
    }
    let input = Data(
      ("x q" + marks(6_000, ordered: false) + " y\n" + "q" + marks(6_000, ordered: true) + "\n"
        + "q" + marks(2_000_000, ordered: false) + "\nok\n").utf8)
    let result = try normalize.run(["--check"], input: input)
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    // The run longer than the filter holds (1 MiB) is checked in pieces:
    // its length is known only to be at least the first piece's.
    let shown = "q" + String(repeating: "\u{301}\u{316}", count: 11) + "\u{301}"
    let codes = "U+0071" + String(repeating: " U+0301 U+0316", count: 11) + " U+0301"
    let first =
      "hangul-normalize: (standard input):1:3: not NFC: \"\(shown)…\" (\(codes) … 6001 code points)\n"
    let third =
      "hangul-normalize: (standard input):3:1: not NFC: \"\(shown)…\" (\(codes) … at least "
    #expect(result.stderr.hasPrefix(first + third), "\(result.stderr.prefix(2000))")
    #expect(
      result.stderr.hasSuffix(" code points)\nhangul-normalize: checked 4 lines: 2 not NFC\n"))
    #expect(result.stderr.split(separator: "\n").count == 3)
  }

  @Test("text already in the form: status 0, a summary, nothing on standard output")
  func clean() throws {
    let result = try normalize.run(
      ["--check", repositoryFile("samples/qwerty-keys.expected.txt").path, "-"],
      input: Data("한글\n".utf8))
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == "hangul-normalize: checked 7 lines: all NFC\n")
  }

  @Test("--jobs 1, 2 and 4 report the same lines, in order, with the same summary and status")
  func jobs() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Larger than two pieces of 2 MiB; a second file with a problem on its first line.
    let first = folder.appendingPathComponent("big.txt")
    try Self.mixedText(lines: 200_000).write(to: first)
    let second = folder.appendingPathComponent("small.txt")
    try Data("\u{1100}\u{1161}\n가\n".utf8).write(to: second)
    let one = try normalize.run(["--check", "--jobs", "1", first.path, second.path])
    #expect(one.status == 1)
    #expect(one.stderr.contains("small.txt:1:1: not NFC"))
    #expect(one.stderr.hasSuffix("not NFC\n"))
    for jobs in ["2", "4"] {
      let many = try normalize.run(["--check", "--jobs", jobs, first.path, second.path])
      #expect(many.status == one.status)
      #expect(many.stderr == one.stderr, "--jobs \(jobs)")
      #expect(many.stdout.isEmpty)
    }
  }

  @Test("a file that cannot be opened: 66 and the others are checked")
  func missingFile() throws {
    let result = try normalize.run(
      ["--check", "/nonexistent/x.txt", "-"], input: Data("\u{1100}\u{1161}\n".utf8))
    #expect(result.status == 66)
    #expect(result.stderr.contains("(standard input):1:1: not NFC"))
  }

  @Test(
    "--check --names reports what --rename would rename, below every directory, and renames nothing"
  )
  func names() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let manager = FileManager.default
    let nfdName = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}"
    let deep = folder.appendingPathComponent("a/\(nfdName)/c")
    try manager.createDirectory(at: deep, withIntermediateDirectories: true)
    #expect(
      manager.createFile(atPath: deep.appendingPathComponent("cafe\u{301}.txt").path, contents: nil)
    )
    #expect(manager.createFile(atPath: deep.appendingPathComponent("ok.txt").path, contents: nil))
    try manager.createSymbolicLink(
      at: folder.appendingPathComponent("a/\u{1100}\u{1161}"), withDestinationURL: deep)
    let touched = try Executable("hangul-compose").shell(
      "touch \"$(printf '\(folder.path)/a/\\377')\"")
    #expect(touched.status == 0)
    let before = try manager.subpathsOfDirectory(atPath: folder.path).sorted()
    let result = try normalize.run(["--check", "--names", folder.path + "/a"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "hangul-normalize: \(folder.path)/a/\(nfdName)/c/cafe\u{301}.txt: not NFC: \"e\u{301}\" (U+0065 U+0301)"
      ), "\(lines)")
    #expect(
      lines.contains {
        $0.hasSuffix(
          "/a/\(nfdName): not NFC: \"\u{1112}\u{1161}\u{11AB}\" (U+1112 U+1161 U+11AB)"
        )
      })
    #expect(
      lines.contains {
        $0.hasSuffix(
          "/a/\u{1100}\u{1161}: not NFC: \"\u{1100}\u{1161}\" (U+1100 U+1161)"
        )
      })
    #expect(lines.contains { $0.hasSuffix("/a/\\xFF: not NFC: the name is not UTF-8") })
    #expect(lines.last == "hangul-normalize: 4 names not NFC")
    #expect(
      try manager.subpathsOfDirectory(atPath: folder.path).sorted() == before, "nothing renamed")
    let clean = try normalize.run(["--check", "--names", repositoryFile("samples").path])
    #expect(clean.status == 0)
    #expect(clean.stderr == "hangul-normalize: all names NFC\n")
    // A PATH that cannot be read was not checked: the summary must not say
    // that all names are in the form.
    let missing = try normalize.run(["--check", "--names", folder.path + "/missing"])
    #expect(missing.status == 66)
    #expect(!missing.stderr.contains("all names NFC"), "\(missing.stderr)")
    #expect(
      missing.stderr.hasSuffix("hangul-normalize: all names read NFC; some could not be read\n"))
  }

  @Test("usage: --names goes with --check, --check with neither --rename nor --verify")
  func usage() throws {
    for arguments in [
      ["--names", "x"], ["--check", "--rename", "x"], ["--check", "--verify"],
      ["--check", "--names"],
      ["--check", "--names", "-z", "x"], ["--check", "--dry-run"],
    ] {
      let result = try normalize.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.contains("Try 'hangul-normalize --help'"), "\(arguments)")
    }
  }
}
