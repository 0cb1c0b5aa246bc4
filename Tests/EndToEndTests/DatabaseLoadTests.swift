import Foundation
import Testing

/// `export --to csv|tsv|sql` loaded into real SQLite and PostgreSQL databases
/// with the commands the README shows, every value read back as hex and
/// compared byte for byte with the value the generated JSON holds.
@Suite("Loading exports into databases", .serialized)
struct DatabaseLoadTests {
  let reviews = Executable("hangul-reviews")

  /// The columns every load exports.
  static let columns = [
    "_id", "user.userName", "user", "content", "createdAt", "n", "isBuy", "parentReview", "likes",
    "theme",
  ]

  @Test(
    "SQLite: .import --csv and .read of --to sql keep every value",
    .enabled(
      if: DatabaseLoadTests.installed("sqlite3"),
      "sqlite3 is not installed (apt-get install sqlite3)")
  )
  func sqlite() throws {
    let data = try LoadData.generate()
    defer { try? FileManager.default.removeItem(at: data.folder) }
    try data.export(reviews, to: ["--to", "csv"], file: "reviews.csv")
    try data.export(reviews, to: ["--to", "sql", "--dialect", "sqlite"], file: "reviews.sql")
    let csv = try reviews.shell(
      "cd '\(data.folder.path)' && sqlite3 csv.db '.import --csv reviews.csv reviews'")
    #expect(csv.status == 0, "\(csv.stderr)")
    // SQLite's .import reads an empty field as an empty string: NULL is lost in CSV.
    data.compare(try sqliteRows(data.folder.appendingPathComponent("csv.db")), as: "SQLite csv") {
      $0 ?? []
    }
    let sql = try reviews.shell("cd '\(data.folder.path)' && sqlite3 sql.db '.read reviews.sql'")
    #expect(sql.status == 0 && sql.stderr.isEmpty, "\(sql.stderr)")
    data.compare(try sqliteRows(data.folder.appendingPathComponent("sql.db")), as: "SQLite sql") {
      $0
    }
  }

  @Test(
    "PostgreSQL: \\copy CSV HEADER, \\copy text and psql -f keep every value",
    .enabled(
      if: DatabaseLoadTests.postgresBin != nil,
      "PostgreSQL is not installed (apt-get install postgresql)")
  )
  func postgresql() throws {
    let data = try LoadData.generate()
    defer { try? FileManager.default.removeItem(at: data.folder) }
    // psql ends CSV data at a line that is only `\.`, even inside a quoted
    // field (see the man page): the CSV load gets data without such a line.
    let csvData = try LoadData.generate(loneBackslashDotLine: false)
    defer { try? FileManager.default.removeItem(at: csvData.folder) }
    try csvData.export(reviews, to: ["--to", "csv"], file: "reviews.csv")
    try data.export(reviews, to: ["--to", "tsv"], file: "reviews.tsv")
    try data.export(
      reviews, to: ["--to", "sql", "--dialect", "postgresql", "--table", "reviews_sql"],
      file: "reviews.sql")
    let cluster = try PostgresCluster(folder: data.folder.appendingPathComponent("pg"))
    defer { cluster.stop() }
    let definitions = Self.columns.map { "\"\($0)\" text" }.joined(separator: ", ")
    for table in ["reviews_csv", "reviews_tsv"] {
      try cluster.psql("-c 'CREATE TABLE \(table) (\(definitions))'")
    }
    try cluster.psql(#"-c "\copy reviews_csv FROM 'reviews.csv' CSV HEADER""#, in: csvData.folder)
    try cluster.psql(#"-c "\copy reviews_tsv FROM 'reviews.tsv'""#, in: data.folder)
    try cluster.psql("-f reviews.sql", in: data.folder)
    for (table, name) in [
      ("reviews_csv", "PostgreSQL csv"), ("reviews_tsv", "PostgreSQL tsv"),
      ("reviews_sql", "PostgreSQL sql"),
    ] {
      let values = Self.columns.map {
        "CASE WHEN \"\($0)\" IS NULL THEN 'N' ELSE 'V' || encode(convert_to(\"\($0)\", 'UTF8'), 'hex') END"
      }
      let query = data.folder.appendingPathComponent("\(table).query")
      try Data(
        "SELECT concat_ws(',', \(values.joined(separator: ", "))) FROM \(table) ORDER BY \"_id\" COLLATE \"C\";\n"
          .utf8
      )
      .write(to: query)
      let output = try cluster.psql("-At -f '\(query.path)'")
      (table == "reviews_csv" ? csvData : data).compare(Self.rows(output), as: name) { $0 }
    }
  }

  @Test("U+0000 skips its record unless --nul replace, in every table format")
  func nulRejected() throws {
    let data = try LoadData.generate(count: 60, largeContent: false)
    defer { try? FileManager.default.removeItem(at: data.folder) }
    for format in [["--to", "csv"], ["--to", "tsv"], ["--to", "sql", "--dialect", "postgresql"]] {
      let result = try reviews.run(
        ["export", "--columns", "_id,content"] + format + [data.input.path])
      #expect(result.status == 65)
      #expect(
        result.stderr.hasSuffix(
          "read 60 records, exported \(60 - data.recordsWithNUL), skipped \(data.recordsWithNUL)\n"),
        "\(result.stderr)")
      #expect(result.stderr.contains("\"content\" holds U+0000"))
      #expect(!result.stdout.contains(0))
      let replaced = try reviews.run(
        ["export", "--columns", "_id,content", "--nul", "replace"] + format + [data.input.path])
      #expect(replaced.status == 0)
      #expect(
        replaced.stderr.hasSuffix(
          "exported 60, skipped 0, U+0000 replaced in \(data.recordsWithNUL) values\n"),
        "\(replaced.stderr)")
      #expect(replaced.text.contains("nul\u{FFFD}inside\u{FFFD}"))
    }
  }

  /// Rows of `N` (NULL) or `V` + hex fields, separated by commas, one a line.
  static func rows(_ text: String) -> [[[UInt8]?]] {
    text.split(separator: "\n").map { line in
      line.split(separator: ",", omittingEmptySubsequences: false).map { field in
        guard field.first == "V" else { return nil }
        return hexBytes(field.dropFirst())
      }
    }
  }

  static func hexBytes(_ hex: Substring) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(hex.utf8.count / 2)
    var high: UInt8?
    for unit in hex.utf8 {
      let digit = unit <= 0x39 ? unit - 0x30 : (unit | 0x20) - 0x61 + 10
      if let first = high {
        bytes.append(first << 4 | digit)
        high = nil
      } else {
        high = digit
      }
    }
    return bytes
  }

  func sqliteRows(_ database: URL) throws -> [[[UInt8]?]] {
    let values = Self.columns.map {
      "CASE WHEN \"\($0)\" IS NULL THEN 'N' ELSE 'V' || hex(\"\($0)\") END"
    }
    let query = "SELECT \(values.joined(separator: " || ',' || ")) FROM reviews ORDER BY rowid;"
    let queryFile = database.appendingPathExtension("query")
    try Data(query.utf8).write(to: queryFile)
    let result = try reviews.shell("sqlite3 '\(database.path)' < '\(queryFile.path)'")
    #expect(result.status == 0, "\(result.stderr)")
    return Self.rows(result.text)
  }

  static func installed(_ program: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
    }
  }

  /// The newest installed PostgreSQL's bin folder.
  static var postgresBin: String? {
    let base = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
    guard let newest = versions.max(by: { (Int($0) ?? 0) < (Int($1) ?? 0) }) else { return nil }
    let bin = "\(base)/\(newest)/bin"
    return FileManager.default.isExecutableFile(atPath: "\(bin)/initdb") ? bin : nil
  }
}

/// Generated review records with every hard case, and the value each column must read back as.
struct LoadData {
  let folder: URL
  let input: URL
  /// Per record, per column of ``DatabaseLoadTests/columns``: the bytes, or nil for NULL.
  let expected: [[[UInt8]?]]
  let recordsWithNUL: Int

  static let hardTexts: [String] = [
    "he said \"hi\", then left", "tab\there\tand there", "crlf\r\nline two\r\n", "lone\rcr\r",
    "back\\slash \\N \\. \\\\ \\t", "\\.", "line\n\\.\nafter", "nul\u{0}inside\u{0}", "",
    "👨‍👩‍👧‍👦 ❤️ 👍🏽 ⭐️ 🏳️‍🌈",
    "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF} NFD 한글", "'single'; DROP TABLE reviews; --",
    "first\n.import x y\n#comment\n\\copy x\n/\ngo\n", "  spaced  ", "NULL", "\\N",
    "\u{1}\u{1F}\u{7F} \u{2028}\u{2029}\u{FEFF}", "comma,only", "\"",
    "Rating: ⭐⭐⭐⭐⭐️\nReview: so cute",
    "\r\n\r\n\r\r\n\n", "semi;colon; 'quote' \"dq\" `bt` $1 :var",
  ]
  static let numbers = [
    "0", "-0", "1.50", "1e3", "-12.5E-7", "12345678901234567890123",
    "3.14159265358979323846264338327950288", "0.000001",
  ]

  static func generate(
    count: Int = 3000, largeContent: Bool = true, loneBackslashDotLine: Bool = true
  ) throws -> LoadData {
    let folder = try temporaryFolder()
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
    var json = "{\"data\": [\n"
    var expected: [[[UInt8]?]] = []
    var withNUL = 0
    for index in 0..<count {
      let escapeAll = index % 2 == 1
      let id = String(format: "r%05d", index)
      var content = hardTexts[index % hardTexts.count] + " #\(index)"
      if !loneBackslashDotLine {
        content = content.replacingOccurrences(of: "\n\\.\n", with: "\n\\.x\n")
      }
      if largeContent, index == 7 {
        content = String(repeating: "한국어 문장입니다.\r\n\"인용\", 쉼표\t탭\\ 😀 ", count: 22_000)
      }
      var userName = hardTexts[(index * 7 + 3) % hardTexts.count]
      if !loneBackslashDotLine {
        userName = userName.replacingOccurrences(of: "\n\\.\n", with: "\n\\.x\n")
      }
      let number = numbers[index % numbers.count]
      let userCompact = "{\"_id\":\"u\(index)\",\"userName\":\(encode(userName, escapeAll))}"
      let userSpaced =
        "{ \"_id\" : \"u\(index)\",\n    \"userName\": \(encode(userName, escapeAll)) }"
      let likes = "[{\"a\":\"\\u00e9\\n\"},2,[true,null],\"x\"]"
      let likesSpaced = "[ {\"a\" : \"\\u00e9\\n\"}, 2, [ true, null ], \"x\" ]"
      let hasTheme = index % 3 != 0
      var members = [
        "\"_id\": \"\(id)\"", "\"user\": \(userSpaced)",
        "\"content\": \(encode(content, escapeAll))",
        "\"createdAt\": \"2022-07-21T11:53:58.652Z\"", "\"n\": \(number)",
        "\"isBuy\": \(index % 2 == 0)", "\"parentReview\": null", "\"likes\": \(likesSpaced)",
      ]
      if hasTheme { members.append("\"theme\": \(encode("테마 \"\(index)\"", escapeAll))") }
      json += (index == 0 ? "  " : ",\n  ") + "{" + members.joined(separator: ", ") + "}"
      let replaced = { (text: String) -> [UInt8]? in
        Array(text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}").utf8)
      }
      if content.contains("\u{0}") { withNUL += 1 }
      expected.append([
        Array(id.utf8), replaced(userName), Array(userCompact.utf8), replaced(content),
        Array("2022-07-21T11:53:58.652Z".utf8), Array(number.utf8),
        Array((index % 2 == 0 ? "true" : "false").utf8), nil, Array(likes.utf8),
        hasTheme ? Array("테마 \"\(index)\"".utf8) : nil,
      ])
    }
    json += "\n]}\n"
    let input = folder.appendingPathComponent("reviews.json")
    try Data(json.utf8).write(to: input)
    return LoadData(folder: folder, input: input, expected: expected, recordsWithNUL: withNUL)
  }

  /// `text` as a JSON string; with `escapeAll`, every non-ASCII character as `\u` escapes.
  static func encode(_ text: String, _ escapeAll: Bool) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n" where !escapeAll: result += "\\n"
      case "\r" where !escapeAll: result += "\\r"
      case "\t" where !escapeAll: result += "\\t"
      case _
      where scalar.value < 0x20 || scalar.value == 0x7F || (escapeAll && scalar.value > 0x7F):
        for unit in String(scalar).utf16 { result += String(format: "\\u%04x", unit) }
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// Exports the data with `--nul replace` and the columns of the tests into `file`.
  func export(_ reviews: Executable, to format: [String], file: String) throws {
    let columns = DatabaseLoadTests.columns.joined(separator: ",")
    let result = try reviews.shell(
      "cd '\(folder.path)' && \"$EXE\" export \(format.joined(separator: " ")) --columns \(columns) --nul replace reviews.json > \(file)"
    )
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// Compares rows read back (in record order) with the expected values;
  /// `expect` maps an expected value to what the load keeps of it.
  func compare(_ rows: [[[UInt8]?]], as name: String, _ expect: ([UInt8]?) -> [UInt8]?) {
    var compared = 0
    var mismatches = 0
    for (row, values) in zip(rows, expected) {
      for (column, value) in DatabaseLoadTests.columns.indices.map({ ($0, values[$0]) }) {
        compared += 1
        let got = column < row.count ? row[column] : nil
        if got != expect(value) {
          mismatches += 1
          if mismatches <= 3 {
            Issue.record(
              "\(name): record \(String(decoding: values[0] ?? [], as: UTF8.self)) column \(DatabaseLoadTests.columns[column]): got \(got.map { String(decoding: $0.prefix(80), as: UTF8.self).debugDescription } ?? "NULL"), expected \(expect(value).map { String(decoding: $0.prefix(80), as: UTF8.self).debugDescription } ?? "NULL")"
            )
          }
        }
      }
    }
    print(
      "\(name): \(rows.count) of \(expected.count) records, \(compared) values compared, \(mismatches) mismatches"
    )
    #expect(rows.count == expected.count)
    #expect(mismatches == 0)
  }
}

/// A throwaway PostgreSQL cluster in a folder, as its own user (postgres when
/// run as root), on a Unix socket only.
struct PostgresCluster {
  let folder: URL
  let bin: String
  let port = 40_000 + Int(getpid() % 20_000)
  let asUser: String

  init(folder: URL) throws {
    self.folder = folder
    bin = DatabaseLoadTests.postgresBin ?? "/usr/lib/postgresql/15/bin"
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("socket"), withIntermediateDirectories: true)
    asUser = getuid() == 0 ? "runuser -u postgres -- " : ""
    if getuid() == 0 {
      try run("chown -R postgres '\(folder.path)'", asPostgres: false)
    }
    try run(
      "'\(bin)/initdb' --no-sync -A trust -U postgres -E UTF8 --locale=C -D '\(folder.path)/data' >/dev/null"
    )
    // The server must hold no pipe of ours: the test process leaves other
    // descriptors open in its children, so close every one above 2 first.
    try run(
      "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done; "
        + asUser
        + "'\(bin)/pg_ctl' -D '\(folder.path)/data' -l '\(folder.path)/log' -w -o \"-c listen_addresses='' -k '\(folder.path)/socket' -p \(port) -c fsync=off\" start >'\(folder.path)/pg_ctl.out' 2>&1",
      asPostgres: false)
  }

  /// Runs psql with `arguments` against the cluster's postgres database; returns its output.
  @discardableResult
  func psql(_ arguments: String, in directory: URL? = nil) throws -> String {
    let cd = directory.map { "cd '\($0.path)' && " } ?? ""
    return try run(
      "\(cd)\(asUser)env PGCLIENTENCODING=UTF8 psql -X -q -v ON_ERROR_STOP=1 -h '\(folder.path)/socket' -p \(port) -U postgres -d postgres \(arguments)",
      asPostgres: false)
  }

  func stop() {
    _ = try? run("'\(bin)/pg_ctl' -D '\(folder.path)/data' -m immediate -w stop >/dev/null 2>&1")
  }

  @discardableResult
  private func run(_ command: String, asPostgres: Bool = true) throws -> String {
    let result = try Executable("hangul-reviews").shell((asPostgres ? asUser : "") + command)
    guard result.status == 0 else {
      struct Failed: Error, CustomStringConvertible { var description: String }
      throw Failed(description: "\(command): status \(result.status): \(result.stderr)")
    }
    return result.text
  }
}
