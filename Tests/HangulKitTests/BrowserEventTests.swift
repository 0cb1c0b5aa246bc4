import Foundation
import Testing

@testable import HangulKit

/// hangul-keylog(5), browser event streams (SPEC 3.6): lines with a `"type"`.
@Suite("Browser event streams")
struct BrowserEventTests {
  struct Run {
    var output: String
    var errors: [PositionedError]
    var warnings: [PositionedError]
    var statistics: StatisticsReport
  }

  final class Collected: @unchecked Sendable {
    var errors: [PositionedError] = []
    var warnings: [PositionedError] = []
  }

  static func run(
    _ lines: [String], keyboard: Keyboard = .twoSet,
    maximumLineLength: Int = EditingDefaults.maximumLineLength
  ) -> Run {
    let collected = Collected()
    var filter = EventLogFilter(
      keyboard: keyboard, maximumLineLength: maximumLineLength, includesStatistics: true,
      report: { collected.errors.append($0) }, warn: { collected.warnings.append($0) })
    filter.beginInput(named: "log.jsonl")
    let output = (try? filter.filtered(Array(lines.joined(separator: "\n").utf8))) ?? []
    return Run(
      output: String(decoding: output, as: UTF8.self), errors: collected.errors,
      warnings: collected.warnings, statistics: filter.statistics)
  }

  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init)
  }

  /// The log of issue 28: Chrome on Windows typing 가.
  static let issueLog = lines(
    #"""
    {"type":"keydown","key":"Process","code":"KeyR","keyCode":229,"isComposing":false,"timeStamp":1000}
    {"type":"compositionstart","data":"","timeStamp":1001}
    {"type":"compositionupdate","data":"ㄱ","timeStamp":1002}
    {"type":"input","data":"ㄱ","inputType":"insertCompositionText","isComposing":true,"timeStamp":1003}
    {"type":"keyup","key":"r","code":"KeyR","keyCode":82,"timeStamp":1080}
    {"type":"keydown","key":"Process","code":"KeyK","keyCode":229,"isComposing":true,"timeStamp":1200}
    {"type":"compositionupdate","data":"가","timeStamp":1201}
    {"type":"input","data":"가","inputType":"insertCompositionText","isComposing":true,"timeStamp":1202}
    {"type":"keyup","key":"k","code":"KeyK","keyCode":75,"timeStamp":1290}
    {"type":"compositionend","data":"가","timeStamp":1400}
    """#)

  @Test("the issue's log gives 가 with 2 keys and 1 character, no error")
  func issueExample() {
    let result = Self.run(Self.issueLog)
    #expect(result.output == "가\n")
    #expect(result.errors.isEmpty)
    #expect(result.warnings.isEmpty)
    #expect(result.statistics.total.keystrokes == 2)
    #expect(result.statistics.total.characters == 1)
    #expect(result.statistics.total.reconstructed == 0)
    #expect(result.statistics.total.typingTime == 400)
  }

  @Test(
    "keydown is the press: code wins over Process, a repeat is a press, keyup and keypress are not",
    arguments: [
      ([#"{"type":"keydown","key":"Process","code":"KeyR","keyCode":229}"#], "ㄱ\n", 1),
      (
        [
          #"{"type":"keydown","key":"r","code":"KeyR","keyCode":82}"#,
          #"{"type":"keypress","key":"r","code":"KeyR"}"#,
          #"{"type":"keyup","key":"r","code":"KeyR","keyCode":82}"#,
        ], "r\n", 1
      ),
      (
        [
          #"{"type":"keydown","key":"ㅋ","code":"KeyZ","keyCode":229}"#,
          #"{"type":"keydown","key":"ㅋ","code":"KeyZ","keyCode":229,"repeat":true}"#,
        ], "ㅋㅋ\n", 2
      ),
      (
        [
          #"{"type":"keydown","key":"Process","code":"ShiftLeft","keyCode":229,"shiftKey":true}"#,
          #"{"type":"keydown","key":"Shift","code":"ShiftLeft","keyCode":16,"shiftKey":true}"#,
          #"{"type":"keydown","key":"Process","code":"KeyR","keyCode":229,"shiftKey":true}"#,
          #"{"type":"keydown","key":"Process","code":"KeyK","keyCode":229}"#,
        ], "까\n", 2
      ),
      // The keyup names the key of a keydown that had no code (ruffle #19896).
      (
        [
          #"{"type":"keydown","key":"Process"}"#, #"{"type":"compositionupdate","data":"ㄱ"}"#,
          #"{"type":"keyup","key":"r"}"#, #"{"type":"keydown","key":"Process"}"#,
          #"{"type":"compositionupdate","data":"가"}"#, #"{"type":"keyup","key":"k"}"#,
        ], "가\n", 2
      ),
    ])
  func presses(lines: [String], expected: String, keys: Int) {
    let result = Self.run(lines)
    #expect(result.output == expected)
    #expect(result.errors.isEmpty)
    #expect(result.statistics.total.keystrokes == keys)
  }

  @Test(
    "input events without a key: text is text, deleteContentBackward a Backspace, insertLineBreak Enter"
  )
  func inputWithoutKeys() {
    let result = Self.run([
      #"{"type":"keydown","key":"Process","code":"KeyR","keyCode":229}"#,
      #"{"type":"keydown","key":"Process","code":"KeyK","keyCode":229}"#,
      #"{"type":"beforeinput","inputType":"insertFromPaste","data":"안녕 hi"}"#,
      #"{"type":"input","inputType":"insertFromPaste","data":"안녕 hi"}"#,
      #"{"type":"input","inputType":"deleteContentBackward"}"#,
      #"{"type":"input","inputType":"insertLineBreak"}"#,
      #"{"type":"input","inputType":"insertText","data":"ok"}"#,
    ])
    #expect(result.output == "가안녕 h\nok\n")
    #expect(result.errors.isEmpty)
    #expect(result.statistics.total.insertedText == 7)
    // ㄱ, ㅏ, and the Backspace and Enter the input events stand for.
    #expect(result.statistics.total.keystrokes == 4)
  }

  @Test("a click, select, focus or blur commits the syllable being composed")
  func commitEvents() {
    for type in ["click", "mousedown", "select", "focus", "blur"] {
      let result = Self.run([
        #"{"type":"keydown","key":"Process","code":"KeyR","keyCode":229}"#,
        #"{"type":"\#(type)"}"#,
        #"{"type":"keydown","key":"Process","code":"KeyK","keyCode":229}"#,
      ])
      #expect(result.output == "ㄱㅏ\n", "\(type)")
    }
  }

  @Test("an unknown type is ignored with one warning per type, at its line")
  func unknownTypes() {
    let result = Self.run([
      #"{"type":"wheel"}"#, #"{"type":"keydown","key":"Process","code":"KeyR","keyCode":229}"#,
      #"{"type":"wheel"}"#, #"{"type":"scroll"}"#,
    ])
    #expect(result.output == "ㄱ\n")
    #expect(result.errors.isEmpty)
    #expect(
      result.warnings.map(\.description) == [
        #"log.jsonl:1: event type "wheel" is not one hangul-keylog(5) knows: ignored"#,
        #"log.jsonl:4: event type "scroll" is not one hangul-keylog(5) knows: ignored"#,
      ])
  }

  @Test("times come from t, timeStamp or time; a type that is not a string is an error")
  func times() {
    for name in ["t", "timeStamp", "time"] {
      let result = Self.run([
        #"{"type":"keydown","code":"KeyR","keyCode":229,"\#(name)":10}"#,
        #"{"type":"keydown","code":"KeyK","keyCode":229,"\#(name)":2010}"#,
      ])
      #expect(result.statistics.total.typingTime == 2000, "\(name)")
    }
    let bad = Self.run([#"{"type":5,"key":"ㄱ"}"#])
    #expect(
      bad.errors.map(\.description) == [#"log.jsonl:1:9: "type" must be a string, not a number"#])
  }

  @Test("Safari: the keydown with keyCode 229 after compositionend is the key that ended it, once")
  func safariEndingKey() {
    let result = Self.run([
      #"{"type":"keydown","key":"ㅎ","keyCode":229}"#, #"{"type":"compositionstart","data":""}"#,
      #"{"type":"compositionupdate","data":"ㅎ"}"#, #"{"type":"keydown","key":"ㅏ","keyCode":229}"#,
      #"{"type":"compositionupdate","data":"하"}"#, #"{"type":"compositionend","data":"하"}"#,
      #"{"type":"keydown","key":"Enter","keyCode":229,"isComposing":false}"#,
      #"{"type":"beforeinput","inputType":"insertLineBreak"}"#,
      #"{"type":"input","inputType":"insertLineBreak"}"#,
    ])
    #expect(result.output == "하\n")
    #expect(result.statistics.total.keystrokes == 3)
  }

  @Test("Android: presses without keys are rebuilt from the composition strings, Backspaces too")
  func androidReconstruction() {
    func press(_ data: String) -> [String] {
      [
        #"{"type":"keydown","key":"Unidentified","code":"","keyCode":229}"#,
        #"{"type":"compositionupdate","data":"\#(data)"}"#,
        #"{"type":"input","inputType":"insertCompositionText","data":"\#(data)"}"#,
        #"{"type":"keyup","key":"Unidentified","code":"","keyCode":229}"#,
      ]
    }
    let lines =
      [#"{"type":"compositionstart","data":""}"#] + press("ㄷ") + press("다") + press("달")
      + press("닭") + press("달") + press("닭") + press("달가")
    let result = Self.run(lines)
    #expect(result.output == "달가\n")
    #expect(result.statistics.total.keystrokes == 7)
    #expect(result.statistics.total.reconstructed == 7)
    #expect(result.statistics.total.backspaces == 1)
    #expect(result.statistics.text.contains("7 of the keys were rebuilt"))
  }

  @Test(
    "composition data that our keyboard does not show: one warning that names a keyboard that does")
  func crossCheck() {
    func key(_ code: String, _ data: String) -> [String] {
      [
        #"{"type":"keydown","key":"Process","code":"\#(code)","keyCode":229}"#,
        #"{"type":"compositionupdate","data":"\#(data)"}"#,
      ]
    }
    // 3-set final: j f s types 안 (ㅇ ㅏ ㄴ).
    let lines = key("KeyJ", "ㅇ") + key("KeyF", "아") + key("KeyS", "안")
    let result = Self.run(lines)
    #expect(result.errors.isEmpty)
    #expect(
      result.warnings.map(\.description) == [
        #"log.jsonl:2: the log's input method shows "ㅇ" where keyboard 2 shows "ㅓ" (try --keyboard 39)"#
      ])
    #expect(Self.run(lines, keyboard: Keyboard(builtIn: "3f")!).warnings.isEmpty)
    #expect(Self.run(lines, keyboard: Keyboard(builtIn: "3f")!).output == "안\n")
    // At a syllable boundary macOS shows the syllable just ended: no warning.
    let boundary = key("KeyG", "ㅎ") + key("KeyK", "하") + key("KeyS", "한") + key("KeyR", "한")
    #expect(Self.run(boundary).warnings.isEmpty)
  }

  @Test(
    "--keyboard auto: the built-in keyboard whose preedits agree with the log's; 2-set on a tie")
  func agreeingKeyboard() throws {
    func key(_ code: String, _ data: String) -> [String] {
      [
        #"{"type":"keydown","key":"Process","code":"\#(code)","keyCode":229}"#,
        #"{"type":"compositionupdate","data":"\#(data)"}"#,
      ]
    }
    // 3-set: j f s h e a types 안녕.
    let threeSet =
      key("KeyJ", "ㅇ") + key("KeyF", "아") + key("KeyS", "안") + key("KeyH", "ㄴ")
      + key("KeyE", "녀") + key("KeyA", "녕")
    let guessed = EventLogFilter.agreeingKeyboard(for: Array(threeSet.joined(separator: "\n").utf8))
    #expect(guessed.layout.id != "2")
    #expect(Self.run(threeSet, keyboard: guessed).output == "안녕\n")
    let twoSet = Array(Self.issueLog.joined(separator: "\n").utf8)
    #expect(EventLogFilter.agreeingKeyboard(for: twoSet).layout.id == "2")
    #expect(EventLogFilter.agreeingKeyboard(for: []).layout.id == "2")
  }

  @Test(
    "a browser member past --max-line is an error on a line with a type, and ignored on one without"
  )
  func overlongMembers() {
    let long = String(repeating: "가", count: 2000)
    let plain = Self.run([#"{"key":"ㄱ","data":"\#(long)"}"#], maximumLineLength: 16)
    #expect(plain.output == "ㄱ\n")
    #expect(plain.errors.isEmpty)
    let typed = Self.run(
      [#"{"type":"input","inputType":"insertText","data":"\#(long)"}"#], maximumLineLength: 16)
    #expect(typed.output == "")
    #expect(
      typed.errors.map(\.description) == [
        #"log.jsonl:1:49: "data" is longer than --max-line allows (4096 bytes)"#
      ])
  }
}
