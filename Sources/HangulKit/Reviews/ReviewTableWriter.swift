/// Writes review records as rows of a table for bulk loading: CSV (RFC 4180),
/// PostgreSQL's COPY text format, or SQL statements for SQLite or PostgreSQL.
///
///     var writer = ReviewTableWriter(format: .csv, columns: ["_id", "user.userName"])
///     var output: [UInt8] = []
///     _ = writer.write(Array(#"{"_id":"a1","user":{"userName":"민지, \"M\""}}"#.utf8), into: &output)
///     // _id,user.userName\r\na1,"민지, ""M"""\r\n
///
/// Each column is a member path (`user.userName`); a string is written as its
/// text, a number as it was spelled, `true`/`false` as such, an object or an
/// array as its JSON text (compacted, escapes kept), and `null` or a missing
/// member as NULL. U+0000, which neither database keeps in text, rejects the
/// record unless ``NULPolicy/replace`` says to write U+FFFD.
///
/// Time is O(n) in each record; memory is one record.
public struct ReviewTableWriter: Sendable {
  /// The kind of output.
  public enum Format: Sendable, Equatable {
    /// RFC 4180 with a header row and CRLF line ends.
    case csv
    /// PostgreSQL COPY text format: tabs between fields, `\N` for NULL, backslash escapes.
    case tsv
    /// `CREATE TABLE IF NOT EXISTS` and multi-row `INSERT`s in one transaction.
    case sql(SQLDialect)
  }

  /// What happens to U+0000 in a value.
  public enum NULPolicy: String, Sendable, CaseIterable {
    /// The record is not written; ``write(_:replacing:into:)`` says why.
    case reject
    /// Each U+0000 is written as U+FFFD.
    case replace
  }

  /// A member path such as `user.userName`.
  public struct Column: Sendable, Equatable {
    /// The path as given; the column's name.
    public var name: String
    var path: [[UInt8]]

    /// A dotted path: `user.userName` is member `userName` of member `user`.
    public init(path: String) {
      name = path
      self.path = path.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        .map(Array.init)
    }

    /// One top-level member, whatever its name holds.
    init(memberName: [UInt8]) {
      name = String(decoding: memberName, as: UTF8.self)
      path = [memberName]
    }
  }

  /// The largest number of rows in one `INSERT`.
  static let rowsPerInsert = 500
  /// An `INSERT` ends after the row that takes it past this many bytes.
  static let bytesPerInsert = 1 << 20

  public let format: Format
  public let table: String
  public let nulPolicy: NULPolicy
  /// The columns, once known (given, or taken from the first record).
  public private(set) var columns: [Column]?
  /// How many values had U+0000 replaced.
  public private(set) var valuesWithNULReplaced = 0

  /// Why the columns taken from the first record cannot be written, if they cannot.
  private var columnProblem: String?
  /// Members that later records add to those the columns were taken from.
  private var watch: ReviewColumnWatch?
  private var started = false
  private var rowsInStatement = 0
  private var statementBytes = 0
  /// A value's text when it is not the record's bytes as they are (decoded, compacted).
  private var scratch: [UInt8] = []

  /// The top-level members that records after the first added, with the
  /// offset of each name in its record, since the last call: when the columns
  /// were taken from the first record, these have none and are not written.
  package mutating func takeMembersLeftOut() -> [(name: String, offset: Int)] {
    (watch?.take() ?? []).map { (String(decoding: $0.name, as: UTF8.self), $0.offset) }
  }

  /// A writer; with `columns` nil, the top-level members of the first record are the columns.
  public init(
    format: Format, columns: [String]? = nil, table: String = "reviews", nul: NULPolicy = .reject
  ) {
    self.format = format
    self.columns = columns?.map(Column.init(path:))
    self.table = table
    self.nulPolicy = nul
  }

  /// Writes one record (valid JSON), with the top-level members in
  /// `replacing` given new JSON values (added when missing); returns why the
  /// record was not written, or nil.
  package mutating func write(
    _ record: [UInt8], replacing members: [(name: String, json: String)] = [],
    index: JSONMemberIndex? = nil, into output: inout [UInt8]
  ) -> String? {
    let topLevel = (index ?? JSONMemberIndex(record)).members.map {
      JSONRecordSplitter.Member(name: $0.name, value: $0.value)
    }
    return write(record, members: topLevel, replacing: members, into: &output)
  }

  /// Writes one record (valid JSON) whose top-level members are `members`
  /// (as ``JSONRecordSplitter`` found them), straight into `output`: each
  /// column's value is found from the member list, a string without escapes
  /// is copied from the record as it is, and nothing is built per record.
  mutating func write(
    _ record: [UInt8], members: [JSONRecordSplitter.Member],
    replacing replacements: [(name: String, json: String)] = [], into output: inout [UInt8]
  ) -> String? {
    if columns == nil {
      var names: [[UInt8]] = []
      for member in members {
        var name: [UInt8] = []
        JSONTokenText.appendDecodedString(record[member.name], to: &name)
        if !names.contains(name) { names.append(name) }
      }
      for member in replacements where !names.contains(Array(member.name.utf8)) {
        names.append(Array(member.name.utf8))
      }
      columns = names.map(Column.init(memberName:))
      columnProblem = Self.problem(with: names, format: format)
      watch = ReviewColumnWatch(record, members: members, columns: names)
    } else if columnProblem == nil {
      watch?.check(record, members: members)
    }
    if let columnProblem { return columnProblem }
    guard let columns else { return nil }
    if !started { begin(into: &output) }
    let rowStart = output.count
    beginRow(into: &output)
    for (index, column) in columns.enumerated() {
      if index > 0 { appendSeparator(into: &output) }
      let written: Bool
      if !replacements.isEmpty, let first = column.path.first,
        let member = replacements.first(where: { $0.name.utf8.elementsEqual(first) })
      {
        let json = Array(member.json.utf8)
        let range =
          column.path.count == 1
          ? 0..<json.count : JSONTokenText.valueRange(of: Array(column.path.dropFirst()), in: json)
        written = appendField(json, range, into: &output)
      } else {
        written = appendField(
          record, Self.valueRange(of: column.path, members: members, in: record), into: &output)
      }
      guard written else {
        output.removeSubrange(rowStart...)
        return
          "\(MessageExcerpt.quoted(column.name)) holds U+0000, which database text cannot hold (--nul replace writes U+FFFD)"
      }
    }
    endRow(startingAt: rowStart, into: &output)
    return nil
  }

  /// The range of the value at `path` (the first member of each name) in a
  /// record with these top-level members, or nil.
  static func valueRange(
    of path: [[UInt8]], members: [JSONRecordSplitter.Member], in record: [UInt8]
  ) -> Range<Int>? {
    guard !path.isEmpty else { return nil }
    var found: Range<Int>?
    for member in members where nameMatches(record, member.name, path[0]) {
      found = member.value
      break
    }
    guard var range = found else { return nil }
    var level = 1
    while level < path.count {
      guard let next = JSONTokenText.memberValueRange(named: path[level], in: record, within: range)
      else { return nil }
      range = next
      level += 1
    }
    return range
  }

  /// Whether the name token at `token` of `record` decodes to `wanted`: its
  /// bytes compared as they are when it can have no escape (an escape is
  /// longer than what it stands for), decoded otherwise.
  static func nameMatches(_ record: [UInt8], _ token: Range<Int>, _ wanted: [UInt8]) -> Bool {
    let length = token.count - 2
    if length < wanted.count { return false }
    return record.withUnsafeBufferPointer { bytes in
      wanted.withUnsafeBufferPointer { wantedBytes in
        let name = UnsafeBufferPointer(
          rebasing: bytes[(token.lowerBound + 1)..<(token.upperBound - 1)])
        if length == wantedBytes.count, !wantedBytes.contains(UInt8(ascii: "\\")) {
          // Same length: equal bytes, or an escape that would make it decode shorter.
          for index in 0..<length where name[index] != wantedBytes[index] { return false }
          return true
        }
        let backslash = ByteSearch.Needles(UInt8(ascii: "\\"))
        guard ByteSearch.firstIndex(in: name, from: 0, of: backslash) < length else {
          return length == wantedBytes.count && name.elementsEqual(wantedBytes)
        }
        var decoded: [UInt8] = []
        JSONTokenText.appendDecodedString(UnsafeBufferPointer(rebasing: bytes[token]), to: &decoded)
        return decoded.elementsEqual(wantedBytes)
      }
    }
  }

  /// Appends the field of the value at `range` of `source` (NULL for nil or
  /// `null`); returns false when it holds U+0000 and the policy rejects it.
  private mutating func appendField(
    _ source: [UInt8], _ range: Range<Int>?, into output: inout [UInt8]
  ) -> Bool {
    guard let range, let first = range.isEmpty ? nil : source[range.lowerBound],
      first != UInt8(ascii: "n")
    else {
      appendNull(into: &output)
      return true
    }
    let format = self.format
    switch first {
    case UInt8(ascii: "\""):
      let decoded = source.withUnsafeBufferPointer { bytes in
        let inner = UnsafeBufferPointer(
          rebasing: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)])
        let backslash = ByteSearch.Needles(UInt8(ascii: "\\"))
        guard ByteSearch.firstIndex(in: inner, from: 0, of: backslash) < inner.count else {
          // No escape: the text is the token's bytes (and cannot hold U+0000).
          Self.appendText(inner, format: format, to: &output)
          return false
        }
        scratch.removeAll(keepingCapacity: true)
        JSONTokenText.appendDecodedString(UnsafeBufferPointer(rebasing: bytes[range]), to: &scratch)
        return true
      }
      guard decoded else { return true }
      let holdsNUL = scratch.withUnsafeBufferPointer {
        ByteSearch.firstIndex(in: $0, from: 0, of: ByteSearch.Needles(0)) < $0.count
      }
      if holdsNUL {
        guard nulPolicy == .replace else { return false }
        var replaced: [UInt8] = []
        replaced.reserveCapacity(scratch.count + 8)
        for byte in scratch {
          if byte == 0 { replaced += [0xEF, 0xBF, 0xBD] } else { replaced.append(byte) }
        }
        scratch = replaced
        valuesWithNULReplaced += 1
      }
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      scratch.removeAll(keepingCapacity: true)
      JSONTokenText.appendCompacted(source[range], to: &scratch)
    default:
      source.withUnsafeBufferPointer {
        Self.appendText(UnsafeBufferPointer(rebasing: $0[range]), format: format, to: &output)
      }
      return true
    }
    scratch.withUnsafeBufferPointer { Self.appendText($0, format: format, to: &output) }
    return true
  }

  /// Ends the output: the header or table when no record came, the open statement, the transaction.
  package mutating func finish(into output: inout [UInt8]) {
    guard columns != nil else { return }
    if !started { begin(into: &output) }
    if case .sql = format {
      if rowsInStatement > 0 { output.append(contentsOf: Array(";\n".utf8)) }
      output.append(contentsOf: Array("COMMIT;\n".utf8))
    }
  }

  /// Why member names taken as column names cannot be written: U+0000 in a
  /// name, or a name PostgreSQL would cut to 63 bytes.
  static func problem(with names: [[UInt8]], format: Format) -> String? {
    for name in names {
      let quoted = MessageExcerpt.quoted(utf8: name)
      if name.contains(0) {
        return "the member name \(quoted) holds U+0000; name the columns with --columns"
      }
      if format == .sql(.postgresql), name.count > 63 {
        return
          "the member name \(quoted) is longer than the 63 bytes PostgreSQL keeps of a name; name the columns with --columns"
      }
    }
    return nil
  }

  /// The cell of a value token: false for NULL (null or missing).
  private static func appendCell(_ token: ArraySlice<UInt8>?, to cell: inout [UInt8]) -> Bool {
    guard let token, let first = token.first else { return false }
    switch first {
    case UInt8(ascii: "\""): JSONTokenText.appendDecodedString(token, to: &cell)
    case UInt8(ascii: "{"), UInt8(ascii: "["): JSONTokenText.appendCompacted(token, to: &cell)
    case UInt8(ascii: "n"): return false
    default: cell.append(contentsOf: token)
    }
    return true
  }

  private mutating func begin(into output: inout [UInt8]) {
    started = true
    let names = (columns ?? []).map(\.name)
    switch format {
    case .csv:
      for (index, name) in names.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        Array(name.utf8).withUnsafeBufferPointer { Self.appendCSVField($0, to: &output) }
      }
      output.append(contentsOf: [0x0D, 0x0A])
    case .tsv:
      break
    case .sql:
      let definitions = names.map { "\(Self.identifier($0)) text" }.joined(separator: ", ")
      output.append(
        contentsOf: Array(
          "BEGIN;\nCREATE TABLE IF NOT EXISTS \(Self.identifier(table)) (\(definitions));\n".utf8))
    }
  }

  /// What comes before a row's first field.
  private func beginRow(into output: inout [UInt8]) {
    guard case .sql = format else { return }
    if rowsInStatement == 0 {
      let names = (columns ?? []).map { Self.identifier($0.name) }.joined(separator: ", ")
      output.append(
        contentsOf: Array("INSERT INTO \(Self.identifier(table)) (\(names)) VALUES\n(".utf8))
    } else {
      output.append(contentsOf: [UInt8(ascii: ","), 0x0A, UInt8(ascii: "(")])
    }
  }

  /// What comes between two fields.
  @inline(__always)
  private func appendSeparator(into output: inout [UInt8]) {
    switch format {
    case .csv: output.append(UInt8(ascii: ","))
    case .tsv: output.append(0x09)
    case .sql: output.append(contentsOf: [UInt8(ascii: ","), 0x20])
    }
  }

  /// A NULL field.
  private func appendNull(into output: inout [UInt8]) {
    switch format {
    case .csv: break
    case .tsv: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
    case .sql: output.append(contentsOf: [0x4E, 0x55, 0x4C, 0x4C])
    }
  }

  /// What comes after a row's last field (the row started at `start` of `output`).
  private mutating func endRow(startingAt start: Int, into output: inout [UInt8]) {
    switch format {
    case .csv: output.append(contentsOf: [0x0D, 0x0A])
    case .tsv: output.append(0x0A)
    case .sql:
      output.append(UInt8(ascii: ")"))
      rowsInStatement += 1
      statementBytes += output.count - start
      if rowsInStatement >= Self.rowsPerInsert || statementBytes >= Self.bytesPerInsert {
        output.append(contentsOf: Array(";\n".utf8))
        rowsInStatement = 0
        statementBytes = 0
      }
    }
  }

  /// A field holding `text` (not NULL) in `format`.
  @inline(__always)
  static func appendText(
    _ text: UnsafeBufferPointer<UInt8>, format: Format, to output: inout [UInt8]
  ) {
    switch format {
    case .csv:
      // An empty string is quoted: PostgreSQL reads an unquoted empty field as NULL.
      if text.isEmpty {
        output.append(contentsOf: [0x22, 0x22])
      } else {
        appendCSVField(text, to: &output)
      }
    case .tsv: appendCopyTextField(text, to: &output)
    case .sql(let dialect): appendSQLLiteral(text, dialect: dialect, to: &output)
    }
  }

  static let csvSpecials = ByteSearch.Needles(0x22, 0x2C, 0x0D, 0x0A)
  static let quote = ByteSearch.Needles(0x22)
  static let copySpecials = ByteSearch.Needles(UInt8(ascii: "\\"), 0x09, 0x0A, 0x0D)

  /// A CSV field, quoted when it holds a quote, comma, CR or LF, or starts
  /// with a backslash (so that PostgreSQL never reads `\.` as the end of data).
  static func appendCSVField(_ text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    let needsQuotes =
      text.first == UInt8(ascii: "\\")
      || ByteSearch.firstIndex(in: text, from: 0, of: csvSpecials) < text.count
    guard needsQuotes else {
      output.append(contentsOf: text)
      return
    }
    output.append(0x22)
    var runStart = 0
    while true {
      let position = ByteSearch.firstIndex(in: text, from: runStart, of: quote)
      guard position < text.count else { break }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...position]))
      output.append(0x22)
      runStart = position + 1
    }
    output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
    output.append(0x22)
  }

  /// A field of PostgreSQL's COPY text format: backslash, tab, LF and CR escaped.
  static func appendCopyTextField(_ text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    var runStart = 0
    while true {
      let position = ByteSearch.firstIndex(in: text, from: runStart, of: copySpecials)
      output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<position]))
      guard position < text.count else { return }
      let escape: UInt8
      switch text[position] {
      case 0x09: escape = UInt8(ascii: "t")
      case 0x0A: escape = UInt8(ascii: "n")
      case 0x0D: escape = UInt8(ascii: "r")
      default: escape = UInt8(ascii: "\\")
      }
      output.append(contentsOf: [UInt8(ascii: "\\"), escape])
      runStart = position + 1
    }
  }

  /// A string literal. SQLite: `'…'`, or, for text with a CR (which the
  /// sqlite3 shell drops before a line end), `CAST(X'…' AS TEXT)`.
  /// PostgreSQL: `'…'`, or `E'…'` with `\r`, `\n` and `\\` for text with a CR or LF.
  static func appendSQLLiteral(
    _ text: UnsafeBufferPointer<UInt8>, dialect: SQLDialect, to output: inout [UInt8]
  ) {
    let hasCR = text.contains(0x0D)
    switch dialect {
    case .sqlite where hasCR:
      output.append(contentsOf: Array("CAST(X'".utf8))
      let digits = Array("0123456789ABCDEF".utf8)
      for byte in text {
        output.append(digits[Int(byte >> 4)])
        output.append(digits[Int(byte & 0x0F)])
      }
      output.append(contentsOf: Array("' AS TEXT)".utf8))
    case .postgresql where hasCR || text.contains(0x0A):
      output.append(contentsOf: [UInt8(ascii: "E"), 0x27])
      for byte in text {
        switch byte {
        case 0x27: output.append(contentsOf: [0x27, 0x27])
        case UInt8(ascii: "\\"):
          output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        default: output.append(byte)
        }
      }
      output.append(0x27)
    default:
      output.append(0x27)
      var runStart = 0
      for (index, byte) in text.enumerated() where byte == 0x27 {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...index]))
        output.append(0x27)
        runStart = index + 1
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
      output.append(0x27)
    }
  }

  /// A quoted SQL identifier: `"user.userName"`, quotes doubled.
  static func identifier(_ name: String) -> String {
    var result = "\""
    for scalar in name.unicodeScalars {
      if scalar == "\"" { result += "\"" }
      result.unicodeScalars.append(scalar)
    }
    return result + "\""
  }
}
