import Foundation
import HangulCommandLine
import HangulKit
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A regular file that shrinks or grows while a runner reads it is an error
/// (status 74, `FILE: the file changed while it was read`), on one thread
/// and on several: never bytes that were not in it (the zeros past a shrunk
/// end inside the last mapped page), never bytes silently not read, never a
/// run that does not end. The file is changed by the filter itself, when it
/// gets its first chunk: the change comes at a known point of the run.
@Suite("Inputs that change while read")
struct ChangingInputTests {
  /// Copies its input and, at its first chunk (of any filter sharing
  /// `change`), changes the file.
  struct ChangingFilter: ByteFilter {
    /// Its pieces may begin where a JSON boundary finder says (it reads them as any).
    typealias ResumePoint = JSONRecordSplitter.ResumePoint
    let change: Change

    mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) throws {
      change.happenOnce()
      output.append(contentsOf: chunk)
    }

    mutating func finish(into output: inout [UInt8]) throws {}
  }

  /// A change to a file, made once by whichever filter gets a chunk first.
  final class Change: Sendable {
    let path: String
    let kind: Kind
    private let happened = Atomic<Bool>(false)

    enum Kind: Sendable, CustomStringConvertible {
      /// Cut by this many bytes.
      case shrink(Int)
      /// This many bytes appended.
      case grow(Int)

      var description: String {
        switch self {
        case .shrink(let count): "shrunk by \(count) bytes"
        case .grow(let count): "grown by \(count) bytes"
        }
      }
    }

    init(path: String, kind: Kind) {
      self.path = path
      self.kind = kind
    }

    func happenOnce() {
      guard !happened.exchange(true, ordering: .relaxed) else { return }
      var info = stat()
      guard stat(path, &info) == 0 else { return }
      switch kind {
      case .shrink(let count):
        _ = truncate(path, info.st_size - off_t(count))
      case .grow(let count):
        let descriptor = open(path, O_WRONLY | O_APPEND)
        let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: count)
        _ = write(descriptor, bytes, bytes.count)
        close(descriptor)
      }
    }
  }

  /// Lines of UTF-8 text, with no NUL byte: `size` bytes, a newline every 80.
  static func text(size: Int) -> [UInt8] {
    let line = Array((String(repeating: "가나다라 abc ", count: 4) + "0123456789.\n").utf8)
    assert(line.count == 80)
    return Array(Array(repeating: line, count: size / line.count + 1).joined().prefix(size))
  }

  /// Writes `input` to a file, runs `run` on its path with an output file,
  /// and returns the output, the messages (with the path as `IN`) and the status.
  static func running(
    _ input: [UInt8], _ run: (_ path: String, _ output: Int32, _ report: (String) -> Void) -> Int32
  ) throws -> (output: [UInt8], messages: [String], status: Int32) {
    var messages: [String] = []
    let (status, output) = try withInputFile(input, prefix: "changing") { path, output in
      run(path, output) { messages.append($0.replacingOccurrences(of: path, with: "IN")) }
    }
    return (output, messages, status)
  }

  /// The sizes: a file read with read(2) (under 1 MiB) and one mapped; each
  /// ends 2,000 bytes into a page, so that cutting 100 bytes leaves its
  /// last page mapped (no SIGBUS: the cut bytes read as zeros).
  static let sizes = [64 * 4096 + 2_000, 600 * 4096 + 2_000]

  /// Runs `ChangingFilter`s over mapped pieces, cut at lines or (`byRecords`)
  /// where a guessing JSON boundary finder says; returns the exit status.
  static func run(
    _ runner: ParallelFilterRunner, byRecords: Bool, change: Change, report: (String) -> Void
  ) -> Int32 {
    var runner = runner
    runner.mapsInputs = true
    var boundaries: (@Sendable () -> any PieceBoundaryFinder<JSONRecordSplitter.ResumePoint>)?
    if byRecords { boundaries = { JSONRecordBoundaryFinder(guessing: true) } }
    let outcome = runner.run(
      makeFilter: { ChangingFilter(change: change) }, boundaries: boundaries,
      merge: { _, _, _ in }, report: report)
    return outcome.exitStatus
  }

  static let kinds: [Change.Kind] = [.shrink(100), .grow(5_000)]

  @Test("one thread: a file that changes while read is an error", arguments: sizes, kinds)
  func oneThread(size: Int, kind: Change.Kind) throws {
    let input = Self.text(size: size)
    let result = try Self.running(input) { path, output, report in
      var filter = ChangingFilter(change: Change(path: path, kind: kind))
      return FilterRunner(paths: [path], outputDescriptor: output, mapsInputs: true).run(
        &filter, report: report
      ).exitStatus
    }
    #expect(result.status == 74, "\(size) bytes, \(kind)")
    #expect(result.messages == ["IN: the file changed while it was read"])
    #expect(!result.output.contains(0), "no byte that was not in the file")
    #expect(input.starts(with: result.output))
  }

  @Test(
    "several threads: a file that changes while read is an error", arguments: [false, true], kinds)
  func severalThreads(byRecords: Bool, kind: Change.Kind) throws {
    // Pieces of 64 KiB: the last ones are cut and read well after the
    // first piece's filter changed the file.
    let input = Self.text(size: 40 * 65_536 + 2_000)
    let result = try Self.running(input) { path, output, report in
      let runner = ParallelFilterRunner(
        paths: [path], jobs: 2, pieceSize: 65_536, outputDescriptor: output)
      let change = Change(path: path, kind: kind)
      return Self.run(runner, byRecords: byRecords, change: change, report: report)
    }
    #expect(result.status == 74, "\(kind)")
    #expect(result.messages == ["IN: the file changed while it was read"])
    #expect(!result.output.contains(0), "no byte that was not in the file")
    #expect(input.starts(with: result.output))
  }

  /// `hangul-reviews import --jobs N` on a file truncated while its
  /// records were cut into pieces read on and on at the old size, finding
  /// no bytes and no boundary: 100 % CPU, forever, holding the mutex.
  @Test("several threads: cutting a file cut short by far ends", arguments: [false, true])
  func cutShortByFar(byRecords: Bool) throws {
    let input = Self.text(size: 40 * 65_536)
    let result = try Self.running(input) { path, output, report in
      let runner = ParallelFilterRunner(
        paths: [path], jobs: 2, pieceSize: 65_536, outputDescriptor: output)
      // To three quarters: well past the pieces cut when it happens (no
      // SIGBUS), well before the end the cutting reads to.
      let change = Change(path: path, kind: .shrink(input.count / 4))
      return Self.run(runner, byRecords: byRecords, change: change, report: report)
    }
    #expect(result.status == 74)
    #expect(result.messages == ["IN: the file changed while it was read"])
    #expect(input.starts(with: result.output))
  }
}
