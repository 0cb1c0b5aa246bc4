/// An open input of a parallel run, with its size and time at open.
struct OpenFile {
  let snapshot: FileSnapshot

  /// The path as messages show it (``FilePath/description``).
  var path: String { snapshot.name }
  var descriptor: Int32 { snapshot.descriptor }
  /// The size at open: the runner reads no further.
  var size: Int { snapshot.size }

  /// Reads `count` bytes at `offset` into `buffer` (replacing its
  /// contents). A file that ends before (it shrank) is an error
  /// (``StreamError/fileChanged(path:)``).
  func read(at offset: Int, count: Int, into buffer: inout [UInt8]) throws {
    // Reuses the buffer's storage and contents: fresh pages, and zeroing what
    // is read over, cost more than the reading.
    if buffer.count > count {
      buffer.removeLast(buffer.count - count)
    } else if buffer.count < count {
      if buffer.capacity < count { buffer.reserveCapacity(roundedCapacity(count)) }
      buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
    }
    var done = 0
    while done < count {
      let got = buffer.withUnsafeMutableBytes { raw in
        // pread(2) writes at most `count - done` bytes from `done` on.
        assert(raw.count == count && done < count, "the buffer holds what is read")
        return SystemCalls.pread(
          descriptor, raw.baseAddress.map { $0 + done }, count - done, at: offset + done)
      }
      if got < 0 {
        let error = SystemCalls.errorNumber
        if error == SystemCalls.interrupted { continue }
        throw StreamError.cannotRead(path: path, reason: StreamError.reason(error))
      }
      if got == 0 { throw StreamError.fileChanged(path: path) }
      done += got
    }
  }
}

/// `count` rounded up to a whole MiB, so that a buffer reused for pieces of
/// nearly the same size is not reallocated for a few bytes more.
func roundedCapacity(_ count: Int) -> Int {
  (count + (1 << 20) - 1) & ~((1 << 20) - 1)
}

/// Where a piece of a parallel run lies, as the cutting made it.
struct PieceCut<ResumePoint: Sendable> {
  let index: Int
  let fileIndex: Int
  let range: Range<Int>
  /// Whether the piece begins inside a line (record) that the piece before
  /// it could not reach the end of: no worker runs it, the writer runs it
  /// in order with the filter before it.
  var startsInsideRecord = false
  /// What the boundary finder found where the piece begins.
  var resumePoint: ResumePoint?
}

/// A piece of one input and what its filter made of it. It belongs to one
/// thread at a time, handed over through the schedule's lock: the worker
/// that runs it, then the writer.
final class Piece<Filter: ByteFilter>: @unchecked Sendable {
  let cut: PieceCut<Filter.ResumePoint>
  var input: [UInt8] = []
  var output: [UInt8] = []
  /// Output its filter handed over in the sinks it wrote it into (before `output`).
  var handed: [ByteSink] = []
  var filter: Filter?
  var error: (any Error)?
  /// Separator bytes in the piece.
  var records = 0
  /// Newlines in the piece (the records, when the separator is a newline).
  var newlines = 0
  var firstInvalid: UTF8Validator.InvalidByte?
  /// Whether `input` holds the piece's bytes (it may be a reused buffer of
  /// an earlier piece's).
  private var inputIsRead = false

  init(_ cut: PieceCut<Filter.ResumePoint>) {
    self.cut = cut
  }

  var index: Int { cut.index }
  var fileIndex: Int { cut.fileIndex }
  var range: Range<Int> { cut.range }
  var startsInsideRecord: Bool { cut.startsInsideRecord }
  var resumePoint: Filter.ResumePoint? { cut.resumePoint }
  var isInputStart: Bool { range.lowerBound == 0 }

  /// Calls `body` with the piece's bytes: those read already, or, when
  /// `mapping` allows it, its range of `file` mapped for the time of the
  /// call (no kernel copy of it), or else read into `input`; and whether
  /// they are mapped (only mapped pages may be dropped with
  /// ``FileMapping/release(_:)``).
  func withBytes<Result>(
    in file: OpenFile, mapping: Bool,
    _ body: (UnsafeBufferPointer<UInt8>, _ mapped: Bool) throws -> Result
  ) throws -> Result {
    if !inputIsRead {
      if mapping,
        let mapped = FileMapping(
          descriptor: file.descriptor, range: range, name: file.path)
      {
        defer { mapped.unmap() }
        return try body(mapped.bytes, true)
      }
      try file.read(at: range.lowerBound, count: range.count, into: &input)
      inputIsRead = true
    }
    assert(input.count == range.count, "the piece's bytes were read whole")
    return try input.withUnsafeBufferPointer { try body($0, false) }
  }

  /// Takes the piece's buffers, emptied of output, for a later piece.
  func takeBuffers() -> (input: [UInt8], output: [UInt8]) {
    var buffers: ([UInt8], [UInt8]) = ([], [])
    swap(&buffers.0, &input)
    swap(&buffers.1, &output)
    buffers.1.removeAll(keepingCapacity: true)
    handed.removeAll()
    return buffers
  }
}

/// How a piece's bytes go through a filter, on a worker or on the writer.
enum PieceFeeding {
  /// The size of the blocks ``FilterRunner`` reads, which a piece is fed in.
  static let blockSize = 128 * 1024

  /// Where the piece `bytes` may have a byte that is not UTF-8: checked only
  /// when its filter did not find every chunk to be UTF-8
  /// (``ByteFilter/lastChunkWasUTF8``) or it ends inside a sequence (the
  /// writer then finds the first such byte of its file).
  static func firstInvalid(
    in bytes: UnsafeBufferPointer<UInt8>, filterFoundUTF8: Bool
  ) -> UTF8Validator.InvalidByte? {
    guard !filterFoundUTF8 || UTF8Validator.openSequenceStart(in: bytes) != nil else { return nil }
    var validator = UTF8Validator()
    validator.scan(bytes)
    validator.finish()
    return validator.firstInvalid
  }

  /// Hands `bytes` to `filter` in blocks of ``blockSize``: a filter's
  /// scratch space stays the size it has on one thread (a fresh filter per
  /// piece would otherwise grow it afresh, page by page). A filter that
  /// writes into storage of its own may hand it to `hand` instead of
  /// copying into `output` (NFD of Korean text: its output, twice the
  /// input, is not copied). Returns whether the filter found every block to
  /// be UTF-8. Once the filter has written into `output`, it is given room
  /// for `expected` bytes (outputs up to three times as long, keys and NFD,
  /// without growing); a filter that hands its storage over is given none
  /// (peak memory). `fed` is called with each block after the filter took
  /// it, while its bytes are still in the cache (counting lines).
  static func feed<Filter: ByteFilter>(
    _ bytes: UnsafeBufferPointer<UInt8>, to filter: inout Filter, into output: inout [UInt8],
    reserving expected: Int = 0, handingOver hand: ((ByteSink) -> Void)? = nil,
    fed: (UnsafeBufferPointer<UInt8>) -> Void = { _ in }
  ) throws -> Bool {
    var start = 0
    var checked = true
    while start < bytes.count {
      let end = min(bytes.count, start + blockSize)
      let chunk = UnsafeBufferPointer(rebasing: bytes[start..<end])
      if let hand {
        // Kept: the filter goes on in new storage.
        try filter.process(chunk, into: &output) { sink in
          hand(sink)
          return true
        }
      } else {
        try filter.process(chunk, into: &output)
      }
      if !output.isEmpty, output.capacity < expected {
        output.reserveCapacity(roundedCapacity(expected))
      }
      checked = checked && filter.lastChunkWasUTF8
      fed(chunk)
      start = end
    }
    return checked
  }
}
