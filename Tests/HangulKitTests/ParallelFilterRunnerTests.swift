import Foundation
import HangulCommandLine
import HangulKit
import Synchronization
import Testing

/// `ParallelFilterRunner` must write what `FilterRunner` writes, messages
/// included, however small the pieces.
@Suite struct ParallelFilterRunnerTests {
  /// Korean text of a few hundred lines: the shared corpus when present, else a sample.
  static let prose: [UInt8] = {
    // Beside the clone, as bench/run.py finds it (not at one machine's path).
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let corpus = here.appendingPathComponent("../../../shared/corpus/ko-prose.txt")
    if let data = try? Data(contentsOf: corpus) { return Array(data.prefix(60_000)) }
    let sample = here.appendingPathComponent("../../samples/qwerty-keys.expected.txt")
    let text = (try? Data(contentsOf: sample)).map(Array.init) ?? Array("안녕하세요\n".utf8)
    return Array(repeating: text, count: 40).flatMap { $0 }
  }()

  /// The prose as 2-set keys with Backspaces, a byte that is not UTF-8 in the
  /// middle, a line longer than any piece, and no newline at the end.
  static let keys: [UInt8] = {
    var decomposer = DecomposeFilter(form: .keys)
    var bytes = (try? decomposer.filtered(prose)) ?? []
    let middle = bytes.count / 2
    bytes.insert(contentsOf: [0x08, 0x7F, 0xC7, 0xD1, 0x0A, 0xE3, 0x85, 0x81, 0x08], at: middle)
    bytes += Array(repeating: Array("ㄱㅏㄱ".utf8), count: 900).flatMap { $0 }
    bytes += [0x0A] + Array("ㄷㅏㄹㄱ".utf8)
    return bytes
  }()

  /// Runs `makeFilter` over `inputs` (written to files) with `runner`; returns
  /// the output, the messages and the status.
  static func run<Filter: ByteFilter>(
    _ inputs: [[UInt8]], jobs: Int, pieceSize: Int, separator: UInt8 = 0x0A,
    boundaryReach: Int = 256 * 1024, _ makeFilter: () throws -> Filter
  ) throws -> (output: [UInt8], messages: [String], status: Int32) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("parallel-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    for (index, input) in inputs.enumerated() {
      let url = folder.appendingPathComponent("in\(index).txt")
      try Data(input).write(to: url)
      paths.append(url.path)
    }
    let outputURL = folder.appendingPathComponent("out")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    let handle = try FileHandle(forWritingTo: outputURL)
    var messages: [String] = []
    let report: (String) -> Void = {
      messages.append($0.replacingOccurrences(of: folder.path, with: ""))
    }
    let status: Int32
    if jobs == 1 {
      var filter = try makeFilter()
      status =
        FilterRunner(
          paths: paths, outputDescriptor: handle.fileDescriptor, mapsInputs: true
        ).run(&filter, report: report).exitStatus
    } else {
      var runner = ParallelFilterRunner(
        paths: paths, jobs: jobs, separator: separator, pieceSize: pieceSize,
        outputDescriptor: handle.fileDescriptor)
      runner.boundaryReach = boundaryReach
      runner.mapsInputs = true
      status = runner.run(makeFilter: makeFilter, report: report).exitStatus
    }
    try handle.close()
    return (Array(try Data(contentsOf: outputURL)), messages, status)
  }

  /// Expects jobs 2, 3 and 4 with pieces of several sizes to give what jobs
  /// 1 gives; with a reach past the piece size so short that most lines
  /// outreach it too (their pieces then run in order, inside the line).
  static func expectSameAsOneThread<Filter: ByteFilter>(
    _ inputs: [[UInt8]], separator: UInt8 = 0x0A, _ makeFilter: () throws -> Filter
  ) throws {
    let single = try run(inputs, jobs: 1, pieceSize: 0, separator: separator, makeFilter)
    #expect(!single.output.isEmpty)
    for (jobs, pieceSize, reach) in [
      (2, 997, 256 * 1024), (3, 4096, 256 * 1024), (4, 65_536, 256 * 1024),
      (2, 1 << 21, 256 * 1024),
      (2, 997, 0), (3, 4096, 40),
    ] {
      let parallel = try run(
        inputs, jobs: jobs, pieceSize: pieceSize, separator: separator, boundaryReach: reach,
        makeFilter)
      expectSameBytes(parallel.output, single.output)
      #expect(
        parallel.messages == single.messages, "jobs \(jobs), pieces of \(pieceSize), reach \(reach)"
      )
      #expect(parallel.status == single.status)
    }
  }

  @Test func composingKeysWithBackspacesAndBadBytes() throws {
    try Self.expectSameAsOneThread([Self.keys]) { ComposeFilter(keys: .jamo) }
    #expect(
      try Self.run([Self.keys], jobs: 1, pieceSize: 0) { ComposeFilter() }.messages.count == 1)
  }

  /// Each piece's filter takes over the key transition tables of the piece
  /// its thread read before (``ByteFilter/reuseCaches(of:)``): 2-set and
  /// layout (3-set) keys with text and Backspaces, also with tables so small
  /// that they keep starting over, must still compose what one thread does.
  @Test(arguments: ["2", "3f", "39"])
  func composingWithTablesTakenOverFromThePieceBefore(id: String) throws {
    let keyboard = try Keyboard(id: id)
    var generator = SeededGenerator(seed: 0x71EC_E5 &+ UInt64(id.utf8.count))
    let log = KeyRunTests.randomLog(
      &generator, keys: .qwerty, keyboard: keyboard, length: 12_000, text: true)
    let bytes = Array(String(String.UnicodeScalarView(log)).utf8)
    for limit in [5, LineEditor.defaultTransitionStateLimit] {
      try Self.expectSameAsOneThread([bytes, Self.keys]) {
        ComposeFilter(keys: .qwerty, keyboard: keyboard, transitionStateLimit: limit)
      }
    }
  }

  @Test func composingWithLinesFlushedPastTheMaximum() throws {
    try Self.expectSameAsOneThread([Self.keys]) {
      ComposeFilter(keys: .jamo, maximumLineLength: 100)
    }
  }

  @Test func composingSeveralFiles() throws {
    let half = Self.keys.count / 2
    let cut = (Self.keys[..<half].lastIndex(of: 0x0A) ?? 0) + 1
    try Self.expectSameAsOneThread([Array(Self.keys[..<cut]), [], Array(Self.keys[cut...])]) {
      ComposeFilter(keys: .jamo)
    }
  }

  @Test func aFileEndingMidLineBeforeAnotherRunsAsOneThread() throws {
    // The line goes on into the next file: the pieces cannot be cut apart.
    try Self.expectSameAsOneThread([Array("ㄱㅏ".utf8), Array("ㄱㅏ\n".utf8) + Self.keys]) {
      ComposeFilter(keys: .jamo)
    }
  }

  @Test(arguments: [DecompositionForm.keys, .qwerty, .jamo, .initials])
  func decomposing(form: DecompositionForm) throws {
    try Self.expectSameAsOneThread([Self.prose, Self.keys]) { DecomposeFilter(form: form) }
  }

  @Test("a piece the filter found to be UTF-8 but that ends inside a sequence is still checked")
  func decomposingAFileEndingInsideASequence() throws {
    for tail: [UInt8] in [[0xEA, 0xB0], [0xE3], [0xF0, 0x9F, 0x98], [0xC3]] {
      try Self.expectSameAsOneThread([Self.prose + tail]) { DecomposeFilter(form: .keys) }
      let single = try Self.run([Self.prose + tail], jobs: 1, pieceSize: 0) {
        DecomposeFilter(form: .keys)
      }
      #expect(single.messages.count == 1, "\(tail)")
    }
  }

  @Test(arguments: [ICUNormalizer.Form.nfc, .nfd, .nfkc, .nfkd])
  func normalizing(form: ICUNormalizer.Form) throws {
    var nfd = try NormalizeFilter(form: .nfd)
    let decomposed = try nfd.filtered(Self.prose)
    try Self.expectSameAsOneThread([decomposed, Self.keys]) { try NormalizeFilter(form: form) }
  }

  @Test func normalizingNulTerminatedRecords() throws {
    let records = Self.prose.map { $0 == 0x0A ? 0 : $0 }
    try Self.expectSameAsOneThread([records], separator: 0) {
      try CheckedNormalizeFilter(form: .nfd, verify: false, separator: 0)
    }
  }

  /// A filter that stops with an error at the first line that is `STOP`.
  struct StoppingFilter: ByteFilter {
    var name = ""
    var line = 1
    var atLineStart = true
    var lineText: [UInt8] = []

    mutating func beginInput(named name: String) { self.name = name }

    mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) throws {
      for byte in chunk {
        output.append(byte)
        if byte == 0x0A {
          if lineText == Array("STOP".utf8) {
            throw PositionedError(file: name, line: line, column: 1, message: "stopped")
          }
          lineText = []
          line += 1
        } else {
          lineText.append(byte)
        }
      }
    }

    mutating func finish(into output: inout [UInt8]) throws {}
  }

  @Test func anErrorInAPieceHasItsLineInTheFile() throws {
    var input = Self.prose
    input.insert(contentsOf: Array("STOP\n".utf8), at: (input.firstIndex(of: 0x0A) ?? 0) + 1)
    let lineCount = input.count { $0 == 0x0A }
    input += Array("STOP\n".utf8)  // the last line: only the first is reported
    let shifted = Array(Self.prose) + input
    let single = try Self.run([shifted], jobs: 1, pieceSize: 0) { StoppingFilter() }
    #expect(single.status == 65)
    #expect(single.messages == ["/in0.txt:\(Self.prose.count { $0 == 0x0A } + 2):1: stopped"])
    #expect(lineCount > 2)
    try Self.expectSameAsOneThread([shifted]) { StoppingFilter() }
  }

  @Test("no more threads than processors, nor than pieces")
  func threadBounds() throws {
    let processors = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    for jobs in [0, 2, 3, 100_000, Int.max] {
      #expect(
        ParallelFilterRunner(paths: [FilePath](), jobs: jobs).threadCount
          == min(processors, jobs == 0 ? .max : jobs))
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("threads-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("in.txt")
    try Data(Self.prose).write(to: file)
    // One piece: one thread; two pieces or more: as many threads as they and the processors allow.
    for (pieceSize, parallel) in [
      (Self.prose.count, false), (Self.prose.count - 1, processors > 1),
    ] {
      let runner = ParallelFilterRunner(paths: [file.path], jobs: Int.max, pieceSize: pieceSize)
      #expect(runner.runsInParallel == parallel, "pieces of \(pieceSize)")
    }
  }

  /// A FIFO opened to be looked at, closed, and opened again by the
  /// one-thread run lost what its writer wrote, or waited for a writer
  /// that never came: it is not opened at all but by the run.
  @Test("a FIFO is not opened to decide whether to run in parallel")
  func fifoIsNotOpened() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("fifo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // After a second, a writer opens the FIFO without waiting: it can only
    // if a reader waits in open(2), which it then lets go on.
    let rescued = Mutex<Bool?>(nil)
    Thread {
      Thread.sleep(forTimeInterval: 1)
      let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
      if descriptor >= 0 { close(descriptor) }
      rescued.withLock { $0 = descriptor >= 0 }
    }.start()
    let runner = ParallelFilterRunner(paths: [fifo], jobs: 2)
    #expect(!runner.runsInParallel)
    var opened: Bool?
    while opened == nil {
      Thread.sleep(forTimeInterval: 0.05)
      opened = rescued.withLock { $0 }
    }
    #expect(opened == false, "the FIFO was opened")
  }
}
