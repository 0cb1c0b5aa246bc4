import Foundation
import Testing

/// The options of the writing-process measures (hangul-compose(1): --pause,
/// --target, --stats-format csv, --keystrokes-format csv) as a user runs them.
@Suite("Writing-process measures options")
struct MeasuresCommandTests {
  let compose = Executable("hangul-compose")

  /// Two documents whose names need CSV quoting, and keys that do too.
  let log = """
    {"doc":"a,\\"b","key":"ㄱ","t":0}
    {"doc":"a,\\"b","key":",","t":10}
    {"doc":"c","key":"\\"","t":20}

    """

  @Test("--keystrokes-format csv: a header, a row a key, RFC 4180 quoting, CRLF")
  func keystrokesCSV() throws {
    let result = try compose.run(
      ["--format", "events", "--output", "keystrokes", "--keystrokes-format", "csv"],
      input: Data(log.utf8))
    #expect(result.status == 0)
    #expect(
      result.text
        == "n,doc,t,key,text,commit,preedit,delete,byte,iki,role,syllable,pause,burst,revision\r\n"
        + "1,\"a,\"\"b\",0,ㄱ,,,ㄱ,,,,initial,1,false,1,false\r\n"
        + "2,\"a,\"\"b\",10,\",\",,\"ㄱ,\",,,,10,,,false,1,false\r\n"
        + "3,c,20,\"\"\"\",,\"\"\"\",,,,,,,false,1,false\r\n")
    // A text log has no times: the measure columns are empty.
    let text = try compose.run(
      ["--keys", "qwerty", "--output", "keystrokes", "--keystrokes-format", "csv"],
      input: Data("rk\n".utf8))
    #expect(text.text.split(separator: "\r\n").dropFirst().first == "1,,,r,,,ㄱ,,,,,,,,")
  }

  @Test("--stats-format csv: a header and one row a document, no total; the worked example")
  func statsCSV() throws {
    let result = try compose.run(
      ["--format", "events", "--stats", "--stats-format", "csv"], input: Data(log.utf8))
    #expect(result.status == 0)
    let rows = result.stderr.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(rows.count == 3)
    #expect(rows.first?.hasPrefix("doc,keys,backspaces,backspacesWithoutEffect,") == true)
    #expect(rows.dropFirst().first?.hasPrefix("\"a,\"\"b\",2,0,0,2,0,1.000,10,") == true)
    #expect(rows.last?.hasPrefix("c,1,") == true)
    // The first row's doc holds a comma inside its quotes.
    let fields = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false).count }
    #expect(fields == [fields[0], fields[0] + 1, fields[0]])
    // The worked example of hangul-keylog(5), one row: its doc empty.
    let example = try compose.run([
      "--format", "events", "--stats", "--stats-format", "csv", "--target",
      repositoryFile("samples/events-measures-target.txt").path,
      repositoryFile("samples/events-measures.jsonl").path,
    ])
    let lines = example.stderr.components(separatedBy: "\r\n")
    let names = lines[0].split(separator: ",").map(String.init)
    let values = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let row = Dictionary(uniqueKeysWithValues: zip(names, values))
    #expect(row["doc"] == "")
    #expect(row["ikiMedianMs"] == "200.0")
    #expect(row["totalErrorRate"] == "40.00")
  }

  @Test("--pause moves the line between an interval and a pause")
  func pause() throws {
    let sample = repositoryFile("samples/events-measures.jsonl").path
    let json = ["--format", "events", "--stats", "--stats-format", "json", sample]
    #expect(try compose.run(json).stderr.contains(#""pauseCount":1,"#))
    let lower = try compose.run(["--pause", "250"] + json).stderr
    // 300 and 2400 are pauses at 250, and 250 is not one of the intervals.
    #expect(lower.contains(#""pauseThresholdMs":250,"#))
    #expect(lower.contains(#""pauseCount":2,"#))
  }

  @Test(
    "usage errors (64) and a --target that cannot be opened (66)",
    arguments: [
      (["--target", "x"], 64),
      (["--format", "events", "--target", "x"], 64),
      (["--format", "events", "--stats", "--target", "/nonexistent/target"], 66),
      (["--pause", "-1"], 64),
      (["--pause", "nan"], 64),
      (["--keystrokes-format", "csv"], 64),
      (["--stats-format", "tsv"], 64),
    ])
  func errors(arguments: [String], status: Int) throws {
    let result = try compose.run(arguments, input: Data(log.utf8))
    #expect(result.status == Int32(status))
    #expect(result.text.isEmpty)
    #expect(result.stderr.hasPrefix("hangul-compose: "))
  }

  @Test("--target: one line a document in order; a document past the last line has none")
  func targets() throws {
    let folder = try temporaryFolder()
    let targets = folder.appendingPathComponent("targets.txt")
    try Data("가\r\n".utf8).write(to: targets)
    let twoDocs = """
      {"doc":1,"key":"ㄱ","t":0}
      {"doc":1,"key":"ㅓ","t":100}
      {"doc":2,"key":"ㄴ","t":200}

      """
    let result = try compose.run(
      [
        "--format", "events", "--stats", "--stats-format", "json", "--target", targets.path,
        "--jobs", "2",
      ],
      input: Data(twoDocs.utf8))
    #expect(result.status == 0)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any])
    let documents = try #require(report["documents"] as? [[String: Any]])
    let first = try #require(documents.first?["process"] as? [String: Any])
    #expect((first["msdCharacters"] as? NSNumber)?.intValue == 1)
    #expect((first["jamoErrorRate"] as? NSNumber)?.doubleValue == 50)
    let second = try #require(documents.last?["process"] as? [String: Any])
    #expect(second["msdCharacters"] == nil)
    #expect(second["ikiCount"] != nil)
  }
}
