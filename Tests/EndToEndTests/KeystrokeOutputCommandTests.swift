import Foundation
import Testing

/// `hangul-compose --output keystrokes` as a user runs it: the examples of
/// issue 27, exactly.
@Suite("hangul-compose --output keystrokes end to end")
struct KeystrokeOutputCommandTests {
  let compose = Executable("hangul-compose")

  /// One object a line, as the program writes them.
  static func lines(_ pairs: [(key: String, commit: String, preedit: String)]) -> String {
    pairs.enumerated().map { index, pair in
      "{\"n\":\(index + 1),\"key\":\"\(pair.key)\",\"commit\":\"\(pair.commit)\",\"preedit\":\"\(pair.preedit)\"}\n"
    }.joined()
  }

  @Test("dkssud, rkt⌫s and jfshea on 3f")
  func issueExamples() throws {
    let greeting = try compose.run(
      ["--keys", "qwerty", "--output", "keystrokes"], input: Data("dkssud\n".utf8))
    #expect(greeting.status == 0)
    #expect(
      greeting.text
        == Self.lines([
          ("d", "", "ㅇ"), ("k", "", "아"), ("s", "", "안"), ("s", "안", "ㄴ"), ("u", "", "녀"),
          ("d", "", "녕"), ("Enter", "녕", ""),
        ]))
    let corrected = try compose.run(
      ["--keys", "qwerty", "--output", "keystrokes"], input: Data("rkt\u{8}s\n".utf8))
    #expect(
      corrected.text
        == Self.lines([
          ("r", "", "ㄱ"), ("k", "", "가"), ("t", "", "갓"), ("Backspace", "", "가"), ("s", "", "간"),
          ("Enter", "간", ""),
        ]))
    let threeSet = try compose.run(
      ["--keys", "qwerty", "--keyboard", "3f", "--output", "keystrokes"],
      input: Data("jfshea\n".utf8))
    #expect(
      threeSet.text
        == Self.lines([
          ("j", "", "ㅇ"), ("f", "", "아"), ("s", "", "안"), ("h", "안", "ㄴ"), ("e", "", "녀"),
          ("a", "", "녕"), ("Enter", "녕", ""),
        ]))
    #expect(threeSet.stderr.isEmpty)
  }

  @Test("the files are one log, as for the text (keys numbered over all of them)")
  func files() throws {
    let folder = try temporaryFolder()
    let first = folder.appendingPathComponent("a.keys")
    try Data("r".utf8).write(to: first)
    let result = try compose.run(
      ["--keys", "qwerty", "--output", "keystrokes", first.path, "-"], input: Data("k\n".utf8))
    #expect(
      result.text
        == Self.lines([("r", "", "ㄱ"), ("k", "", "가"), ("Enter", "가", "")]))
  }

  @Test(
    "what does not go with it is a usage error",
    arguments: [
      ["--format", "events", "--output", "keystrokes"], ["--output", "keystrokes", "--nfc"],
      ["--output", "keystrokes", "--verify"], ["--output", "keystrokes", "--stats"],
      ["--output", "jsonl"],
    ])
  func usageErrors(arguments: [String]) throws {
    let result = try compose.run(arguments, input: Data("r\n".utf8))
    #expect(result.status == 64)
    #expect(result.text.isEmpty)
  }
}
