import Foundation
import HangulCommandLine
import HangulKit
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// ``FilterRunner`` maps regular files of 1 MiB or more instead of reading
/// them: the same files read through a pipe (read(2), never mapped) must give
/// the same output, messages and status, for every kind of content and size
/// around the thresholds.
@Suite("Mapped input")
struct MappedInputTests {
  /// Random text: Korean words and spaces, ASCII, other scripts, marks,
  /// conjoining jamo, and now and then a byte that is not UTF-8; no
  /// newline at the end unless it falls there.
  static func randomText(_ generator: inout SeededGenerator, count: Int, invalid: Bool) -> [UInt8] {
    let pieces: [[UInt8]] =
      ["가", "한국어", "닭", " ", "\n", "abc", "é", "e\u{301}", "\u{1100}\u{1161}", "😀", "ﬁ", "①"]
      .map { Array($0.utf8) }
    var text: [UInt8] = []
    text.reserveCapacity(count + 8)
    while text.count < count {
      if invalid, UInt64.random(in: 0..<50_000, using: &generator) == 0 {
        text.append([0xFF, 0xC3, 0xED, 0x80][Int.random(in: 0..<4, using: &generator)])
      } else {
        text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }
    }
    return Array(text.prefix(count))
  }

  /// Runs a fresh filter over `inputs` named by the paths `name` gives for
  /// each input's index; returns the output, the messages (paths replaced by
  /// `IN<index>`) and the status.
  static func run<Filter: ByteFilter>(
    _ paths: [String], _ makeFilter: () throws -> Filter
  ) throws -> (output: [UInt8], messages: [String], status: Int32) {
    let outputURL = FileManager.default.temporaryDirectory
      .appendingPathComponent("mapped-out-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: outputURL) }
    let handle = try FileHandle(forWritingTo: outputURL)
    var messages: [String] = []
    var filter = try makeFilter()
    let status = FilterRunner(
      paths: paths, outputDescriptor: handle.fileDescriptor, mapsInputs: true
    ).run(&filter) { message in
      var message = message
      for (index, path) in paths.enumerated() {
        message = message.replacingOccurrences(of: path, with: "IN\(index)")
      }
      messages.append(message)
    }.exitStatus
    try handle.close()
    return (Array(try Data(contentsOf: outputURL)), messages, status)
  }

  /// The result of running over `inputs` as files (mapped when large) and
  /// through pipes (read).
  static func expectMappedEqualsRead<Filter: ByteFilter>(
    _ inputs: [[UInt8]], _ makeFilter: () throws -> Filter,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("mapped-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var files: [String] = []
    for (index, input) in inputs.enumerated() {
      let url = folder.appendingPathComponent("in\(index).txt")
      try Data(input).write(to: url)
      files.append(url.path)
    }
    let mapped = try run(files, makeFilter)
    // Pipes: one per input, each fed by a thread of its own.
    var readEnds: [Int32] = []
    var writers: [Thread] = []
    for input in inputs {
      var ends: [Int32] = [0, 0]
      #expect(pipe(&ends) == 0, sourceLocation: sourceLocation)
      readEnds.append(ends[0])
      let writeEnd = ends[1]
      writers.append(
        Thread {
          input.withUnsafeBytes { try? writeAll($0, to: writeEnd) }
          close(writeEnd)
        })
    }
    for writer in writers { writer.start() }
    defer { for end in readEnds { close(end) } }
    let read = try run(readEnds.map { "/dev/fd/\($0)" }, makeFilter)
    expectSameBytes(mapped.output, read.output, sourceLocation: sourceLocation)
    #expect(mapped.messages == read.messages, sourceLocation: sourceLocation)
    #expect(mapped.status == read.status, sourceLocation: sourceLocation)
  }

  /// Sizes around the mapping threshold (1 MiB) and the block size (128 KiB).
  static let sizes = [0, 1, 4095, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 1_234_567, 3 << 20]

  @Test("NFD of files mapped equals NFD read, whatever their size", arguments: sizes)
  func nfdSizes(size: Int) throws {
    var generator = SeededGenerator(seed: UInt64(size) &+ 17)
    let text = Self.randomText(&generator, count: size, invalid: true)
    try Self.expectMappedEqualsRead([text]) { try NormalizeFilter(form: .nfd) }
  }

  @Test("NFC, NFKD and decomposing to keys agree too; the first byte not UTF-8 is reported alike")
  func otherFilters() throws {
    var generator = SeededGenerator(seed: 99)
    let text = Self.randomText(&generator, count: (2 << 20) + 333, invalid: true)
    try Self.expectMappedEqualsRead([text]) { try NormalizeFilter(form: .nfc) }
    try Self.expectMappedEqualsRead([text]) { try NormalizeFilter(form: .nfkd) }
    try Self.expectMappedEqualsRead([text]) {
      DecomposeFilter(form: .keys, keyboard: try Keyboard(id: "2"), plain: false)
    }
  }

  @Test("several files, large and small, valid and not, one after another")
  func severalFiles() throws {
    var generator = SeededGenerator(seed: 5)
    let inputs = [
      Self.randomText(&generator, count: (1 << 20) + 5, invalid: false),
      [],
      Self.randomText(&generator, count: 100, invalid: true),
      Self.randomText(&generator, count: (3 << 20) - 7, invalid: true),
    ]
    try Self.expectMappedEqualsRead(inputs) { try NormalizeFilter(form: .nfd) }
  }

  @Test(
    "UTF-8 whose lines are counted late: a byte not UTF-8 after megabytes of UTF-8, a sequence cut off at the end, a last character that is not ASCII"
  )
  func lateChecks() throws {
    var generator = SeededGenerator(seed: 11)
    let valid = Self.randomText(&generator, count: 3 << 20, invalid: false)
    let korean = Array("한".utf8)
    var inputs: [[UInt8]] = [
      valid + [0xEA, 0xB0], valid + korean, valid + [0x0A], valid + [0xFF],
      Array(valid.prefix(2_600_000)) + [0xFF] + Array(valid.dropFirst(2_600_000)),
      Array(valid.prefix(600_000)) + [0xC3] + Array(valid.dropFirst(600_000)),
    ]
    // The cut at the end of one file, the next file fine.
    inputs.append(valid + [0xF0, 0x9F])
    inputs.append(valid)
    for input in inputs {
      try Self.expectMappedEqualsRead([input]) { try NormalizeFilter(form: .nfd) }
    }
    try Self.expectMappedEqualsRead(Array(inputs.suffix(2))) { try NormalizeFilter(form: .nfc) }
  }
}
