import Foundation
import Testing

/// Outputs that fail: closed descriptors (the child's descriptor closed
/// with `>&-`, `2>&-`, `<&-`) and a full disk (/dev/full). Nothing may land
/// in the wrong file, and no output may be lost with status 0 (issue 35,
/// items 5 and 6).
@Suite("Descriptor faults")
struct DescriptorFaultTests {
  /// A review file with one good record and one that is rejected.
  func reviewFolder() throws -> URL {
    let folder = try temporaryFolder()
    try Data("{\"content\":\"a\"}\n{\"x\":1}\n".utf8).write(
      to: folder.appendingPathComponent("r.json"))
    return folder
  }

  func run(_ program: String, in folder: URL, _ script: String) throws -> Executable.Result {
    try Executable(program).shell("cd '\(folder.path)' && \(script)")
  }

  func contents(_ folder: URL, _ name: String) throws -> String {
    String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
  }

  static let rejectLine =
    "{\"index\":1,\"line\":2,\"column\":1,\"reason\":\"no \\\"content\\\" member\",\"record\":{\"x\":1}}\n"

  @Test("standard output closed: the imported records do not land in the rejects file; 74")
  func closedStandardOutput() throws {
    let folder = try reviewFolder()
    let result = try run(
      "hangul-reviews", in: folder, #""$EXE" import --rejects rejects.jsonl r.json >&-"#)
    #expect(result.status == 74)
    #expect(result.stderr.contains("hangul-reviews: write error: Bad file descriptor"))
    #expect(try contents(folder, "rejects.jsonl") == Self.rejectLine)
  }

  @Test("standard error closed: messages do not land in the rejects file")
  func closedStandardError() throws {
    let folder = try reviewFolder()
    let result = try run(
      "hangul-reviews", in: folder, #""$EXE" import --rejects rejects.jsonl r.json 2>&-"#)
    #expect(result.text == "{\"content\":\"a\"}\n")
    #expect(try contents(folder, "rejects.jsonl") == Self.rejectLine)
    #expect(result.status == 65)
  }

  @Test(
    "standard input closed is a read error, not an empty input",
    arguments: ["compose", "normalize"])
  func closedStandardInput(program: String) throws {
    let result = try Executable("hangul-\(program)").shell(#""$EXE" <&-"#)
    #expect(result.status == 74)
    #expect(result.stderr.contains("(standard input): read error: Bad file descriptor"))
  }

  @Test("--rejects X > X, or --rejects /dev/stdout into a file, is refused with 64")
  func rejectsIsStandardOutput() throws {
    let folder = try reviewFolder()
    for script in [
      #""$EXE" import --rejects out.jsonl r.json > out.jsonl"#,
      #""$EXE" import --rejects /dev/stdout r.json > out.jsonl"#,
    ] {
      let result = try run("hangul-reviews", in: folder, script)
      #expect(result.status == 64, "\(script)")
      #expect(result.stderr.contains("is where standard output goes"), "\(result.stderr)")
      #expect(try contents(folder, "out.jsonl").isEmpty)
    }
  }

  @Test("a write error on --rejects is named and exits 74; the import's output is complete")
  func rejectsWriteError() throws {
    let folder = try reviewFolder()
    let result = try run("hangul-reviews", in: folder, #""$EXE" import --rejects /dev/full r.json"#)
    #expect(result.status == 74)
    #expect(
      result.stderr.contains(
        "hangul-reviews: /dev/full: write error: No space left on device; later rejects are not written"
      ))
    #expect(result.text == "{\"content\":\"a\"}\n")
  }

  @Test("--rename: a list that cannot be written stops the renames after the last it lists (74)")
  func renameListLost() throws {
    let nfd = "\u{1112}\u{1161}\u{11AB}"
    // A file size limit of 0 (SIGXFSZ ignored): the first line fails (EFBIG)
    // as on a full disk, after its rename. /dev/full and a closed descriptor
    // refuse even a write of nothing: checked before the first rename.
    let run = "\"$EXE\" --rename --recursive ."
    for (script, renamedCount) in [
      ("(trap '' XFSZ; ulimit -f 0; \(run) > ../list)", 1), ("\(run) > /dev/full", 0),
      ("\(run) >&-", 0),
    ] {
      let folder = try temporaryFolder().appendingPathComponent("names")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for name in ["a", "b", "c"] {
        try Data().write(to: folder.appendingPathComponent(name + nfd))
      }
      let result = try self.run("hangul-normalize", in: folder, script)
      #expect(result.status == 74, "\(script)")
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { $0.unicodeScalars.contains("\u{1112}") }
      #expect(left.count == 3 - renamedCount, "\(script): \(left)")
      #expect(result.stderr.contains("write error: "), "\(result.stderr)")
      if renamedCount == 1 {
        #expect(result.stderr.contains("stopped after renaming ./"), "\(result.stderr)")
      } else {
        #expect(result.stderr.contains("nothing renamed"), "\(result.stderr)")
      }
    }
  }

  static let reportsToStandardOutput: [[String]] = [
    ["hangul-compose", "--help"], ["hangul-compose", "--version"],
    ["hangul-compose", "--list-keyboards"], ["hangul-reviews", "import", "--list-keyboards"],
    ["hangul-normalize", "--help"], ["hangul-reviews", "export", "--help"],
  ]

  @Test(
    "--help, --version and --list-keyboards to a full or closed standard output exit 74",
    arguments: reportsToStandardOutput)
  func helpToFullOutput(command: [String]) throws {
    for redirection in ["> /dev/full", ">&-"] {
      let arguments = command.dropFirst().joined(separator: " ")
      let result = try Executable(command[0]).shell("\"$EXE\" \(arguments) \(redirection)")
      #expect(result.status == 74, "\(command) \(redirection)")
      #expect(result.stderr.hasPrefix("\(command[0]): write error: "), "\(result.stderr)")
    }
  }

  @Test("--stats to a full or closed standard error exits 74", arguments: ["2> /dev/full", "2>&-"])
  func statsToFullError(redirection: String) throws {
    let compose = try Executable("hangul-compose").shell(
      "printf 'rk\\n' | \"$EXE\" --keys qwerty --stats \(redirection)")
    #expect(compose.text == "가\n")
    #expect(compose.status == 74)
    let decompose = try Executable("hangul-decompose").shell(
      "printf '가\\n' | \"$EXE\" --stats \(redirection)")
    #expect(decompose.status == 74)
  }
}
