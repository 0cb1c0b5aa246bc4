import HangulKit
import Testing

/// An event log (`hangul-compose --format events`) is taken a line at a
/// time, and ``DocumentEditor`` flushes a line past `--max-line` itself: the
/// same log read in reads of any size (1, 2, 3 bytes, random sizes, all of it
/// at once) must give one output, one `--stats` report and one list of
/// messages, as ``MaxLineChunkingTests`` requires of text logs. The logs hold
/// documents (`"doc"` changes), keys, codes, text, Backspace, Delete, Enter,
/// cursor movement, the 한/영 key, lines far past the limit, times, blank
/// and broken lines, on several keyboards.
@Suite("Event logs: one output for every chunking")
struct EventLogChunkingTests {
  /// One event line of a random log (without its newline).
  static func randomEvent(
    _ generator: inout SeededGenerator, keys: KeyEncoding, keyboard: Keyboard
  ) -> [String] {
    let keyCodes = keys == .qwerty ? keyboard.layout.mappedKeys.map { Unicode.Scalar($0) } : []
    let alphabet = keyCodes + Jamo.all.map(\.scalar)
    let named = [
      "Delete", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "Shift",
      "HangulMode", "Space", "Tab", "Next", "DeleteWord", "Process",
    ]
    let texts = ["가", "각 ", "é", "😀", "\u{1100}\u{1161}", "abc", " ", ". ", "\u{11A8}"]
    func key(_ name: String) -> String { #"{"key":\#(JSONWriter.quoted(name))}"# }
    let pick = Int.random(in: 0..<100, using: &generator)
    switch pick {
    case 0..<45:
      // A run of keys, some as codes (the physical key, with Shift now and then).
      return (0..<Int.random(in: 1...8, using: &generator)).map { _ in
        let scalar = alphabet.randomElement(using: &generator) ?? "a"
        if scalar.isASCII, (0x61...0x7A).contains(scalar.value),
          Int.random(in: 0..<4, using: &generator) == 0
        {
          let code = "Key" + String(Unicode.Scalar(scalar.value - 0x20) ?? "A")
          let shift = Bool.random(using: &generator)
          return #"{"code":"\#(code)","shiftKey":\#(shift)}"#
        }
        return key(String(scalar))
      }
    case 45..<55:
      let text = texts.randomElement(using: &generator) ?? "가"
      return [Bool.random(using: &generator) ? #"{"text":\#(JSONWriter.quoted(text))}"# : key(text)]
    case 55..<70:
      // Backspaces (named, or BS and DEL as characters).
      let backspace = ["Backspace", "Backspace", "\u{8}", "\u{7F}"].randomElement(using: &generator)
      return Array(
        repeating: key(backspace ?? "Backspace"), count: Int.random(in: 1...9, using: &generator))
    case 70..<76:
      let enter = [key("Enter"), #"{"code":"Enter"}"#, key("\n")].randomElement(using: &generator)
      return [enter ?? key("Enter")]
    case 76..<90:
      return [key(named.randomElement(using: &generator) ?? "Home")]
    case 90..<93:
      // Lines the filter skips or reports: blank, broken, of the wrong kind.
      return [
        ["", " \r", "not json", #"{"key":1}"#, #"{"key":"NoSuchKey"}"#, "[]"]
          .randomElement(using: &generator) ?? ""
      ]
    default:
      return [key(String(alphabet.randomElement(using: &generator) ?? "a")) + "\r"]
    }
  }

  /// A random log of about `events` lines: documents change now and then
  /// (a `"doc"` on some lines only), and with `timed` every event has a `"t"`.
  static func randomLog(
    _ generator: inout SeededGenerator, keys: KeyEncoding, keyboard: Keyboard, events: Int,
    timed: Bool
  ) -> [UInt8] {
    let documents = [#""a""#, #""b""#, "1", "2", #""한""#]
    var document: String?
    var time = 1000
    var lines: [String] = []
    while lines.count < events {
      if Int.random(in: 0..<40, using: &generator) == 0 {
        document = documents.randomElement(using: &generator)
      }
      for var line in randomEvent(&generator, keys: keys, keyboard: keyboard) {
        if line.hasPrefix("{\""), line.contains("}") {
          var members: [String] = []
          if let document, Int.random(in: 0..<3, using: &generator) > 0 {
            members.append(#""doc":\#(document)"#)
          }
          if timed {
            time += Int.random(in: 0...400, using: &generator)
            members.append(#""t":\#(time)"#)
          }
          if !members.isEmpty {
            line.insert(
              contentsOf: members.joined(separator: ",") + ",",
              at: line.index(after: line.startIndex))
          }
        }
        lines.append(line)
      }
    }
    let byteOrderMark = Int.random(in: 0..<4, using: &generator) == 0 ? "\u{FEFF}" : ""
    // Half the logs end without a newline.
    let end = Bool.random(using: &generator) ? "\n" : ""
    return Array((byteOrderMark + lines.joined(separator: "\n") + end).utf8)
  }

  /// The filter's output, `--stats` report and messages for `bytes` cut
  /// into chunks of the given sizes (repeated to the end).
  static func filtered(
    _ bytes: [UInt8], sizes: [Int], keys: KeyEncoding, keyboard: Keyboard,
    options: ComposerOptions, limit: Int, output: EventLogFilter.Output
  ) -> (output: [UInt8], report: StatisticsReport, messages: [String]) {
    let messages = Messages()
    var filter = EventLogFilter(
      keys: keys, keyboard: keyboard, options: options, maximumLineLength: limit,
      output: output, includesStatistics: output == .jsonl
    ) { messages.items.append($0.description) }
    filter.beginInput(named: "log.jsonl")
    var written: [UInt8] = []
    var start = 0
    var index = 0
    while start < bytes.count {
      let end = min(bytes.count, start + sizes[index % sizes.count])
      bytes[start..<end].withUnsafeBufferPointer { filter.process($0, into: &written) }
      start = end
      index += 1
    }
    filter.finish(into: &written)
    return (written, filter.statistics, messages.items)
  }

  final class Messages: @unchecked Sendable {
    var items: [String] = []
  }

  static let cases: [(id: String, keys: KeyEncoding, options: ComposerOptions)] = [
    ("2", .jamo, ComposerOptions()), ("2", .qwerty, ComposerOptions()),
    ("2", .jamo, ComposerOptions(backspace: .keystroke)),
    ("2", .qwerty, ComposerOptions(autoReorder: true)),
    ("3f", .qwerty, ComposerOptions()), ("3f", .qwerty, ComposerOptions(backspace: .keystroke)),
    ("39", .qwerty, ComposerOptions(autoReorder: true)), ("2y", .qwerty, ComposerOptions()),
    ("ahn", .qwerty, ComposerOptions()), ("cheonjiin", .qwerty, ComposerOptions()),
    ("naratgeul", .jamo, ComposerOptions()),
  ]

  @Test(
    "random event logs with documents and lines past --max-line: one output, report and messages for every chunking",
    arguments: cases)
  func chunkings(id: String, keys: KeyEncoding, options: ComposerOptions) throws {
    let keyboard = try Keyboard(id: id)
    var generator = KeyRunTests.generator(
      0xE7E4_7 &+ (options.autoReorder ? 7 : 0) &+ (options.backspace == .keystroke ? 13 : 0),
      keyboard: id)
    let limits = [4, 5, 8, 16, 33, 100, LineEditor.defaultMaximumLineLength]
    var blocked = 0
    var reported = 0
    for round in 0..<21 {
      let limit = limits[round % limits.count]
      let output: EventLogFilter.Output = round % 2 == 0 ? .text : .jsonl
      let bytes = Self.randomLog(
        &generator, keys: keys, keyboard: keyboard, events: 300, timed: round % 3 == 0)
      let chunkings: [[Int]] = [
        [bytes.count], [1], [2], [3], [7, 1, 64],
        (0..<16).map { _ in Int.random(in: 1...97, using: &generator) },
        (0..<4).map { _ in Int.random(in: 1...bytes.count, using: &generator) },
      ]
      let whole = Self.filtered(
        bytes, sizes: chunkings[0], keys: keys, keyboard: keyboard, options: options,
        limit: limit, output: output)
      for sizes in chunkings.dropFirst() {
        let result = Self.filtered(
          bytes, sizes: sizes, keys: keys, keyboard: keyboard, options: options, limit: limit,
          output: output)
        expectSameBytes(result.output, whole.output)
        #expect(result.report == whole.report, "limit \(limit), chunks \(sizes)")
        #expect(result.messages == whole.messages, "limit \(limit), chunks \(sizes)")
      }
      blocked += whole.report.total.backspacesBlockedByFlush
      reported += whole.messages.count
    }
    // The logs do reach flushed text (the limit is at work), and have lines to report.
    #expect(blocked > 0)
    #expect(reported > 0)
  }
}
