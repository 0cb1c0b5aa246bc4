/// `hangul-reviews export`: review records in (any of the shapes import
/// reads), written as JSON Lines, as the API envelope, as POST bodies, or as
/// table rows for bulk loading (CSV, COPY text, SQL; see ``ReviewTableWriter``),
/// with the content optionally decomposed and an `"elapsed"` member added.
///
///     var filter = ReviewExportFilter(to: .post, decompose: .keys) { print($0) }
///     try filter.filtered(Array(#"{"content":"닭","isBuy":true}"#.utf8))
///     // {"content":"ㄷㅏㄹㄱ"}\n
///
/// Time is O(n); memory is bounded by the largest record.
public struct ReviewExportFilter: ByteFilter, StreamingFilter {
  /// What is written.
  public enum Shape: String, Sendable, CaseIterable {
    /// One record a line.
    case jsonl
    /// The API envelope `{"data":[…]}`.
    case api
    /// One `{"content": …}` body a line.
    case post
    /// RFC 4180 CSV with a header row.
    case csv
    /// PostgreSQL COPY text format.
    case tsv
    /// SQL statements (CREATE TABLE and INSERTs).
    case sql

    /// The table format of the tabular shapes; nil for the JSON ones.
    public func tableFormat(dialect: SQLDialect) -> ReviewTableWriter.Format? {
      switch self {
      case .jsonl, .api, .post: nil
      case .csv: .csv
      case .tsv: .tsv
      case .sql: .sql(dialect)
      }
    }
  }

  public let shape: Shape
  package private(set) var recordsExported = 0
  package private(set) var recordsSkipped = 0
  /// How many members were reported as having no column (see ``ReviewColumnWatch``).
  package private(set) var membersLeftOut = 0

  /// What each record is read by and what is changed and added in it.
  private let options: Options
  /// Where what is left out is said.
  private let reports: Reports
  /// The members left out so far, for the --columns a message suggests.
  private var leftOutNames: [String] = []
  private var reader: ReviewRecordReader
  private var tableWriter: ReviewTableWriter?

  /// How many values had U+0000 replaced (``ReviewTableWriter/NULPolicy/replace``).
  package var valuesWithNULReplaced: Int { tableWriter?.valuesWithNULReplaced ?? 0 }

  /// Problems with an envelope or array itself (the first hundred), with their positions.
  package var structureProblems: [PositionedError] { reader.structureProblems }
  /// How many such problems there were in all.
  package var structureProblemCount: Int { reader.structureProblemCount }

  /// A filter; `table` writes the tabular shapes (by default: every top-level
  /// member of the first record, U+0000 rejected, SQLite for `.sql`).
  public init(
    to shape: Shape = .jsonl, table: ReviewTableWriter? = nil, decompose: DecompositionForm? = nil,
    plainKeys: Bool = false, search: [ReviewSearchKey] = [],
    relativeTime: RelativeTime? = nil,
    contentField: String = "content", recordsField: String = "data",
    timeZone: ReviewTimeZone = .utc,
    structureProblem: @escaping (PositionedError) -> Void = { _ in },
    memberLeftOut: @escaping (PositionedError) -> Void = { _ in },
    skip: @escaping (PositionedError) -> Void
  ) {
    reader = ReviewRecordReader(
      recordsField: recordsField, contentField: contentField, report: structureProblem)
    self.shape = shape
    options = Options(
      decompose: decompose, plainKeys: plainKeys, search: search,
      // The keys are made from NFC (NFD content gives the same keys); without
      // ICU's tables, from the content as it is.
      searchNormalizer: search.isEmpty ? nil : try? UnicodeNormalizer(.nfc),
      relativeTime: relativeTime, contentField: contentField,
      contentFieldBytes: Array(contentField.utf8), timeZone: timeZone)
    reports = Reports(skip: skip, memberLeftOut: memberLeftOut)
    if let format = shape.tableFormat(dialect: .sqlite) {
      tableWriter = table ?? ReviewTableWriter(format: format)
    }
  }

  package mutating func beginInput(named name: String) {
    // Moved out, not copied: a copy would share the record buffer and copy it at every append.
    var reader = ReviewRecordReader.placeholder
    swap(&reader, &self.reader)
    reader.beginInput(named: name) { handle($0, in: $1, into: &$2) }
    swap(&reader, &self.reader)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    // Moved out, not copied: a copy would share the record buffer and copy it at every append.
    var reader = ReviewRecordReader.placeholder
    swap(&reader, &self.reader)
    reader.read(chunk, into: &output) { handle($0, in: $1, into: &$2) }
    swap(&reader, &self.reader)
  }

  public mutating func finish(into output: inout [UInt8]) {
    // Moved out, not copied: a copy would share the record buffer and copy it at every append.
    var reader = ReviewRecordReader.placeholder
    swap(&reader, &self.reader)
    reader.finish(into: &output) { handle($0, in: $1, into: &$2) }
    swap(&reader, &self.reader)
    if shape == .api {
      output.append(contentsOf: Array((recordsExported == 0 ? "{\"data\":[" : "\n").utf8))
      output.append(contentsOf: Array("]}\n".utf8))
    }
    tableWriter?.finish(into: &output)
  }

  private mutating func handle(
    _ raw: JSONRecordSplitter.Record, in fileName: String, into output: inout [UInt8]
  ) {
    // Table rows of records that pass the checks need no parsed value: the
    // splitter checked the JSON and found the members.
    if tableWriter != nil, options.decompose == nil, options.relativeTime == nil,
      options.search.isEmpty
    {
      do throws(ReviewRecord.Problem) {
        _ = try ReviewRecord.check(
          raw, contentField: options.contentField, contentFieldBytes: options.contentFieldBytes,
          timeZone: options.timeZone)
      } catch {
        recordsSkipped += 1
        reports.skip(
          PositionedError(
            file: fileName, line: error.line, column: error.column,
            message: "record \(raw.index) skipped: \(error.reason)"))
        return
      }
      let problem = tableWriter?.write(raw.bytes, members: raw.members, into: &output) ?? nil
      reportMembersLeftOut(of: raw, in: fileName)
      if let problem {
        recordsSkipped += 1
        reports.skip(
          PositionedError(
            file: fileName, line: raw.line, message: "record \(raw.index) skipped: \(problem)"))
      } else {
        recordsExported += 1
      }
      return
    }
    let record: ReviewRecord
    do {
      record = try ReviewRecord(raw, contentField: options.contentField, timeZone: options.timeZone)
    } catch {
      recordsSkipped += 1
      reports.skip(
        PositionedError(
          file: fileName, line: error.line, column: error.column,
          message: "record \(raw.index) skipped: \(error.reason)"))
      return
    }
    var content = record.content
    if let decompose = options.decompose {
      content = content.decomposed(to: decompose, plain: options.plainKeys)
    }
    switch shape {
    case .post:
      output.append(contentsOf: Array("{\"content\":\(JSONWriter.quoted(content))}\n".utf8))
    case .jsonl, .api, .csv, .tsv, .sql:
      var members: [(name: String, json: String)] = []
      if options.decompose != nil {
        members.append((options.contentField, JSONWriter.quoted(content)))
      }
      if !options.search.isEmpty {
        let text = options.searchNormalizer?.normalized(record.content) ?? record.content
        for key in options.search {
          members.append(
            (key.columnName(for: options.contentField), JSONWriter.quoted(key.key(of: text))))
        }
      }
      if let relativeTime = options.relativeTime, let date = record.date,
        let dateValue = record.dateValue
      {
        let json = relativeTime.description(of: date).map(JSONWriter.quoted) ?? Self.json(dateValue)
        members.append(("elapsed", json))
      }
      if tableWriter != nil {
        let problem = tableWriter?.write(raw.bytes, replacing: members, into: &output) ?? nil
        reportMembersLeftOut(of: raw, in: fileName)
        if let problem {
          recordsSkipped += 1
          reports.skip(
            PositionedError(
              file: fileName, line: raw.line, message: "record \(raw.index) skipped: \(problem)"))
          return
        }
      } else {
        if shape == .api {
          output.append(contentsOf: Array((recordsExported == 0 ? "{\"data\":[\n" : ",\n").utf8))
        }
        output.append(contentsOf: JSONRecordWriter.rewrite(raw.bytes, setting: members))
        if shape == .jsonl { output.append(0x0A) }
      }
    }
    recordsExported += 1
  }

  /// Reports each member of `raw` that the columns taken from the first record lack.
  private mutating func reportMembersLeftOut(of raw: JSONRecordSplitter.Record, in fileName: String)
  {
    guard let names = tableWriter?.takeMembersLeftOut(), !names.isEmpty else { return }
    for (name, offset) in names {
      membersLeftOut += 1
      if leftOutNames.count < Self.namesSuggested { leftOutNames.append(name) }
      let columns = (tableWriter?.columns ?? []).map(\.name) + leftOutNames
      let suggestion =
        leftOutNames.count < Self.namesSuggested
        ? "--columns " + columns.joined(separator: ",") : "--columns with every member to write"
      let place = raw.position(ofOffset: offset)
      reports.memberLeftOut(
        PositionedError(
          file: fileName, line: place.line, column: place.column,
          message:
            "record \(raw.index) has the member \(MessageExcerpt.quoted(name)), which has no "
            + "column (the columns are the first record's members): not written; write \(suggestion)"
        ))
    }
  }

  /// How many left-out members a message's --columns names.
  static let namesSuggested = 50

  /// A date value written back as JSON.
  private static func json(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): JSONWriter.quoted(text)
    case .number(let spelling): spelling
    default: "null"
    }
  }
}

extension ReviewExportFilter {
  /// What each record is read by (its content member, the time zone of its
  /// dates) and what is changed and added in it.
  fileprivate struct Options {
    let decompose: DecompositionForm?
    let plainKeys: Bool
    /// The search columns added for the content, and the NFC they are made from.
    let search: [ReviewSearchKey]
    let searchNormalizer: UnicodeNormalizer?
    let relativeTime: RelativeTime?
    let contentField: String
    let contentFieldBytes: [UInt8]
    let timeZone: ReviewTimeZone
  }

  /// Where a record that is skipped, and a member that has no column, are said.
  fileprivate struct Reports {
    let skip: (PositionedError) -> Void
    let memberLeftOut: (PositionedError) -> Void
  }
}
