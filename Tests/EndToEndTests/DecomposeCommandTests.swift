import Foundation
import Testing

/// `hangul-decompose` as a user runs it, and its round trip through `hangul-compose`.
@Suite("hangul-decompose end to end")
struct DecomposeCommandTests {
  let decompose = Executable("hangul-decompose")
  let compose = Executable("hangul-compose")

  @Test(
    "each --to form on standard input",
    arguments: [
      ("keys", "ㄷㅏㄹㄱ ㄱㅗㅏ\n"), ("jamo", "ㄷㅏㄺ ㄱㅘ\n"),
      ("nfd", "\u{1103}\u{1161}\u{11B0} \u{1100}\u{116A}\n"),
      ("qwerty", "ekfr rhk\n"), ("initials", "ㄷ ㄱ\n"),
    ])
  func forms(form: String, expected: String) throws {
    let result = try decompose.run(["--to", form], input: Data("닭 과\n".utf8))
    #expect(result.status == 0)
    #expect(result.stdout == Data(expected.utf8))
    #expect(result.stderr.isEmpty)
  }

  @Test("--plain writes keys that grep finds; without it the separator is there")
  func plainKeys() throws {
    let marked = try decompose.shell("echo 각ㅏ | \"$EXE\" | grep -c ㄱㅏㄱㅏ")
    #expect(marked.text == "0\n")
    let plain = try decompose.shell("echo 각ㅏ | \"$EXE\" --plain | grep -c ㄱㅏㄱㅏ")
    #expect(plain.text == "1\n")
    let qwerty = try decompose.run(
      ["--to", "qwerty", "--plain"], input: Data("Rating: 좋아요\n".utf8))
    #expect(qwerty.text == "Rating: whgdkdy\n")
    let misplaced = try decompose.run(["--to", "jamo", "--plain"])
    #expect(misplaced.status == 64)
    #expect(misplaced.stderr.hasPrefix("hangul-decompose: --plain only applies to --to keys"))
  }

  @Test("keys is the default")
  func defaultForm() throws {
    #expect(try decompose.run([], input: Data("닭\n".utf8)).text == "ㄷㅏㄹㄱ\n")
  }

  @Test(
    "the round trip through hangul-compose gives back the input byte for byte",
    arguments: ["keys", "qwerty"])
  func roundTripThroughPipe(form: String) throws {
    let folder = try temporaryFolder()
    var input = Data("각ㅏ ㄱㅅ 가ㅏ Linux 안녕하세요\n값이 비싸다 \u{200C}\u{2060}\u{8} 😀\r\n".utf8)
    input.append(contentsOf: [0xFF, 0xEA, 0xB0, 0x0A, 0xE0])
    let file = folder.appendingPathComponent("input.txt")
    try input.write(to: file)
    let keysOption = form == "qwerty" ? "--keys qwerty" : ""
    let result = try decompose.shell(
      "\"$EXE\" --to \(form) '\(file.path)' | '\(compose.url.path)' \(keysOption)")
    #expect(result.status == 0)
    #expect(result.stdout == input)
  }

  @Test("the separator shows where keys would compose differently")
  func separatorOnCommandLine() throws {
    let result = try decompose.run(["--to", "qwerty"], input: Data("각ㅏ\n".utf8))
    #expect(result.stdout == Data("rkr\u{200C}k\n".utf8))
  }

  @Test("files, -, a missing file (66) and bytes that are not UTF-8")
  func files() throws {
    let folder = try temporaryFolder()
    try Data([0x80, 0x0A]).write(to: folder.appendingPathComponent("bytes"))
    try Data("한\n".utf8).write(to: folder.appendingPathComponent("text"))
    let missing = folder.appendingPathComponent("missing").path
    let result = try decompose.run(
      [
        folder.appendingPathComponent("bytes").path, missing, "-",
        folder.appendingPathComponent("text").path,
      ],
      input: Data("글\n".utf8))
    #expect(result.status == 66)
    var expected = Data([0x80, 0x0A])
    expected.append(Data("ㄱㅡㄹ\nㅎㅏㄴ\n".utf8))
    #expect(result.stdout == expected)
    let bytes = folder.appendingPathComponent("bytes").path
    #expect(
      result.stderr
        == "hangul-decompose: \(bytes):1:1: warning: byte 0x80 is not UTF-8; "
        + "if the file is in another encoding, name it with "
        + "--from-code\nhangul-decompose: \(missing): No such file or directory\n")
  }

  @Test("bad usage exits 64", arguments: [["--to", "romaja"], ["--from", "keys"], ["--to"]])
  func badUsage(arguments: [String]) throws {
    let result = try decompose.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("hangul-decompose: "))
  }

  @Test("a full disk gives 74; a closed pipe ends quietly")
  func faults() throws {
    let full = try decompose.shell("echo 한글 | \"$EXE\" > /dev/full")
    #expect(full.status == 74)
    #expect(full.stderr.contains("hangul-decompose: write error:"))
    let closed = try decompose.shell(
      "yes 안녕하세요 | head -c 5000000 | \"$EXE\" | head -c 10 > /dev/null; echo \"${PIPESTATUS[2]}\"")
    #expect(closed.text == "0\n")
    #expect(closed.stderr.isEmpty)
  }

  @Test(
    "--stats writes keystrokes, characters and KSPC to standard error",
    arguments: [
      ("2", "닭\n", "keystrokes  5\ncharacters  2\nKSPC        2.500\n"),
      ("cheonjiin", "안녕\n", "keystrokes  11\ncharacters  3\nKSPC        3.667\n"),
      ("3f", "", "keystrokes  0\ncharacters  0\nKSPC        -\n"),
    ])
  func stats(keyboard: String, text: String, report: String) throws {
    let result = try decompose.run(
      ["--stats", "--to", "nfd", "--keyboard", keyboard], input: Data(text.utf8))
    #expect(result.status == 0)
    // The output is what it is without --stats.
    #expect(result.stdout == (try decompose.run(["--to", "nfd"], input: Data(text.utf8))).stdout)
    #expect(result.stderr == report)
  }
}
