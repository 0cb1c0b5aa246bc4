import Foundation
import Testing

/// `hangul-reviews` as a user runs it.
@Suite("hangul-reviews end to end")
struct ReviewsCommandTests {
  let reviews = Executable("hangul-reviews")

  @Test("export --decompose qwerty --plain and --decompose initials write what grep finds")
  func plainExport() throws {
    let input = Data(#"{"content":"Rating: 좋아요 ㅋㅋ"}"#.utf8 + [0x0A])
    let plain = try reviews.run(
      ["export", "--to", "post", "--decompose", "qwerty", "--plain"], input: input)
    #expect(plain.text == #"{"content":"Rating: whgdkdy zz"}"# + "\n")
    let initials = try reviews.run(
      ["export", "--to", "post", "--decompose", "initials"], input: input)
    #expect(initials.text == #"{"content":"Rating: ㅈㅇㅇ ㅋㅋ"}"# + "\n")
    let misplaced = try reviews.run(["export", "--plain"], input: input)
    #expect(misplaced.status == 64)
  }

  @Test("files with a byte order mark each, joined with cat: every record, no reject")
  func joinedBOMFiles() throws {
    let page =
      Data([0xEF, 0xBB, 0xBF]) + Data(#"{"data":[{"content":"a"}],"page":1}"#.utf8 + [0x0A])
    let result = try reviews.run(["import"], input: page + page)
    #expect(result.status == 0)
    #expect(result.text == #"{"content":"a"}"# + "\n" + #"{"content":"a"}"# + "\n")
    #expect(result.stderr == "hangul-reviews: read 2 records, imported 2, rejected 0\n")
  }

  @Test("import of the sample envelope: four records, one reject, a summary, status 65")
  func importSample() throws {
    let folder = try temporaryFolder()
    let rejects = folder.appendingPathComponent("rejects.jsonl")
    let result = try reviews.run([
      "import", "--rejects", rejects.path, repositoryFile("samples/reviews-api.json").path,
    ])
    #expect(result.status == 65)
    let lines = result.text.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines.allSatisfy { $0.hasPrefix(#"{"_id":"#) })
    // The escapes and the number spelling of the untouched record survive.
    #expect(result.text.contains(#"\u2b50\u2b50"#))
    #expect(result.text.contains(#""score":4.50}"#))
    let messages = result.stderr.split(separator: "\n").map(String.init)
    #expect(messages.count == 2)
    #expect(
      messages[0].contains(
        "reviews-api.json:89:20: record 3 rejected: createdAt: \"어제\" is not a date"))
    #expect(messages[1] == "hangul-reviews: read 5 records, imported 4, rejected 1")
    let rejected = try String(contentsOf: rejects, encoding: .utf8)
    #expect(
      rejected.hasPrefix(
        #"{"index":3,"line":89,"column":20,"reason":"createdAt: \"어제\" is not a date"#))
    #expect(rejected.contains(#""record":{"_id":"62d95177b9e976599d770058""#))
    // No progress line when standard error is not a terminal.
    #expect(!result.stderr.contains("\r"))
  }

  @Test("keystroke content and the diary shape")
  func otherSamples() throws {
    let keys = try reviews.run(
      [
        "import", "--content", "keys", "--keys", "qwerty",
        repositoryFile("samples/reviews-keys.jsonl").path,
      ])
    let expected = try String(
      contentsOf: repositoryFile("samples/reviews-keys.expected.jsonl"), encoding: .utf8)
    #expect(keys.status == 0)
    #expect(keys.text == expected)
    #expect(keys.stderr == "hangul-reviews: read 3 records, imported 3, rejected 0\n")
    let diary = try reviews.run([
      "import", "--content-field", "body", repositoryFile("samples/diary.jsonl").path,
    ])
    #expect(diary.status == 0)
    #expect(diary.text.split(separator: "\n").count == 3)
  }

  @Test("export: api envelope, post bodies, relative time")
  func export() throws {
    let input = Data((#"{"content":"닭","createdAt":"2022-07-21T11:53:58.652Z"}"# + "\n").utf8)
    let api = try reviews.run(["export", "--to", "api"], input: input)
    #expect(
      api.text == "{\"data\":[\n" + #"{"content":"닭","createdAt":"2022-07-21T11:53:58.652Z"}"#
        + "\n]}\n")
    let post = try reviews.run(["export", "--to", "post", "--decompose", "qwerty"], input: input)
    #expect(post.text == #"{"content":"ekfr"}"# + "\n")
    let relative = try reviews.run(
      [
        "export", "--relative-time", "--now", "2022-07-21T12:53:58.652Z", "--time-zone",
        "Asia/Seoul",
      ], input: input)
    #expect(
      relative.text == #"{"content":"닭","createdAt":"2022-07-21T11:53:58.652Z","elapsed":"1시간 전"}"#
        + "\n")
    let dated = try reviews.run(
      ["export", "--relative-time", "--now", "2022-08-01T00:00:00Z", "--locale", "en_US"],
      input: input)
    #expect(dated.text.contains(#""elapsed":"07/21/2022""#))
  }

  @Test("the import output exports back to the envelope")
  func roundTrip() throws {
    let result = try reviews.shell(
      "\"$EXE\" import '\(repositoryFile("samples/reviews-keys.expected.jsonl").path)' 2>/dev/null | \"$EXE\" export --to api | \"$EXE\" import 2>/dev/null"
    )
    let expected = try String(
      contentsOf: repositoryFile("samples/reviews-keys.expected.jsonl"), encoding: .utf8)
    #expect(result.text == expected)
  }

  @Test(
    "bad usage exits 64",
    arguments: [
      ["export", "--locale", "xx_YY", "--relative-time"],
      ["export", "--time-zone", "Mars/Olympus"],
      ["export", "--now", "2022-07-21T00:00:00Z"], ["export", "--relative-time", "--now", "soon"],
      ["import", "--content", "html"], ["export", "--to", "sql"],
      ["export", "--to", "csv", "--dialect", "sqlite"], ["export", "--nul", "replace"],
      ["export", "--to", "csv", "--columns", "_id,,content"],
      [
        "export", "--to", "sql", "--dialect", "postgresql", "--table",
        String(repeating: "t", count: 64),
      ],
      ["frobnicate"], [],
    ])
  func badUsage(arguments: [String]) throws {
    let result = try reviews.run(arguments)
    if arguments.isEmpty {
      #expect(result.status == 0 || result.status == 64)
    } else {
      #expect(result.status == 64)
      #expect(result.stderr.hasPrefix("hangul-reviews: "))
    }
  }

  @Test(
    "export without --columns: a member a later record adds is named, with the --columns to use, and 65",
    arguments: [["--to", "csv"], ["--to", "tsv"], ["--to", "sql", "--dialect", "sqlite"]])
  func memberLeftOut(shape: [String]) throws {
    let input = Data(
      (#"{"_id":1,"content":"a"}"# + "\n" + #"{"_id":2,"content":"b","rating":5}"# + "\n"
        + #"{"rating":4,"_id":3,"content":"c","x":{"y":1}}"# + "\n"
        + #"{"_id":4,"content":"d","rating":3}"# + "\n").utf8)
    let result = try reviews.run(["export"] + shape, input: input)
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "hangul-reviews: (standard input):2:24: record 1 has the member \"rating\", which has no "
        + "column (the columns are the first record's members): not written; write --columns "
        + "_id,content,rating\n"
        + "hangul-reviews: (standard input):3:35: record 2 has the member \"x\", which has no "
        + "column (the columns are the first record's members): not written; write --columns "
        + "_id,content,rating,x\n"
        + "hangul-reviews: read 4 records, exported 4, skipped 0\n")
    // Named: every member is written, nothing is reported.
    let named = try reviews.run(
      ["export", "--columns", "_id,content,rating,x"] + shape, input: input)
    #expect(named.status == 0)
    #expect(named.stderr == "hangul-reviews: read 4 records, exported 4, skipped 0\n")
    #expect(named.text.contains("\":1}"))
  }

  @Test("a missing input file: 66, the others still read")
  func missingFile() throws {
    let result = try reviews.run(
      [
        "import", "/nonexistent/reviews.json", repositoryFile("samples/diary.jsonl").path,
        "--content-field", "body",
      ])
    #expect(result.status == 66)
    #expect(result.text.split(separator: "\n").count == 3)
    #expect(
      result.stderr.contains("hangul-reviews: /nonexistent/reviews.json: No such file or directory")
    )
  }
}
