import Foundation
import HangulKit
import Testing

/// The normal-form checker passes whole records in one scan, counting their
/// separators as it goes: the line and column of what it finds must be those
/// it finds in the record checked alone, and those counted by hand, after
/// thousands of lines, with the separator at every lane of a block, CRLF,
/// NUL separators (`-z`) and a last line with no separator.
@Suite("Normal-form checker positions")
struct NormalFormPositionTests {
  /// What a checker reported: each record's first problem, or the first problem.
  struct Report: Equatable, CustomStringConvertible {
    var line: Int
    var column: Int
    var message: String
    var description: String { "\(line):\(column): \(message)" }
  }

  /// Pieces of a record that may not be in the form: a mark that joins
  /// what is before it, Hangul in the other shape, compatibility characters.
  static let defects: [String] = [
    "\u{301}", "e\u{301}", "\u{E9}", "ﬁ", "Ωμέγα", "漢", "👍🏽", "\u{AC00}\u{11A8}", "가",
    "\u{1100}\u{1161}", "\u{1112}\u{1175}\u{11C2}",
  ]

  /// Pieces that `form` keeps, which the fast scan passes: ASCII, CR, and
  /// Hangul in the form's shape.
  static func kept(_ form: ICUNormalizer.Form) -> [String] {
    ["a", "word ", "  ", "\r"]
      + (form.composes
        ? ["가", "힣", "한국어 "] : ["\u{1100}\u{1161}", "\u{1112}\u{1175}\u{11C2}"])
  }

  /// Random records, one in `oneIn` with defects among what `form` keeps;
  /// unless `markMayBegin`, none begins with a lone mark.
  static func records(
    _ count: Int, oneIn: Int, form: ICUNormalizer.Form, markMayBegin: Bool,
    _ random: inout SeededGenerator
  ) -> [String] {
    let kept = kept(form)
    return (0..<count).map { _ in
      let defective = Int.random(in: 0..<oneIn, using: &random) == 0
      var record = ""
      for _ in 0..<Int.random(in: 0...24, using: &random) {
        let pieces = defective && Bool.random(using: &random) ? defects : kept
        let piece = pieces[Int.random(in: 0..<pieces.count, using: &random)]
        if record.isEmpty, !markMayBegin, piece == "\u{301}" { continue }
        record += piece
      }
      return record
    }
  }

  /// What a checker of `form` with separator `separator` reports of
  /// `chunks` (each a whole number of records): each record's first
  /// problem with `perRecord`, else the first problem alone.
  static func reports(
    _ chunks: [[UInt8]], form: ICUNormalizer.Form, separator: UInt8, perRecord: Bool
  ) throws -> [Report] {
    var checker = try NormalFormChecker(form: form, separator: separator)
    let found = Found()
    if perRecord {
      checker.recordProblem = { [found] line, column, message in
        found.reports.append(
          Report(line: line, column: column, message: String(decoding: message, as: UTF8.self)))
      }
    }
    checker.beginInput(named: "in.txt")
    for chunk in chunks { chunk.withUnsafeBufferPointer { checker.check($0) } }
    if let problem = checker.firstProblem {
      found.reports.append(
        Report(line: problem.line, column: problem.column ?? 0, message: problem.message))
    }
    return found.reports
  }

  final class Found {
    var reports: [Report] = []
  }

  @Test(
    "problems are where the record checked alone puts them, in one text and in pieces",
    arguments: [ICUNormalizer.Form.nfc, .nfd, .nfkc], [UInt8(0x0A), 0x00])
  func sameAsEachRecordAlone(form: ICUNormalizer.Form, separator: UInt8) throws {
    var random = SeededGenerator(seed: 0x11E5_0000 &+ UInt64(separator) &+ UInt64(form.rawValue))
    let records = Self.records(3000, oneIn: 40, form: form, markMayBegin: true, &random)
    let separatorText = String(UnicodeScalar(separator))
    // The last record has no separator after it.
    let texts = records.indices.map {
      Array((records[$0] + ($0 == records.count - 1 ? "" : separatorText)).utf8)
    }
    // Each record alone (line 1), moved to the line it is on.
    var expected: [Report] = []
    var expectedFirst: Report?
    for (index, text) in texts.enumerated() {
      for report in try Self.reports([text], form: form, separator: separator, perRecord: true) {
        expected.append(Report(line: index + 1, column: report.column, message: report.message))
      }
      if expectedFirst == nil,
        let report = try Self.reports([text], form: form, separator: separator, perRecord: false)
          .first
      {
        expectedFirst = Report(line: index + 1, column: report.column, message: report.message)
      }
    }
    #expect(expected.count > 20)
    #expect(expected.contains { $0.line > 2000 })
    let whole = Array(texts.joined())
    #expect(
      try Self.reports([whole], form: form, separator: separator, perRecord: true) == expected)
    #expect(
      try Self.reports([whole], form: form, separator: separator, perRecord: false)
        == (expectedFirst.map { [$0] } ?? []))
    // In pieces of whole records.
    var chunks: [[UInt8]] = []
    var index = 0
    while index < texts.count {
      let end = min(texts.count, index + Int.random(in: 1...300, using: &random))
      chunks.append(Array(texts[index..<end].joined()))
      index = end
    }
    #expect(try Self.reports(chunks, form: form, separator: separator, perRecord: true) == expected)
  }

  @Test(
    "a problem after thousands of records of every length is at the line and column counted by hand",
    arguments: [UInt8(0x0A), 0x00], [false, true])
  func countedByHand(separator: UInt8, crlf: Bool) throws {
    // Records of 0 to 40 bytes before the separator put it at every lane
    // of a block; each kind of record, and the problem at each column.
    for (length, prefix) in [(0, 0), (1, 0), (15, 3), (16, 16), (17, 5), (31, 0), (40, 39)] {
      for syllables in [false, true] {
        // `length` code points: ASCII, or syllables (3 bytes each).
        let body = String(repeating: syllables ? "가" : "a", count: length)
        let line = body + (crlf ? "\r" : "")
        let records = 2000 + length
        var text = Array(
          (String(repeating: line + String(UnicodeScalar(separator)), count: records)).utf8)
        // The problem: decomposed Hangul, which NFC changes, after `prefix` code points.
        text += Array(String(repeating: syllables ? "나" : "b", count: prefix).utf8)
        text += Array("\u{1100}\u{1161}".utf8)
        text += Array("tail".utf8)
        for perRecord in [false, true] {
          let reports = try Self.reports(
            [text], form: .nfc, separator: separator, perRecord: perRecord)
          #expect(
            reports.first
              == Report(
                line: records + 1, column: prefix + 1, message: reports.first?.message ?? ""),
            "length \(length), prefix \(prefix), syllables \(syllables)")
        }
      }
    }
  }

  @Test(
    "a record that begins with a mark is checked on its own: its problems keep its line and column",
    arguments: [
      (
        "abe\n\u{301}\u{AC00}\u{11A8}x\n", ICUNormalizer.Form.nfc,
        [Report(line: 2, column: 2, message: "not NFC: \"\u{AC00}\u{11A8}\" (U+AC00 U+11A8)")]
      ),
      (
        "abe\u{301}\n\u{301}\u{AC00}\u{11A8}x\n", .nfd,
        [Report(line: 2, column: 2, message: "not NFD: \"\u{AC00}\" (U+AC00)")]
      ),
      (
        "abe\u{301}\n\u{301}\u{AC00}\u{11A8}x\n", .nfc,
        [
          Report(line: 1, column: 3, message: "not NFC: \"e\u{301}\" (U+0065 U+0301)"),
          Report(line: 2, column: 2, message: "not NFC: \"\u{AC00}\u{11A8}\" (U+AC00 U+11A8)"),
        ]
      ),
      (
        "x\n\u{344}y\n", .nfc,
        [Report(line: 2, column: 1, message: "not NFC: \"\u{344}\" (U+0344)")]
      ),
    ])
  func recordBeginningWithMark(text: String, form: ICUNormalizer.Form, expected: [Report]) throws {
    for separator in [UInt8(0x0A), 0x00] {
      var bytes = Array(text.utf8)
      for index in bytes.indices where bytes[index] == 0x0A { bytes[index] = separator }
      #expect(
        try Self.reports([bytes], form: form, separator: separator, perRecord: true) == expected)
      // The first problem alone: on the same line.
      let first = try Self.reports([bytes], form: form, separator: separator, perRecord: false)
      #expect(first.map(\.line) == [expected[0].line])
    }
  }
}
