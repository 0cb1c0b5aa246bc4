import HangulKit
import Testing

/// hangul-compose(1): every named key of `"key"` and every code value of `"code"`,
/// typed through the 2-set layout, in both input modes.
@Suite("Event keys and codes")
struct EventKeyTests {
  func run(_ lines: [String], startMode: InputMode = .korean) -> (String, [PositionedError]) {
    var errors: [PositionedError] = []
    let collected = Collected()
    var filter = EventLogFilter(startMode: startMode) { collected.errors.append($0) }
    let output = (try? filter.filtered(Array(lines.joined(separator: "\n").utf8))) ?? []
    errors = collected.errors
    return (String(decoding: output, as: UTF8.self), errors)
  }

  final class Collected: @unchecked Sendable {
    var errors: [PositionedError] = []
  }

  func key(_ name: String) -> String { #"{"key":\#(JSONWriter.quoted(name))}"# }
  func code(_ name: String, shift: Bool = false) -> String {
    shift ? #"{"code":"\#(name)","shiftKey":true}"# : #"{"code":"\#(name)"}"#
  }

  /// Each named key after typing 가|나 with the cursor between the two
  /// syllables (가 committed by ArrowLeft… no: set up by the events below).
  @Test(
    "every named key",
    arguments: [
      // Setup: 가, Enter, 나다, ArrowLeft (cursor between 나 and 다), then ㄱ being composed.
      ("Backspace", "가\n나다"), ("Delete", "가\n나ㄱ"), ("Enter", "가\n나ㄱ\n다"),
      ("Tab", "가\n나ㄱ\t다"), ("Shift", "가\n나ㄱㄲ다"), ("ArrowLeft", "가\n나ㅋㄱ다"),
      ("ArrowRight", "가\n나ㄱ다ㅋ"), ("ArrowUp", "가ㅋ\n나ㄱ다"), ("ArrowDown", "가\n나ㄱㅋ다"),
      ("Home", "가\nㅋ나ㄱ다"), ("End", "가\n나ㄱ다ㅋ"), ("HangulMode", "가\n나ㄱr다"),
      ("Process", "가\n나ㄱ다"), (" ", "가\n나ㄱ 다"), ("Space", "가\n나ㄱ 다"),
      ("DeleteWord", "가\n다"), ("Next", "가\n나ㄱㄱ다"),
    ])
  func namedKey(name: String, expected: String) {
    // After the key: "Shift" and the others are followed by the key ㄱ (under
    // HangulMode: code KeyR, so r in English mode) or, for movement keys, ㅋ.
    let probe =
      switch name {
      case "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End": key("ㅋ")
      case "Shift", "Next": key("ㄱ")
      case "HangulMode": code("KeyR")
      default: nil as String?
      }
    let setup = ["ㄱ", "ㅏ", "Enter", "ㄴ", "ㅏ", "ㄷ", "ㅏ", "ArrowLeft", "ㄱ"].map(key)
    let (output, errors) = run(setup + [key(name)] + (probe.map { [$0] } ?? []))
    #expect(output == expected + "\n")
    #expect(errors.isEmpty)
  }

  @Test("the named-key table test covers every named key")
  func namedKeysCovered() {
    let tested: Set<String> = [
      "Backspace", "Delete", "Enter", "Tab", "Shift", "ArrowLeft", "ArrowRight", "ArrowUp",
      "ArrowDown", "Home", "End", "HangulMode", "Process", "Space", "DeleteWord", "Next",
    ]
    #expect(Set(EventLogFilter.NamedKey.allCases.map(\.rawValue)) == tested)
  }

  static let letterJamo = Array("ㅁㅠㅊㅇㄷㄹㅎㅗㅑㅓㅏㅣㅡㅜㅐㅔㅂㄱㄴㅅㅕㅍㅈㅌㅛㅋ".unicodeScalars)
  static let shiftedLetterJamo = Array("ㅁㅠㅊㅇㄸㄹㅎㅗㅑㅓㅏㅣㅡㅜㅒㅖㅃㄲㄴㅆㅕㅍㅉㅌㅛㅋ".unicodeScalars)

  /// (code, Korean mode, Korean mode with Shift, English mode, English mode with Shift)
  static let typingCodes: [(String, String, String, String, String)] = {
    var rows: [(String, String, String, String, String)] = []
    for (index, letter) in "ABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars.enumerated() {
      let lower = String(letter).lowercased()
      rows.append(
        (
          "Key\(letter)", String(letterJamo[index]), String(shiftedLetterJamo[index]), lower,
          String(letter)
        ))
    }
    let others: [(String, String, String)] = [
      ("Digit0", "0", ")"), ("Digit1", "1", "!"), ("Digit2", "2", "@"), ("Digit3", "3", "#"),
      ("Digit4", "4", "$"), ("Digit5", "5", "%"), ("Digit6", "6", "^"), ("Digit7", "7", "&"),
      ("Digit8", "8", "*"), ("Digit9", "9", "("), ("Backquote", "`", "~"), ("Minus", "-", "_"),
      ("Equal", "=", "+"), ("BracketLeft", "[", "{"), ("BracketRight", "]", "}"),
      ("Backslash", "\\", "|"), ("Semicolon", ";", ":"), ("Quote", "'", "\""),
      ("Comma", ",", "<"), ("Period", ".", ">"), ("Slash", "/", "?"), ("Space", " ", " "),
      ("Numpad0", "0", "0"), ("Numpad1", "1", "1"), ("Numpad2", "2", "2"), ("Numpad3", "3", "3"),
      ("Numpad4", "4", "4"), ("Numpad5", "5", "5"), ("Numpad6", "6", "6"), ("Numpad7", "7", "7"),
      ("Numpad8", "8", "8"), ("Numpad9", "9", "9"), ("NumpadDecimal", ".", "."),
      ("NumpadAdd", "+", "+"), ("NumpadSubtract", "-", "-"), ("NumpadMultiply", "*", "*"),
      ("NumpadDivide", "/", "/"),
    ]
    for (name, plain, shifted) in others { rows.append((name, plain, shifted, plain, shifted)) }
    return rows
  }()

  @Test(
    "every code that types a character, in both modes, with and without Shift",
    arguments: typingCodes)
  func typingCode(row: (String, String, String, String, String)) {
    let (name, korean, koreanShifted, english, englishShifted) = row
    #expect(run([code(name)]).0 == korean + "\n")
    #expect(run([code(name, shift: true)]).0 == koreanShifted + "\n")
    // A one-shot Shift key before it does the same as "shiftKey".
    #expect(run([code("ShiftLeft"), code(name)]).0 == koreanShifted + "\n")
    #expect(run([code(name)], startMode: .english).0 == english + "\n")
    #expect(run([code(name, shift: true)], startMode: .english).0 == englishShifted + "\n")
  }

  /// Codes that act as named keys: each does what its key does.
  static let namedCodes: [(String, String)] = [
    ("Backspace", "Backspace"), ("Delete", "Delete"), ("Enter", "Enter"), ("NumpadEnter", "Enter"),
    ("Tab", "Tab"), ("ShiftLeft", "Shift"), ("ShiftRight", "Shift"), ("ArrowLeft", "ArrowLeft"),
    ("ArrowRight", "ArrowRight"), ("ArrowUp", "ArrowUp"), ("ArrowDown", "ArrowDown"),
    ("Home", "Home"), ("End", "End"), ("Lang1", "HangulMode"),
  ]

  @Test("every code of an editing key does what the named key does", arguments: namedCodes)
  func namedCode(name: String, keyName: String) {
    let setup = ["ㄱ", "ㅏ", "Enter", "ㄴ", "ㅏ", "ㄷ", "ㅏ", "ArrowLeft", "ㄱ"].map(key)
    let tail = [key("ㅋ"), code("KeyR")]
    #expect(run(setup + [code(name)] + tail).0 == run(setup + [key(keyName)] + tail).0)
  }

  @Test("the code tables cover every code value we know, and nothing else")
  func codesCovered() {
    let tested = Set(Self.typingCodes.map(\.0) + Self.namedCodes.map(\.0))
    #expect(Set(KeyCode.allNames) == tested)
    #expect(KeyCode.allNames.count == tested.count)
  }

  @Test("a browser keydown replays: Process with a code, and code wins over key")
  func codeWins() {
    let log = [
      #"{"key":"Process","code":"KeyD"}"#, #"{"key":"Process","code":"KeyK"}"#,
      #"{"key":"ㄴ","code":"KeyS"}"#, #"{"key":"Process","code":"KeyS"}"#,
      #"{"key":"x","code":"KeyU"}"#, #"{"key":"Process","code":"KeyD"}"#,
    ]
    #expect(run(log).0 == "안녕\n")
    // Shift with "key" alone: the key already says what was typed.
    #expect(run([#"{"key":"R","shiftKey":true}"#]).0 == "R\n")
    #expect(run([#"{"key":"Process"}"#, key("ㄱ")]).0 == "ㄱ\n")
  }

  @Test(
    "unknown names are errors that suggest the nearest known one",
    arguments: [
      (#"{"key":"ArowLeft"}"#, #"unknown key "ArowLeft" (did you mean "ArrowLeft"?)"#),
      (#"{"key":"backspace"}"#, #"(did you mean "Backspace"?)"#),
      (#"{"key":"Hangul"}"#, #"(did you mean "HangulMode"?)"#),
      (#"{"key":"Del"}"#, #"(did you mean "Delete"?)"#),
      (#"{"code":"KeyAA"}"#, #"unknown code "KeyAA" (did you mean "KeyA"?)"#),
      (#"{"code":"Lang2"}"#, #"(did you mean "Lang1"?)"#),
      (#"{"code":"ShiftL"}"#, #"(did you mean "ShiftLeft"?)"#),
      (#"{"code":"Digit11"}"#, #"(did you mean "Digit1"?)"#),
      (#"{"code":5}"#, #""code" must be a string"#),
      (#"{"code":"KeyA","shiftKey":1}"#, #""shiftKey" must be true or false"#),
      (#"{"code":"KeyA","text":"a"}"#, "not both"),
    ])
  func unknownNames(line: String, message: String) {
    let (output, errors) = run([key("ㄱ"), line, key("ㅏ")])
    #expect(output == "가\n")
    #expect(errors.count == 1)
    #expect(errors.first?.message.contains(message) == true, "\(errors)")
  }
}
