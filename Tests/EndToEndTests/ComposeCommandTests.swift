import Foundation
import Testing

/// `hangul-compose` as a user runs it: files, pipes, errors and exit statuses.
@Suite("hangul-compose end to end")
struct ComposeCommandTests {
  let compose = Executable("hangul-compose")

  @Test("the README's quick start: QWERTY keys from a sample file")
  func qwertySample() throws {
    let result = try compose.run([
      "--keys", "qwerty", repositoryFile("samples/qwerty-keys.txt").path,
    ])
    let expected = try String(
      contentsOf: repositoryFile("samples/qwerty-keys.expected.txt"), encoding: .utf8)
    #expect(result.status == 0)
    #expect(result.text == expected)
    #expect(result.stderr.isEmpty)
  }

  @Test("standard input: printf 'dkssudgktpdy\\n' | hangul-compose --keys qwerty")
  func standardInput() throws {
    let result = try compose.run(["--keys", "qwerty"], input: Data("dkssudgktpdy\n".utf8))
    #expect(result.status == 0)
    #expect(result.text == "안녕하세요\n")
  }

  @Test(
    "a phone review with corrections, in both Backspace modes", arguments: ["jamo", "keystroke"])
  func phoneReview(mode: String) throws {
    let result = try compose.run([
      "--backspace", mode, repositoryFile("samples/phone-review.keys").path,
    ])
    let expected = try String(
      contentsOf: repositoryFile("samples/phone-review.expected.txt"), encoding: .utf8)
    #expect(result.status == 0)
    #expect(result.text == expected)
  }

  @Test("NFD file names from macOS come out NFC")
  func nfdNames() throws {
    let result = try compose.run([repositoryFile("samples/macos-nfd-names.txt").path])
    #expect(result.text == "회의록_2024년 3월.docx\n사진/제주도 여행/한라산 정상.jpg\n보고서(최종)_수정본.pdf\n")
    #expect(result.text.precomposedStringWithCanonicalMapping == result.text)
  }

  @Test("several FILEs and - are read in order, like cat")
  func severalFiles() throws {
    let folder = try temporaryFolder()
    try Data("ㄱㅏ\n".utf8).write(to: folder.appendingPathComponent("a"))
    try Data("ㄴㅏ\n".utf8).write(to: folder.appendingPathComponent("b"))
    let result = try compose.run(
      [folder.appendingPathComponent("a").path, "-", folder.appendingPathComponent("b").path],
      input: Data("ㄷㅏ\n".utf8))
    #expect(result.text == "가\n다\n나\n")
    #expect(result.status == 0)
  }

  @Test("a FILE that cannot be opened: message, the others still processed, status 66")
  func missingFile() throws {
    let folder = try temporaryFolder()
    try Data("ㄱㅏ\n".utf8).write(to: folder.appendingPathComponent("a"))
    let missing = folder.appendingPathComponent("missing.txt").path
    let result = try compose.run([missing, folder.appendingPathComponent("a").path, folder.path])
    #expect(result.status == 66)
    #expect(result.text == "가\n")
    #expect(result.stderr.contains("hangul-compose: \(missing): No such file or directory"))
    #expect(result.stderr.contains("hangul-compose: \(folder.path): Is a directory"))
  }

  @Test(
    "bad usage exits 64 with a message that says what to do",
    arguments: [
      ["--keys", "dvorak"], ["--backspace", "word"], ["--max-line", "0"], ["--max-line", "lots"],
      ["--bogus"],
    ])
  func badUsage(arguments: [String]) throws {
    let result = try compose.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("hangul-compose: "))
    #expect(result.stderr.hasSuffix("Try 'hangul-compose --help'.\n"))
    #expect(result.stdout.isEmpty)
  }

  @Test("--help teaches the options")
  func help() throws {
    let result = try compose.run(["--help"])
    #expect(result.status == 0)
    for option in [
      "--keys", "--double-stroke", "--no-bare-clusters", "--extended-vowels", "--backspace",
      "--max-line",
    ] {
      #expect(result.text.contains(option))
    }
  }

  @Test(
    "options change the automaton",
    arguments: [
      (["--double-stroke"], "ㄱㄱㅏㅅㅅ", "깠"), (["--no-bare-clusters"], "ㄱㅅ", "ㄱㅅ"), ([], "ㄱㅅ", "ㄳ"),
      (["--extended-vowels"], "ㄱㅏㅣ", "개"), (["--backspace", "keystroke"], "ㅇㅏㄴㅣ\u{8}", "안"),
      (["--backspace", "jamo"], "ㅇㅏㄴㅣ\u{8}", "아ㄴ"),
    ])
  func options(arguments: [String], input: String, expected: String) throws {
    let result = try compose.run(arguments, input: Data(input.utf8))
    #expect(result.text == expected)
  }

  @Test("bytes that are not UTF-8 are copied through unchanged")
  func invalidBytes() throws {
    var input = Data("ㄱㅏ".utf8)
    input.append(contentsOf: [0xFF, 0xC0, 0xAF, 0x00, 0x0A, 0xEA, 0xB0])
    let result = try compose.run([], input: input)
    var expected = Data("가".utf8)
    expected.append(contentsOf: [0xFF, 0xC0, 0xAF, 0x00, 0x0A, 0xEA, 0xB0])
    #expect(result.stdout == expected)
    #expect(result.status == 0)
  }

  @Test("writing to a full disk: status 74 and a message")
  func fullDisk() throws {
    let result = try compose.shell("printf 'ㄱㅏ\\n' | \"$EXE\" > /dev/full")
    #expect(result.status == 74)
    #expect(result.stderr.contains("hangul-compose: write error: No space left on device"))
  }

  @Test("a closed output pipe ends the program quietly")
  func closedPipe() throws {
    let result = try compose.shell(
      "yes dkssudgktpdy | head -c 5000000 | \"$EXE\" --keys qwerty | head -c 10 > /dev/null; echo \"${PIPESTATUS[2]}\""
    )
    #expect(result.text == "0\n")
    #expect(result.stderr.isEmpty)
  }

  @Test("a line is written as soon as it arrives, before the input ends")
  func lineBeforeEndOfInput() throws {
    let process = Process()
    process.executableURL = compose.url
    process.arguments = ["--keys", "qwerty"]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    stdin.fileHandleForWriting.write(Data("dkssud\nrk".utf8))
    let arrived = DispatchSemaphore(value: 0)
    let box = ErrorCollectorBox()
    Thread {
      box.data = stdout.fileHandleForReading.availableData
      arrived.signal()
    }.start()
    let inTime = arrived.wait(timeout: .now() + 20) == .success
    #expect(inTime)
    #expect(String(decoding: box.data, as: UTF8.self) == "안녕\n")
    try stdin.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }
}

final class ErrorCollectorBox: @unchecked Sendable {
  var data = Data()
}
