import HangulKit
import Testing

/// hangul-compose(1): with nothing to undo, Backspace deletes one whole character,
/// on every keyboard and in both log formats: a syllable copied from the log
/// as conjoining jamo (ᄒᆞᆫ) goes whole, as one an old-Hangul keyboard wrote.
@Suite("Backspace deletes one whole character on every keyboard")
struct BackspaceCharacterTests {
  static let keyboards = ["2", "3f", "39", "ro", "cheonjiin", "naratgeul"]

  /// A text log: x, the old syllable ᄒᆞᆫ as text, Backspace, y.
  static let textLog = "x\u{1112}\u{119E}\u{11AB}\u{8}y\n"

  @Test("text logs", arguments: keyboards, [ComposerOptions(), ComposerOptions(autoReorder: true)])
  func textLogs(id: String, options: ComposerOptions) throws {
    let keyboard = try Keyboard(id: id)
    let bytes = Array(Self.textLog.utf8)
    let output: [UInt8]
    if InputAutomaton(keyboard: keyboard, options: options).rewritesCommittedText {
      var filter = KeypadComposeFilter(keys: .jamo, keyboard: keyboard)
      output = try filter.filtered(bytes)
    } else {
      var filter = ComposeFilter(keys: .jamo, keyboard: keyboard, options: options)
      output = try filter.filtered(bytes)
    }
    #expect(String(decoding: output, as: UTF8.self) == "xy\n", "keyboard \(id)")
  }

  @Test("event logs", arguments: keyboards)
  func eventLogs(id: String) throws {
    let events = [
      #"{"text":"x\u1112\u119e\u11ab"}"#, #"{"key":"Backspace"}"#, #"{"text":"y"}"#,
    ]
    var filter = EventLogFilter(keys: .jamo, keyboard: try Keyboard(id: id)) { _ in }
    let output = try filter.filtered(Array(events.joined(separator: "\n").utf8))
    #expect(String(decoding: output, as: UTF8.self) == "xy\n", "keyboard \(id)")
  }
}
