import Foundation
import Testing

/// Paths as an attacker or an unlucky user gives them: names that
/// normalize into other paths, names that are not UTF-8, an output that is
/// an input, trees too deep for a recursion (issue 35, items 1, 2, 3, 13).
@Suite("Path safety")
struct PathSafetyTests {
  let normalize = Executable("hangul-normalize")

  /// Runs `script` in bash in `folder`, with `$EXE` the program.
  func shell(_ program: String, in folder: URL, _ script: String) throws -> Executable.Result {
    try Executable(program).shell("cd '\(folder.path)' && \(script)")
  }

  /// The names in `folder`, as bytes.
  func names(_ folder: URL) throws -> Set<[UInt8]> {
    Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).map { Array($0.utf8) })
  }

  static let escapingNames = [
    "x／..／..／outside／f",  // NFKC: x/../../outside/f
    "link／f",  // through a symbolic link to another folder
    "．．",  // NFKC: ..
    "．",  // NFKC: .
  ]

  @Test(
    "--rename --form nfkc|nfkd never makes a name a path: reported, left alone, 65",
    arguments: escapingNames, ["nfkc", "nfkd"])
  func normalizedSlash(name: String, form: String) throws {
    let root = try temporaryFolder()
    let inner = root.appendingPathComponent("tree/in")
    let outside = root.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: inner.appendingPathComponent("link"), withDestinationURL: outside)
    try Data("secret".utf8).write(to: inner.appendingPathComponent(name))
    for arguments in [[inner.appendingPathComponent(name).path], ["--recursive", root.path]] {
      let result = try normalize.run(["--rename", "--form", form] + arguments)
      #expect(result.status == 65, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("not renamed: the normalized name"), "\(result.stderr)")
      #expect(result.stdout.isEmpty)
      #expect(try names(outside).isEmpty)
      #expect(try names(inner) == [Array(name.utf8), Array("link".utf8)])
      #expect(try names(root) == [Array("tree".utf8), Array("outside".utf8)])
    }
  }

  @Test("a file argument that is not UTF-8 is that file, never another one")
  func inputNotUTF8() throws {
    let folder = try temporaryFolder()
    try Data("ff\n".utf8).write(to: folder.appendingPathComponent("\u{FFFD}.txt"))
    let result = try shell(
      "hangul-normalize", in: folder,
      #"printf 'a\n' > $'\xff.txt'; printf 'b\n' > $'\xfe.txt'; "$EXE" $'\xfe.txt' $'\xff.txt'"#)
    #expect(result.text == "b\na\n")
    #expect(result.status == 0)
    let missing = try shell("hangul-compose", in: folder, #""$EXE" $'\xfd.txt'"#)
    #expect(missing.status == 66)
    #expect(missing.stderr == "hangul-compose: \\xFD.txt: No such file or directory\n")
    let keyboard = repositoryFile("keyboards/hangul-keyboard-2.xml").path
    let typed = try shell(
      "hangul-compose", in: folder,
      "cp '\(keyboard)' $'\\xff.xml' && printf 'dkssud\\n' | \"$EXE\" --keys qwerty --keyboard $'./\\xff.xml'"
    )
    #expect(typed.text == "안녕\n", "\(typed.stderr)")
    for program in ["hangul-decompose", "hangul-normalize"] {
      let jobs = try shell(program, in: folder, #""$EXE" --jobs 2 $'\xfe.txt' $'\xff.txt'"#)
      #expect(jobs.text.hasPrefix("b") && jobs.status == 0, "\(program): \(jobs.stderr)")
    }
  }

  @Test("--rejects that is not UTF-8 writes that file and leaves the file named with U+FFFD alone")
  func rejectsNotUTF8() throws {
    let folder = try temporaryFolder()
    let unrelated = folder.appendingPathComponent("\u{FFFD}.jsonl")
    try Data("keep me\n".utf8).write(to: unrelated)
    try Data("{\"content\":\"a\"}\n{\"x\":1}\n".utf8).write(
      to: folder.appendingPathComponent("r.json"))
    let result = try shell(
      "hangul-reviews", in: folder,
      #""$EXE" import --rejects $'\xff.jsonl' r.json; cat $'\xff.jsonl'"#
    )
    #expect(result.text.hasPrefix("{\"content\":\"a\"}\n{\"index\":1"), "\(result.text)")
    #expect(try Data(contentsOf: unrelated) == Data("keep me\n".utf8))
  }

  @Test("--rename of a folder that is not UTF-8 renames in that folder")
  func renameNotUTF8() throws {
    let folder = try temporaryFolder()
    let nfd = "\u{1112}\u{1161}\u{11AB}.txt"
    let other = folder.appendingPathComponent("\u{FFFD}")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    try Data().write(to: other.appendingPathComponent(nfd))
    let result = try shell(
      "hangul-normalize", in: folder,
      "mkdir $'\\xff' && : > $'\\xff'/'\(nfd)' && \"$EXE\" --rename --recursive $'\\xff'; s=$?; ls $'\\xff'; exit $s"
    )
    // The folder's own name is not UTF-8: reported and left alone.
    #expect(result.status == 65)
    #expect(result.stderr == "hangul-normalize: \\xFF: not renamed: the name is not UTF-8\n")
    #expect(result.text.hasPrefix("\\xFF/\(nfd) → \\xFF/한.txt (U+1112 U+1161 U+11AB → U+D55C)\n"))
    #expect(result.text.hasSuffix("\n한.txt\n"), "\(result.text)")
    #expect(try names(other) == [Array(nfd.utf8)], "the folder named U+FFFD is untouched")
  }

  static let selfAppends: [(program: String, arguments: String)] = [
    ("hangul-compose", ""), ("hangul-decompose", ""), ("hangul-normalize", ""),
    ("hangul-reviews", "import"), ("hangul-reviews", "export"),
  ]

  @Test(
    "an output that is an input (>>, >, or < and >>) is refused with 64 before anything is read",
    arguments: selfAppends)
  func outputIsInput(program: String, arguments: String) throws {
    let folder = try temporaryFolder()
    let line = "{\"content\":\"가\"}\n"
    // Limits, so that a program that reads its own output stops in seconds.
    let guarded = "ulimit -f 2048; timeout 20"
    for redirection in ["f >> f", "f > f", "< f >> f", "- < f >> f"] {
      try Data(line.utf8).write(to: folder.appendingPathComponent("f"))
      let result = try shell(program, in: folder, "\(guarded) \"$EXE\" \(arguments) \(redirection)")
      #expect(result.status == 64, "\(program) \(redirection): \(result.stderr)")
      #expect(result.stderr.contains("standard output is the input"), "\(result.stderr)")
      let after = try Data(contentsOf: folder.appendingPathComponent("f"))
      #expect(after.count <= line.utf8.count, "\(program) \(redirection): grew to \(after.count)")
    }
  }

  @Test("--rename --recursive walks a tree 8,000 folders deep")
  func deepTree() throws {
    let root = try temporaryFolder()
    defer { _ = try? Executable("hangul-normalize").shell("rm -rf '\(root.path)'") }
    // Made with descriptors, one level at a time: the path is too long for one call.
    var descriptor = open(root.path, O_RDONLY | O_DIRECTORY)
    let nfd = "\u{1112}\u{1161}\u{11AB}"
    for level in 0..<8000 {
      let name = level == 4000 ? nfd : "d"
      #expect(mkdirat(descriptor, name, 0o755) == 0)
      let next = openat(descriptor, name, O_RDONLY | O_DIRECTORY)
      close(descriptor)
      descriptor = next
    }
    let file = openat(descriptor, nfd + ".txt", O_CREAT | O_WRONLY, 0o644)
    #expect(file >= 0)
    close(file)
    close(descriptor)
    let result = try normalize.shell("\"$EXE\" --rename --recursive '\(root.path)' | wc -l")
    #expect(result.text == "2\n", "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let dry = try normalize.run(["--rename", "--recursive", "--dry-run", root.path])
    #expect(dry.status == 0)
    #expect(dry.stdout.isEmpty)
  }
}
