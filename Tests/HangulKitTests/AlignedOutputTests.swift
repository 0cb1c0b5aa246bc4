import Foundation
import HangulKit
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The runner's output (``AlignedOutput``): large writes to a regular file
/// end at multiples of the alignment in the file, whatever the sizes
/// written, and nothing is lost or reordered.
@Suite("Aligned output")
struct AlignedOutputTests {
  static let alignment = AlignedOutput.alignment

  /// A new file in the temporary folder holding `prefix`.
  static func file(holding prefix: [UInt8]) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hangul-aligned-\(UUID().uuidString)"
    ).path
    try Data(prefix).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func size(of descriptor: Int32) -> Int {
    var info = stat()
    return fstat(descriptor, &info) == 0 ? Int(info.st_size) : -1
  }

  @Test(
    "a large write to a regular file ends at a multiple of the alignment, a small one goes through",
    arguments: [0, 1, 4097, alignment + 3], [false, true])
  func regularFile(prefixLength: Int, appending: Bool) throws {
    let prefix = [UInt8](repeating: 0x2D, count: prefixLength)
    let path = try Self.file(holding: prefix)
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Appending starts at the end whatever the offset; otherwise the
    // offset is set after the prefix, as `1<>` and a seek leave it.
    let descriptor = open(path, appending ? O_WRONLY | O_APPEND : O_WRONLY)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    if !appending { lseek(descriptor, off_t(prefixLength), SEEK_SET) }
    let output = AlignedOutput(descriptor: descriptor)
    var generator = SeededGenerator(seed: UInt64(prefixLength) &* 2 &+ (appending ? 1 : 0))
    var expected = prefix
    for round in 0..<40 {
      // Sizes from nothing to more than two alignments.
      let count = Int.random(in: 0...(2 * Self.alignment + 5), using: &generator) >> (round % 5)
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ round) }
      expected += bytes
      try bytes.withUnsafeBytes { try output.write($0) }
      let written = Self.size(of: descriptor)
      if count >= Self.alignment {
        #expect(written % Self.alignment == 0, "round \(round): the file ends at \(written)")
        #expect(expected.count - written < Self.alignment, "less than an alignment waits")
      } else {
        #expect(written == expected.count, "round \(round): a small write goes through whole")
      }
    }
    try output.flush()
    let same = Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected
    #expect(same, "the file holds what was written, in order")
  }

  @Test("a pipe is written at once, as it comes")
  func pipeAtOnce() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    let output = AlignedOutput(descriptor: ends[1])
    let bytes = Array("가나다\n".utf8)
    try bytes.withUnsafeBytes { try output.write($0) }
    var received = [UInt8](repeating: 0, count: 64)
    let count = read(ends[0], &received, received.count)
    #expect(Array(received.prefix(max(count, 0))) == bytes)
  }

  @Test("a failed write fails every later write and flush with the same error")
  func stickyFailure() throws {
    let path = try Self.file(holding: [])
    defer { try? FileManager.default.removeItem(atPath: path) }
    // A regular file open for reading only: every write(2) fails.
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    let output = AlignedOutput(descriptor: descriptor)
    // Large: its tail would wait, but the part before fails first.
    let large = [UInt8](repeating: 0x61, count: Self.alignment + 10)
    let expected = StreamError.cannotWrite(reason: "Bad file descriptor")
    #expect(throws: expected) { try large.withUnsafeBytes { try output.write($0) } }
    #expect(throws: expected) { try output.flush() }
    let small: [UInt8] = [0x61, 0x0A]
    #expect(throws: expected) { try small.withUnsafeBytes { try output.write($0) } }
  }

  @Test("input read as a stream (a pipe) is written to a file at once, not held back")
  func streamWrittenAtOnce() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let path = try Self.file(holding: [])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let descriptor = open(path, O_WRONLY)
    defer { close(descriptor) }
    let (reading, writing) = (ends[0], ends[1])
    let finished = DispatchSemaphore(value: 0)
    Thread {
      var filter = try! NormalizeFilter(form: .nfc)
      _ = FilterRunner(paths: [FilePath("/dev/fd/\(reading)")], outputDescriptor: descriptor)
        .run(&filter) { _ in }
      finished.signal()
    }.start()
    let line = Array("한글\n".utf8)
    _ = line.withUnsafeBytes { Glibc.write(writing, $0.baseAddress, $0.count) }
    // The line's output shows while the pipe is still open.
    var shown = 0
    for _ in 0..<1000 where shown == 0 {
      shown = Self.size(of: descriptor)
      if shown == 0 { usleep(10_000) }
    }
    #expect(shown > 0, "nothing written while the input stays open")
    close(writing)
    finished.wait()
    close(reading)
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == line)
  }

  @Test("a message follows the output written before it, in one file (2>&1)")
  func messageAfterOutput() throws {
    // Text longer than an alignment, then a byte that is not UTF-8: the
    // warning comes at the end of the input, after all of its output.
    let text = [UInt8](String(repeating: "한글 text\n", count: 40_000).utf8) + [0xFF, 0x0A]
    let input = try Self.file(holding: text)
    let output = try Self.file(holding: [])
    defer {
      try? FileManager.default.removeItem(atPath: input)
      try? FileManager.default.removeItem(atPath: output)
    }
    let descriptor = open(output, O_WRONLY | O_APPEND)
    defer { close(descriptor) }
    var filter = try NormalizeFilter(form: .nfc)
    let outcome = FilterRunner(paths: [FilePath(input)], outputDescriptor: descriptor).run(
      &filter
    ) { message in
      let line = Array((message + "\n").utf8)
      _ = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
    #expect(outcome == .completed)
    let written = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    let outputFirst = written.starts(with: text)
    #expect(outputFirst, "the output first, whole")
    let message = String(decoding: written.dropFirst(text.count), as: UTF8.self)
    #expect(message.hasPrefix("\(input):") && message.contains("warning"), "\(message)")
  }
}
