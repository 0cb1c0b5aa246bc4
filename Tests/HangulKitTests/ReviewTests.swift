import Foundation
import HangulKit
import Testing

/// hangul-reviews(1): review import and export.
@Suite("Reviews")
struct ReviewTests {
  final class Collected: @unchecked Sendable {
    var rejects: [ReviewReject] = []
    var skipped: [PositionedError] = []
  }

  func importing(
    _ input: String, content: ReviewImportFilter.Content = .text, contentField: String = "content",
    chunk: Int = 1 << 20
  ) throws -> (output: String, rejects: [ReviewReject], filter: ReviewImportFilter) {
    try importing(Array(input.utf8), content: content, contentField: contentField, chunk: chunk)
  }

  func importing(
    _ input: [UInt8], content: ReviewImportFilter.Content = .text, contentField: String = "content",
    chunk: Int = 1 << 20
  ) throws -> (output: String, rejects: [ReviewReject], filter: ReviewImportFilter) {
    let collected = Collected()
    var filter = try ReviewImportFilter(content: content, contentField: contentField) {
      collected.rejects.append($0)
    }
    filter.beginInput(named: "in.json")
    var output: [UInt8] = []
    var start = 0
    while start < input.count {
      let end = min(start + chunk, input.count)
      Array(input[start..<end]).withUnsafeBufferPointer { filter.process($0, into: &output) }
      start = end
    }
    filter.finish(into: &output)
    return (String(decoding: output, as: UTF8.self), collected.rejects, filter)
  }

  func exporting(
    _ input: String, to shape: ReviewExportFilter.Shape = .jsonl,
    decompose: DecompositionForm? = nil,
    relativeTime: RelativeTime? = nil, contentField: String = "content"
  ) -> (output: String, skipped: [PositionedError]) {
    let collected = Collected()
    var filter = ReviewExportFilter(
      to: shape, decompose: decompose, relativeTime: relativeTime, contentField: contentField
    ) { collected.skipped.append($0) }
    let output = (try? filter.filtered(Array(input.utf8))) ?? []
    return (String(decoding: output, as: UTF8.self), collected.skipped)
  }

  static let records = [
    #"{"content":"ㄱㅏ e\u0301","n":1.50,"createdAt":"2022-07-21T11:53:58.652Z"}"#,
    #"{"content":"둘째","user":{"isAdmin":false},"createdAt":"2022-07-23T19:00:00"}"#,
    #"{"content":"셋째","createdAt":"2022-07-23 10:00:00 +0000"}"#,
  ]

  @Test(
    "the envelope, a bare array and JSON Lines give the same output",
    arguments: [1, 3, 64, 1 << 20])
  func threeShapes(chunk: Int) throws {
    let envelope =
      "{\n  \"data\": [\n    " + Self.records.joined(separator: ",\n    ") + "\n  ]\n}\n"
    let array = "[" + Self.records.joined(separator: ", ") + "]"
    let lines = Self.records.joined(separator: "\n") + "\n"
    let outputs = try [envelope, array, lines].map { try importing($0, chunk: chunk).output }
    #expect(outputs[0] == outputs[1])
    #expect(outputs[1] == outputs[2])
    #expect(
      outputs[0]
        == #"{"content":"ㄱㅏ é","n":1.50,"createdAt":"2022-07-21T11:53:58.652Z"}"# + "\n"
        + Self.records[1] + "\n" + Self.records[2] + "\n")
  }

  @Test(
    "every member but content is kept byte for byte: order, numbers, escapes, duplicates, nesting")
  func preservation() throws {
    let input = try fixture("unusual-records.json")
    let result = try importing(Array(input))
    #expect(result.rejects.isEmpty)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(
      lines[0]
        == #"{"content":"é ㄱㅏ","z":0,"a":-0.0,"m":1.50,"e":1e3,"E":2E-7,"big":123456789012345678901234567890,"esc":"tab\there \"quoted\" \\ \/ \u00e9 \ud83d\ude00 \u0000 \b\f\n\r","nul":null,"t":true,"f":false,"nested":{"b":[1,{"c":[]},"x"],"a":{}},"dup":1,"dup":2,"한글키":"값","content2":"ㄱㅏ"}"#
    )
    // Content that NFC leaves alone keeps its spelling too.
    #expect(lines[1] == #"{"b":1,"content":"이미 NFC","a":[1,2]}"#)
    #expect(lines[2] == #"{"content":"한","createdAt":1658404438.5}"#)
    // Each output line is valid JSON whose members equal the input's, but content.
    let inputValue = try JSONParser.parse(Array(input))
    guard case .array(let inputs) = inputValue else { Issue.record("not an array"); return }
    for (line, original) in zip(lines, inputs) {
      let output = try JSONParser.parse(Array(line.utf8))
      guard case .object(let members) = output, case .object(let originals) = original else {
        continue
      }
      #expect(members.map(\.name) == originals.map(\.name))
      for (member, originalMember) in zip(members, originals) where member.name != "content" {
        #expect(member.value == originalMember.value)
      }
    }
  }

  @Test("--content keys composes keystrokes with the compose options")
  func keysContent() throws {
    let input = #"{"content":"dkssud rkTek","x":1}"#
    let qwerty = try importing(input, content: .keys(.qwerty, ComposerOptions()))
    #expect(qwerty.output == #"{"content":"안녕 갔다","x":1}"# + "\n")
    let doubled = try importing(
      #"{"content":"ㄱㅏㅅㅅㄷㅏ"}"#, content: .keys(.jamo, ComposerOptions(doubleStroke: true)))
    #expect(doubled.output == #"{"content":"갔다"}"# + "\n")
  }

  @Test(
    "each reject reason, with index and line; the other records go on",
    arguments: [
      ("[1, 2]", "not an object but an array"), (#"{"text":"x"}"#, #"no "content" member"#),
      (#"{"content":5}"#, #""content" is a number, not a string"#),
      (#"{"content":"x","createdAt":"yesterday"}"#, #"createdAt: "yesterday" is not a date"#),
      (#"{"content":"x","createdAt":"2022-02-30T00:00:00Z"}"#, "is not a date"),
      (#"{"content":"x","createdAt":true}"#, "must be a string or a number"),
      (#"{"content":"x",}"#, "unexpected '}' after ','"),
      (#"{"content":"x" "y"}"#, #"unexpected '"'"#),
    ])
  func rejectReasons(record: String, reason: String) throws {
    let input = "[\n" + #"{"content":"앞"}"# + ",\n" + record + ",\n" + #"{"content":"뒤"}"# + "\n]"
    let result = try importing(input)
    #expect(result.output == #"{"content":"앞"}"# + "\n" + #"{"content":"뒤"}"# + "\n")
    #expect(result.rejects.count == 1)
    let reject = try #require(result.rejects.first)
    #expect(reject.index == 1)
    #expect(reject.line == 3)
    #expect(reject.reason.contains(reason), "\(reject.reason)")
    #expect(reject.message.hasPrefix("in.json:3:\(reject.column): record 1 rejected: "))
    let line = try JSONParser.parse(Array(reject.jsonLine.utf8))
    #expect(line["index"] == .number("1"))
    #expect(line["line"] == .number("3"))
    #expect(line["reason"]?.stringValue == reject.reason)
    #expect(line["record"] != nil)
    #expect(result.filter.recordsRead == 3)
    #expect(result.filter.recordsImported == 2)
    #expect(result.filter.recordsRejected == 1)
  }

  @Test("a rejected record is kept as it came, or as its raw text when it is not JSON")
  func rejectRecords() throws {
    let result = try importing("{\"content\": 5,  \"a\" : 1.0}\n{oops\n")
    #expect(result.rejects.map(\.recordJSON) == [#"{"content":5,"a":1.0}"#, #""{oops""#])
    #expect(result.rejects.map(\.line) == [1, 2])
  }

  @Test("invalid UTF-8 and a record cut off by the end of input are rejected")
  func brokenBytes() throws {
    let invalid = try importing(
      Array(#"{"content":"a"}"#.utf8) + [0x0A] + Array(#"{"content":""#.utf8) + [0xFF]
        + Array(#""}"#.utf8))
    #expect(invalid.rejects.map(\.reason) == ["invalid UTF-8: byte 0xFF"])
    #expect(invalid.rejects.map(\.column) == [13])
    #expect(invalid.output == #"{"content":"a"}"# + "\n")
    let truncated = try importing(#"{"data":[{"content":"a"},{"content":"b"#)
    #expect(truncated.output == #"{"content":"a"}"# + "\n")
    #expect(truncated.rejects.map(\.reason) == ["unexpected end of input inside a string"])
    #expect(
      truncated.filter.structureProblems.map(\.message) == [
        "unexpected end of input inside the envelope that starts at 1:1"
      ])
  }

  @Test("records come out as they complete, before the input ends")
  func streams() throws {
    var filter = try ReviewImportFilter { _ in }
    var output: [UInt8] = []
    Array(#"{"data":[{"content":"하나"},{"content":"#.utf8).withUnsafeBufferPointer {
      filter.process($0, into: &output)
    }
    #expect(String(decoding: output, as: UTF8.self) == #"{"content":"하나"}"# + "\n")
  }

  @Test("the diary app's entries load with --content-field body")
  func diary() throws {
    let result = try importing(
      #"{"title":"일기","body":"ᄋ\u1169ᄂ\u1173ᆯ","created_at":1658404438}"#, contentField: "body")
    #expect(result.output == #"{"title":"일기","body":"오늘","created_at":1658404438}"# + "\n")
    #expect(try importing(#"{"title":"x","body":"y"}"#).rejects.count == 1)
  }

  @Test("export --to jsonl, api and post; --decompose rewrites content")
  func exportShapes() {
    let input = Self.records.joined(separator: "\n")
    #expect(exporting(input).output == Self.records.joined(separator: "\n") + "\n")
    #expect(
      exporting(input, to: .api).output == "{\"data\":[\n" + Self.records.joined(separator: ",\n")
        + "\n]}\n")
    #expect(exporting("", to: .api).output == "{\"data\":[]}\n")
    #expect(
      exporting(input, to: .post, decompose: .keys).output
        == #"{"content":"ㄱ\u200cㅏ e\u0301"}"#.replacingOccurrences(of: "\\u200c", with: "\u{200C}")
        .replacingOccurrences(of: "\\u0301", with: "\u{301}") + "\n"
        + #"{"content":"ㄷㅜㄹㅉㅐ"}"# + "\n" + #"{"content":"ㅅㅔㅅㅉㅐ"}"# + "\n")
    #expect(
      exporting(#"{"content":"닭","n":1.50}"#, decompose: .qwerty).output
        == #"{"content":"ekfr","n":1.50}"# + "\n")
    let skipped = exporting(#"{"content":1}"# + "\n" + #"{"content":"a"}"#)
    #expect(skipped.output == #"{"content":"a"}"# + "\n")
    #expect(skipped.skipped.map(\.line) == [1])
  }

  static let now = ReviewDate(secondsSince1970: 1_658_404_438 + 100_000)

  @Test(
    "--relative-time boundaries",
    arguments: [
      (0, "0초 전"), (59, "59초 전"), (60, "1분 전"), (3599, "59분 전"), (3600, "1시간 전"), (86399, "23시간 전"),
      (86400, "DATE"), (-1, nil),
    ] as [(Int, String?)])
  func relativeBoundaries(secondsAgo: Int, expected: String?) throws {
    let relative = RelativeTime(
      now: Self.now, timeZone: .utc, style: try #require(NumericDateStyle(locale: "ko_KR")))
    let date = ReviewDate(secondsSince1970: Self.now.secondsSince1970 - Double(secondsAgo))
    if expected == "DATE" {
      #expect(relative.description(of: date) == "2022. 07. 21.")
    } else {
      #expect(relative.description(of: date) == expected)
    }
  }

  @Test("export adds \"elapsed\"; a date in the future keeps the raw value")
  func elapsedMember() throws {
    let relative = RelativeTime(
      now: try ReviewDate("2022-07-22T00:00:00Z", timeZone: .utc),
      timeZone: try #require(ReviewTimeZone("Asia/Seoul")),
      style: try #require(NumericDateStyle(locale: "ko_KR")))
    let input = [
      #"{"content":"a","createdAt":"2022-07-21T23:59:30Z"}"#,
      #"{"content":"b","createdAt":"2022-07-20T20:00:00Z"}"#,
      #"{"content":"c","createdAt":"2030-01-01T00:00:00Z"}"#,
      #"{"content":"d","createdAt":1658447940}"#,
      #"{"content":"e"}"#, #"{"content":"f","elapsed":"old","createdAt":1658447999}"#,
    ].joined(separator: "\n")
    let output = exporting(input, relativeTime: relative).output.split(separator: "\n")
    #expect(output[0] == #"{"content":"a","createdAt":"2022-07-21T23:59:30Z","elapsed":"30초 전"}"#)
    // 20:00 UTC on the 20th is 05:00 on the 21st in Seoul.
    #expect(
      output[1] == #"{"content":"b","createdAt":"2022-07-20T20:00:00Z","elapsed":"2022. 07. 21."}"#)
    #expect(
      output[2]
        == #"{"content":"c","createdAt":"2030-01-01T00:00:00Z","elapsed":"2030-01-01T00:00:00Z"}"#)
    #expect(output[3] == #"{"content":"d","createdAt":1658447940,"elapsed":"1분 전"}"#)
    #expect(output[4] == #"{"content":"e"}"#)
    #expect(output[5] == #"{"content":"f","elapsed":"1초 전","createdAt":1658447999}"#)
  }

  @Test(
    "the date forms of hangul-reviews(1)",
    arguments: [
      ("2022-07-21T11:53:58.652Z", "UTC", 1_658_404_438.652),
      ("2022-07-23T19:00:00", "UTC", 1_658_602_800),
      ("2022-07-23T19:00:00", "Asia/Seoul", 1_658_570_400),
      ("2022-07-23T19:00:00", "+09:00", 1_658_570_400),
      ("2022-07-23 10:00:00 +0000", "UTC", 1_658_570_400),
      ("2022-07-23 19:00:00 +0900", "UTC", 1_658_570_400),
      ("2022-07-23T19:00:00+09:00", "UTC", 1_658_570_400),
      ("2020-02-29T00:00:00Z", "UTC", 1_582_934_400),
      ("1969-12-31T23:59:59Z", "UTC", -1),
    ])
  func dateForms(text: String, zone: String, seconds: Double) throws {
    let timeZone = try #require(ReviewTimeZone(zone))
    let date = try ReviewDate(text, timeZone: timeZone)
    #expect(abs(date.secondsSince1970 - seconds) < 0.0005)
  }

  @Test(
    "strings that are not dates",
    arguments: [
      "2022-07-21", "2022-13-01T00:00:00Z", "2021-02-29T00:00:00Z", "2022-07-21T24:00:00Z",
      "2022-07-21T11:53:58.Z",
      "2022-07-21 11:53:58", "2022-07-21T11:53:58Zjunk", "어제", "",
    ])
  func notDates(text: String) {
    #expect(throws: ReviewDate.Invalid.self) { try ReviewDate(text, timeZone: .utc) }
  }

  @Test(
    "locale date styles",
    arguments: [
      ("ko_KR", "2022. 07. 21."), ("ko-KR", "2022. 07. 21."), ("ko_KR.UTF-8", "2022. 07. 21."),
      ("en_US", "07/21/2022"),
      ("en_GB", "21/07/2022"), ("de_DE", "21.07.2022"), ("ja_JP", "2022/07/21"),
      ("C", "2022-07-21"),
    ])
  func localeStyles(locale: String, expected: String) throws {
    let style = try #require(NumericDateStyle(locale: locale))
    #expect(style.format(year: 2022, month: 7, day: 21) == expected)
  }

  @Test("calendar arithmetic round-trips for every day from 1900 to 2100")
  func calendar() throws {
    var days = ReviewDate(secondsSince1970: -2_208_988_800).civilDate(in: .utc)
    #expect(days == (1900, 1, 1))
    for offset in stride(from: -25_567, through: 47_482, by: 1) {
      let date = ReviewDate(secondsSince1970: Double(offset) * 86_400 + 43_200)
      days = date.civilDate(in: .utc)
      let text = String(format: "%04d-%02d-%02dT12:00:00Z", days.year, days.month, days.day)
      #expect(try ReviewDate(text, timeZone: .utc) == date)
    }
  }
}
