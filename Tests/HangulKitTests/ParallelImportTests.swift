import Foundation
import HangulKit
import Testing

/// `hangul-reviews import --jobs N`: pieces cut where ``JSONRecordBoundaryFinder``
/// says, each read by a splitter resumed there, must give what one splitter
/// reading the whole input gives, on valid, random and broken input, at every cut.
@Suite struct ParallelImportTests {
  /// A small random number generator with a seed (the same inputs every run).
  struct Random {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }

    mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
  }

  /// Whitespace between tokens: none, a space, or a line break and indent.
  static func space(_ random: inout Random, pretty: Bool) -> String {
    guard pretty else { return "" }
    return random.pick(["", " ", "\n  ", "\n", "\t"])
  }

  /// A string token with the characters that trip boundary guessing.
  static func stringToken(_ random: inout Random) -> String {
    let parts = [
      "안녕하세요", "},{", "\\\"", "[", "]", "{", "}", ",", "\\\\", "\\n", "\\u00e9", "e\\u0301",
      "\\\"},{\\\"content\\\":\\\"", "data", " ", "ㄱ", "\\/", "\\ud55c",
    ]
    var text = ""
    for _ in 0..<random.next(6) { text += random.pick(parts) }
    return "\"" + text + "\""
  }

  /// One record, mostly a review, sometimes not one that imports.
  static func record(_ random: inout Random, pretty: Bool) -> String {
    func s() -> String { space(&random, pretty: pretty) }
    switch random.next(12) {
    case 0: return random.pick(["5", "\"text\"", "[1,{\"a\":\"]\"}]", "null", "true"])
    case 1: return "{\(s())\"_id\":\(s())\"x\"\(s())}"
    default: break
    }
    var members: [String] = []
    members.append("\"_id\":\(s())\"\(random.next(100_000))\"")
    if random.next(3) == 0 {
      members.append(
        "\"user\":\(s()){\"name\":\(s())\(stringToken(&random)),\(s())\"tags\":[\(stringToken(&random)),{\"a\":[]}]}"
      )
    }
    members.append("\"content\":\(s())\(stringToken(&random))")
    if random.next(4) == 0 { members.append("\"n\":\(s())-12.5e3") }
    let dates = [
      "\"2022-07-21T11:53:58.652Z\"", "1658404438", "\"2022-07-23 10:00:00 +0000\"",
      "\"not a date\"",
    ]
    if random.next(2) == 0 { members.append("\"createdAt\":\(s())\(random.pick(dates))") }
    if random.next(5) == 0 { members.append("\"likes\":\(s())[\(s())]") }
    return "{" + s() + members.joined(separator: "," + s()) + s() + "}"
  }

  /// An input of `count` records in one of the shapes the import reads.
  static func input(_ random: inout Random, count: Int) -> [UInt8] {
    let pretty = random.next(2) == 0
    var records: [String] = []
    for _ in 0..<count { records.append(record(&random, pretty: pretty)) }
    func s() -> String { space(&random, pretty: pretty) }
    let text: String
    switch random.next(5) {
    case 0:
      text =
        "{\"success\":true,\(s())\"data\":[\(s())" + records.joined(separator: ",\n")
        + "\n],\"page\":1}\n"
    case 1:
      text = "\u{FEFF}{\"data\":[" + records.joined(separator: ",") + "]}"
    case 2:
      text = "[" + records.joined(separator: "," + s()) + "]\n"
    case 3:
      text = records.joined(separator: "\n") + "\n"
    default:
      // Pages of a dump joined together, and a record between them.
      let half = records.count / 2
      text =
        "{\"data\":[" + records[..<half].joined(separator: ",") + "],\"next\":2}\n"
        + "{\"page\":2,\"data\":[" + records[half...].joined(separator: ",\n") + "]} "
        + record(&random, pretty: false)
    }
    return Array(text.utf8)
  }

  /// `bytes` with a few bytes replaced, removed or put in: JSON punctuation,
  /// line breaks, and bytes that are not UTF-8.
  static func mutated(_ bytes: [UInt8], _ random: inout Random) -> [UInt8] {
    var bytes = bytes
    let stock: [UInt8] = Array("{}[],:\"\\\n x0".utf8) + [0xFF, 0xC3, 0xE3]
    for _ in 0..<(1 + random.next(4)) where !bytes.isEmpty {
      let at = random.next(bytes.count)
      switch random.next(3) {
      case 0: bytes[at] = random.pick(stock)
      case 1: bytes.remove(at: at)
      default: bytes.insert(random.pick(stock), at: at)
      }
    }
    return bytes
  }

  /// What an import found: the output, the rejects and problems in order, the totals, the status.
  struct Outcome: Equatable {
    var output: [UInt8] = []
    /// The findings as messages (files named without their folder).
    var findings: [String] = []
    var messages: [String] = []
    var totals: [Int] = []
    var status: Int32 = 0
    /// Pieces that the filter before them had to read again (a wrong guess).
    var rereadPieces = 0
  }

  /// Imports `inputs` (written to files) on one thread (`jobs` 1) or in
  /// pieces of `pieceSize` bytes on `jobs` threads.
  static func importing(_ inputs: [[UInt8]], jobs: Int, pieceSize: Int) throws -> Outcome {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("parallel-import-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    for (index, input) in inputs.enumerated() {
      let url = folder.appendingPathComponent("in\(index).json")
      try Data(input).write(to: url)
      paths.append(url.path)
    }
    let outputURL = folder.appendingPathComponent("out")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    let handle = try FileHandle(forWritingTo: outputURL)
    var outcome = Outcome()
    let report: (String) -> Void = {
      outcome.messages.append($0.replacingOccurrences(of: folder.path, with: ""))
    }
    var tally = ReviewImportTally()
    if jobs == 1 {
      var findings: [ReviewImportLog.Entry] = []
      var filter = try ReviewImportFilter(structureProblem: {
        findings.append(.structureProblem($0))
      }) {
        findings.append(.reject($0))
      }
      outcome.status = FilterRunner(paths: paths, outputDescriptor: handle.fileDescriptor).run(
        &filter, report: report)
      tally.merge(&filter, finished: true) { _ in }
      outcome.findings = findings.map { describe($0, in: folder) }
    } else {
      var runner = ParallelFilterRunner(
        paths: paths, jobs: jobs, pieceSize: pieceSize, outputDescriptor: handle.fileDescriptor)
      runner.boundaryFinder = { JSONRecordBoundaryFinder() }
      #expect(runner.runsInParallel)
      var findings: [ReviewImportLog.Entry] = []
      var rereads = 0
      outcome.status = runner.run(
        makeFilter: { try ReviewImportFilter(log: ReviewImportLog()) },
        continues: { before, next in
          let continues = before.isContinued(by: next)
          if !continues { rereads += 1 }
          return continues
        },
        merge: { filter, _, finished in
          tally.merge(&filter, finished: finished) { findings.append($0) }
        }, report: report)
      outcome.findings = findings.map { describe($0, in: folder) }
      outcome.rereadPieces = rereads
    }
    try handle.close()
    outcome.output = Array(try Data(contentsOf: outputURL))
    outcome.totals = [
      tally.recordsRead, tally.recordsImported, tally.recordsRejected, tally.structureProblemCount,
    ]
    return outcome
  }

  /// A finding as a message, and a reject as its --rejects line too.
  static func describe(_ entry: ReviewImportLog.Entry, in folder: URL) -> String {
    let text =
      switch entry {
      case .reject(let reject): reject.message + "\n" + reject.jsonLine
      case .structureProblem(let problem): problem.description
      }
    return text.replacingOccurrences(of: folder.path, with: "")
  }

  /// Expects every layout of pieces (one byte: a cut at every boundary) to give the one-thread outcome.
  static func expectSameAsOneThread(_ inputs: [[UInt8]], valid: Bool) throws {
    let single = try importing(inputs, jobs: 1, pieceSize: 0)
    for (jobs, pieceSize) in [(2, 1), (3, 7), (4, 61), (2, 997)] {
      var parallel = try importing(inputs, jobs: jobs, pieceSize: pieceSize)
      if valid, pieceSize >= 3 {
        // The finder is right on valid JSON: no piece is read twice (but a
        // first piece shorter than a byte order mark, which the splitter
        // waits for three bytes to rule out).
        #expect(parallel.rereadPieces == 0, "jobs \(jobs), pieces of \(pieceSize)")
      }
      parallel.rereadPieces = 0
      let layout = "jobs \(jobs), pieces of \(pieceSize)"
      #expect(parallel.output == single.output, "\(layout): \(parallel.output.count) bytes")
      #expect(parallel.findings == single.findings, "\(layout)")
      #expect(parallel.messages == single.messages, "\(layout)")
      #expect(parallel.totals == single.totals, "\(layout)")
      #expect(parallel.status == single.status, "\(layout)")
      if parallel != single { return }
    }
  }

  @Test("Random inputs in every shape: pieces cut at every boundary import as one thread does")
  func randomInputs() throws {
    var random = Random(state: 17)
    for _ in 0..<24 {
      let input = Self.input(&random, count: 3 + random.next(20))
      try Self.expectSameAsOneThread([input], valid: true)
    }
  }

  @Test("Broken inputs (bytes changed, removed, put in) import as one thread does")
  func mutatedInputs() throws {
    var random = Random(state: 29)
    for _ in 0..<40 {
      let input = Self.mutated(Self.input(&random, count: 3 + random.next(20)), &random)
      try Self.expectSameAsOneThread([input], valid: false)
    }
  }

  @Test("Several files: indexes count from 0 in each, a file may end without a line break")
  func severalFiles() throws {
    var random = Random(state: 41)
    let inputs = (0..<3).map { _ in Self.input(&random, count: 5 + random.next(10)) }
    let unterminated = Array(#"{"data":[{"content":"a"},{"content":1}]}"#.utf8)
    try Self.expectSameAsOneThread(inputs + [unterminated, [], inputs[0]], valid: true)
  }

  @Test("A splitter resumed at each boundary reads the rest as the one that read up to it")
  func everyBoundary() throws {
    var random = Random(state: 53)
    for round in 0..<30 {
      var input = Self.input(&random, count: 2 + random.next(8))
      let valid = round % 2 == 0
      if !valid { input = Self.mutated(input, &random) }
      var whole: [JSONRecordSplitter.Record] = []
      var splitter = JSONRecordSplitter()
      splitter.feed(input, isLast: true) { whole.append($0) }
      let wholeProblems = splitter.takeStructureProblems()
      var finder = JSONRecordBoundaryFinder()
      var position = 0
      while position < input.count {
        let found = input.withUnsafeBufferPointer {
          finder.boundary(in: UnsafeBufferPointer(rebasing: $0[position...]), notBefore: 0)
        }
        guard let cut = found else { break }
        position = cut
        var before = JSONRecordSplitter()
        var records: [JSONRecordSplitter.Record] = []
        before.feed(Array(input[..<cut]), isLast: false) { records.append($0) }
        let point = finder.splitterResumePoint
        guard before.resumePoint == point else {
          #expect(!valid, "valid input, cut at \(cut)")
          continue
        }
        var after = JSONRecordSplitter(resumingAt: point)
        let first = records.count
        after.feed(Array(input[cut...]), isLast: true) {
          var record = $0
          record.index += first
          records.append(record)
        }
        #expect(records.map(\.bytes) == whole.map(\.bytes), "cut at \(cut)")
        #expect(records.map(\.index) == whole.map(\.index))
        #expect(records.map(\.line) == whole.map(\.line))
        #expect(records.map(\.column) == whole.map(\.column))
        #expect(records.map(\.problem) == whole.map(\.problem), "cut at \(cut)")
        #expect(records.map(\.members) == whole.map(\.members))
        #expect(before.takeStructureProblems() + after.takeStructureProblems() == wholeProblems)
      }
    }
  }
}
