import Foundation
import Testing

@testable import HangulKit

/// Inputlog IDFX and Translog-II logs (hangul-keylog(5)) replayed by the library.
@Suite("Research loggers' XML logs")
struct ResearchLogTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// What a replay wrote, reported and warned.
  struct Run {
    var output: String
    var errors: [PositionedError]
    var warnings: [PositionedError]
    var statistics: StatisticsReport
  }

  final class Collected {
    var errors: [PositionedError] = []
    var warnings: [PositionedError] = []
  }

  /// Replays `log` in blocks of `block` bytes (a block boundary may cut
  /// anything: a tag, a character reference, a UTF-8 sequence).
  static func replay(
    _ log: String, format: XMLLogFormat, block: Int = 1 << 16,
    output: EventLogFilter.Output = .text
  ) -> Run {
    let collected = Collected()
    let report: (PositionedError) -> Void = { collected.errors.append($0) }
    let warn: (PositionedError) -> Void = { collected.warnings.append($0) }
    let bytes = Array(log.utf8)
    var written: [UInt8] = []
    let statistics: StatisticsReport
    switch format {
    case .idfx:
      var filter = IDFXLogFilter(
        replaying: EventLogFilter(
          output: output, includesStatistics: true, report: report, warn: warn),
        report: report, warn: warn)
      filter.beginInput(named: "log.idfx")
      feed(bytes, block: block, to: &filter, into: &written)
      statistics = filter.statistics
    case .translog:
      var filter = TranslogLogFilter(
        replaying: EventLogFilter(
          output: output, includesStatistics: true, report: report, warn: warn),
        report: report, warn: warn)
      filter.beginInput(named: "log.xml")
      feed(bytes, block: block, to: &filter, into: &written)
      statistics = filter.statistics
    }
    return Run(
      output: String(decoding: written, as: UTF8.self), errors: collected.errors,
      warnings: collected.warnings, statistics: statistics)
  }

  static func feed<Filter: ByteFilter>(
    _ bytes: [UInt8], block: Int, to filter: inout Filter, into written: inout [UInt8]
  ) {
    var start = 0
    while start < bytes.count {
      let end = min(start + block, bytes.count)
      bytes[start..<end].withUnsafeBufferPointer { try? filter.process($0, into: &written) }
      start = end
    }
    try? filter.finish(into: &written)
  }

  static func sample(_ name: String) throws -> String {
    try String(contentsOf: repository.appendingPathComponent("samples/\(name)"), encoding: .utf8)
  }

  /// A log file is one whole: asked as the parallel runner asks (through
  /// ``ByteFilter``), the filter of one never continues another's piece
  /// (``EventLogReplaying`` answers, not ``ByteFilter``'s default `true`).
  @Test("an XML log's filter never continues another's piece")
  func neverContinued() {
    func continues<Filter: ByteFilter>(_ filter: Filter) -> Bool { filter.isContinued(by: filter) }
    let events = EventLogFilter(report: { _ in })
    #expect(!continues(IDFXLogFilter(replaying: events, report: { _ in })))
    #expect(!continues(TranslogLogFilter(replaying: events, report: { _ in })))
  }

  // MARK: Samples

  @Test(
    "each sample replays to its expected text, in any block size",
    arguments: [
      ("inputlog-korean.idfx", XMLLogFormat.idfx, 36, 3),  // VK_SHIFT among them
      ("translog-korean.xml", XMLLogFormat.translog, 30, 3),
    ])
  func sample(name: String, format: XMLLogFormat, keys: Int, backspaces: Int) throws {
    let log = try Self.sample(name)
    let base = name.split(separator: ".").dropLast().joined(separator: ".")
    let expected = try Self.sample(base + ".expected.txt")
    for block in [1, 3, 7, 4096] {
      let run = Self.replay(log, format: format, block: block)
      #expect(run.output == expected, "block \(block)")
      #expect(run.errors.isEmpty)
      #expect(run.warnings.isEmpty)
      #expect(run.statistics.total.keystrokes == keys)
      #expect(run.statistics.total.backspaces == backspaces)
    }
  }

  // MARK: IDFX

  /// An IDFX log of keyboard events, each `(key, value)` with a
  /// `position`, or a whole `<event>` given as XML.
  static func idfx(_ events: [(key: String, value: String, position: Int?)]) -> String {
    var log = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n<log>\n"
    for (index, event) in events.enumerated() {
      if event.key.hasPrefix("<") {
        log += event.key + "\n"
        continue
      }
      log += #"  <event id="\#(index)" type="keyboard">"# + "\n"
      if let position = event.position {
        log += #"    <part type="wordlog"><position>\#(position)</position></part>"# + "\n"
      }
      log += #"    <part type="winlog"><startTime>\#(1000 + index * 100)</startTime>"#
      log += "<key>\(event.key)</key><value>\(event.value)</value></part>\n  </event>\n"
    }
    return log + "</log>\n"
  }

  @Test(
    "virtual keys type through the layout: Shift from a capital value, 한/영, Backspace",
    arguments: [
      ([("VK_R", "R"), ("VK_K", "k")], "까\n"),
      ([("VK_R", "r"), ("VK_K", "k"), ("VK_S", "s"), ("VK_BACK", "&#x8;")], "가\n"),
      (
        [("VK_R", "r"), ("VK_HANGUL", ""), ("VK_R", "r"), ("VK_HANGUL", ""), ("VK_K", "k")], "ㄱrㅏ\n"
      ),
      ([("VK_PROCESSKEY", "ㄱ"), ("VK_PROCESSKEY", "k")], "가\n"),
      ([("VK_R", "r"), ("VK_K", "k"), ("VK_OEM_PERIOD", ".")], "가.\n"),
      ([("VK_SHIFT", ""), ("VK_CONTROL", ""), ("VK_C", "&#x3;"), ("VK_R", "r")], "ㄱ\n"),
      ([("VK_V", "붙여넣기"), ("VK_R", "r")], "붙여넣기ㄱ\n"),
      ([("NONE", "ü"), ("VK_R", "r")], "üㄱ\n"),
      ([("VK_R", ""), ("VK_1", "")], "ㄱ1\n"),
    ] as [([(String, String)], String)])
  func virtualKeys(keys: [(String, String)], expected: String) {
    let run = Self.replay(Self.idfx(keys.map { ($0.0, $0.1, nil) }), format: .idfx)
    #expect(run.output == expected)
    #expect(run.errors.isEmpty)
    #expect(run.warnings.isEmpty)
  }

  @Test("a replacement after Delete is that Delete's edit: one character goes, not two")
  func replacementAfterDelete() {
    let replacement =
      #"<event id="9" type="replacement"><part type="wordlog"><start>1</start><end>2</end><newtext></newtext></part></event>"#
    let log = Self.idfx([
      ("VK_HANGUL", "", 0), ("VK_A", "a", 0), ("VK_B", "b", 1), ("VK_C", "c", 2),
      ("VK_LEFT", "", 3),
      ("VK_LEFT", "", 2), ("VK_DELETE", "", 1), (replacement, "", nil), ("VK_D", "d", 1),
    ])
    let run = Self.replay(log, format: .idfx)
    #expect(run.output == "adc\n")
    #expect(run.statistics.total.keystrokes == 8)
  }

  @Test("a key typed over a selection: the replacement's range goes, then the key types")
  func replacementAfterKey() {
    let replacement =
      #"<event id="9" type="replacement"><part type="wordlog"><start>0</start><end>2</end><newtext>x</newtext></part></event>"#
    let log = Self.idfx([
      ("VK_HANGUL", "", 0), ("VK_A", "a", 0), ("VK_B", "b", 1), ("VK_C", "c", 2),
      ("VK_X", "x", 0), (replacement, "", nil),
    ])
    #expect(Self.replay(log, format: .idfx).output == "xc\n")
  }

  @Test("a click moves the cursor: the next key's position says where it acts")
  func positionFollowed() {
    let log = Self.idfx([
      ("VK_HANGUL", "", 0), ("VK_A", "a", 0), ("VK_B", "b", 1), ("VK_C", "c", 2), ("VK_X", "x", 1),
    ])
    #expect(Self.replay(log, format: .idfx).output == "axbc\n")
  }

  @Test("an insert event is the text already there, the cursor between before and after")
  func insertEvent() {
    let insert =
      #"<event id="0" type="insert"><part type="wordlog"><position>2</position><before>앞글</before><after>뒤</after></part></event>"#
    let log = Self.idfx([(insert, "", nil), ("VK_R", "r", 2), ("VK_K", "k", 2)])
    let run = Self.replay(log, format: .idfx)
    #expect(run.output == "앞글가뒤\n")
    #expect(run.statistics.total.insertedText == 3)
  }

  @Test("unknown event types and keys: one warning each, at the event's line and column")
  func idfxWarnings() {
    let log = Self.idfx([
      (#"<event id="0" type="speech"></event>"#, "", nil), ("VK_R", "r", nil),
      (#"<event id="2" type="speech"></event>"#, "", nil), ("VK_BROWSER_BACK", "", nil),
      ("VK_BROWSER_BACK", "", nil), ("VK_PROCESSKEY", "", nil), ("VK_K", "k", nil),
    ])
    let run = Self.replay(log, format: .idfx)
    #expect(run.output == "가\n")
    #expect(run.errors.isEmpty)
    #expect(
      run.warnings.map(\.description) == [
        #"log.idfx:3:1: event type "speech" is not one hangul-keylog(5) knows: ignored"#,
        #"log.idfx:8:3: key "VK_BROWSER_BACK" without a value is not one hangul-keylog(5) knows: ignored"#,
        "log.idfx:14:3: key VK_PROCESSKEY without a value: the input method took a key the log does not name: ignored",
      ])
  }

  @Test(
    "malformed XML, another root, a bad time: an error at its line and column",
    arguments: [
      (
        "<?xml version=\"1.0\"?>\n<log>\n<event type=\"keyboard\"><part type=\"winlog\"><key>VK_R</key>\n</log>\n",
        "log.idfx:4:3: not well-formed XML: mismatched tag", ""
      ),
      (
        "<?xml version=\"1.0\"?>\n  <LogFile/>\n",
        "log.idfx:2:3: not an Inputlog IDFX log: the root element is <LogFile>, not <log> (see hangul-keylog(5))",
        ""
      ),
      (
        "<log><event type=\"keyboard\"><part type=\"winlog\"><startTime>soon</startTime><key>VK_R</key></part></event>\n<event type=\"keyboard\"><part><key>VK_K</key></part></event></log>",
        "log.idfx:1:6: <startTime> must be a number of milliseconds, not \"soon\"", "ㅏ\n"
      ),
      (
        "<log><event type=\"keyboard\"><part><startTime>9</startTime><key>VK_R</key></part></event>\n  <event type=\"keyboard\"><part><startTime>8</startTime><key>VK_K</key></part></event></log>",
        "log.idfx:2:3: time went backwards: 8 after 9", "ㄱ\n"
      ),
      ("<log>가<", "log.idfx:1:7: not well-formed XML: unclosed token", ""),
    ])
  func idfxErrors(log: String, message: String, output: String) {
    let run = Self.replay(log, format: .idfx, block: 5)
    #expect(run.errors.map(\.description) == [message])
    #expect(run.output == output)
  }

  @Test("an element's text longer than --max-line (at least 4 KiB) is an error at its event")
  func longElement() throws {
    var errors: [PositionedError] = []
    let report: (PositionedError) -> Void = { errors.append($0) }
    var filter = IDFXLogFilter(
      replaying: EventLogFilter(maximumLineLength: 16, report: report), maximumLineLength: 16,
      report: report)
    filter.beginInput(named: "log.idfx")
    let pasted = String(repeating: "가", count: 2000)
    let log = Self.idfx([("VK_V", pasted, nil), ("VK_R", "r", nil)])
    let output = try filter.filtered(Array(log.utf8))
    #expect(String(decoding: output, as: UTF8.self) == "ㄱ\n")
    #expect(
      errors.map(\.description) == [
        "log.idfx:3:3: <value> is longer than 4096 bytes (see --max-line)"
      ])
  }

  // MARK: Translog-II

  static func translog(_ events: [String]) -> String {
    #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<LogFile>\n  <Events>\n"
      + events.map { "    " + $0 + "\n" }.joined() + "  </Events>\n</LogFile>\n"
  }

  @Test("Translog keys: insert jamo compose, delete deletes its Text, navi moves, IME commits")
  func translogKeys() {
    let log = Self.translog([
      #"<Key Time="1" Cursor="0" Type="insert" Value="ㄱ" />"#,
      #"<Key Time="2" Cursor="1" Type="insert" Value="ㅏ" />"#,
      #"<Key Time="3" Cursor="2" Type="insert" Value="ㄴ" />"#,
      #"<Key Time="4" Cursor="2" Text="ㄴ" Type="delete" Value="[Back]" />"#,
      #"<Key Time="5" Cursor="2" Type="insert" Value=" " />"#,
      #"<Key Time="6" Cursor="3" Type="IME" Value="s" />"#,
      #"<Key Time="7" Cursor="3" Type="IME" Value="k" />"#,
      #"<Key Time="8" Cursor="3" Type="insert" Value="나" IMEtext="나" />"#,
      #"<Key Time="9" Cursor="4" Type="navi" Value="[Left]" />"#,
      #"<Key Time="10" Cursor="3" Type="insert" Value="복사한 글" />"#,
      #"<Key Time="11" Cursor="8" Type="return" Value="[Return]" />"#,
    ])
    let run = Self.replay(log, format: .translog)
    #expect(run.output == "가 복사한 글\n나\n")
    #expect(run.errors.isEmpty)
    #expect(run.warnings.isEmpty)
  }

  @Test("a Translog click moves the cursor; a delete of a selection deletes its Text")
  func translogCursor() {
    let log = Self.translog([
      #"<Key Time="1" Cursor="0" Type="insert" Value="a" />"#,
      #"<Key Time="2" Cursor="1" Type="insert" Value="b" />"#,
      #"<Key Time="3" Cursor="2" Type="insert" Value="c" />"#,
      #"<Mouse Time="4" Cursor="1" Value="Down" />"#,
      #"<Key Time="5" Cursor="1" Type="insert" Value="x" />"#,
      #"<Key Time="6" Cursor="4" Type="insert" Value="d" />"#,
      #"<Key Time="7" Cursor="3" Text="cd" Type="delete" Value="[Back]" />"#,
    ])
    #expect(Self.replay(log, format: .translog).output == "axb\n")
  }

  @Test("unknown Translog types, values and elements: one warning each")
  func translogWarnings() {
    let log = Self.translog([
      #"<Key Time="1" Cursor="0" Type="paste" Value="x" />"#,
      #"<Key Time="2" Cursor="0" Type="navi" Value="[Ctrl+Left]" />"#,
      #"<Gaze Time="3" />"#, #"<Gaze Time="4" />"#,
      #"<Key Time="5" Cursor="0" Type="insert" Value="ㄱ" />"#,
    ])
    let run = Self.replay(log, format: .translog)
    #expect(run.output == "ㄱ\n")
    #expect(
      run.warnings.map(\.description) == [
        #"log.xml:4:5: key type "paste" is not one hangul-keylog(5) knows: ignored"#,
        #"log.xml:5:5: navi key "[Ctrl+Left]" is not one hangul-keylog(5) knows: ignored"#,
        "log.xml:6:5: element <Gaze> is not one hangul-keylog(5) knows: ignored",
      ])
  }

  @Test("malformed Translog XML and another root: an error at its place")
  func translogErrors() {
    let broken = Self.translog([#"<Key Time="1" Type="insert" Value="ㄱ">"#])
    #expect(
      Self.replay(broken, format: .translog).errors.map(\.description) == [
        "log.xml:5:5: not well-formed XML: mismatched tag"
      ])
    #expect(
      Self.replay("<log/>", format: .translog).errors.map(\.description) == [
        "log.xml:1:1: not a Translog-II log: the root element is <log>, not <LogFile> (see hangul-keylog(5))"
      ])
  }

  // MARK: Detection

  @Test(
    "the start of a file says its format",
    arguments: [
      ("<?xml version=\"1.0\"?>\n<log>", XMLLogFormat?.some(.idfx)),
      (
        "\u{FEFF}<?xml version=\"1.0\"?><!-- x --><?pi?><!DOCTYPE log>\n<LogFile xmlns:a=\"b\">",
        .translog
      ),
      ("<?xml version=\"1.0\"?><logs>", nil), ("<log>", nil), ("{\"key\":\"ㄱ\"}", nil),
      ("<?xml version=\"1.0\"?><log", nil), ("", nil),
    ])
  func detection(start: String, format: XMLLogFormat?) {
    #expect(XMLLogFormat.detect(Array(start.utf8)) == format)
  }
}
