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
      ["--output", "keystrokes", "--nfc"],
      ["--output", "keystrokes", "--verify"], ["--output", "keystrokes", "--stats"],
      ["--output", "jsonl"],
    ])
  func usageErrors(arguments: [String]) throws {
    let result = try compose.run(arguments, input: Data("r\n".utf8))
    #expect(result.status == 64)
    #expect(result.text.isEmpty)
  }

  @Test("event logs: doc and t as the log has them, key or code names, text events, the 한/영 key")
  func events() throws {
    let log = """
      {"doc":"a","t":10,"key":"ㄱ"}
      {"doc":"a","t":20,"code":"KeyK"}
      {"key":"Backspace","t":30}
      {"key":"Backspace"}
      {"text":"안녕"}
      {"key":"Backspace"}
      {"doc":2,"key":"Shift"}
      {"key":"ㄱ"}
      {"code":"Lang1"}
      {"code":"KeyA"}
      {"key":"Enter"}

      """
    let result = try compose.run(
      ["--format", "events", "--keys", "qwerty", "--output", "keystrokes"], input: Data(log.utf8))
    #expect(result.status == 0)
    #expect(
      result.text == """
        {"n":1,"doc":"a","t":10,"key":"ㄱ","commit":"","preedit":"ㄱ","role":"initial","syllable":1,"pause":false,"burst":1,"revision":false}
        {"n":2,"doc":"a","t":20,"key":"KeyK","commit":"","preedit":"가","iki":10,"role":"vowel","syllable":1,"pause":false,"burst":1,"revision":false}
        {"n":3,"doc":"a","t":30,"key":"Backspace","commit":"","preedit":"ㄱ","iki":10,"pause":false,"burst":1,"revision":true}
        {"n":4,"doc":"a","key":"Backspace","commit":"","preedit":"","pause":false,"burst":1,"revision":true}
        {"n":5,"doc":"a","text":"안녕","commit":"안녕","preedit":"","pause":false,"burst":1,"revision":false}
        {"n":6,"doc":"a","key":"Backspace","commit":"","preedit":"","delete":1,"pause":false,"burst":1,"revision":true}
        {"n":7,"doc":2,"key":"Shift","commit":"","preedit":"","pause":false,"burst":1,"revision":false}
        {"n":8,"doc":2,"key":"ㄱ","commit":"","preedit":"ㄲ","role":"initial","syllable":1,"pause":false,"burst":1,"revision":false}
        {"n":9,"doc":2,"key":"Lang1","commit":"ㄲ","preedit":"","pause":false,"burst":1,"revision":false}
        {"n":10,"doc":2,"key":"KeyA","commit":"a","preedit":"","pause":false,"burst":1,"revision":false}
        {"n":11,"doc":2,"key":"Enter","commit":"","preedit":"","pause":false,"burst":1,"revision":false}

        """)
  }

  @Test("the issue's examples as event logs give the same objects as the text logs")
  func eventsAgreeWithText() throws {
    for (keys, keyboard) in [("dkssud", "2"), ("rkt\u{8}s", "2"), ("jfshea", "3f")] {
      let arguments = ["--keys", "qwerty", "--keyboard", keyboard, "--output", "keystrokes"]
      let text = try compose.run(arguments, input: Data("\(keys)\n".utf8))
      let log =
        keys.unicodeScalars.map { scalar in
          scalar == "\u{8}" ? #"{"key":"Backspace"}"# : #"{"key":"\#(scalar)"}"#
        }.joined(separator: "\n") + "\n" + #"{"key":"Enter"}"# + "\n"
      let events = try compose.run(["--format", "events"] + arguments, input: Data(log.utf8))
      #expect(events.status == 0)
      // Event logs add the writing-process columns (hangul-keylog(5), MEASURES); text logs have no times.
      let measures = #/,"(iki|role|syllable|pause|burst|revision)":[^,}]+/#
      #expect(events.text.replacing(measures, with: "") == text.text, "\(keys)")
    }
  }
}
