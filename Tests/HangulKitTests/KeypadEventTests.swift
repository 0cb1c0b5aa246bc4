import Foundation
import HangulKit
import Testing

/// Phone keypads in event logs: the same presses compose as in text logs,
/// `Next` ends the cycle, named keys (획추가), the numeric keypad's codes, and
/// `--multitap-timeout`.
@Suite("Phone keypads in event logs")
struct KeypadEventTests {
  static let ids = ["cheonjiin", "naratgeul", "sky2"]

  func events(
    _ log: String, _ id: String, keys: KeyEncoding = .jamo, timeout: Double? = nil
  ) throws -> (text: String, errors: Int) {
    var errors = 0
    var filter = EventLogFilter(
      keys: keys, keyboard: try Keyboard(id: id), multitapTimeout: timeout
    ) { _ in errors += 1 }
    let text = String(decoding: try filter.filtered(Array(log.utf8)), as: UTF8.self)
    return (text, errors)
  }

  /// One `{"key":…}` line a key.
  static func keyEvents(_ keys: [String]) -> String {
    keys.map { "{\"key\":\(JSONWriter.quoted($0))}\n" }.joined()
  }

  @Test("random presses, Backspace and Next compose as the same text log does", arguments: ids)
  func agreesWithTextLogs(id: String) throws {
    let keyboard = try Keyboard(id: id)
    for seed in 1...20 {
      var random = SeededGenerator(seed: UInt64(seed))
      let alphabet = Array("1234567890*#\u{8}\u{200C} a".unicodeScalars)
      let presses = (0..<300).map { _ in
        alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
      }
      var textFilter = KeypadComposeFilter(keys: .qwerty, keyboard: keyboard)
      let text = try textFilter.filtered(Array(String(String.UnicodeScalarView(presses)).utf8))
      let names = presses.map { scalar -> String in
        switch scalar {
        case "\u{8}": "Backspace"
        case "\u{200C}": "Next"
        default: String(scalar)
        }
      }
      let result = try events(Self.keyEvents(names), id, keys: .qwerty)
      #expect(result.errors == 0)
      #expect(result.text == String(decoding: text, as: UTF8.self) + "\n", "seed \(seed)")
      // The numeric keypad's codes are the phone's keys too.
      let codes = names.map { name -> String in
        guard name.count == 1, let first = name.unicodeScalars.first,
          "1234567890".unicodeScalars.contains(first)
        else { return "{\"key\":\(JSONWriter.quoted(name))}\n" }
        return "{\"code\":\"Numpad\(name)\"}\n"
      }.joined()
      #expect(try events(codes, id, keys: .qwerty).text == result.text, "seed \(seed)")
    }
  }

  @Test(
    "labels, named keys and Next in event logs",
    arguments: [
      ("cheonjiin", ["ㅇ", "ㅣ", "ㆍ", "ㄴ", "Next", "ㄴ", "ㆍ", "ㆍ", "ㅣ", "ㅇ"], "안녕\n"),
      ("cheonjiin", ["ㅇ", "ㅣ", "ㆍ", "ㄴ", "ㄴ", "ㆍ", "ㆍ", "ㅣ", "ㅇ"], "아령\n"),
      ("cheonjiin", ["ㄱ", "ㄱ", "Backspace", "ㅣ", "ㆍ", "ArrowLeft", "ㄴ"], "ㄴ가\n"),
      ("naratgeul", ["ㄴ", "획추가", "획추가", "ㅗ", "ㅗ", "ㄴ"], "툰\n"),
      ("naratgeul", ["ㄱ", "쌍자음", "ㅏ", "ㅅ", "*", "*", "ㅣ"], "까치\n"),
      ("naratgeul", ["획추가", "ㄱ", "Next", "획추가"], "ㄱ\n"),
      ("sky2", ["ㄴ", "ㅏ", "ㅁ", "ㅜ", "ㅇ", "ㅜ", "ㅣ", "ㄱ", "ㄱ", "ㅣ"], "나무위키\n"),
    ])
  func labelledKeys(id: String, keys: [String], text: String) throws {
    let result = try events(Self.keyEvents(keys), id)
    #expect(result.text == text)
    #expect(result.errors == 0)
  }

  @Test("a name that is no key of the keyboard is a bad line")
  func unknownName() throws {
    #expect(try events(Self.keyEvents(["획추가"]), "cheonjiin").errors == 1)
    #expect(try events(Self.keyEvents(["획추가"]), "naratgeul").errors == 0)
  }

  @Test(
    "--multitap-timeout: a longer pause ends the cycle; ㆍ strokes wait on",
    arguments: [
      (#"{"key":"ㄱ","t":0}{"key":"ㄱ","t":500}"#, nil, "ㅋ\n"),
      (#"{"key":"ㄱ","t":0}{"key":"ㄱ","t":500}"#, 400, "ㄱㄱ\n"),
      (#"{"key":"ㄱ","t":0}{"key":"ㄱ","t":500}"#, 500, "ㅋ\n"),
      (#"{"key":"ㄱ","t":0}{"key":"ㆍ","t":100}{"key":"ㅣ","t":900}"#, 400, "거\n"),
      (
        #"{"key":"ㄱ","t":0}{"key":"ㅣ","t":100}{"key":"ㆍ","t":200}{"key":"ㄴ","t":300}{"key":"ㄴ","t":2000}"#,
        1000, "간ㄴ\n"
      ),
    ] as [(String, Double?, String)])
  func timeout(log: String, timeout: Double?, text: String) throws {
    let lines = log.replacingOccurrences(of: "}{", with: "}\n{") + "\n"
    #expect(try events(lines, "cheonjiin", timeout: timeout).text == text)
  }

  @Test(
    "an over-long line is written out without ending the run of presses (text and event logs)",
    arguments: ids)
  func overLongLineKeepsTheRun(id: String) throws {
    let keyboard = try Keyboard(id: id)
    for seed in 1...20 {
      var random = SeededGenerator(seed: UInt64(seed))
      let alphabet = Array("1234567890*#\u{8}\u{200C}".unicodeScalars)
      // A Backspace only where it undoes a press: one with nothing to undo
      // deletes a character, which may have been written out already.
      var presses: [Unicode.Scalar] = []
      var undoable = 0
      while presses.count < 400 {
        let scalar = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
        switch scalar {
        case "\u{8}" where undoable == 0: continue
        case "\u{8}": undoable -= 1
        case "\u{200C}": undoable = 0
        // A key of the keypad can be undone; other characters are text.
        case _ where keyboard.layout.value(forKey: UInt8(scalar.value)) != 0: undoable += 1
        default: undoable = 0
        }
        presses.append(scalar)
      }
      let log = Array(String(String.UnicodeScalarView(presses)).utf8)
      var unlimited = KeypadComposeFilter(
        keys: .qwerty, keyboard: keyboard, maximumLineLength: Int.max)
      let text = String(decoding: try unlimited.filtered(log), as: UTF8.self)
      let names = presses.map { scalar -> String in
        switch scalar {
        case "\u{8}": "Backspace"
        case "\u{200C}": "Next"
        default: String(scalar)
        }
      }
      for limit in [4, 16, 64] {
        var limited = KeypadComposeFilter(
          keys: .qwerty, keyboard: keyboard, maximumLineLength: limit)
        let limitedText = String(decoding: try limited.filtered(log), as: UTF8.self)
        #expect(limitedText == text, "text log, seed \(seed), limit \(limit)")
        var filter = EventLogFilter(keys: .qwerty, keyboard: keyboard, maximumLineLength: limit) {
          _ in
        }
        let events = try filter.filtered(Array(Self.keyEvents(names).utf8))
        #expect(
          String(decoding: events, as: UTF8.self) == text + "\n",
          "event log, seed \(seed), limit \(limit)")
      }
    }
  }
}
