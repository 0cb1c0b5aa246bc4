import Foundation
import Testing

/// What a newcomer reads: one message style, options that read values the
/// same way in every program, mistakes named with what to do instead
/// (issue 34, items 5 to 7; issue 35, item 18).
@Suite("Messages")
struct MessageTests {
  static let mistakes: [[String]] = [
    ["hangul-compose", "--keyboard", "3f"], ["hangul-compose", "--keyboard", "3"],
    ["hangul-compose", "--bogus"], ["hangul-compose", "--multitap-timeout", "5"],
    ["hangul-decompose", "--plain", "--to", "nfd"], ["hangul-decompose", "--to", "nfx"],
    ["hangul-normalize", "--rename"], ["hangul-normalize", "--recursive"],
    ["hangul-normalize", "--rename", "--verify", "x"], ["hangul-normalize", "--jobs", "-1"],
    ["hangul-reviews", "export", "--to", "sql"], ["hangul-reviews", "export", "--locale", "xx"],
    ["hangul-reviews", "export", "--table", "t"],
    ["hangul-reviews", "import", "--time-zone", "Mars"],
    ["hangul-reviews", "import", "--content", "keys", "--keyboard", "sky2"],
  ]

  @Test(
    "usage errors: PROGRAM: message in lower case without a final period, then where help is",
    arguments: mistakes)
  func style(command: [String]) throws {
    let result = try Executable(command[0]).run(Array(command.dropFirst()), input: Data("x\n".utf8))
    #expect(result.status == 64, "\(result.stderr)")
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(result.stderr)")
    let message = lines.first?.dropFirst("\(command[0]): ".count) ?? ""
    #expect(lines.first?.hasPrefix("\(command[0]): ") == true)
    #expect(message.first?.isUppercase == false, "\(message)")
    #expect(!message.hasSuffix("."), "\(message)")
    #expect(lines.last?.hasPrefix("Try '\(command[0])") == true)
  }

  @Test("a file named -dash.txt is an unknown option, not a request for help; -h and -zh still are")
  func dashFile() throws {
    let result = try Executable("hangul-compose").run(["-dash.txt"])
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("hangul-compose: unknown option '-dash.txt' ("))
    #expect(result.stderr.contains("./-dash.txt"))
    for arguments in [["-h"], ["-zh"], ["--help"]] {
      let help = try Executable("hangul-normalize").run(arguments)
      #expect(help.status == 0, "\(arguments)")
      #expect(help.text.hasPrefix("OVERVIEW: "))
    }
    let folder = try temporaryFolder()
    try Data("rk\n".utf8).write(to: folder.appendingPathComponent("-dash.txt"))
    let read = try Executable("hangul-compose").run(
      ["--keys", "qwerty", "--", "-dash.txt"], currentDirectory: folder)
    #expect(read.text == "가\n")
  }

  @Test("an unknown keyboard id names the built-in ones; ids in any case")
  func keyboardIDs() throws {
    let result = try Executable("hangul-compose").run(["--keyboard", "3"])
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "hangul-compose: unknown keyboard '3'; the built-in ones are 2, 2y, 32, 39, 3f"))
    let upper = try Executable("hangul-compose").run(
      ["--keyboard", "3F", "--keys", "QWERTY"], input: Data("jfshea\n".utf8))
    #expect(upper.text == "안녕\n")
  }

  @Test("hangul-reviews: a misspelt command gets a suggestion; no command is a usage error")
  func subcommands() throws {
    let misspelt = try Executable("hangul-reviews").run(["imprt"])
    #expect(misspelt.status == 64)
    #expect(
      misspelt.stderr.hasPrefix("hangul-reviews: unknown command 'imprt'; did you mean 'import'?\n")
    )
    let none = try Executable("hangul-reviews").run([])
    #expect(none.status == 64)
    #expect(none.stderr.hasPrefix("hangul-reviews: a command is needed: 'import' or 'export'\n"))
    #expect(none.stdout.isEmpty)
  }

  static let upperCaseValues: [(command: [String], input: String, output: String)] = [
    (["hangul-decompose", "--to", "NFD"], "가\n", "\u{1100}\u{1161}\n"),
    (["hangul-decompose", "--to", "Qwerty"], "가\n", "rk\n"),
    (["hangul-normalize", "--form", "NFD"], "가\n", "\u{1100}\u{1161}\n"),
    (["hangul-compose", "--keys", "QWERTY", "--backspace", "Keystroke"], "rk\n", "가\n"),
    (["hangul-compose", "--format", "TEXT", "--stats-format", "JSON"], "ㄱㅏ\n", "가\n"),
    (
      ["hangul-reviews", "export", "--to", "POST"], "{\"content\":\"a\"}\n", "{\"content\":\"a\"}\n"
    ),
    (
      ["hangul-reviews", "import", "--content", "KEYS", "--keys", "qwerty"],
      "{\"content\":\"rk\"}\n",
      "{\"content\":\"가\"}\n"
    ),
  ]

  @Test("every enumerated option value is read in any case", arguments: upperCaseValues)
  func caseInsensitive(command: [String], input: String, output: String) throws {
    let result = try Executable(command[0]).run(Array(command.dropFirst()), input: Data(input.utf8))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.text == output)
  }

  @Test("values that start with -: --time-zone -0500, --jobs -1 get their own messages")
  func dashValues() throws {
    let zone = try Executable("hangul-reviews").run(
      ["export", "--time-zone", "-0500", "-q"], input: Data("{\"content\":\"a\"}\n".utf8))
    #expect(zone.status == 0, "\(zone.stderr)")
    let jobs = try Executable("hangul-compose").run(["--jobs", "-1"])
    #expect(jobs.stderr.hasPrefix("hangul-compose: --jobs takes a number of threads, 0 or more\n"))
    let rename = try Executable("hangul-normalize").run(["--rename", "/"])
    #expect(rename.status == 64)
    #expect(
      rename.stderr.hasPrefix(
        "hangul-normalize: --rename /: names no entry to rename; add --recursive"))
  }

  @Test("a million-digit value is not echoed whole")
  func longValue() throws {
    // As long as one argument can be (the kernel takes 128 KiB).
    let digits = String(repeating: "7", count: 100_000)
    for command in [
      ["hangul-compose", "--jobs", digits], ["hangul-reviews", "export", "--locale", digits],
    ] {
      let result = try Executable(command[0]).run(Array(command.dropFirst()))
      #expect(result.status == 64)
      #expect(result.stderr.count < 400, "\(result.stderr.prefix(200))")
      #expect(result.stderr.contains("7777…"))
    }
  }

  @Test("a keyboard file over 16 MiB says so")
  func hugeKeyboard() throws {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("huge.xml")
    try Data(repeating: 0x20, count: 17 << 20).write(to: file)
    let result = try Executable("hangul-compose").run(["--keyboard", file.path])
    #expect(result.status == 64)
    #expect(result.stderr.contains("larger than 16 MiB"), "\(result.stderr)")
    #expect(!result.stderr.contains("ioctl"))
  }

  @Test("--rename: each line shows the code points that change; a dry run says it changed nothing")
  func renameDisplay() throws {
    let folder = try temporaryFolder()
    let nfd = "\u{1112}\u{1161}\u{11AB}"
    try Data().write(to: folder.appendingPathComponent(nfd + ".txt"))
    try Data().write(to: folder.appendingPathComponent("\u{D55C}.txt"))
    try Data().write(to: folder.appendingPathComponent("e\u{301}"))
    let dry = try Executable("hangul-normalize").run(
      ["--rename", "--recursive", "--dry-run", "."], currentDirectory: folder)
    #expect(dry.status == 65)
    #expect(dry.text == "./e\u{301} → ./\u{E9} (U+0065 U+0301 → U+00E9)\n")
    #expect(dry.stderr.contains("hangul-normalize: ./\(nfd).txt: would collide: ./한.txt exists\n"))
    #expect(dry.stderr.hasSuffix("hangul-normalize: dry run: nothing renamed (1 name would be)\n"))
  }

  @Test("PATHs on the command line are renamed deepest first")
  func commandLineDeepestFirst() throws {
    let folder = try temporaryFolder()
    let nfd = "\u{1112}\u{1161}\u{11AB}"
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent(nfd), withIntermediateDirectories: true)
    try Data().write(to: folder.appendingPathComponent(nfd + "/" + nfd))
    let result = try Executable("hangul-normalize").run(
      ["--rename", nfd, nfd + "/" + nfd], currentDirectory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.path + "/\u{D55C}/\u{D55C}"))
  }
}
