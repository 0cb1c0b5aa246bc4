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
  private var started = false
  private var rowsInStatement = 0
  private var statementBytes = 0
  private var cells: [[UInt8]] = []
  private var cellIsNull: [Bool] = []

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
  public mutating func write(
    _ record: [UInt8], replacing members: [(name: String, json: String)] = [],
    index: JSONMemberIndex? = nil, into output: inout [UInt8]
  ) -> String? {
    let memberIndex = index ?? JSONMemberIndex(record)
    if columns == nil {
      var names: [[UInt8]] = []
      for member in memberIndex.members {
        var name: [UInt8] = []
        JSONTokenText.appendDecodedString(record[member.name], to: &name)
        if !names.contains(name) { names.append(name) }
      }
      for member in members where !names.contains(Array(member.name.utf8)) {
        names.append(Array(member.name.utf8))
      }
      columns = names.map(Column.init(memberName:))
      columnProblem = Self.problem(with: names, format: format)
    }
    if let columnProblem { return columnProblem }
    let columns = self.columns ?? []
    if cells.count != columns.count {
      cells = Array(repeating: [], count: columns.count)
      cellIsNull = Array(repeating: false, count: columns.count)
    }
    for (index, column) in columns.enumerated() {
      cells[index].removeAll(keepingCapacity: true)
      var token: ArraySlice<UInt8>?
      if !members.isEmpty, let first = column.path.first,
        let member = members.first(where: { $0.name.utf8.elementsEqual(first) })
      {
        let json = Array(member.json.utf8)
        if column.path.count == 1 {
          token = json[...]
        } else if let range = JSONTokenText.valueRange(of: Array(column.path.dropFirst()), in: json)
        {
          token = json[range]
        }
      } else if let range = memberIndex.valueRange(of: column.path, in: record) {
        token = record[range]
      }
      cellIsNull[index] = !Self.appendCell(token, to: &cells[index])
    }
    var replaced = 0
    for index in cells.indices where cells[index].contains(0) {
      guard nulPolicy == .replace else {
        return
          "\(JSONWriter.quoted(columns[index].name)) holds U+0000, which database text cannot hold (--nul replace writes U+FFFD)"
      }
      cells[index] = cells[index].flatMap { $0 == 0 ? [0xEF, 0xBF, 0xBD] : [$0] }
      replaced += 1
    }
    valuesWithNULReplaced += replaced
    if !started { begin(into: &output) }
    writeRow(into: &output)
    return nil
  }

  /// Ends the output: the header or table when no record came, the open statement, the transaction.
  public mutating func finish(into output: inout [UInt8]) {
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
      let quoted = JSONWriter.quoted(String(decoding: name, as: UTF8.self))
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
        Self.appendCSVField(Array(name.utf8), to: &output)
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

  private mutating func writeRow(into output: inout [UInt8]) {
    switch format {
    case .csv:
      for index in cells.indices {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        if cellIsNull[index] { continue }
        // An empty string is quoted: PostgreSQL reads an unquoted empty field as NULL.
        if cells[index].isEmpty {
          output.append(contentsOf: [0x22, 0x22])
        } else {
          Self.appendCSVField(cells[index], to: &output)
        }
      }
      output.append(contentsOf: [0x0D, 0x0A])
    case .tsv:
      for index in cells.indices {
        if index > 0 { output.append(0x09) }
        if cellIsNull[index] {
          output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
        } else {
          Self.appendCopyTextField(cells[index], to: &output)
        }
      }
      output.append(0x0A)
    case .sql(let dialect):
      let start = output.count
      if rowsInStatement == 0 {
        let names = (columns ?? []).map { Self.identifier($0.name) }.joined(separator: ", ")
        output.append(
          contentsOf: Array("INSERT INTO \(Self.identifier(table)) (\(names)) VALUES\n(".utf8))
      } else {
        output.append(contentsOf: Array(",\n(".utf8))
      }
      for index in cells.indices {
        if index > 0 { output.append(contentsOf: [UInt8(ascii: ","), 0x20]) }
        if cellIsNull[index] {
          output.append(contentsOf: Array("NULL".utf8))
        } else {
          Self.appendSQLLiteral(cells[index], dialect: dialect, to: &output)
        }
      }
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

  /// A CSV field, quoted when it holds a quote, comma, CR or LF, or starts
  /// with a backslash (so that PostgreSQL never reads `\.` as the end of data).
  static func appendCSVField(_ text: [UInt8], to output: inout [UInt8]) {
    let needsQuotes =
      text.first == UInt8(ascii: "\\")
      || text.contains { $0 == 0x22 || $0 == 0x2C || $0 == 0x0D || $0 == 0x0A }
    guard needsQuotes else {
      output.append(contentsOf: text)
      return
    }
    output.append(0x22)
    var runStart = 0
    for (index, byte) in text.enumerated() where byte == 0x22 {
      output.append(contentsOf: text[runStart...index])
      output.append(0x22)
      runStart = index + 1
    }
    output.append(contentsOf: text[runStart...])
    output.append(0x22)
  }

  /// A field of PostgreSQL's COPY text format: backslash, tab, LF and CR escaped.
  static func appendCopyTextField(_ text: [UInt8], to output: inout [UInt8]) {
    var runStart = 0
    for (index, byte) in text.enumerated() {
      let escape: UInt8
      switch byte {
      case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
      case 0x09: escape = UInt8(ascii: "t")
      case 0x0A: escape = UInt8(ascii: "n")
      case 0x0D: escape = UInt8(ascii: "r")
      default: continue
      }
      output.append(contentsOf: text[runStart..<index])
      output.append(contentsOf: [UInt8(ascii: "\\"), escape])
      runStart = index + 1
    }
    output.append(contentsOf: text[runStart...])
  }

  /// A string literal. SQLite: `'…'`, or, for text with a CR (which the
  /// sqlite3 shell drops before a line end), `CAST(X'…' AS TEXT)`.
  /// PostgreSQL: `'…'`, or `E'…'` with `\r`, `\n` and `\\` for text with a CR or LF.
  static func appendSQLLiteral(_ text: [UInt8], dialect: SQLDialect, to output: inout [UInt8]) {
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
        output.append(contentsOf: text[runStart...index])
        output.append(0x27)
        runStart = index + 1
      }
      output.append(contentsOf: text[runStart...])
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
