import Foundation
import HangulCommandLine
import HangulKit
import Testing

/// What the filters of a parallel run find (errors, statistics, `--verify`
/// problems) must come out as one run finds it: the same messages, lines and
/// totals, however small the pieces and wherever they are cut.
@Suite struct ParallelMergeTests {
  /// What a run gave: output, messages in order, status.
  struct Outcome: Equatable {
    var output: [UInt8]
    var messages: [String]
    var status: Int32
  }

  /// Writes `inputs` to files and runs `body` with their paths and an output
  /// descriptor; returns the output and the messages with the folder cut out.
  static func run(
    _ inputs: [[UInt8]],
    _ body: (_ paths: [String], _ output: Int32, _ report: @escaping (String) -> Void) throws ->
      Int32
  ) throws -> Outcome {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("merge-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    for (index, input) in inputs.enumerated() {
      let url = folder.appendingPathComponent("in\(index)")
      try Data(input).write(to: url)
      paths.append(url.path)
    }
    let outputURL = folder.appendingPathComponent("out")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    let handle = try FileHandle(forWritingTo: outputURL)
    final class Messages: @unchecked Sendable { var all: [String] = [] }
    let messages = Messages()
    let status = try body(paths, handle.fileDescriptor) {
      messages.all.append($0.replacingOccurrences(of: folder.path, with: ""))
    }
    try handle.close()
    return Outcome(
      output: Array(try Data(contentsOf: outputURL)), messages: messages.all, status: status)
  }

  /// The jobs and piece sizes every check runs with (jobs 1 is the reference).
  static let layouts = [(2, 97), (3, 1000), (4, 4096), (2, 65_536), (2, 1 << 21)]

  // MARK: --verify

  /// A composer that writes 닭 as conjoining jamo: output `--verify` rejects.
  struct WrongComposer: ByteFilter {
    var inner = ComposeFilter()
    mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
      var piece: [UInt8] = []
      inner.process(chunk, into: &piece)
      output += Array(
        String(decoding: piece, as: UTF8.self).replacingOccurrences(
          of: "닭", with: "\u{1103}\u{1161}\u{11B0}"
        ).utf8)
    }
    mutating func finish(into output: inout [UInt8]) { inner.finish(into: &output) }
  }

  /// Runs the wrong composer under `--verify` with `jobs` threads.
  static func verifyRun(_ inputs: [[UInt8]], jobs: Int, pieceSize: Int) throws -> Outcome {
    try run(inputs) { paths, output, report in
      var runner = ParallelFilterRunner(
        paths: paths, jobs: jobs, pieceSize: pieceSize, outputDescriptor: output)
      runner.countsOutputLines = true
      var tally = VerificationTally()
      let status = runner.run(
        makeFilter: {
          VerifyingFilter(WrongComposer(), verifier: try OutputVerifier(expecting: .composed))
        }, continues: { _, _ in true },
        merge: { filter, place, finished in
          if finished { tally.add(filter, at: place) }
        }, report: report
      ).exitStatus
      return tally.status(after: status, report: report)
    }
  }

  @Test func verifyProblemsPastTheFirstPieceHaveTheirLineInTheirFile() throws {
    let clean = Array(String(repeating: "ㅇㅏㄴㄴㅕㅇ ㅎㅏㅅㅔㅇㅛ\n", count: 400).utf8)
    let wrong = Array("ㅇㅗㄴㅡㄹ ㄷㅏㄹㄱ\n".utf8)
    // Nothing wrong in the first pieces; two problems in the second file, one in the third.
    let inputs = [clean, clean + clean + wrong + clean + wrong, [], wrong + clean]
    let single = try Self.verifyRun(inputs, jobs: 1, pieceSize: 0)
    #expect(single.status == 65)
    #expect(single.messages.first?.hasPrefix("/in1:801:4: ") == true)
    #expect(single.messages.last == "2 more spans disagree with ICU")
    for (jobs, pieceSize) in Self.layouts {
      #expect(try Self.verifyRun(inputs, jobs: jobs, pieceSize: pieceSize) == single)
    }
  }

  /// A checker of normal form behind a filter that writes its input unchanged.
  struct UncheckedText: ByteFilter {
    var checker: NormalFormChecker
    mutating func beginInput(named name: String) { checker.beginInput(named: name) }
    mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
      output += chunk
      checker.check(chunk)
    }
    mutating func finish(into output: inout [UInt8]) {}
  }

  @Test(arguments: [UInt8(0x0A), 0])
  func normalFormProblemsHaveTheirRecordInTheirFile(separator: UInt8) throws {
    let end = String(UnicodeScalar(separator))
    let clean = Array(String(repeating: "가나다 é\(end)", count: 500).utf8)
    let wrong = Array("ok e\u{301}\(end)".utf8)
    let inputs = [clean + wrong + clean, clean + wrong]
    func checkRun(jobs: Int, pieceSize: Int) throws -> Outcome {
      try Self.run(inputs) { paths, output, report in
        let runner = ParallelFilterRunner(
          paths: paths, jobs: jobs, separator: separator, pieceSize: pieceSize,
          outputDescriptor: output)
        var tally = VerificationTally()
        let status = runner.run(
          makeFilter: {
            UncheckedText(checker: try NormalFormChecker(form: .nfc, separator: separator))
          },
          continues: { _, _ in true },
          merge: { filter, place, finished in
            if finished {
              tally.add(
                filter.checker.firstProblem, count: filter.checker.problemCount,
                shift: filter.checker.problemShift(at: place))
            }
          }, report: report
        ).exitStatus
        return tally.status(after: status, form: .nfc, report: report)
      }
    }
    let single = try checkRun(jobs: 1, pieceSize: 0)
    #expect(single.messages.first?.hasPrefix("/in0:501:4: not NFC") == true, "\(single.messages)")
    #expect(single.messages.last == "1 more places are not NFC")
    for (jobs, pieceSize) in Self.layouts {
      #expect(try checkRun(jobs: jobs, pieceSize: pieceSize) == single)
    }
  }

  // MARK: --stats

  @Test func textLogStatisticsAddUpAsOneRun() throws {
    let keys = Array(
      String(repeating: "ㅇㅏㄴㄴㅕㅇ\u{8}\u{8}ㅎㅏㅅㅔㅇㅛ\u{7F}ㄱ\n\u{8}ㄷ\n", count: 700).utf8)
    func statsRun(jobs: Int, pieceSize: Int) throws -> Outcome {
      try Self.run([keys, keys]) { paths, output, report in
        let runner = ParallelFilterRunner(
          paths: paths, jobs: jobs, pieceSize: pieceSize, outputDescriptor: output)
        var statistics = StatisticsReport()
        let status = runner.run(
          makeFilter: { ComposeFilter(keys: .jamo, maximumLineLength: 50) },
          continues: { _, _ in true },
          merge: { filter, _, finished in
            if finished { statistics.append(filter.statistics) }
          }, report: report
        ).exitStatus
        report(statistics.text)
        report(statistics.json)
        return status
      }
    }
    let single = try statsRun(jobs: 1, pieceSize: 0)
    #expect(single.messages.first?.contains("total  ") == true)
    for (jobs, pieceSize) in Self.layouts {
      #expect(try statsRun(jobs: jobs, pieceSize: pieceSize) == single)
    }
  }

  // MARK: event logs

  /// An event log of many documents with errors spread over it: lines that
  /// are not JSON, unknown keys, times going back, a byte order mark in the
  /// middle, blank lines, documents named on every line or only on the first,
  /// a long document, fractional times.
  static func eventLog(seed: UInt64, documents: Int, firstTime: Double = 1_000) -> [UInt8] {
    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let jamo = Array("ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎㅏㅑㅓㅕㅗㅛㅜㅠㅡㅣㅐㅔ").map(String.init)
    let named = ["Backspace", "Enter", "ArrowLeft", "Home", "End", "HangulMode", "Shift", "Delete"]
    var time = firstTime
    var lines = ["\u{FEFF}"]
    for document in 1...documents {
      let name = document % 3 == 0 ? "\"d\(document)\"" : "\(document)"
      let count = document % 11 == 0 ? 600 : 5 + next(60)
      for index in 0..<count {
        time += Double(next(300)) + (document % 5 == 0 ? 0.25 : 0)
        var members = ["\"t\":\(time)"]
        let roll = next(100)
        if roll < 80 {
          members.append("\"key\":\"\(jamo[next(jamo.count)])\"")
        } else if roll < 92 {
          members.append("\"key\":\"\(named[next(named.count)])\"")
        } else if roll < 95 {
          members.append("\"text\":\"안녕\"")
        } else {
          members.append("\"code\":\"Key\(["A", "R", "K"][next(3)])\"")
        }
        if document % 2 == 0 || index == 0 { members.append("\"doc\":\(name)") }
        var line = "{" + members.joined(separator: ",") + "}"
        switch next(1000) {
        case 0: line = "{\"key\": broken"
        case 1: line = "{\"key\":\"Esc\"}"
        case 2: line = "{\"t\":\(time - 5000),\"key\":\"ㄱ\"}"
        case 3: line = "\u{FEFF}" + line
        case 4: line = ""
        default: break
        }
        lines.append(line + "\n")
      }
    }
    return Array(lines.joined().utf8)
  }

  typealias Events = ErrorLoggingFilter<VerifyingFilter<EventLogFilter>>

  /// Replays `inputs` as an event log with `jobs` threads, errors, statistics
  /// and `--verify` merged as hangul-compose does.
  static func eventRun(
    _ inputs: [[UInt8]], jobs: Int, pieceSize: Int, output: EventLogFilter.Output = .text,
    boundaryReach: Int = 256 * 1024
  ) throws -> Outcome {
    try run(inputs) { paths, descriptor, report in
      var runner = ParallelFilterRunner(
        paths: paths, jobs: jobs, pieceSize: pieceSize, outputDescriptor: descriptor)
      runner.boundaryReach = boundaryReach
      runner.countsOutputLines = true
      runner.documentKey = { EventLogFilter.documentKey(ofLine: $0) }
      var statistics = StatisticsReport()
      var tally = VerificationTally()
      var errorCount = 0
      let status = runner.run(
        makeFilter: { () throws -> Events in
          let log = PieceErrorLog(limit: 30)
          return ErrorLoggingFilter(
            log: log,
            VerifyingFilter(
              EventLogFilter(output: output, includesStatistics: true) { log.add($0) },
              verifier: try OutputVerifier(expecting: .composed)))
        },
        merge: { (filter: inout Events, place: PiecePlace, finished: Bool) in
          errorCount += filter.log.drain(shift: place.recordsBeforeInInput) {
            errorCount += 1
            if errorCount <= 30 { report($0.description) }
          }
          if finished {
            statistics.append(filter.inner.statistics)
            tally.add(filter.inner, at: place)
          }
        }, report: report
      ).exitStatus
      report(statistics.text)
      report(statistics.json)
      report("\(errorCount) errors")
      return tally.status(after: status, report: report)
    }
  }

  @Test(arguments: [EventLogFilter.Output.text, .jsonl])
  func eventLogsGiveWhatOneRunGives(output: EventLogFilter.Output) throws {
    let first = Self.eventLog(seed: 1, documents: 120)
    // The second file goes on with times and documents of its own, the third goes back in time.
    let inputs = [
      first, Self.eventLog(seed: 2, documents: 60, firstTime: 10_000_000), [],
      Self.eventLog(seed: 3, documents: 30) + Array("{\"key\":\"ㄱ\"}".utf8),
    ]
    let single = try Self.eventRun(inputs, jobs: 1, pieceSize: 0, output: output)
    #expect(single.messages.contains { $0.hasPrefix("/in0:") && $0.contains("not valid JSON") })
    // More errors than the 30 shown: the pieces drop some and count them.
    let total = single.messages.last { $0.hasSuffix(" errors") }
    #expect(total.flatMap { Int($0.prefix { $0 != " " }) }.map { $0 > 30 } == true)
    #expect(single.messages.contains { $0.contains("\"t\" went backwards") })
    // The last layout reaches so little past its pieces that most lines
    // outreach it: their pieces run in order, cut inside the line.
    for (jobs, pieceSize, reach) in Self.layouts.map({ ($0, $1, 256 * 1024) }) + [(2, 97, 3)] {
      let parallel = try Self.eventRun(
        inputs, jobs: jobs, pieceSize: pieceSize, output: output, boundaryReach: reach)
      expectSameBytes(parallel.output, single.output)
      #expect(
        parallel.messages == single.messages,
        "jobs \(jobs), pieces of \(pieceSize), reach \(reach)")
      #expect(parallel.status == single.status)
    }
  }

  @Test func aDocumentGoingOnIntoTheNextFileIsOneDocument() throws {
    let head = Array("{\"doc\":1,\"key\":\"ㄱ\"}\n{\"doc\":1,\"key\":\"ㅏ\"}\n".utf8)
    let tail = Array("{\"key\":\"ㄴ\"}\n{\"doc\":2,\"key\":\"ㅏ\"}\n\u{FEFF}{\"key\":\"ㄱ\"}\n".utf8)
    let single = try Self.eventRun([head, tail], jobs: 1, pieceSize: 0)
    #expect(String(decoding: single.output, as: UTF8.self) == "간\nㅏ\n")
    #expect(single.messages.first?.hasPrefix("/in1:3:1: not valid JSON") == true)
    for (jobs, pieceSize) in [(2, 1), (2, 20), (4, 1)] {
      #expect(try Self.eventRun([head, tail], jobs: jobs, pieceSize: pieceSize) == single)
    }
  }

  @Test func documentKeysAreFoundInTheLineAsWritten() {
    func key(_ line: String) -> String? {
      let bytes = Array(line.utf8)
      return bytes.withUnsafeBufferPointer { buffer in
        EventLogFilter.documentKey(ofLine: buffer).map {
          String(decoding: bytes[$0], as: UTF8.self)
        }
      }
    }
    #expect(key(#"{"doc":"a\"b","key":"ㄱ"}"#) == #""a\"b""#)
    #expect(key(#"{"key":"ㄱ", "doc": 12}"#) == "12")
    #expect(key(#"{"key":"ㄱ"}"#) == nil)
  }

  // MARK: filters whose state reaches across lines

  /// Numbers the lines of all its inputs: a fresh filter can never take over.
  struct LineNumbering: ByteFilter {
    var line = 0
    var atLineStart = true
    mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
      for byte in chunk {
        if atLineStart {
          line += 1
          output += Array("\(line): ".utf8)
        }
        output.append(byte)
        atLineStart = byte == 0x0A
      }
    }
    mutating func finish(into output: inout [UInt8]) {}
  }

  @Test func aFilterThatNeverContinuesRunsEveryPieceAgainInOrder() throws {
    let text = Array(String(repeating: "가나다\n", count: 3000).utf8)
    func numbered(jobs: Int, pieceSize: Int) throws -> Outcome {
      try Self.run([text, text]) { paths, output, report in
        var finishedLines = 0
        let status = ParallelFilterRunner(
          paths: paths, jobs: jobs, pieceSize: pieceSize, outputDescriptor: output
        ).run(
          makeFilter: { LineNumbering() }, continues: { _, _ in false },
          merge: { filter, _, finished in if finished { finishedLines += filter.line } },
          report: report
        ).exitStatus
        report("\(finishedLines) lines")
        return status
      }
    }
    let single = try numbered(jobs: 1, pieceSize: 0)
    #expect(single.messages == ["6000 lines"])
    for (jobs, pieceSize) in Self.layouts {
      #expect(try numbered(jobs: jobs, pieceSize: pieceSize) == single)
    }
  }
}
