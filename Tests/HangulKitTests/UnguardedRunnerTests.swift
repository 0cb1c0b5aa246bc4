import Foundation
import HangulKit
import Testing

/// A library user's runner maps no file unless told the process handles
/// SIGBUS (``FilterRunner/mapsInputs``): a file truncated by someone else
/// while mapped would raise SIGBUS, and the library must never have the
/// process killed. Unguarded, the runners read with read(2) and pread(2),
/// and the output is the same.
@Suite("Runners without a SIGBUS guard")
struct UnguardedRunnerTests {
  /// Copies its input and notes whether any chunk it got lay in a mapped file.
  struct MappingProbe: ByteFilter {
    let sawMappedBytes: SawMappedBytes

    final class SawMappedBytes: @unchecked Sendable {
      var value = false
    }

    mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
      if let base = chunk.baseAddress,
        MappedFileFaults.message(forFaultAt: UInt(bitPattern: base)) != nil
      {
        sawMappedBytes.value = true
      }
      output.append(contentsOf: chunk)
    }

    mutating func finish(into output: inout [UInt8]) {}
  }

  /// 6 MiB of lines: past the size a runner maps a file from, three pieces of 2 MiB.
  static let input = Array(
    Array(repeating: Array("가나다라마바사 abc\n".utf8), count: 6 * 1024 * 1024 / 25).joined())

  /// Runs `input` from a file through the probe; returns the output and
  /// whether the probe saw mapped bytes.
  static func run(
    jobs: Int, mapping: Bool
  ) throws -> (output: [UInt8], mapped: Bool, outcome: RunOutcome) {
    let saw = MappingProbe.SawMappedBytes()
    let (outcome, output) = try withInputFile(input, prefix: "unguarded") { path, output in
      if jobs == 1 {
        var runner = FilterRunner(paths: [path], outputDescriptor: output)
        if mapping { runner.mapsInputs = true }
        var filter = MappingProbe(sawMappedBytes: saw)
        return runner.run(&filter) { Issue.record("unexpected message: \($0)") }
      }
      var runner = ParallelFilterRunner(paths: [path], jobs: jobs, outputDescriptor: output)
      if mapping { runner.mapsInputs = true }
      return runner.run(makeFilter: { MappingProbe(sawMappedBytes: saw) }) {
        Issue.record("unexpected message: \($0)")
      }
    }
    return (output, saw.value, outcome)
  }

  @Test("a runner maps no file unless told to, and reads it whole", arguments: [1, 2])
  func readsWithoutMapping(jobs: Int) throws {
    let (output, mapped, outcome) = try Self.run(jobs: jobs, mapping: false)
    #expect(outcome == .completed)
    #expect(output == Self.input, "jobs \(jobs): \(output.count) bytes")
    #expect(!mapped, "jobs \(jobs): a chunk lay in a mapped file")
    // The probe sees mapping when there is some: the test can fail.
    let guarded = try Self.run(jobs: jobs, mapping: true)
    let guardedMapped = guarded.mapped
    #expect(guarded.output == Self.input, "jobs \(jobs): \(guarded.output.count) bytes")
    #expect(guardedMapped, "jobs \(jobs): told to map, the runner read")
  }
}
