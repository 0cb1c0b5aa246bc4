import Foundation
import Testing

/// `--keyboard` and `--list-keyboards` as a user runs them.
@Suite("Keyboards end to end")
struct KeyboardCommandTests {
  let compose = Executable("hangul-compose")
  let decompose = Executable("hangul-decompose")
  let reviews = Executable("hangul-reviews")

  @Test("--list-keyboards prints id, type and name of every built-in keyboard in aligned columns")
  func listKeyboards() throws {
    let result = try compose.run(["--list-keyboards"])
    #expect(result.status == 0)
    let lines = result.text.split(separator: "\n")
    #expect(
      lines.map { $0.split(separator: " ")[0] } == [
        "2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn", "cheonjiin", "naratgeul", "sky2",
      ])
    #expect(lines[4] == "3f        jaso      세벌식 최종 (Sebeolsik Final)")
    // The columns line up whatever the length of the ids.
    #expect(lines[11] == "sky2      keypad    SKY-II 한글 (SKY-II)")
    #expect(try reviews.run(["import", "--list-keyboards"]).text == result.text)
  }

  @Test(
    "each keyboard types 안녕하세요 from its keys",
    arguments: [
      ("2", "dkssudgktpdy"), ("3f", "jfsheamfncj4"), ("39", "jfsheamfncj4"),
      ("ro", "annyeonghaseyo"), ("3y", "jfsheamfncj4"),
    ])
  func typesGreeting(keyboard: String, keys: String) throws {
    let result = try compose.run(
      ["--keys", "qwerty", "--keyboard", keyboard], input: Data("\(keys)\n".utf8))
    #expect(result.status == 0)
    #expect(result.text == "안녕하세요\n")
    #expect(result.stderr.isEmpty)
  }

  @Test("a symbol key types its symbol, and old Hangul comes out as conjoining jamo")
  func symbolsAndOldHangul() throws {
    let symbol = try compose.run(
      ["--keys", "qwerty", "--keyboard", "3f"], input: Data("kf~\n".utf8))
    #expect(symbol.text == "가※\n")
    let old = try compose.run(["--keys", "qwerty", "--keyboard", "3y"], input: Data("kf~\n".utf8))
    #expect(Array(old.text.unicodeScalars) == ["\u{1100}", "\u{1161}", "\u{11F0}", "\n"])
    let nfc = try compose.run(
      ["--keys", "qwerty", "--keyboard", "3y", "--nfc", "--verify"], input: Data("kf~\n".utf8))
    #expect(Array(nfc.text.unicodeScalars) == ["가", "\u{11F0}", "\n"])
    #expect(nfc.status == 0)
  }

  @Test(
    "Backspace with nothing to undo deletes a syllable written as conjoining jamo whole, as hangul-compose(1) says"
  )
  func backspaceDeletesConjoiningSyllable() throws {
    // 5 q types ᅟᅲᆺ (a filler, a vowel, a final) on 3f; the space commits it.
    let typed = try compose.run(
      ["--keys", "qwerty", "--keyboard", "3f"], input: Data("5q \n5q \u{8}\n".utf8))
    #expect(
      Array(typed.text.unicodeScalars) == [
        "\u{115F}", "\u{1172}", "\u{11BA}", " ", "\n", "\u{115F}", "\u{1172}", "\u{11BA}", "\n",
      ])
    let deleted = try compose.run(
      ["--keys", "qwerty", "--keyboard", "3f"], input: Data("5q \u{8}\u{8}\n".utf8))
    #expect(deleted.text == "\n")
    #expect(deleted.status == 0)
    let page = try String(contentsOf: repositoryFile("man/hangul-compose.1"), encoding: .utf8)
    #expect(!page.contains("(a Unicode scalar, or one byte that is not UTF-8)"))
  }

  @Test("--auto-reorder puts a vowel typed first in its place")
  func autoReorder() throws {
    let result = try compose.run(
      ["--keys", "qwerty", "--keyboard", "3f", "--auto-reorder"], input: Data("fkx\n".utf8))
    #expect(result.text == "각\n")
    let twoSet = try compose.run(["--auto-reorder"], input: Data("ㅏㄱ\n".utf8))
    #expect(twoSet.text == "가\n")
  }

  @Test(
    "--keys jamo with a keyboard without jamo labels is a usage error",
    arguments: ["3f", "ro", "2y"])
  func jamoKeysRefused(keyboard: String) throws {
    let result = try compose.run(["--keyboard", keyboard], input: Data("ㄱㅏ\n".utf8))
    #expect(result.status == 64)
    #expect(result.stderr.contains("has no jamo keys; use --keys qwerty\n"))
    #expect(result.stdout.isEmpty)
    let decomposing = try decompose.run(["--keyboard", keyboard], input: Data("가\n".utf8))
    #expect(decomposing.status == 64)
    #expect(decomposing.stderr.contains("use --to qwerty"))
  }

  @Test("a bad keyboard file is a usage error naming FILE:LINE:COLUMN")
  func badKeyboardFile() throws {
    let folder = try temporaryFolder()
    let path = folder.appendingPathComponent("bad.xml").path
    try Data(
      "<hangul-keyboard id=\"bad\" type=\"jaso\">\n  <map>\n    <item key=\"300\" value=\"0x1100\"/>\n"
        .utf8
    )
    .write(to: URL(fileURLWithPath: path))
    let result = try compose.run(["--keys", "qwerty", "--keyboard", path])
    #expect(result.status == 64)
    #expect(result.stderr.contains("\(path):3:5: key 300 is not an ASCII code (0–127)"))
    let missing = try compose.run([
      "--keys", "qwerty", "--keyboard", folder.appendingPathComponent("none.xml").path,
    ])
    #expect(missing.status == 64)
    #expect(missing.stderr.contains("none.xml: cannot open: No such file or directory"))
  }

  @Test(
    "decompose --to qwerty --keyboard K | compose --keys qwerty --keyboard K gives back the text",
    arguments: [
      "2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn", "cheonjiin", "naratgeul", "sky2",
    ])
  func roundTripThroughPrograms(keyboard: String) throws {
    let sample = repositoryFile("samples/qwerty-keys.expected.txt").path
    let result = try compose.shell(
      "\"\(decompose.url.path)\" --to qwerty --keyboard \(keyboard) '\(sample)' | \"$EXE\" --keys qwerty --keyboard \(keyboard)"
    )
    #expect(result.status == 0)
    #expect(result.stdout == (try Data(contentsOf: URL(fileURLWithPath: sample))))
  }

  @Test("the 천지인 keypad: jamo labels both ways, keypad characters, event logs")
  func cheonjiin() throws {
    let typed = try compose.run(
      ["--keyboard", "cheonjiin"], input: Data("ㄱㄱㅣㆍ ㅇㅣㆍㄴㅅㅅ ㄷㅣㆍㄴㄴㄱ\n".utf8))
    #expect(typed.status == 0)
    #expect(typed.text == "카 않 닭\n")
    let digits = try compose.run(
      ["--keys", "qwerty", "--keyboard", "cheonjiin"], input: Data("0125\n".utf8))
    #expect(digits.text == "안\n")
    let sample = repositoryFile("samples/qwerty-keys.expected.txt").path
    let result = try compose.shell(
      "\"\(decompose.url.path)\" --to keys --keyboard cheonjiin '\(sample)' | \"$EXE\" --keyboard cheonjiin"
    )
    #expect(result.stdout == (try Data(contentsOf: URL(fileURLWithPath: sample))))
    let events = try compose.run(
      ["--format", "events", "--keys", "qwerty", "--keyboard", "cheonjiin"],
      input: Data("{\"key\":\"1\"}\n{\"key\":\"2\"}\n".utf8))
    #expect(events.status == 0)
    #expect(events.text == "ㅏ\n")
    #expect(events.stderr.isEmpty)
    let imported = try reviews.run(
      ["import", "--content", "keys", "--keyboard", "cheonjiin"],
      input: Data(#"{"id":1,"content":"0125"}"#.utf8 + Data("\n".utf8)))
    #expect(imported.status == 64)
    #expect(imported.stderr.contains("phone keypad"))
  }

  @Test(
    "a keypad event log: the pause ends the cycle only with --multitap-timeout",
    arguments: [([], "아령 친구야\n"), (["--multitap-timeout", "1000"], "안녕 친구야\n")])
  func keypadEventSample(options: [String], expected: String) throws {
    let sample = repositoryFile("samples/cheonjiin-keypad.jsonl").path
    let result = try compose.run(
      ["--format", "events", "--keyboard", "cheonjiin"] + options + [sample])
    #expect(result.status == 0)
    #expect(result.text == expected)
    #expect(result.stderr.isEmpty)
  }

  @Test("나랏글's named keys in event logs; a name no key has is a bad line (65)")
  func namedKeys() throws {
    let log = ["ㄱ", "쌍자음", "ㅏ", "ㅅ", "획추가", "획추가", "ㅣ"].map { "{\"key\":\"\($0)\"}\n" }.joined()
    let result = try compose.run(
      ["--format", "events", "--keyboard", "naratgeul"], input: Data(log.utf8))
    #expect(result.status == 0)
    #expect(result.text == "까치\n")
    #expect(result.stderr.isEmpty)
    let bad = try compose.run(
      ["--format", "events", "--keyboard", "sky2"], input: Data("{\"key\":\"획추가\"}\n".utf8))
    #expect(bad.status == 65)
    #expect(bad.text.isEmpty)
    #expect(bad.stderr.contains("unknown key \"획추가\""))
  }

  @Test(
    "--multitap-timeout needs events on a keypad and a number of milliseconds (64)",
    arguments: [
      ["--multitap-timeout", "500", "--keyboard", "cheonjiin"],
      ["--multitap-timeout", "500", "--format", "events"],
      ["--multitap-timeout", "-1", "--format", "events", "--keyboard", "sky2"],
      ["--multitap-timeout", "soon", "--format", "events", "--keyboard", "sky2"],
    ])
  func multitapTimeoutMisuse(arguments: [String]) throws {
    let result = try compose.run(arguments, input: Data())
    #expect(result.status == 64)
    #expect(result.text.isEmpty)
    #expect(result.stderr.contains("multitap-timeout"))
  }

  @Test("event logs and review imports take --keyboard")
  func eventsAndReviews() throws {
    let events = try compose.run(
      ["--format", "events", "--keys", "qwerty", "--keyboard", "3f"],
      input: Data(
        "{\"key\":\"j\"}\n{\"key\":\"f\"}\n{\"key\":\"s\"}\n{\"key\":\"Backspace\"}\n".utf8))
    #expect(events.status == 0)
    #expect(events.text == "아\n")
    let imported = try reviews.run(
      ["import", "--content", "keys", "--keys", "qwerty", "--keyboard", "3f"],
      input: Data(#"{"id":1,"content":"jfshea"}"#.utf8 + Data("\n".utf8)))
    #expect(imported.status == 0)
    #expect(imported.text == #"{"id":1,"content":"안녕"}"# + "\n")
  }
}
