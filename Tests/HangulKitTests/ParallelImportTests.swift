import Foundation
import HangulCommandLine
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

  /// One record, mostly a review, sometimes (unless `review`) not one that imports.
  static func record(_ random: inout Random, pretty: Bool, review: Bool = false) -> String {
    func s() -> String { space(&random, pretty: pretty) }
    switch review ? 2 : random.next(12) {
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

  /// An input of `count` records in one of the shapes the import reads. The
  /// first record of an envelope is a review: until one is read, an object
  /// with a records member may be a record, and no piece can begin inside it
  /// (see ``envelopeOfNonReviews()``).
  static func input(_ random: inout Random, count: Int) -> [UInt8] {
    let pretty = random.next(2) == 0
    var records: [String] = []
    for index in 0..<count {
      records.append(record(&random, pretty: pretty, review: index == 0 || index == count / 2))
    }
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
  static func importing(
    _ inputs: [[UInt8]], jobs: Int, pieceSize: Int, guessing: Bool = false,
    boundaryReach: Int = 256 * 1024
  ) throws -> Outcome {
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
      outcome.status =
        FilterRunner(paths: paths, outputDescriptor: handle.fileDescriptor).run(
          &filter, report: report
        ).exitStatus
      tally.merge(&filter, finished: true) { _ in }
      outcome.findings = findings.map { describe($0, in: folder) }
    } else {
      var runner = ParallelFilterRunner(
        paths: paths, jobs: jobs, pieceSize: pieceSize, outputDescriptor: handle.fileDescriptor)
      runner.boundaryReach = boundaryReach
      // One thread for a single piece (or a single processor): no more threads than pieces.
      let pieces = inputs.reduce(0) { $0 + max(1, ($1.count + pieceSize - 1) / pieceSize) }
      #expect(
        runner.runsInParallel(findingBoundaries: true)
          == (pieces > 1 && sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1))
      var findings: [ReviewImportLog.Entry] = []
      var rereads = 0
      outcome.status =
        runner.run(
          makeFilter: { try ReviewImportFilter(log: ReviewImportLog()) },
          boundaries: { JSONRecordBoundaryFinder(guessing: guessing) },
          continues: { before, next in
            let continues = before.isContinued(by: next)
            if !continues { rereads += 1 }
            return continues
          },
          merge: { filter, _, finished in
            tally.merge(&filter, finished: finished) { findings.append($0) }
          }, report: report
        ).exitStatus
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

  /// Expects every layout of pieces (one byte: a cut at every boundary) to
  /// give the one-thread outcome, with pieces cut where the exact finder
  /// says or, `guessing`, where a guessing finder says (right or wrong), and
  /// once more with a reach past the piece size so short (`reach`) that
  /// most records outreach it (their pieces then run in order, cut inside
  /// the record); returns the most pieces read twice.
  @discardableResult
  static func expectSameAsOneThread(
    _ inputs: [[UInt8]], valid: Bool = false, guessing: Bool = false,
    layouts: [(jobs: Int, pieceSize: Int)] = [(2, 1), (3, 7), (4, 61), (2, 997)],
    reach: (jobs: Int, pieceSize: Int, reach: Int) = (2, 61, 5)
  ) throws -> Int {
    let single = try importing(inputs, jobs: 1, pieceSize: 0)
    var rereads = 0
    let wide = 256 * 1024
    for (jobs, pieceSize, reach) in layouts.map({ ($0, $1, wide) }) + [reach] {
      var parallel = try importing(
        inputs, jobs: jobs, pieceSize: pieceSize, guessing: guessing, boundaryReach: reach)
      let layout =
        "\(guessing ? "guessing, " : "")jobs \(jobs), pieces of \(pieceSize), reach \(reach)"
      if valid, !guessing, pieceSize >= 3 {
        // The exact finder is right on valid JSON: no piece is read twice
        // (but a first piece shorter than a byte order mark, which the
        // splitter waits for three bytes to rule out).
        #expect(parallel.rereadPieces == 0, "\(layout)")
      }
      rereads = max(rereads, parallel.rereadPieces)
      parallel.rereadPieces = 0
      #expect(parallel.output == single.output, "\(layout): \(parallel.output.count) bytes")
      #expect(parallel.findings == single.findings, "\(layout)")
      #expect(parallel.messages == single.messages, "\(layout)")
      #expect(parallel.totals == single.totals, "\(layout)")
      #expect(parallel.status == single.status, "\(layout)")
      if parallel != single { break }
    }
    return rereads
  }

  /// A review record as an API writes it (one a line) or as `jq .` does (`indent` before each line).
  static func review(_ number: Int, pretty indent: String?, content: String? = nil) -> String {
    let content = content ?? "\"리뷰 \(number) 좋아요},\\n{ \\\"x\\\":[{}]\""
    let members = [
      "\"_id\": \"\(number)\"",
      "\"user\": {\"_id\": \"u\(number)\", \"tags\": [\"a\", \"b\"]}",
      "\"childReviews\": []",
      "\"content\": \(content)",
      "\"createdAt\": \"2022-07-21T11:53:58.652Z\"",
    ]
    guard let indent else {
      return "{" + members.joined(separator: ",").replacingOccurrences(of: ": ", with: ":") + "}"
    }
    let inner = indent + "  "
    let user =
      "\"user\": {\n\(inner)  \"_id\": \"u\(number)\",\n\(inner)  \"tags\": [\n\(inner)    \"a\",\n"
      + "\(inner)    \"b\"\n\(inner)  ]\n\(inner)}"
    var lines = members
    lines[1] = user
    return "{\n" + lines.map { inner + $0 }.joined(separator: ",\n") + "\n" + indent + "}"
  }

  /// The layouts a guess is right in: records one a line in an envelope
  /// (the benchmark's), `jq .` of an envelope and of an array, JSON Lines,
  /// `jq .data[]`; with a record that is rejected and a broken one in the middle.
  static func layouts(count: Int) -> [[UInt8]] {
    func reviews(_ indent: String?) -> [String] {
      (0..<count).map { number in
        switch number {
        case count / 3: review(number, pretty: indent, content: "5")
        case count / 2:
          indent == nil
            ? #"{"_id":"broken","content":"a" "createdAt":1}"# : review(number, pretty: indent)
        default: review(number, pretty: indent)
        }
      }
    }
    let envelope =
      "{\"success\":true,\"data\":[\n" + reviews(nil).joined(separator: ",\n") + "\n],\"page\":1}\n"
    let prettyEnvelope =
      "{\n  \"success\": true,\n  \"data\": [\n    "
      + reviews("    ").joined(separator: ",\n    ") + "\n  ],\n  \"page\": 1\n}\n"
    let prettyArray = "[\n  " + reviews("  ").joined(separator: ",\n  ") + "\n]\n"
    let lines = reviews(nil).joined(separator: "\n") + "\n"
    let prettyValues = reviews("").joined(separator: "\n") + "\n"
    let crlf = envelope.replacingOccurrences(of: "\n", with: "\r\n")
    return [envelope, prettyEnvelope, prettyArray, lines, prettyValues, crlf].map { Array($0.utf8) }
  }

  @Test("Guessed boundaries are right where records stand one a line or as jq writes them")
  func guessesInCommonLayouts() throws {
    for (index, input) in Self.layouts(count: 60).enumerated() {
      // Pieces far shorter than a record, a few records, many records: no piece is read twice.
      let rereads = try Self.expectSameAsOneThread(
        [input], guessing: true, layouts: [(2, 1), (2, 150), (3, 700), (2, 4000)])
      #expect(rereads == 0, "layout \(index)")
    }
  }

  @Test("A record rejected in the middle of guessed pieces is named with its own line")
  func rejectLineWithGuesses() throws {
    for (index, rejected) in [(0, 2), (1, 1)] {
      let input = Self.layouts(count: 60)[index]
      let outcome = try Self.importing([input], jobs: 2, pieceSize: 300, guessing: true)
      // Record 20 has the content 5: it is named at its own line.
      let text = String(decoding: input, as: UTF8.self)
      let before = try #require(text.range(of: #""content": 5"#) ?? text.range(of: #""content":5"#))
      let line = text[..<before.lowerBound].utf8.filter { $0 == 0x0A }.count + 1
      #expect(outcome.rereadPieces == 0)
      let first = try #require(outcome.findings.first)
      #expect(first.hasPrefix("/in0.json:\(line):"), "\(first)")
      #expect(outcome.totals == [60, 60 - rejected, rejected, 0])
    }
  }

  @Test("Guessing: random and broken inputs in every shape import as one thread does")
  func randomInputsGuessing() throws {
    var random = Random(state: 71)
    for round in 0..<40 {
      var input = Self.input(&random, count: 3 + random.next(20))
      if round % 2 == 1 { input = Self.mutated(input, &random) }
      try Self.expectSameAsOneThread([input], guessing: true)
    }
    let inputs = (0..<3).map { _ in Self.input(&random, count: 5 + random.next(10)) }
    try Self.expectSameAsOneThread(inputs + [[], inputs[0]], guessing: true)
  }

  @Test("A wrong guess (a second envelope) makes the finder stop guessing: few pieces read twice")
  func wrongGuessStopsGuessing() throws {
    let first = Array(
      ("{\"data\":[\n" + (0..<40).map { Self.review($0, pretty: nil) }.joined(separator: ",\n")
        + "\n]}\n").utf8)
    let second = Array(
      ("{\"page\":2,\"data\":[\n"
        + (0..<400).map { Self.review($0, pretty: nil) }.joined(separator: ",\n") + "\n]}\n").utf8)
    let rereads = try Self.expectSameAsOneThread(
      [first + second], guessing: true, layouts: [(2, 500), (3, 900)])
    // Every piece of the second envelope would be read twice if the finder went on guessing.
    #expect(rereads >= 1)
    #expect(rereads <= 8)
  }

  @Test(
    "No line break where a guess looks (one line of records): the finder follows the input again")
  func noLineToGuess() throws {
    let records = (0..<12000).map { Self.review($0, pretty: nil) }
    let input = Array(("{\"data\":[" + records.joined(separator: ",") + "]}").utf8)
    #expect(input.count > 3 * JSONRecordBoundaryFinder.guessReach / 2)
    let single = try Self.importing([input], jobs: 1, pieceSize: 0)
    let parallel = try Self.importing([input], jobs: 2, pieceSize: 100_000, guessing: true)
    #expect(parallel.rereadPieces == 0)
    #expect(parallel.output == single.output)
    #expect(parallel.findings == single.findings)
    #expect(parallel.totals == single.totals)
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

  @Test(
    "An envelope whose first records are not reviews imports as one thread does (pieces inside them are read twice)"
  )
  func envelopeOfNonReviews() throws {
    let others = ["{\"_id\":\"x\"}", "5", "{\"content\":7}", "[1,{\"content\":\"a\"}]"]
    let reviews = (0..<6).map { Self.review($0, pretty: nil) }
    for last in [#""content":"own""#, #""page":2"#] {
      let input = Array(
        ("{\"ok\":true,\"data\":[" + (others + reviews).joined(separator: ",\n") + "],\(last)}\n")
          .utf8)
      let rereads = try Self.expectSameAsOneThread([input])
      #expect(rereads > 0)
      let single = try Self.importing([input], jobs: 1, pieceSize: 0)
      #expect(single.totals == [10, 6, 4, last.hasPrefix(#""content""#) ? 1 : 0])
    }
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
