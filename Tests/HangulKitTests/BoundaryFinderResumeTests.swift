import Foundation
import HangulCommandLine
import HangulKit
import Synchronization
import Testing

/// After a wrong guess, a guessing ``JSONRecordBoundaryFinder`` goes on from
/// where the filter that read the input in order stands
/// (``PieceBoundaryFinder/stopGuessing(resumingFrom:)``), not from the
/// input's start: from any boundary's resume point it must find the
/// boundaries after it exactly as a finder that followed the input from its
/// start does.
@Suite("Boundary finders resumed from a known place")
struct BoundaryFinderResumeTests {
  /// Every boundary after the finder's position and its resume point,
  /// reading `input` on in windows of `window` bytes.
  static func boundaries(
    of finder: JSONRecordBoundaryFinder, in input: [UInt8], window: Int
  ) -> [JSONRecordSplitter.ResumePoint] {
    var finder = finder
    var found: [JSONRecordSplitter.ResumePoint] = []
    var target = finder.position + 1
    while finder.position < input.count {
      let start = finder.position
      let end = min(input.count, start + window)
      let boundary = input.withUnsafeBufferPointer {
        finder.boundary(in: UnsafeBufferPointer(rebasing: $0[start..<end]), notBefore: target)
      }
      if let boundary {
        found.append(finder.resumePoint)
        target = boundary + 1
      }
    }
    return found
  }

  @Test("resumed at any boundary, a finder finds the boundaries after it", arguments: [7, 4096])
  func resumedAtEveryBoundary(window: Int) {
    for (layout, input) in ParallelImportTests.layouts(count: 12).enumerated() {
      let exact = Self.boundaries(of: JSONRecordBoundaryFinder(), in: input, window: window)
      #expect(exact.count >= 10, "layout \(layout): \(exact.count) boundaries")
      for (index, point) in exact.enumerated() {
        var resumed = JSONRecordBoundaryFinder(guessing: true)
        resumed.stopGuessing(resumingFrom: point)
        #expect(!resumed.isGuessing)
        #expect(resumed.position == point.offset, "layout \(layout), boundary \(index)")
        let after = Self.boundaries(of: resumed, in: input, window: window)
        #expect(after == Array(exact[(index + 1)...]), "layout \(layout), boundary \(index)")
      }
    }
  }

  /// A guessing JSON finder that counts how the runner had it stop guessing.
  struct CountingFinder: PieceBoundaryFinder {
    final class Calls: Sendable {
      let fromStart = Atomic(0)
      let fromPoint = Atomic(0)
    }
    var inner = JSONRecordBoundaryFinder(guessing: true)
    let calls: Calls

    mutating func boundary(in bytes: UnsafeBufferPointer<UInt8>, notBefore target: Int) -> Int? {
      inner.boundary(in: bytes, notBefore: target)
    }
    var resumePoint: JSONRecordSplitter.ResumePoint { inner.resumePoint }
    var position: Int { inner.position }
    mutating func stopGuessing() {
      calls.fromStart.add(1, ordering: .relaxed)
      inner.stopGuessing()
    }
    mutating func stopGuessing(resumingFrom point: JSONRecordSplitter.ResumePoint) {
      calls.fromPoint.add(1, ordering: .relaxed)
      inner.stopGuessing(resumingFrom: point)
    }
  }

  @Test("after a wrong guess the runner has the finder go on from where the filter stood")
  func runnerResumesTheFinderFromTheFilter() throws {
    // A second envelope: the guesses in it are wrong (its container is not the first's).
    let first = Array(
      ("{\"data\":[\n"
        + (0..<40).map { ParallelImportTests.review($0, pretty: nil) }.joined(separator: ",\n")
        + "\n]}\n").utf8)
    let second = Array(
      ("{\"page\":2,\"data\":[\n"
        + (0..<400).map { ParallelImportTests.review($0, pretty: nil) }.joined(separator: ",\n")
        + "\n]}\n").utf8)
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("finder-resume-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("in.json").path
    try Data(first + second).write(to: URL(fileURLWithPath: path))
    func output(jobs: Int, calls: CountingFinder.Calls) throws -> (Int32, Data) {
      let outputPath = folder.appendingPathComponent("out\(jobs)").path
      _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
      let handle = try #require(FileHandle(forWritingAtPath: outputPath))
      let runner = ParallelFilterRunner(
        paths: [path], jobs: jobs, pieceSize: 500, outputDescriptor: handle.fileDescriptor)
      let outcome = runner.run(
        makeFilter: { try ReviewImportFilter(log: ReviewImportLog()) },
        boundaries: { CountingFinder(calls: calls) }, merge: { _, _, _ in },
        report: { Issue.record("unexpected message: \($0)") })
      try handle.close()
      return (outcome.exitStatus, try Data(contentsOf: URL(fileURLWithPath: outputPath)))
    }
    let single = try output(jobs: 1, calls: CountingFinder.Calls())
    let calls = CountingFinder.Calls()
    let parallel = try output(jobs: 2, calls: calls)
    #expect(parallel == single)
    guard ParallelFilterRunner(paths: [path], jobs: 2).threadCount > 1 else { return }
    #expect(calls.fromPoint.load(ordering: .relaxed) >= 1)
    #expect(calls.fromStart.load(ordering: .relaxed) == 0)
  }
}
