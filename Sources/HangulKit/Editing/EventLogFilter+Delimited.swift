/// The research loggers' delimited files (``DelimitedLogFormat``) replayed
/// through the event log's editor and documents: each input's first line
/// names the columns, each record after it is one event (hangul-keylog(5)).
extension EventLogFilter {
  /// Where a delimited log stands.
  struct DelimitedLog {
    let format: DelimitedLogFormat
    /// The header line of the input at hand, until it has ended.
    var header: [UInt8] = []
    /// The records after it; `nil` until the header names the columns.
    var records: DelimitedRecordReader?
    /// The index of each required column (``DelimitedLogFormat/requiredColumns``
    /// order), and of the optional time column of snapshots.
    var columns: [Int] = []
    var timeColumn: Int?
    /// Whether the input's header lacked a column (reported once; its records are skipped).
    var unusable = false
    /// The field's texts of a snapshot log.
    var snapshots = FieldSnapshots()

    init(format: DelimitedLogFormat) {
      self.format = format
    }
  }

  mutating func beginDelimitedInput() {
    finishDelimitedRecord()
    delimited?.header.removeAll()
    delimited?.records = nil
    delimited?.unusable = false
  }

  /// Reads a block of a delimited log: the header line first, then records.
  mutating func readDelimited(_ chunk: UnsafeBufferPointer<UInt8>) {
    var start = 0
    while start < chunk.count {
      // Read in place (no copy of the reader's buffers).
      guard let (next, ended) = delimited?.records?.read(chunk, from: start) else {
        let end = chunk[start...].firstIndex(of: 0x0A)
        delimited?.header += chunk[start..<(end ?? chunk.count)]
        start = end.map { $0 + 1 } ?? chunk.count
        if end != nil { takeHeader() }
        continue
      }
      start = next
      if ended { takeDelimitedRecord() }
    }
  }

  /// Ends the record or header line the input ended without its line break.
  mutating func finishDelimitedRecord() {
    guard let log = delimited else { return }
    if log.records == nil, !log.header.isEmpty {
      takeHeader()
    } else if delimited?.records?.finish() == true {
      takeDelimitedRecord()
    }
  }

  /// Reads the column names of the header line.
  private mutating func takeHeader() {
    guard var log = delimited else { return }
    place.lineNumber = 0
    let header = log.header
    log.header.removeAll()
    let (names, delimiter) = DelimitedLogFormat.headerNames(of: header) ?? ([], 0x09)
    let missing = log.format.requiredColumns.filter { !names.contains($0) }
    log.records = DelimitedRecordReader(
      delimiter: delimiter, quoting: log.format.quoting(delimiter: delimiter),
      limit: editor.maximumLineLength)
    log.records?.clearRecord()
    log.records?.skipLines(1)
    log.unusable = !missing.isEmpty
    log.columns = log.format.requiredColumns.map { names.firstIndex(of: $0) ?? 0 }
    log.timeColumn = log.format == .snapshots ? names.firstIndex(of: "TIMESTAMP") : nil
    delimited = log
    if !missing.isEmpty {
      fail(
        "the header line has no column \(missing.joined(separator: ", ")): a \(log.format.rawValue) log needs \(log.format.requiredColumns.joined(separator: ", ")) (see hangul-keylog(5)); its records are skipped",
        at: 1)
    }
  }

  /// Takes the record just read: reports it when it is not valid, else replays it.
  private mutating func takeDelimitedRecord() {
    // The parts it uses, not the whole log (a copy of its snapshots cost a quarter of the time).
    guard var records = delimited?.records, let format = delimited?.format,
      let columns = delimited?.columns, let unusable = delimited?.unusable
    else { return }
    let timeColumn = delimited?.timeColumn
    delimited?.records = nil
    defer {
      records.clearRecord()
      delimited?.records = records
    }
    place.lineNumber = records.recordLine - 1
    if let rejection = records.takeRejection() {
      place.lineNumber = rejection.line - 1
      return fail(rejection.message, at: rejection.column)
    }
    if unusable { return }
    // A blank line is no record.
    if records.fieldCount == 1, records.field(0).allSatisfy({ $0 == " " || $0 == "\r" }) {
      return
    }
    let needed = max(columns.max() ?? 0, timeColumn ?? 0)
    guard records.fieldCount > needed else {
      return fail(
        "a record has \(records.fieldCount) fields where the header names \(needed + 1) or more",
        at: records.columns.last ?? 1)
    }
    let fields = columns.map { records.field($0) }
    let fieldColumns = columns.map { records.columns[$0] }
    switch format {
    case .snapshots:
      let time = timeColumn.map { (records.field($0), records.columns[$0]) }
      takeSnapshot(section: fields[0], text: fields[1], time: time)
    case .aalto:
      takeAaltoKeystroke(fields, columns: fieldColumns)
    case .lwp:
      takeWritingProcessEvent(fields, columns: fieldColumns)
    }
  }

  /// A number of milliseconds from a field (`nil` when it is empty), or
  /// `.failure` (reported) when it is not one.
  mutating func milliseconds(_ field: String, named name: String, at column: Int) -> Double?? {
    let spelling = field.trimmingSpaces()
    if spelling.isEmpty { return .some(nil) }
    guard let time = Double(spelling), time.isFinite else {
      fail(
        "\(name) must be a number of milliseconds, not \(JSONWriter.quoted(String(spelling.prefix(40))))",
        at: column)
      return nil
    }
    return .some(time)
  }

  /// The name of a document as the log spelled it: a number when it is an integer.
  static func documentName(_ field: String) -> DocumentName {
    let isInteger =
      !field.isEmpty
      && field.utf8.enumerated().allSatisfy {
        (0x30...0x39).contains($0.element)
          || ($0.offset == 0 && $0.element == 0x2D && field.count > 1)
      }
    return isInteger ? .number(field) : .string(field)
  }

  /// The object `--output keystrokes` takes a record's time from.
  static func timed(_ time: Double?, spelled spelling: String) -> JSONValue {
    guard time != nil else { return .object([]) }
    return .object([JSONValue.Member("t", .number(spelling.trimmingSpaces()))])
  }

  /// A snapshot record: the field's text after the event (``FieldSnapshots``).
  private mutating func takeSnapshot(section: String, text: String, time: (String, Int)?) {
    var when: Double?
    if let (spelling, column) = time {
      guard let parsed = milliseconds(spelling, named: "TIMESTAMP", at: column) else { return }
      when = parsed
    }
    let name = Self.documentName(section)
    if name != documents.current || !documents.started {
      enter(name, at: when)
      delimited?.snapshots.startDocument()
    } else {
      enter(name, at: when)
    }
    // Changed in place: a copy of it a record cost a fifth of the time.
    guard
      let edit = delimited?.snapshots.change(
        to: Array(text.unicodeScalars), preedit: editor.context.preeditString, stream: &browser,
        context: editor.context)
    else { return }
    if edit.move != 0 {
      keystrokes?.flush()
      for _ in 0..<abs(edit.move) { editor.move(edit.move < 0 ? .left : .right) }
    }
    perform(edit.steps, of: Self.timed(when, spelled: time?.0 ?? ""), at: when)
  }
}

extension String {
  /// The string without spaces (U+0020) at either end: the padding of a
  /// delimited log's number fields. Trimmed by bytes, not by `Character`:
  /// a combining mark after a space makes the two one `Character`, which
  /// is not a space, so that space would stay.
  ///
  ///     " 12 ".trimmingSpaces()          // "12"
  ///     " \u{301}12".trimmingSpaces()    // "\u{301}12"
  ///
  /// O(n) in the spaces; no new string when there are none.
  func trimmingSpaces() -> String {
    let bytes = utf8
    // Most fields have none.
    guard bytes.first == 0x20 || bytes.last == 0x20 else { return self }
    guard let first = bytes.firstIndex(where: { $0 != 0x20 }),
      let last = bytes.lastIndex(where: { $0 != 0x20 })
    else { return "" }
    // Both ends are next to a space or at an end of the string: on scalar boundaries.
    return String(self[first..<bytes.index(after: last)])
  }
}
