import Foundation
import Testing

/// `hangul-reviews` on every JSON a user has (issue 12): each case end to end,
/// with standard output, standard error, status, the rejects file, and the
/// input left as it was.
@Suite("hangul-reviews input end to end")
struct ReviewsInputTests {
  let reviews = Executable("hangul-reviews")

  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var input: String
    var stdout: String
    /// Standard error after the program name; FILE stands for the input's path.
    var stderr: [String]
    var status: Int32
    /// The rejects file, FILE standing for the input's path.
    var rejects: String = ""
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "two arrays one after another", input: "[{\"content\":\"a\"}]\n[{\"content\":\"b\"}]\n",
      stdout: "{\"content\":\"a\"}\n{\"content\":\"b\"}\n",
      stderr: ["read 2 records, imported 2, rejected 0"], status: 0),
    Case(
      name: "two envelopes joined with cat",
      input:
        "{\"data\":[{\"content\":\"a\"}]}\n{\"data\":[{\"content\":\"b\"},{\"content\":\"c\"}]}\n",
      stdout: "{\"content\":\"a\"}\n{\"content\":\"b\"}\n{\"content\":\"c\"}\n",
      stderr: ["read 3 records, imported 3, rejected 0"], status: 0),
    Case(
      name: "an array, then an object, then an envelope, then a record",
      input:
        "[{\"content\":\"a\"}]{\"content\":\"b\"} {\"data\":[{\"content\":\"c\"}]}\n{\"content\":\"d\"}",
      stdout:
        "{\"content\":\"a\"}\n{\"content\":\"b\"}\n{\"content\":\"c\"}\n{\"content\":\"d\"}\n",
      stderr: ["read 4 records, imported 4, rejected 0"], status: 0),
    Case(
      name: "jq's pretty output: values one after another",
      input: """
        {
          "_id": "1",
          "user": {
            "isAdmin": false
          },
          "likes": [],
          "content": "첫째"
        }
        {
          "_id": "2",
          "content": "둘째"
        }

        """,
      stdout: "{\"_id\":\"1\",\"user\":{\"isAdmin\":false},\"likes\":[],\"content\":\"첫째\"}\n"
        + "{\"_id\":\"2\",\"content\":\"둘째\"}\n",
      stderr: ["read 2 records, imported 2, rejected 0"], status: 0),
    Case(
      name: "an envelope whose data is not the first member",
      input: "{\"success\":true,\"data\":[{\"content\":\"a\"},\n{\"content\":\"b\"}],\"page\":2}\n",
      stdout: "{\"content\":\"a\"}\n{\"content\":\"b\"}\n",
      stderr: ["read 2 records, imported 2, rejected 0"], status: 0),
    Case(
      name: "a byte order mark before JSON Lines",
      input: "\u{FEFF}{\"content\":\"a\"}\n{\"content\":\"b\"}\n",
      stdout: "{\"content\":\"a\"}\n{\"content\":\"b\"}\n",
      stderr: ["read 2 records, imported 2, rejected 0"], status: 0),
    Case(
      name: "a trailing comma in an array", input: "[{\"content\":\"a\"},]",
      stdout: "{\"content\":\"a\"}\n",
      stderr: ["FILE:1:18: unexpected ']' after ','", "read 1 record, imported 1, rejected 0"],
      status: 65),
    Case(
      name: "a leading comma", input: "[,{\"content\":\"a\"}]", stdout: "{\"content\":\"a\"}\n",
      stderr: ["FILE:1:2: unexpected ','", "read 1 record, imported 1, rejected 0"], status: 65),
    Case(
      name: "a double comma", input: "[{\"content\":\"a\"},,{\"content\":\"b\"}]",
      stdout: "{\"content\":\"a\"}\n{\"content\":\"b\"}\n",
      stderr: ["FILE:1:18: unexpected ','", "read 2 records, imported 2, rejected 0"], status: 65),
    Case(
      name: "a trailing comma in an envelope", input: "{\"data\":[{\"content\":\"a\"}],}",
      stdout: "{\"content\":\"a\"}\n",
      stderr: ["FILE:1:27: unexpected '}' after ','", "read 1 record, imported 1, rejected 0"],
      status: 65),
    Case(
      name: "garbage after the array", input: "[{\"content\":\"a\"}] garbage\n",
      stdout: "{\"content\":\"a\"}\n",
      stderr: [
        "FILE:1:19: unexpected 'g' between values", "read 1 record, imported 1, rejected 0",
      ],
      status: 65),
    Case(
      name: "a stray bracket inside a record does not hide the records after it",
      input:
        "[{\"content\":\"a\"]},\n{\"content\":\"b\"},\n{\"content\":\"c\"},\n{\"content\":\"d\"}]\n",
      stdout: "{\"content\":\"b\"}\n{\"content\":\"c\"}\n{\"content\":\"d\"}\n",
      stderr: [
        "FILE:1:16: record 0 rejected: unexpected ']'", "read 4 records, imported 3, rejected 1",
      ], status: 65,
      rejects:
        #"{"index":0,"line":1,"column":16,"reason":"unexpected ']'","record":"{\"content\":\"a\"]}"}"#
        + "\n"),
    Case(
      name: "a stray bracket in JSON Lines",
      input:
        "{\"content\":\"a\"]}\n{\"content\":\"b\"}\n{\"content\":\"c\"}}\n{\"content\":\"d\"}\n",
      stdout: "{\"content\":\"b\"}\n{\"content\":\"c\"}\n{\"content\":\"d\"}\n",
      stderr: [
        "FILE:1:15: record 0 rejected: unexpected ']'", "FILE:3:16: unexpected '}'",
        "read 4 records, imported 3, rejected 1",
      ], status: 65,
      rejects:
        #"{"index":0,"line":1,"column":15,"reason":"unexpected ']'","record":"{\"content\":\"a\"]}"}"#
        + "\n"),
    Case(
      name: "a missing closer before the end of the array",
      input: "[{\"content\":\"a\"],\n[{\"content\":\"b\"}]",
      stdout: "{\"content\":\"b\"}\n",
      stderr: [
        "FILE:1:16: record 0 rejected: unexpected ']'", "FILE:1:17: unexpected ',' between values",
        "read 2 records, imported 1, rejected 1",
      ], status: 65,
      rejects:
        #"{"index":0,"line":1,"column":16,"reason":"unexpected ']'","record":"{\"content\":\"a\""}"#
        + "\n"),
    Case(
      name: "a review with a data array of its own is a record, not an envelope",
      input:
        "{\"_id\":1,\"data\":[{\"url\":\"a.png\"}],\"content\":\"e\u{301}\"}\n"
        + "{\"content\":\"b\",\"data\":[{\"content\":\"c\"}]}\n",
      stdout: "{\"_id\":1,\"data\":[{\"url\":\"a.png\"}],\"content\":\"é\"}\n"
        + "{\"content\":\"b\",\"data\":[{\"content\":\"c\"}]}\n",
      stderr: ["read 2 records, imported 2, rejected 0"], status: 0),
    Case(
      name: "an envelope's own content after its records is reported, not dropped silently",
      input: "{\"data\":[{\"content\":\"a\"}],\"content\":\"own\"}\n",
      stdout: "{\"content\":\"a\"}\n",
      stderr: [
        "FILE:1:37: the envelope's own \"content\" string is not imported: its \"data\" was already read as records",
        "read 1 record, imported 1, rejected 0",
      ], status: 65),
    Case(
      name: "duplicate content members are all normalized",
      input: "{\"content\":\"e\u{301}\",\"n\":1,\"content\":\"\u{1100}\u{1161}\"}\n",
      stdout: "{\"content\":\"é\",\"n\":1,\"content\":\"가\"}\n",
      stderr: ["read 1 record, imported 1, rejected 0"], status: 0),
    Case(
      name: "an error on line 4 of a pretty-printed record is reported on line 4",
      input: "[\n  {\n    \"content\": \"가\",\n    \"n\": 1 }\n  }\n]\n",
      stdout: "{\"content\":\"가\",\"n\":1}\n",
      stderr: [
        "FILE:5:3: unexpected '}'", "read 1 record, imported 1, rejected 0",
      ], status: 65),
    Case(
      name: "a reason names the character and the place",
      input: "{\"content\":\"가나\",\n \"x\": [1, 2,, 3]}\n{\"content\":\"cut",
      stdout: "",
      stderr: [
        "FILE:2:13: record 0 rejected: unexpected ','",
        "FILE:3:16: record 1 rejected: unexpected end of input inside a string",
        "read 2 records, imported 0, rejected 2",
      ], status: 65,
      rejects:
        #"{"index":0,"line":2,"column":13,"reason":"unexpected ','","record":"{\"content\":\"가나\",\n \"x\": [1, 2,, 3]}"}"#
        + "\n"
        + #"{"index":1,"line":3,"column":16,"reason":"unexpected end of input inside a string","record":"{\"content\":\"cut"}"#
        + "\n"),
  ]

  @Test("each case: output, messages, status, rejects; the input is untouched", arguments: cases)
  func importCase(_ example: Case) throws {
    let folder = try temporaryFolder()
    let input = folder.appendingPathComponent("in.json")
    let rejects = folder.appendingPathComponent("rejects.jsonl")
    let bytes = Data(example.input.utf8)
    try bytes.write(to: input)
    let result = try reviews.run(["import", "--rejects", rejects.path, input.path])
    #expect(result.text == example.stdout)
    let expected = example.stderr.map {
      "hangul-reviews: " + $0.replacingOccurrences(of: "FILE", with: input.path) + "\n"
    }.joined()
    #expect(result.stderr == expected)
    #expect(result.status == example.status)
    #expect(try String(contentsOf: rejects, encoding: .utf8) == example.rejects)
    #expect(try Data(contentsOf: input) == bytes)
    // The same through standard input.
    let piped = try reviews.run(["import"], input: bytes)
    #expect(piped.text == example.stdout)
    #expect(piped.status == example.status)
  }

  @Test("an invalid UTF-8 byte: its position and its value")
  func invalidByte() throws {
    let input = Data(#"{"content":"가"#.utf8) + Data([0xFF]) + Data("\"}\n".utf8)
    let result = try reviews.run(["import"], input: input)
    #expect(
      result.stderr
        == "hangul-reviews: (standard input):1:14: record 0 rejected: invalid UTF-8: byte 0xFF\n"
        + "hangul-reviews: (standard input):1:14: warning: byte 0xFF is not UTF-8; if the file is "
        + "in another encoding, name it with --from-code\n"
        + "hangul-reviews: read 1 record, imported 0, rejected 1\n")
    #expect(result.status == 65)
  }

  @Test(
    "--rejects naming an input, or standard output being one, is refused with 64 before anything")
  func outputIsInput() throws {
    let folder = try temporaryFolder()
    let input = folder.appendingPathComponent("r.json")
    let bytes = Data("{\"content\":\"a\"}\n".utf8)
    try bytes.write(to: input)
    let same = try reviews.run(["import", "--rejects", input.path, input.path])
    #expect(same.status == 64)
    #expect(same.text.isEmpty)
    #expect(
      same.stderr.hasPrefix(
        "hangul-reviews: --rejects \(input.path) is the input \(input.path); name a file that is not an input\n"
      ))
    #expect(try Data(contentsOf: input) == bytes)
    // The same file by another name (a hard link).
    let link = folder.appendingPathComponent("link.json")
    try FileManager.default.linkItem(at: input, to: link)
    let linked = try reviews.run(["import", "--rejects", link.path, input.path])
    #expect(linked.status == 64)
    #expect(try Data(contentsOf: input) == bytes)
    // Standard input that is the rejects file.
    let redirected = try reviews.shell(
      "\"$EXE\" import --rejects '\(input.path)' < '\(input.path)'")
    #expect(redirected.status == 64)
    #expect(try Data(contentsOf: input) == bytes)
    // Standard output appended to the input.
    let appended = try reviews.shell("\"$EXE\" import '\(input.path)' >> '\(input.path)'")
    #expect(appended.status == 64)
    #expect(appended.stderr.contains("standard output is the input"))
    #expect(try Data(contentsOf: input) == bytes)
  }

  static let dated = Data(
    (#"{"content":"x","createdAt":"2022-07-23T19:00:00"}"# + "\n"
      + #"{"content":"y","createdAt":1658570400000}"# + "\n").utf8)

  @Test(
    "TZ and --time-zone in every tzset form; milliseconds",
    arguments: [
      (["TZ": "Asia/Seoul"], []), (["TZ": ":Asia/Seoul"], []), (["TZ": "KST-9"], []),
      (["TZ": "UTC"], ["--time-zone", "+09:00"]), (["TZ": nil], ["--time-zone", ":Asia/Seoul"]),
      (["TZ": "Nowhere/Land"], ["--time-zone", "KST-9"]),
    ] as [([String: String?], [String])])
  func timeZones(environment: [String: String?], options: [String]) throws {
    let result = try reviews.run(
      ["export", "-q", "--relative-time", "--now", "2022-07-23T10:30:00Z"] + options,
      input: Self.dated,
      environment: environment)
    #expect(result.status == 0)
    #expect(
      result.text
        == #"{"content":"x","createdAt":"2022-07-23T19:00:00","elapsed":"30분 전"}"# + "\n"
        + #"{"content":"y","createdAt":1658570400000,"elapsed":"30분 전"}"# + "\n")
    #expect(result.stderr.isEmpty)
  }

  @Test(
    "a zone that names nothing is an error 64 that says so",
    arguments: [
      (["TZ": "UTC"], ["import", "--time-zone", "Mars/Olympus"]),
      (["TZ": "Nowhere/Land"], ["export", "--relative-time"]),
    ]
      as [([String: String?], [String])])
  func unknownZones(environment: [String: String?], options: [String]) throws {
    let result = try reviews.run(options, input: Self.dated, environment: environment)
    #expect(result.status == 64)
    #expect(result.stderr.contains("names no time zone"))
    #expect(result.text.isEmpty)
  }

  @Test("a TZ that names nothing is an error only where a local time is read")
  func unknownTZ() throws {
    let environment: [String: String?] = ["TZ": "Nowhere/Land"]
    let zoned = Data(#"{"content":"x","createdAt":"2022-07-23T19:00:00Z"}"#.utf8 + [0x0A])
    for command in [["import"], ["export"]] {
      let result = try reviews.run(command + ["-q"], input: zoned, environment: environment)
      #expect(result.status == 0, "\(command): \(result.stderr)")
      #expect(result.stderr.isEmpty)
    }
    let local = try reviews.run(["import", "-q"], input: Self.dated, environment: environment)
    #expect(local.status == 65)
    #expect(
      local.stderr.contains(
        "\"2022-07-23T19:00:00\" has no time zone, and TZ 'Nowhere/Land' names none"),
      "\(local.stderr)")
    #expect(local.text == #"{"content":"y","createdAt":1658570400000}"# + "\n")
  }

  @Test(
    "--locale defaults from LC_ALL, LC_TIME, LANG when known, else ko_KR",
    arguments: [
      (["LC_ALL": nil, "LC_TIME": nil, "LANG": "en_US.UTF-8"], "07/21/2022"),
      (["LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"], "21.07.2022"),
      (["LC_ALL": nil, "LC_TIME": "en_GB.UTF-8", "LANG": "en_US.UTF-8"], "21/07/2022"),
      (["LC_ALL": "xx_YY", "LANG": "en_US.UTF-8"], "2022. 07. 21."),
      (["LC_ALL": nil, "LC_TIME": nil, "LANG": nil], "2022. 07. 21."),
      (["LC_ALL": nil, "LC_TIME": nil, "LANG": "C.UTF-8"], "2022. 07. 21."),
    ] as [([String: String?], String)])
  func defaultLocale(environment: [String: String?], date: String) throws {
    let input = Data((#"{"content":"x","createdAt":"2022-07-21T11:53:58Z"}"# + "\n").utf8)
    let result = try reviews.run(
      ["export", "--relative-time", "--now", "2022-08-01T00:00:00Z", "--time-zone", "UTC"],
      input: input, environment: environment)
    #expect(result.text.contains("\"elapsed\":\"\(date)\""))
    #expect(result.status == 0)
  }

  @Test("hangul-compose --format events skips a byte order mark")
  func eventsByteOrderMark() throws {
    let compose = Executable("hangul-compose")
    let log = "\u{FEFF}{\"key\":\"ㄱ\"}\n{\"key\":\"ㅏ\"}\n"
    let result = try compose.run(["--format", "events"], input: Data(log.utf8))
    #expect(result.text == "가\n")
    #expect(result.stderr.isEmpty)
    #expect(result.status == 0)
  }
}

extension ReviewsInputTests {
  static let datesInEveryForm = """
    {"content":"a","createdAt":"2022-07-21T11:53:58.652Z","n":1}
    {"createdAt":"2022-07-21T20:53:58+09:00","content":"b"}
    {"content":"c","createdAt":"2022-07-23T19:00:00"}
    {"content":"d","createdAt":"2022-07-23 10:00:00 +0000"}
    {"content":"e","created_at":1658404438}
    {"content":"f","createdAt":1658404438652}
    {"content":"g","createdAt":1658404438.5}
    {"content":"h","createdAt":"2022\\u002d07-21T11:53:58.6529Z"}
    {"content":"i","createdAt":-1}
    {"content":"j","createdAt":1e300}
    {"content":"k","createdAt":"2022-07-21T11:53:58.652Z","created_at":5}
    {"content":"l"}
    {"content" : "m" , "createdAt" : 1658404438 , "x" : [ 1 ] }

    """

  @Test("--dates iso writes the creation time in UTC with milliseconds, from every form")
  func datesISO() throws {
    let input = Data(Self.datesInEveryForm.utf8)
    let result = try reviews.run(
      ["import", "--dates", "iso", "--time-zone", "Asia/Seoul"], input: input)
    #expect(
      result.text == """
        {"content":"a","createdAt":"2022-07-21T11:53:58.652Z","n":1}
        {"createdAt":"2022-07-21T11:53:58.000Z","content":"b"}
        {"content":"c","createdAt":"2022-07-23T10:00:00.000Z"}
        {"content":"d","createdAt":"2022-07-23T10:00:00.000Z"}
        {"content":"e","created_at":"2022-07-21T11:53:58.000Z"}
        {"content":"f","createdAt":"2022-07-21T11:53:58.652Z"}
        {"content":"g","createdAt":"2022-07-21T11:53:58.500Z"}
        {"content":"h","createdAt":"2022-07-21T11:53:58.652Z"}
        {"content":"i","createdAt":"1969-12-31T23:59:59.000Z"}
        {"content":"k","createdAt":"2022-07-21T11:53:58.652Z","created_at":5}
        {"content":"l"}
        {"content":"m","createdAt":"2022-07-21T11:53:58.000Z","x":[1]}

        """)
    #expect(
      result.stderr
        == "hangul-reviews: (standard input):10:28: record 9 rejected: createdAt: 1e300 is more "
        + "than 10^8 days from 1970, which --dates iso cannot write\n"
        + "hangul-reviews: read 13 records, imported 12, rejected 1\n")
    #expect(result.status == 65)
    // The default, and --dates keep, write every date as it came.
    let kept = try reviews.run(["import", "--time-zone", "Asia/Seoul"], input: input)
    let keep = try reviews.run(
      ["import", "--dates", "keep", "--time-zone", "Asia/Seoul"], input: input)
    #expect(keep.text == kept.text)
    #expect(kept.text.contains(#"{"content":"f","createdAt":1658404438652}"#))
    #expect(kept.text.contains(#"{"content":"h","createdAt":"2022\u002d07-21T11:53:58.6529Z"}"#))
    #expect(kept.status == 0)
  }
}
