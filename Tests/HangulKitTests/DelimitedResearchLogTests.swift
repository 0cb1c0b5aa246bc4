import Foundation
import Testing

@testable import HangulKit

/// `--format aalto` and `--format lwp` (hangul-keylog(5)): the Aalto 136M
/// keystrokes TSV and the Linking Writing Processes CSV.
@Suite("Aalto and Linking Writing Processes logs")
struct DelimitedResearchLogTests {
  static let aaltoHeader =
    "PARTICIPANT_ID\tTEST_SECTION_ID\tSENTENCE\tUSER_INPUT\tKEYSTROKE_ID\tPRESS_TIME\tRELEASE_TIME\tLETTER\tKEYCODE"
  static let lwpHeader =
    "id,event_id,down_time,up_time,action_time,activity,down_event,up_event,text_change,cursor_position,word_count"

  /// An Aalto log of one section from (LETTER, KEYCODE) pairs.
  static func aalto(_ keys: [(String, Int)], section: String = "1", sentence: String = "")
    -> String
  {
    var lines = [aaltoHeader]
    for (index, (letter, code)) in keys.enumerated() {
      let time = 1000 + 100 * index
      lines.append(
        "7\t\(section)\t\(sentence)\t\t\(index)\t\(time)\t\(time + 50)\t\(letter)\t\(code)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// An LWP log of one essay from (activity, down_event, text_change, cursor_position).
  static func lwp(_ events: [(String, String, String, Int)], id: String = "e1") -> String {
    var lines = [lwpHeader]
    func quoted(_ field: String) -> String {
      guard field.contains(",") || field.contains("\"") || field.contains("\n") else {
        return field
      }
      return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    for (index, (activity, key, change, position)) in events.enumerated() {
      let fields = [
        id, "\(index + 1)", "\(100 * index)", "\(100 * index + 50)", "50", activity, key, key,
        change, "\(position)", "0",
      ]
      lines.append(fields.map(quoted).joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test(
    "each sample replays to its expected text",
    arguments: [
      (DelimitedLogFormat.aalto, "aalto-keystrokes.tsv", 43), (.lwp, "lwp-essay.csv", 21),
    ])
  func sample(format: DelimitedLogFormat, file: String, keys: Int) throws {
    let root = SnapshotLogTests.repository.appendingPathComponent("samples")
    let log = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    let expectedName = file.split(separator: ".").dropLast().joined() + ".expected.txt"
    let expected = try String(
      contentsOf: root.appendingPathComponent(expectedName), encoding: .utf8)
    for block in [3, 1 << 16] {
      let result = SnapshotLogTests.run(log, format: format, block: block)
      #expect(result.output == expected)
      #expect(result.errors.isEmpty)
      #expect(result.statistics.total.keystrokes == keys)
    }
  }

  @Test("the Aalto SENTENCE is each document's target text")
  func aaltoTarget() {
    let log =
      Self.aalto([("r", 82), ("k", 75)], section: "1", sentence: "가")
      + Self.aalto([("s", 83), ("k", 75)], section: "2", sentence: "나 \"quoted\"")
      .split(separator: "\n").dropFirst().joined(separator: "\n") + "\n"
    let result = SnapshotLogTests.run(log, format: .aalto)
    #expect(result.output == "가\n나\n")
    #expect(result.statistics.documents.map(\.target) == ["가", "나 \"quoted\""])
  }

  static let keyCases: [([(String, Int)], String)] = [
    ([("r", 82), ("k", 75), ("BKSP", 8), ("h", 72)], "고"),
    ([("SHIFT", 16), ("R", 82), ("k", 75)], "까"),
    ([("R", 82), ("k", 75)], "까"),
    ([("ㄷ", 229), ("ㅏ", 229), ("ㄹ", 229), ("ㄱ", 229)], "닭"),
    ([("r", 82), (" ", 32), ("1", 49), (".", 190), ("CTRL", 17)], "ㄱ 1."),
    ([("r", 82), ("k", 75), ("ARROWLEFT", 37), ("s", 83)], "ㄴ가"),
  ]

  @Test(
    "JavaScript keyCodes are keys: positions through the layout, named keys, the LETTER for 229",
    arguments: keyCases)
  func aaltoKeys(keys: [(String, Int)], text: String) {
    let result = SnapshotLogTests.run(Self.aalto(keys), format: .aalto)
    #expect(result.output == text + "\n")
    #expect(result.errors.isEmpty)
    #expect(result.statistics.total.keystrokes == keys.count)
  }

  static let activityCases: [([(String, String, String, Int)], String)] = [
    // Keys and a Backspace.
    ([("Input", "q", "ㄱ", 1), ("Input", "q", "ㅏ", 1), ("Remove/Cut", "Backspace", "ㅏ", 1)], "ㄱ"),
    // A paste at the start, a replacement, a cut.
    (
      [
        ("Input", "q", "ㄴ", 1), ("Input", "q", "ㅏ", 1), ("Paste", "Control", "가", 1),
        ("Replace", "q", "나 => 다", 2), ("Remove/Cut", "Control", "가", 0),
      ], "다"
    ),
    // Moving text: From [0, 1] To [1, 2].
    (
      [
        ("Paste", "Control", "가나", 2), ("Move From [0, 1] To [1, 2]", "Leftclick", "가", 2),
      ], "나가"
    ),
    // A click moves the cursor, an arrow too; Shift types nothing.
    (
      [
        ("Paste", "Control", "가다", 2), ("Nonproduction", "Leftclick", "NoChange", 1),
        ("Input", "q", "ㄴ", 2), ("Input", "q", "ㅏ", 2),
        ("Nonproduction", "ArrowRight", "NoChange", 3),
        ("Nonproduction", "Shift", "NoChange", 3), ("Input", ",", ",", 4),
      ], "가나다,"
    ),
  ]

  @Test(
    "LWP activities: keys at the cursor, text at the record's position", arguments: activityCases)
  func lwpActivities(events: [(String, String, String, Int)], text: String) {
    let result = SnapshotLogTests.run(Self.lwp(events), format: .lwp)
    #expect(result.output == text + "\n")
    #expect(result.errors.isEmpty)
  }

  @Test("a selection deleted by Backspace is one key and its text; a cut is no key")
  func lwpSelection() {
    let log = Self.lwp([
      ("Paste", "Control", "가나다", 3), ("Remove/Cut", "Backspace", "가나", 0),
      ("Remove/Cut", "Control", "다", 0),
    ])
    let result = SnapshotLogTests.run(log, format: .lwp)
    #expect(result.output == "\n")
    #expect(result.statistics.total.keystrokes == 1)
    #expect(result.statistics.total.insertedText == 3)
  }

  @Test("an unknown LWP activity and a bad position are errors at their columns")
  func lwpErrors() {
    let log = Self.lwp([("Typing", "q", "ㄱ", 1), ("Input", "q", "ㄴ", -1), ("Input", "q", "ㄷ", 1)])
    let result = SnapshotLogTests.run(log, format: .lwp)
    #expect(result.output == "ㄷ\n")
    #expect(
      result.errors.map(\.description) == [
        "log.tsv:2:14: unknown activity \"Typing\": an activity is Input, Remove/Cut, Paste, Replace, Nonproduction or Move From [a, b] To [c, d]",
        "log.tsv:3:29: cursor_position must be a whole number of characters, not \"-1\"",
      ])
  }

  @Test("an Aalto KEYCODE that is not a number is an error at its column")
  func aaltoErrors() {
    let result = SnapshotLogTests.run(
      Self.aalto([("r", 82), ("k", -5), ("k", 75)]), format: .aalto)
    #expect(result.output == "가\n")
    #expect(
      result.errors.map(\.description) == [
        "log.tsv:3:21: KEYCODE must be a JavaScript keyCode (a whole number), not \"-5\""
      ])
  }

  /// A number field's padding is the spaces at its ends, whatever follows
  /// or goes before them: a combining mark after a space, or a prepended
  /// mark before one, makes one `Character` of the two, which trimming by
  /// `Character` would keep (and quote so in an error message).
  @Test(
    "a field is trimmed of the spaces at its ends, by code point",
    arguments: [
      (" 12 ", "12"), ("12", "12"), ("   ", ""), ("", ""), (" \u{301}12", "\u{301}12"),
      ("12\u{600} ", "12\u{600}"), ("\u{1100}\u{1161} \u{1100}  ", "\u{1100}\u{1161} \u{1100}"),
    ])
  func trimmingSpaces(field: String, trimmed: String) {
    #expect(Array(field.trimmingSpaces().unicodeScalars) == Array(trimmed.unicodeScalars))
  }

  @Test("a KEYCODE quoted in an error keeps a combining mark but not the space under it")
  func keyCodeWithMark() {
    let result = SnapshotLogTests.run(
      Self.aalto([("r", 82)]).replacingOccurrences(of: "\t82\n", with: "\t \u{301}82\n"),
      format: .aalto)
    #expect(
      result.errors.map(\.description) == [
        "log.tsv:2:21: KEYCODE must be a JavaScript keyCode (a whole number), not \"\u{301}82\""
      ])
  }

  /// Random Korean lines (``BrowserGeneratorTests/lines()``) typed as
  /// 2-set keys with slips and Backspaces, written in each format, replay to
  /// what the input method showed.
  @Test("1,000 generated lines replay in each format", arguments: DelimitedLogFormat.allCases)
  func generated(format: DelimitedLogFormat) {
    var positions: [Jamo: UInt8] = [:]
    for ascii in (UInt8(ascii: "A")...UInt8(ascii: "z")).reversed() {
      if let jamo = Keyboard.twoSet.jamo(forASCII: ascii) { positions[jamo] = ascii }
    }
    var random: SeededGenerator? = SeededGenerator(seed: 0x2929)
    var log: [String] = []
    var expected = ""
    for (index, line) in SnapshotGeneratorTests.lines().enumerated() {
      let presses = BrowserStreamGenerator.presses(of: line, slips: &random)
      var generator = BrowserStreamGenerator(platform: .android)
      var rows: [String] = []
      for press in presses {
        generator.type(press)
        let time = 1000 + 10 * rows.count
        switch (format, press) {
        case (.snapshots, _):
          rows.append("\(index)\t\(time)\t\(generator.shownText)")
        case (.aalto, .jamo(let jamo)):
          let ascii = positions[jamo] ?? 0
          let keyed = ascii != 0 && index % 2 == 0
          let letter = keyed ? String(Unicode.Scalar(ascii)) : String(jamo.scalar)
          let code = keyed ? Int(ascii & ~0x20) : 229
          rows.append("1\t\(index)\t\t\t0\t\(time)\t\(time)\t\(letter)\t\(code)")
        case (.aalto, .backspace):
          rows.append("1\t\(index)\t\t\t0\t\(time)\t\(time)\tBKSP\t8")
        case (.aalto, .character(let scalar))
        where scalar.properties.isAlphabetic && scalar.isASCII:
          // Latin letters are typed with the input method off: 한/영 around them.
          let code = Int(scalar.value & ~0x20)
          for (letter, keyCode) in [("HANGUL", 21), (String(scalar), code), ("HANGUL", 21)] {
            rows.append("1\t\(index)\t\t\t0\t\(time)\t\(time)\t\(letter)\t\(keyCode)")
          }
        case (.aalto, .character(let scalar)):
          rows.append("1\t\(index)\t\t\t0\t\(time)\t\(time)\t\(scalar)\t\(scalar == " " ? 32 : 0)")
        case (.lwp, .backspace):
          rows.append("\(index),0,\(time),\(time),0,Remove/Cut,Backspace,Backspace,x,0,0")
        case (.lwp, .jamo(let jamo)):
          rows.append("\(index),0,\(time),\(time),0,Input,Process,Process,\(jamo.scalar),0,0")
        case (.lwp, .character(let scalar)):
          let text =
            scalar == "," || scalar == "\""
            ? "\"" + (scalar == "," ? "," : "\"\"") + "\"" : String(scalar)
          rows.append("\(index),0,\(time),\(time),0,Input,\(text),\(text),\(text),0,0")
        }
      }
      log += rows
      expected += generator.shownText + "\n"
    }
    let header =
      switch format {
      case .snapshots: "TEST_SECTION_ID\tTIMESTAMP\tINPUT"
      case .aalto: Self.aaltoHeader
      case .lwp: Self.lwpHeader
      }
    let result = SnapshotLogTests.run(
      ([header] + log).joined(separator: "\n") + "\n", format: format)
    #expect(result.errors.isEmpty)
    SnapshotGeneratorTests.expectSameLines(result.output, expected)
  }
}
