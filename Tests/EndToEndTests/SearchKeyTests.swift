import Foundation
import Testing

/// Search keys at load time (issue 32 item 2): `hangul-decompose --to
/// initials --split-clusters` and `hangul-reviews export --search`, loaded
/// into SQLite and PostgreSQL and found with `LIKE`.
@Suite("Search keys", .serialized)
struct SearchKeyTests {
  let decompose = Executable("hangul-decompose")
  let reviews = Executable("hangul-reviews")

  /// Text, and its initials with clusters split: every cluster, ㄲ and ㅘ
  /// kept, NFD syllables, conjoining jamo, ASCII, bytes kept.
  static let cases: [(String, String)] = [
    ("ㄳ ㄵ ㄶ ㄺ ㄻ ㄼ ㄽ ㄾ ㄿ ㅀ ㅄ", "ㄱㅅ ㄴㅈ ㄴㅎ ㄹㄱ ㄹㅁ ㄹㅂ ㄹㅅ ㄹㅌ ㄹㅍ ㄹㅎ ㅂㅅ"),
    ("ㄲ ㅘ ㄱ ㅏ", "ㄲ ㅘ ㄱ ㅏ"),
    ("안녕하세요 ㄻ", "ㅇㄴㅎㅅㅇ ㄹㅁ"),
    ("\u{1109}\u{1161}\u{11B7} 삶", "ㅅ ㅅ"),
    ("abc ㄻㄻ, 닭!", "abc ㄹㅁㄹㅁ, ㄷ!"),
  ]

  @Test("--split-clusters writes each cluster as its consonants, one line or many (fast path)")
  func splitClusters() throws {
    for (text, expected) in Self.cases {
      let result = try decompose.run(
        ["--to", "initials", "--split-clusters"], input: Data((text + "\n").utf8))
      #expect(result.status == 0)
      #expect(result.text == expected + "\n", "\(text)")
    }
    // Many lines: the table-driven loop takes the clusters.
    let text = Self.cases.map(\.0).joined(separator: "\n") + "\n"
    let expected = Self.cases.map(\.1).joined(separator: "\n") + "\n"
    let many = try decompose.run(
      ["--to", "initials", "--split-clusters"],
      input: Data(String(repeating: text, count: 5_000).utf8))
    #expect(many.text == String(repeating: expected, count: 5_000))
    // Without it, a cluster is kept: ㄻ is not ㄹㅁ.
    let kept = try decompose.run(["--to", "initials"], input: Data("ㄻ 라면\n".utf8))
    #expect(kept.text == "ㄻ ㄹㅁ\n")
    let usage = try decompose.run(["--to", "keys", "--split-clusters"], input: Data())
    #expect(usage.status == 64)
    #expect(usage.stderr.contains("--split-clusters only applies to --to initials"))
  }

  /// Reviews to find, and what each search column holds for them.
  static let records: [(content: String, initials: String, jamo: String, qwerty: String)] = [
    ("안녕하세요", "ㅇㄴㅎㅅㅇ", "ㅇㅏㄴㄴㅕㅇㅎㅏㅅㅔㅇㅛ", "dkssudgktpdy"),
    ("안녕", "ㅇㄴ", "ㅇㅏㄴㄴㅕㅇ", "dkssud"),
    ("dkssud 하세요", "dkssud ㅎㅅㅇ", "dkssud ㅎㅏㅅㅔㅇㅛ", "dkssud gktpdy"),
    ("ㅇㄴ", "ㅇㄴ", "ㅇㄴ", "ds"),
    ("아니요", "ㅇㄴㅇ", "ㅇㅏㄴㅣㅇㅛ", "dksldy"),
    ("오늘 날씨", "ㅇㄴ ㄴㅆ", "ㅇㅗㄴㅡㄹ ㄴㅏㄹㅆㅣ", "dhsmf skfTl"),
    ("ㄻ", "ㄹㅁ", "ㄻ", "fa"),
    ("라면, \"맛\"", "ㄹㅁ, \"ㅁ\"", "ㄹㅏㅁㅕㄴ, \"ㅁㅏㅅ\"", "fkaus, \"akt\""),
    ("hello", "hello", "hello", "hello"),
    ("\u{110B}\u{1161}\u{11AB}\u{1102}\u{1167}\u{11BC}", "ㅇㄴ", "ㅇㅏㄴㄴㅕㅇ", "dkssud"),
  ]

  /// The counts each query must find: initials, then qwerty keys.
  static let queries = [
    ("content_initials", "%ㅇㄴ%", 6), ("content_initials", "%ㄹㅁ%", 2),
    ("content_qwerty", "%dkssud%", 4), ("content_jamo", "%ㄴㅕㅇ%", 3),
  ]

  /// The records as JSON Lines in a new folder.
  static func input() throws -> (folder: URL, file: URL) {
    let folder = try temporaryFolder()
    let lines = try records.enumerated().map { index, record in
      let content = String(decoding: try JSONEncoder().encode(record.content), as: UTF8.self)
      return "{\"_id\":\"r\(index)\",\"content\":\(content),\"n\":\(index)}"
    }
    let file = folder.appendingPathComponent("reviews.jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
    return (folder, file)
  }

  @Test("export --search adds content_initials, content_jamo and content_qwerty")
  func exportColumns() throws {
    let (folder, file) = try Self.input()
    defer { try? FileManager.default.removeItem(at: folder) }
    let jsonl = try reviews.run(["export", "--search", "initials,jamo,qwerty", file.path])
    #expect(jsonl.status == 0, "\(jsonl.stderr)")
    let objects = try jsonl.text.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
    #expect(objects.count == Self.records.count)
    for (object, record) in zip(objects, Self.records) {
      #expect(object["content_initials"] as? String == record.initials, "\(record.content)")
      #expect(object["content_jamo"] as? String == record.jamo, "\(record.content)")
      #expect(object["content_qwerty"] as? String == record.qwerty, "\(record.content)")
      #expect(object["content"] as? String == record.content)
    }
    // --columns: the search columns it does not name follow its own.
    let csv = try reviews.run(
      [
        "export", "--to", "csv", "--columns", "_id,content", "--search", "qwerty,initials",
        file.path,
      ])
    #expect(
      csv.text.hasPrefix(
        "_id,content,content_qwerty,content_initials\r\nr0,안녕하세요,dkssudgktpdy,ㅇㄴㅎㅅㅇ\r\n"))
    for arguments in [
      ["--search", "initials,romaja"], ["--search", "jamo,jamo"],
      ["--to", "post", "--search", "jamo"],
      ["--search", ""],
    ] {
      let result = try reviews.run(["export"] + arguments + [file.path])
      #expect(result.status == 64, "\(arguments)")
    }
  }

  @Test(
    "SQLite: the CSV export loads with .import --csv and LIKE finds the expected rows",
    .enabled(if: DatabaseLoadTests.installed("sqlite3"), "sqlite3 is not installed")
  )
  func sqlite() throws {
    let (folder, file) = try Self.input()
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = try reviews.shell(
      "cd '\(folder.path)' && \"$EXE\" export --to csv --search initials,jamo,qwerty '\(file.path)' > reviews.csv && sqlite3 search.db '.import --csv reviews.csv reviews'"
    )
    #expect(csv.status == 0, "\(csv.stderr)")
    for (column, pattern, count) in Self.queries {
      let query = folder.appendingPathComponent("query.sql")
      try Data("SELECT count(*) FROM reviews WHERE \(column) LIKE '\(pattern)';\n".utf8).write(
        to: query)
      let result = try reviews.shell("sqlite3 '\(folder.path)/search.db' < '\(query.path)'")
      #expect(result.text == "\(count)\n", "\(column) LIKE '\(pattern)': \(result.stderr)")
    }
  }

  @Test(
    "PostgreSQL: the CSV export loads with \\copy CSV HEADER and LIKE finds the expected rows",
    .enabled(if: DatabaseLoadTests.postgresBin != nil, "PostgreSQL is not installed")
  )
  func postgresql() throws {
    let (folder, file) = try Self.input()
    defer { try? FileManager.default.removeItem(at: folder) }
    let export = try reviews.shell(
      "cd '\(folder.path)' && \"$EXE\" export --to csv --search initials,jamo,qwerty '\(file.path)' > reviews.csv"
    )
    #expect(export.status == 0, "\(export.stderr)")
    let cluster = try PostgresCluster(folder: folder.appendingPathComponent("pg"))
    defer { cluster.stop() }
    let columns = ["_id", "content", "n", "content_initials", "content_jamo", "content_qwerty"]
    try cluster.psql(
      "-c 'CREATE TABLE reviews (\(columns.map { "\($0) text" }.joined(separator: ", ")))'")
    try cluster.psql(#"-c "\copy reviews FROM 'reviews.csv' CSV HEADER""#, in: folder)
    for (column, pattern, count) in Self.queries {
      let found = try cluster.psql(
        "-At -c \"SELECT count(*) FROM reviews WHERE \(column) LIKE '\(pattern)'\"")
      #expect(found == "\(count)\n", "\(column) LIKE '\(pattern)'")
    }
  }
}
