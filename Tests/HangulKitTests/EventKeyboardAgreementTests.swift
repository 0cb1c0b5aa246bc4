import Foundation
import HangulKit
import Testing

/// Event logs type through every keyboard as text logs do: the libhangul
/// fixtures' random key lines (keys, symbols, spaces, Backspaces), typed as a
/// text log and as the equivalent event log (one `"key"` or one `"code"` a
/// key, `Backspace` for BS, `Enter` for a newline), give the same text.
@Suite("Event logs agree with text logs on every keyboard")
struct EventKeyboardAgreementTests {
  static let cases: [(id: String, options: String)] =
    ["2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn"].map { ($0, "default") } + [
      ("3f", "auto-reorder"), ("2", "auto-reorder"), ("3f", "keystroke"), ("2y", "keystroke"),
      ("ro", "keystroke"),
    ]

  static func options(_ name: String) -> ComposerOptions {
    switch name {
    case "auto-reorder": ComposerOptions(autoReorder: true)
    case "keystroke": ComposerOptions(backspace: .keystroke)
    default: ComposerOptions()
    }
  }

  /// How an event names a key: by `"key"`, or by `"code"` (with `"shiftKey"`).
  enum Naming: String, CaseIterable {
    case key, code
  }

  /// The `"code"` event of each ASCII key position (Shift included).
  static let codeEvents: [UInt8: String] = {
    var events: [UInt8: String] = [:]
    for name in KeyCode.allNames {
      guard case .position(let plain, let shifted)? = KeyCode(name: name) else { continue }
      events[plain] = #"{"code":"\#(name)"}"#
      events[shifted] = #"{"code":"\#(name)","shiftKey":true}"#
    }
    events[0x20] = #"{"code":"Space"}"#
    events[0x08] = #"{"code":"Backspace"}"#
    events[0x7F] = #"{"code":"Backspace"}"#
    events[0x0A] = #"{"code":"Enter"}"#
    return events
  }()

  /// The event for one byte of a text log.
  static func event(_ byte: UInt8, naming: Naming, document: Int? = nil) -> String {
    let doc = document.map { #""doc":\#($0),"# } ?? ""
    switch naming {
    case .code:
      let event = codeEvents[byte] ?? "?"
      return "{" + doc + event.dropFirst()
    case .key:
      let key: String
      switch byte {
      case 0x08, 0x7F: key = "Backspace"
      case 0x0A: key = "Enter"
      default: key = String(Unicode.Scalar(byte))
      }
      return #"{\#(doc)"key":\#(JSONWriter.quoted(key))}"#
    }
  }

  func textLog(_ keys: [UInt8], keyboard: Keyboard, options: ComposerOptions) -> (
    text: [UInt8], statistics: StatisticsReport
  ) {
    var filter = ComposeFilter(keys: .qwerty, keyboard: keyboard, options: options)
    var output: [UInt8] = []
    keys.withUnsafeBufferPointer { filter.process($0, into: &output) }
    filter.finish(into: &output)
    return (output, filter.statistics)
  }

  func eventLog(_ events: [String], keyboard: Keyboard, options: ComposerOptions) throws -> [UInt8]
  {
    var filter = EventLogFilter(keys: .qwerty, keyboard: keyboard, options: options) { _ in }
    let output = try filter.filtered(Array(events.joined(separator: "\n").utf8))
    #expect(filter.errorCount == 0)
    return output
  }

  @Test("the fixture lines typed as key events and as code events", arguments: cases)
  func agreement(id: String, optionSet: String) throws {
    let keyboard = try Keyboard(id: id)
    let options = Self.options(optionSet)
    let allLines = Array(try fixture("libhangul-keyboards/\(id).keys")).split(
      separator: 0x0A, omittingEmptySubsequences: false
    ).dropLast()
    #expect(allLines.count > 2_000)
    // Every line under HANGUL_LONG_TESTS=1, else every third.
    let lines: [ArraySlice<UInt8>] =
      longRuns
      ? Array(allLines) : allLines.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
    let whole = textLog(
      Array(lines.joined(separator: [0x0A])) + [0x0A], keyboard: keyboard, options: options)
    for naming in Naming.allCases {
      // Each line as a document of its own; an empty line is a document with no text.
      var events: [String] = []
      for (index, line) in lines.enumerated() {
        if line.isEmpty { events.append(#"{"doc":\#(index),"text":""}"#) }
        for byte in line { events.append(Self.event(byte, naming: naming, document: index)) }
      }
      let ours = try eventLog(events, keyboard: keyboard, options: options)
      compare(ours, whole.text, lines: Array(lines), id: id, optionSet: "\(optionSet) \(naming)")
    }

    // All lines as one document, Enter between them. A Backspace at the
    // start of a line joins it to the line before in an event log but
    // deletes nothing in a text log: leave out the lines where a Backspace
    // found nothing to delete.
    var filter = ComposeFilter(keys: .qwerty, keyboard: keyboard, options: options)
    var ignored: [UInt8] = []
    var withoutEffect = 0
    var kept: [ArraySlice<UInt8>] = []
    for line in lines {
      Array(line + [0x0A]).withUnsafeBufferPointer { filter.process($0, into: &ignored) }
      ignored.removeAll(keepingCapacity: true)
      let total = filter.statistics.total.backspacesWithoutEffect
      if total == withoutEffect { kept.append(line) }
      withoutEffect = total
    }
    #expect(kept.count > (longRuns ? 1_000 : 300))
    let keys = Array(kept.joined(separator: [0x0A])) + [0x0A]
    #expect(keys.contains(0x08) && keys.contains(0x7F))
    let expected = textLog(keys, keyboard: keyboard, options: options)
    for naming in Naming.allCases {
      let ours = try eventLog(
        keys.map { Self.event($0, naming: naming) }, keyboard: keyboard, options: options)
      compare(ours, expected.text, lines: kept, id: id, optionSet: "\(optionSet) \(naming) Enter")
    }
  }

  func compare(
    _ ours: [UInt8], _ expected: [UInt8], lines: [ArraySlice<UInt8>], id: String,
    optionSet: String
  ) {
    let mine = ours.split(separator: 0x0A, omittingEmptySubsequences: false)
    let theirs = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
    #expect(mine.count == theirs.count)
    var mismatches = 0
    for (index, (got, wanted)) in zip(mine, theirs).enumerated() where got != wanted {
      mismatches += 1
      if mismatches <= 3 {
        Issue.record(
          """
          \(id) \(optionSet) line \(index + 1): keys \
          \(String(decoding: lines[index], as: UTF8.self).debugDescription) gave \
          \(String(decoding: got, as: UTF8.self).debugDescription) in the event log, \
          \(String(decoding: wanted, as: UTF8.self).debugDescription) in the text log
          """)
      }
    }
    #expect(mismatches == 0)
  }
}

/// The editing keys of event logs on keyboards run by the layout automaton: every
/// movement and mode switch commits the syllable being composed.
@Suite("Event logs on layout keyboards")
struct EventLayoutKeyboardTests {
  func run(
    _ events: [String], keyboard id: String, keys: KeyEncoding = .qwerty,
    options: ComposerOptions = ComposerOptions()
  ) throws -> String {
    var filter = EventLogFilter(keys: keys, keyboard: try Keyboard(id: id), options: options) {
      _ in
    }
    let output = try filter.filtered(Array(events.joined(separator: "\n").utf8))
    #expect(filter.errorCount == 0)
    return String(decoding: output, as: UTF8.self)
  }

  func keys(_ names: String...) -> [String] {
    names.map { #"{"key":\#(JSONWriter.quoted($0))}"# }
  }

  @Test(
    "keys on 3-set final: movements, 한/영, Delete and Next commit the syllable",
    arguments: [
      (["j", "f", "s", "Backspace"], "아\n"),
      (["j", "f", "ArrowLeft", "k", "f"], "가아\n"),
      (["j", "f", "Home", "k", "f", "End", "j"], "가아ㅇ\n"),
      (["j", "f", "Enter", "k", "ArrowUp", "f"], "아ㅏ\nㄱ\n"),
      (["j", "f", "HangulMode", "j", "HangulMode", "k", "f"], "아j가\n"),
      (["j", "f", "Delete", "Backspace"], "\n"),
      (["j", "f", "Next", "f"], "아ㅏ\n"),
      (["j", "f", "s", "ArrowRight", "Backspace"], "\n"),
    ])
  func editingKeys(typed: [String], expected: String) throws {
    #expect(
      try run(typed.map { #"{"key":\#(JSONWriter.quoted($0))}"# }, keyboard: "3f") == expected)
  }

  @Test("code events type through the layout, Shift included")
  func codes() throws {
    let events = [
      #"{"code":"KeyJ"}"#, #"{"code":"KeyF"}"#, #"{"code":"KeyS"}"#, #"{"code":"Digit1"}"#,
      #"{"code":"Digit1","shiftKey":true}"#,
    ]
    var text = ""
    var context = try #require(HangulInputContext(keyboardID: "3f"))
    for key in "jfs1!".unicodeScalars {
      let taken = context.process(InputKey(key))
      text += context.commitString
      if !taken { text.unicodeScalars.append(key) }
    }
    context.flush()
    text += context.commitString
    #expect(try run(events, keyboard: "3f") == text + "\n")
    #expect(try run(events, keyboard: "3f") == "않ㄲ\n")  // 1 is the final ㅎ, ! the final ㄲ
  }

  @Test("jamo keys type the keys that carry them, or are text where none does")
  func jamoKeys() throws {
    let autoReorder = ComposerOptions(autoReorder: true)
    #expect(try run(keys("ㅏ", "ㄱ"), keyboard: "2", keys: .jamo, options: autoReorder) == "가\n")
    #expect(try run(keys("ㅇ", "ㅏ"), keyboard: "3f", keys: .jamo) == "ㅇㅏ\n")
  }

  @Test("--backspace keystroke undoes whole keys, and movements end the undo history")
  func keystrokeBackspace() throws {
    let keystroke = ComposerOptions(backspace: .keystroke)
    #expect(
      try run(keys("j", "f", "s", "Backspace", "Backspace"), keyboard: "3f", options: keystroke)
        == "ㅇ\n")
    #expect(
      try run(
        keys("j", "f", "ArrowLeft", "ArrowRight", "Backspace"), keyboard: "3f", options: keystroke)
        == "\n")
  }
}
