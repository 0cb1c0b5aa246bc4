import Foundation
import Testing

@testable import HangulKit

/// `--format snapshots` (hangul-keylog(5)): the field's text after each
/// event, keys rebuilt from successive texts (``FieldSnapshots``).
@Suite("Snapshot logs")
struct SnapshotLogTests {
  struct Run {
    var output: String
    var errors: [PositionedError]
    var statistics: StatisticsReport
  }

  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Replays `log`, a delimited file of `format`, in blocks of `block` bytes.
  static func run(
    _ log: String, format: DelimitedLogFormat = .snapshots, output: EventLogFilter.Output = .text,
    block: Int = 1 << 16, includesStatistics: Bool = true
  ) -> Run {
    final class Errors: @unchecked Sendable { var list: [PositionedError] = [] }
    let errors = Errors()
    var filter = EventLogFilter(
      output: output, includesStatistics: includesStatistics, delimitedFormat: format,
      report: { errors.list.append($0) })
    filter.beginInput(named: "log.tsv")
    var written: [UInt8] = []
    let bytes = Array(log.utf8)
    var start = 0
    while start < bytes.count {
      let end = min(start + block, bytes.count)
      bytes[start..<end].withUnsafeBufferPointer { filter.process($0, into: &written) }
      start = end
    }
    filter.finish(into: &written)
    return Run(
      output: String(decoding: written, as: UTF8.self), errors: errors.list,
      statistics: filter.statistics)
  }

  /// A snapshot log of sections, each a list of the field's texts.
  static func log(_ sections: [(String, [String])]) -> String {
    var lines = ["TEST_SECTION_ID\tLOG_DATA_ID\tTIMESTAMP\tKEY\tINPUT"]
    var time = 1000
    for (section, texts) in sections {
      for text in texts {
        time += 100
        lines.append("\(section)\t\(time)\t\(time)\tUnidentified\t\(text)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test("the sample replays to its expected text, every key rebuilt", arguments: [1, 7, 1 << 16])
  func sample(block: Int) throws {
    let log = try String(
      contentsOf: Self.repository.appendingPathComponent("samples/snapshots-phone.tsv"),
      encoding: .utf8)
    let expected = try String(
      contentsOf: Self.repository.appendingPathComponent("samples/snapshots-phone.expected.txt"),
      encoding: .utf8)
    let result = Self.run(log, block: block)
    #expect(result.output == expected)
    #expect(result.errors.isEmpty)
    #expect(result.statistics.total.keystrokes == 36)
    #expect(result.statistics.total.reconstructed == 36)
    #expect(result.statistics.documents.map(\.document) == ["101", "102", "103"])
  }

  @Test(
    "successive texts become the keys that type them",
    arguments: [
      // A final moves on: ㄱ ㅏ ㄴ ㅏ.
      (["ㄱ", "가", "간", "가나"], "가나", 4, 0),
      // A compound vowel, then a Backspace inside the syllable.
      (["ㅎ", "호", "화", "확", "화"], "화", 5, 1),
      // A deletion reaching committed text: one Backspace a character.
      (["ㄱ", "가", "가 ", "가", "", "ㄴ", "나"], "나", 7, 2),
      // An edit in the middle: the cursor moves there (no key), then types.
      (["ㄱ", "가", "간", "가나", "가 나", "가 나ㄷ", "가 나다"], "가 나다", 7, 0),
      // Text the keys do not type back (two jamo the keyboard would join) is text.
      (["ㄱㅅ"], "ㄱㅅ", 0, 0),
      // A jamo after a syllable it would join: the syllable is committed first.
      (["ㄱ", "ㄱㅅ", "고", "고ㅏ"], "고ㅏ", 7, 2),
    ])
  func texts(_ texts: [String], text: String, keys: Int, backspaces: Int) {
    let result = Self.run(Self.log([("1", texts)]))
    #expect(result.output == text + "\n")
    #expect(result.errors.isEmpty)
    #expect(result.statistics.total.keystrokes == keys)
    #expect(result.statistics.total.backspaces == backspaces)
  }

  @Test("text no key explains is counted as text, not keys")
  func textCounted() {
    let result = Self.run(Self.log([("1", ["ㄱㅅ", "ㄱㅅ ", "ㄱㅅ ㄱ"])]))
    #expect(result.output == "ㄱㅅ ㄱ\n")
    #expect(result.statistics.total.insertedText == 2)
    #expect(result.statistics.total.keystrokes == 2)
  }

  @Test("one document a TEST_SECTION_ID, named as the log spells it")
  func documents() {
    let result = Self.run(
      Self.log([("7", ["ㄱ", "가"]), ("s-2", ["ㄴ", "나"])]), output: .jsonl,
      includesStatistics: false)
    #expect(result.output == "{\"doc\":7,\"text\":\"가\"}\n{\"doc\":\"s-2\",\"text\":\"나\"}\n")
  }

  @Test("a CSV log: quoted fields keep commas, quotes and line breaks; CRLF ends a record")
  func quotedCSV() {
    let log =
      "\"TEST_SECTION_ID\",LOG_DATA_ID,TIMESTAMP,KEY,INPUT\r\n"
      + "1,1,10,Unidentified,\"가,\"\r\n"
      + "1,2,20,Unidentified,\"가,\"\"\n나\"\r\n"
    let result = Self.run(log)
    #expect(result.errors.isEmpty)
    #expect(result.output == "가,\"\n나\n")
  }

  @Test(
    "bad records are reported at FILE:LINE:COLUMN and the others go on",
    arguments: [
      (
        "TEST_SECTION_ID\tTIMESTAMP\tINPUT\n1\tsoon\t가\n1\t30\t나\n",
        "log.tsv:2:3: TIMESTAMP must be a number of milliseconds, not \"soon\"", "나\n"
      ),
      (
        "TEST_SECTION_ID\tTIMESTAMP\tINPUT\n1\t20\n1\t30\t나\n",
        "log.tsv:2:3: a record has 2 fields where the header names 3 or more", "나\n"
      ),
      (
        "TEST_SECTION_ID,TIMESTAMP,INPUT\n1,20,\"가\"x\n1,30,나\n",
        "log.tsv:2:9: text after the closing quote of a field", "나\n"
      ),
      (
        "TEST_SECTION_ID\tTIME\tTEXT\n1\t20\t가\n",
        "log.tsv:1:1: the header line has no column INPUT: a snapshots log needs TEST_SECTION_ID, INPUT (see hangul-keylog(5)); its records are skipped",
        ""
      ),
      (
        "TEST_SECTION_ID,INPUT\n1,가\n1,\"가나\n",
        "log.tsv:3:3: a quoted field is not closed before the end of the input", "가\n"
      ),
    ])
  func errors(log: String, message: String, output: String) {
    let result = Self.run(log)
    #expect(result.errors.map(\.description) == [message])
    #expect(result.output == output)
  }

  @Test("a first line names its format; other lines name none")
  func detection() {
    func detect(_ line: String) -> DelimitedLogFormat? {
      DelimitedLogFormat.detect(headerLine: Array(line.utf8))
    }
    #expect(
      detect(
        "TEST_SECTION_ID\tLOG_DATA_ID\tTIMESTAMP\tKEY\tINPUT\tINPUT_ADDED\tINPUT_DELETED\tOBSERVED_KEY"
      )
        == .snapshots)
    #expect(detect(",TEST_SECTION_ID,LOG_DATA_ID,TIMESTAMP,KEY,INPUT\r") == .snapshots)
    #expect(
      detect(
        "PARTICIPANT_ID\tTEST_SECTION_ID\tSENTENCE\tUSER_INPUT\tKEYSTROKE_ID\tPRESS_TIME\tRELEASE_TIME\tLETTER\tKEYCODE"
      ) == .aalto)
    #expect(
      detect(
        "\u{FEFF}id,event_id,down_time,up_time,action_time,activity,down_event,up_event,text_change,cursor_position,word_count"
      ) == .lwp)
    #expect(detect(#"{"key":"ㄱ"}"#) == nil)
    #expect(detect("dkssud") == nil)
    #expect(detect("TEST_SECTION_ID,KEY") == nil)
  }
}
