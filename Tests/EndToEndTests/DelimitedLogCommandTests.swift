import Foundation
import Testing

/// `hangul-compose` on the research loggers' delimited files (hangul-keylog(5)):
/// `--format snapshots`, `aalto`, `lwp`, and the same files recognised by
/// their header line.
@Suite("Delimited keystroke logs end to end")
struct DelimitedLogCommandTests {
  let compose = Executable("hangul-compose")

  static let samples = [
    ("snapshots", "snapshots-phone.tsv"), ("aalto", "aalto-keystrokes.tsv"),
    ("lwp", "lwp-essay.csv"),
  ]

  @Test(
    "each sample gives its expected text with --format, status 0, nothing on stderr",
    arguments: samples)
  func sample(format: String, file: String) throws {
    let result = try compose.run(["--format", format, repositoryFile("samples/\(file)").path])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let expected = file.split(separator: ".").dropLast().joined(separator: ".") + ".expected.txt"
    #expect(result.stdout == (try Data(contentsOf: repositoryFile("samples/\(expected)"))))
  }

  @Test(
    "without --format the header line names the format, said once on stderr", arguments: samples)
  func detected(format: String, file: String) throws {
    let path = repositoryFile("samples/\(file)").path
    let result = try compose.run([path])
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "hangul-compose: reading \(path) as --format \(format) (its first line is its header)\n"
    )
    let expected = file.split(separator: ".").dropLast().joined(separator: ".") + ".expected.txt"
    #expect(result.stdout == (try Data(contentsOf: repositoryFile("samples/\(expected)"))))
  }

  @Test("--stats counts the rebuilt keys of a snapshot log and says so")
  func snapshotStatistics() throws {
    let result = try compose.run([
      "--format", "snapshots", "--stats", repositoryFile("samples/snapshots-phone.tsv").path,
    ])
    #expect(result.status == 0)
    #expect(
      result.stderr.contains(
        "36 of the keys were rebuilt from the log's composition and input data (no key was recorded)"
      ))
    #expect(result.stderr.contains("total       36           3"))
  }

  @Test("an Aalto section's SENTENCE is the target of its error rates in --stats")
  func aaltoErrorRates() throws {
    // Each section ends as its SENTENCE; 5102 (사랑한다) deleted two
    // characters it had committed and typed them again: IF = 2, total error 33.33 %.
    let result = try compose.run([
      "--format", "aalto", "--stats", "--stats-format", "json",
      repositoryFile("samples/aalto-keystrokes.tsv").path,
    ])
    #expect(result.status == 0)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any])
    let documents = try #require(report["documents"] as? [[String: Any]])
    let rates = documents.compactMap { ($0["process"] as? [String: Any])?["totalErrorRate"] }
    #expect(rates.count == 3, "every section has a target")
    let fixed = documents.compactMap {
      ($0["process"] as? [String: Any])?["incorrectFixed"] as? Int
    }
    #expect(fixed == [0, 2, 0])
    #expect(
      documents.compactMap { ($0["process"] as? [String: Any])?["incorrectNotFixed"] as? Int }
        == [0, 0, 0])
  }

  @Test("a delimited file's last record is read without a final newline", arguments: samples)
  func lastRecordWithoutNewline(format: String, file: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var bytes = try Data(contentsOf: repositoryFile("samples/\(file)"))
    while bytes.last == 0x0A || bytes.last == 0x0D { bytes.removeLast() }
    let cut = folder.appendingPathComponent(file)
    try bytes.write(to: cut)
    let whole = try compose.run(["--format", format, repositoryFile("samples/\(file)").path])
    let result = try compose.run(["--format", format, cut.path])
    #expect(result.status == 0)
    #expect(result.stdout == whole.stdout)
  }

  @Test("--output jsonl and keystrokes work as for events")
  func outputs() throws {
    let path = repositoryFile("samples/snapshots-phone.tsv").path
    let jsonl = try compose.run(["--format", "snapshots", "--output", "jsonl", path])
    #expect(jsonl.status == 0)
    #expect(jsonl.text.hasPrefix(#"{"doc":101,"text":"과일 샀어"}"# + "\n"))
    let keys = try compose.run(["--format", "snapshots", "--output", "keystrokes", path])
    #expect(keys.status == 0)
    #expect(
      keys.text.hasPrefix(
        #"{"n":1,"doc":101,"t":1590699690173,"key":"ㄱ","commit":"","preedit":"ㄱ","role":"initial""#)
    )
  }

  @Test("a bad record is an error at FILE:LINE:COLUMN, status 65, the rest replayed")
  func badRecord() throws {
    let log = "TEST_SECTION_ID\tTIMESTAMP\tINPUT\n1\t10\tㄱ\n1\tlater\t가\n1\t30\t간\n"
    let result = try compose.run(["--format", "snapshots"], input: Data(log.utf8))
    #expect(result.status == 65)
    #expect(result.text == "간\n")
    #expect(
      result.stderr
        == "hangul-compose: (standard input):3:3: TIMESTAMP must be a number of milliseconds, not \"later\"\n"
    )
  }
}
