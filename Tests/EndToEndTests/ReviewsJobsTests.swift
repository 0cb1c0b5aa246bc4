import Foundation
import Testing

/// `hangul-reviews import --jobs N` (hangul-compose(1), hangul-reviews(1)): the output, the
/// rejects file, the messages and the status are those of `--jobs 1`.
@Suite("hangul-reviews import --jobs end to end")
struct ReviewsJobsTests {
  /// Lines of Korean prose for the contents.
  static func proseLines() throws -> [String] {
    let text = String(decoding: try JobsCommandTests.prose(), as: UTF8.self)
    return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
  }

  /// The `index`th record: mostly a review, with the troubles that a cut
  /// between records must not be fooled by now and then.
  static func record(_ index: Int, lines: [String]) -> String {
    let content = (0...(index % 3)).map { lines[(index * 3 + $0) % lines.count] }
      .joined(separator: "\\n")
    let id = "\"_id\":\"\(String(index, radix: 16))\""
    switch index % 97 {
    case 5:
      return "{\(id),\"content\":\"\(content) \\\"},{\\\"content\\\":\\\"[\\\"]\\\\\",\"n\":1}"
    case 17: return "{\(id),\"content\":\"\(content)\",\"createdAt\":\"yesterday\"}"
    case 29: return "{\(id),\"content\":\"broken \(content),\"createdAt\":1658404438}"
    case 41: return "[\"not\",\"an\",{\"object\":\"},{\"}]"
    case 53: return "{\(id),\"content\":\"\(content)\u{1}\"}"
    case 61:
      return "{\(id),\"user\":{\"tags\":[{\"a\":\"]}\"},[]]},\"content\":\"e\\u0301\(content)\"}"
    case 73: return "{\(id) \"content\":\"\(content)\"}"
    default:
      return "{\(id),\"user\":{\"userName\":\"사용자\(index)\"},\"content\":\"\(content)\","
        + "\"createdAt\":\"2022-07-21T11:53:58.652Z\",\"likes\":[],\"__v\":0}"
    }
  }

  /// The inputs: an envelope of one record a line with a byte that is not
  /// UTF-8, a stray comma and a record of 2.3 MB (longer than a piece); the
  /// same on one line; JSON Lines with a line that is not JSON.
  static func inputs(in folder: URL) throws -> [String] {
    let lines = try proseLines()
    var records = (0..<6_000).map { record($0, lines: lines) }
    let huge = String(repeating: lines.joined(separator: "\\n"), count: 3)
    records[2_500] = "{\"_id\":\"huge\",\"content\":\"\(huge.prefix(2_300_000))\"}"
    var envelope = Array(
      ("{\"success\":true,\"data\":[\n" + records.joined(separator: ",\n") + "\n],\"page\":1}\n")
        .utf8)
    // A byte that is not UTF-8 (before a backslash) and a stray comma, after a third and two thirds.
    if let at = envelope.indices.dropFirst(envelope.count / 3).first(where: { envelope[$0] == 0x5C }
    ) {
      envelope.insert(0xFF, at: at)
    }
    if let at = envelope.indices.dropFirst(envelope.count * 2 / 3).first(where: {
      envelope[$0] == 0x2C && envelope[$0 + 1] == 0x0A
    }) {
      envelope.insert(0x2C, at: at)
    }
    let oneLine = "{\"data\":[" + records[..<3_000].joined(separator: ",") + "]}"
    let jsonLines =
      records[3_000...].joined(separator: "\n") + "\nnot json at all\n{\"content\":\"끝\"}\n"
    var paths: [String] = []
    for (name, body) in [
      ("envelope.json", Data(envelope)), ("one-line.json", Data(oneLine.utf8)),
      ("reviews.jsonl", Data(jsonLines.utf8)),
    ] {
      let url = folder.appendingPathComponent(name)
      try body.write(to: url)
      paths.append(url.path)
    }
    return paths
  }

  @Test("--jobs 2, 4 and 0 write, reject and report what --jobs 1 does")
  func sameAsOneJob() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let paths = try Self.inputs(in: folder)
    let executable = Executable("hangul-reviews")
    func run(_ jobs: String) throws -> (Executable.Result, Data) {
      let rejects = folder.appendingPathComponent("rejects-\(jobs).jsonl")
      let result = try executable.run(
        ["import", "--jobs", jobs, "--rejects", rejects.path] + paths)
      return (result, try Data(contentsOf: rejects))
    }
    let (single, singleRejects) = try run("1")
    #expect(single.status == 65)
    #expect(single.stderr.contains("rejected"))
    #expect(single.stderr.contains(": warning: byte 0xFF"))
    #expect(!singleRejects.isEmpty)
    for jobs in ["2", "4", "0"] {
      let (parallel, parallelRejects) = try run(jobs)
      #expect(parallel.status == single.status, "--jobs \(jobs)")
      #expect(parallel.stdout == single.stdout, "--jobs \(jobs)")
      #expect(parallel.stderr == single.stderr, "--jobs \(jobs)")
      #expect(parallelRejects == singleRejects, "--jobs \(jobs)")
    }
  }
}
