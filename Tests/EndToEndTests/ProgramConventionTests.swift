import Foundation
import Testing

/// What every program does the same way: `--version`, and one style for
/// every usage error (`PROGRAM: message`, then where help is; status 64).
@Suite("Program conventions")
struct ProgramConventionTests {
  static let commands: [[String]] = [
    ["hangul-compose"], ["hangul-decompose"], ["hangul-normalize"], ["hangul-reviews"],
    ["hangul-reviews", "import"], ["hangul-reviews", "export"],
  ]

  @Test("every program and subcommand answers --version", arguments: commands)
  func version(command: [String]) throws {
    let result = try Executable(command[0]).run(Array(command.dropFirst()) + ["--version"])
    #expect(result.status == 0)
    #expect(result.text.split(separator: "\n").count == 1)
    // As GNU programs write it: `hangul-compose (hangul-tools) 0.3.0`.
    #expect(result.text.hasPrefix("\(command[0]) (hangul-tools) "), "\(result.text)")
    #expect(result.text.split(separator: " ").last?.first?.isNumber == true, "\(result.text)")
    #expect(result.stderr.isEmpty)
  }

  @Test("every program gives the same version")
  func sameVersion() throws {
    let versions = try Self.commands.map {
      try Executable($0[0]).run(Array($0.dropFirst()) + ["--version"]).text
        .split(separator: " ").last
    }
    #expect(Set(versions).count == 1)
  }

  static let usageErrors: [(command: [String], message: String)] = [
    (["hangul-compose", "--bogus-option"], "hangul-compose: unknown option '--bogus-option'"),
    (
      ["hangul-compose", "--max-line", "-5"],
      "hangul-compose: the value '-5' is invalid for '--max-line <size>': "
        + "the size must be at least 1 byte, such as 64K or 1M"
    ),
    (
      ["hangul-compose", "--max-line", "lots"],
      "hangul-compose: the value 'lots' is invalid for '--max-line <size>': "
        + "'lots' is not a size; write a number of bytes such as 65536, 64K or 1M"
    ),
    (["hangul-decompose", "--to"], "hangul-decompose: missing value for '--to <to>'"),
    (
      ["hangul-reviews", "frobnicate"],
      "hangul-reviews: unknown command 'frobnicate'; the commands are 'import' or 'export'"
    ),
  ]

  @Test("a usage error is PROGRAM: message, then Try 'PROGRAM --help'.", arguments: usageErrors)
  func usageError(command: [String], message: String) throws {
    let result = try Executable(command[0]).run(Array(command.dropFirst()))
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == "\(message)\nTry '\(command[0]) --help'.\n")
  }

  @Test("a subcommand's usage error points at the subcommand's help")
  func subcommandUsage() throws {
    let result = try Executable("hangul-reviews").run(["import", "--content", "html"])
    #expect(result.status == 64)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix("hangul-reviews: ") == true)
    #expect(lines.last == "Try 'hangul-reviews import --help'.")
  }

  @Test("a file error names the file and the system's reason")
  func fileError() throws {
    let result = try Executable("hangul-reviews").run([
      "import", "--rejects", "/nonexistent-folder/rejects.jsonl",
      repositoryFile("samples/reviews-api.json").path,
    ])
    #expect(result.status == 74)
    #expect(
      result.stderr
        == "hangul-reviews: /nonexistent-folder/rejects.jsonl: cannot create the rejects file: No such file or directory\n"
    )
  }
}

/// `make install` as a packager runs it: into a staging root, with programs
/// that run without the Swift toolchain.
@Suite("Installation")
struct InstallationTests {
  // A release build of every program (minutes on two cores): CI's run.
  @Test(
    "make install DESTDIR=… stages everything; the programs need only libc and ICU",
    .enabled(if: longRuns, "a release build: HANGUL_LONG_TESTS=1 runs it (.ci/run does)"))
  func stagedInstall() throws {
    let stage = try temporaryFolder()
    let make = try Executable("hangul-compose").shell(
      "cd '\(repositoryRoot.path)' && make -s install DESTDIR='\(stage.path)' PREFIX=/usr 2>&1")
    #expect(make.status == 0, "\(make.text)")
    let program = stage.appendingPathComponent("usr/bin/hangul-compose").path
    for file in [
      "usr/bin/hangul-reviews", "usr/share/man/man1/hangul-compose.1",
      "usr/share/bash-completion/completions/hangul-decompose",
    ] {
      #expect(FileManager.default.fileExists(atPath: stage.appendingPathComponent(file).path))
    }
    let libraries = try Executable("hangul-compose").shell("ldd '\(program)'")
    #expect(libraries.status == 0)
    #expect(!libraries.text.contains("swift"), "\(libraries.text)")
    #expect(!libraries.text.contains("Foundation"), "\(libraries.text)")
    #expect(libraries.text.contains("libicuuc"))
    // Run with nothing of the toolchain in the environment.
    let run = try Executable("hangul-compose").shell(
      "printf 'dkssud\\n' | env -i PATH=/usr/bin:/bin '\(program)' --keys qwerty")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.text == "안녕\n")
  }
}

/// Input that is not UTF-8, as old Korean files are.
@Suite("Input encodings end to end")
struct EncodingCommandTests {
  /// A CP949 file of `text`, made by glibc's iconv.
  func cp949File(_ text: String) throws -> URL {
    let folder = try temporaryFolder()
    let utf8 = folder.appendingPathComponent("utf8.txt")
    try Data(text.utf8).write(to: utf8)
    let file = folder.appendingPathComponent("old.txt")
    let iconv = try Executable("hangul-compose").shell(
      "iconv -f UTF-8 -t CP949 '\(utf8.path)' > '\(file.path)'")
    #expect(iconv.status == 0)
    return file
  }

  static let programs: [(command: [String], input: String, expected: String)] = [
    (["hangul-decompose", "--to", "jamo"], "똠방각하\n", "ㄸㅗㅁㅂㅏㅇㄱㅏㄱㅎㅏ\n"),
    (["hangul-compose"], "ㄷㅏㄹㄱ\n", "닭\n"),
    (["hangul-reviews", "import"], #"{"content":"쀍"}"# + "\n", #"{"content":"쀍"}"# + "\n"),
    (
      ["hangul-reviews", "export", "--to", "post"], #"{"content":"한글"}"# + "\n",
      #"{"content":"한글"}"# + "\n"
    ),
  ]

  @Test("--from-code cp949 reads a CP949 file in every program", arguments: programs)
  func fromCode(command: [String], input: String, expected: String) throws {
    let file = try cp949File(input)
    let result = try Executable(command[0]).run(
      Array(command.dropFirst()) + ["--from-code", "cp949", file.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.text == expected)
    #expect(!result.stderr.contains("warning"))
  }

  @Test("without it, one warning per file names the first bad byte and suggests cp949")
  func warning() throws {
    // 첫 in CP949 (C3 B9) happens to be UTF-8 too (ù): the first bad byte is the third character.
    let file = try cp949File("첫 줄은 괜찮지만\n둘째 줄은\n")
    let result = try Executable("hangul-decompose").run([file.path, file.path])
    #expect(result.status == 0)
    let warning =
      "hangul-decompose: \(file.path):1:3: warning: byte 0xC1 is not UTF-8; "
      + "the file looks like CP949: try --from-code cp949\n"
    #expect(result.stderr == warning + warning)
    // The bytes still pass through as they came.
    #expect(
      [UInt8](result.stdout) == [UInt8](try Data(contentsOf: file))
        + [UInt8](try Data(contentsOf: file)))
  }

  @Test("an encoding ICU does not know is a usage error")
  func unknown() throws {
    let result = try Executable("hangul-compose").run(["--from-code", "klingon"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("hangul-compose: --from-code: unknown encoding 'klingon'"))
  }
}
