#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs a ``ByteFilter`` over regular files on several threads: each file is
/// cut into pieces that end with a ``separator`` byte (a newline: a line
/// never spans two pieces), every piece goes through a fresh filter on its own
/// thread, and the outputs are written in input order. The output is byte for
/// byte what ``FilterRunner`` writes, for a filter whose state at the start of
/// a line is its initial state.
///
///     let runner = ParallelFilterRunner(paths: ["big.txt"], jobs: 2)
///     let status = runner.run(makeFilter: { NormalizeFilter(.nfc) }) { print($0) }
///
/// Standard input, a path that is not a readable regular file, a file other
/// than the last that does not end with the separator, ``inputEncoding`` or
/// `jobs` of 1 make it run as ``FilterRunner`` does, on one thread. The
/// warning about bytes that are not UTF-8 names the same line and column as on
/// one thread. Time: O(n) over `jobs` threads. Memory: `jobs` pieces of about
/// ``pieceSize`` bytes, their outputs, and one filter each; a line longer than a
/// piece makes its piece that long.
public struct ParallelFilterRunner: Sendable {
  /// The inputs, in order; `-` is standard input.
  public var paths: [String]
  /// How many threads; 0 means one per online processor.
  public var jobs: Int
  /// The byte that ends a line (or record): pieces are cut after it.
  public var separator: UInt8
  /// The size each piece aims at.
  public var pieceSize: Int
  /// Where the output goes.
  public var outputDescriptor: Int32
  /// The encoding of the inputs when it is not UTF-8 (runs on one thread).
  public var inputEncoding: String?
  /// The size of ``FilterRunner``'s reads, whose boundaries the sample of a
  /// byte that is not UTF-8 stops at (so the encoding guessed from it agrees).
  public var blockSize: Int

  public init(
    paths: [String], jobs: Int, separator: UInt8 = 0x0A, pieceSize: Int = 2 << 20,
    outputDescriptor: Int32 = 1, inputEncoding: String? = nil, blockSize: Int = 128 * 1024
  ) {
    self.blockSize = max(blockSize, 1)
    self.paths = paths.isEmpty ? ["-"] : paths
    self.jobs = jobs
    self.separator = separator
    self.pieceSize = max(pieceSize, 1)
    self.outputDescriptor = outputDescriptor
    self.inputEncoding = inputEncoding
  }

  /// The number of threads `jobs` asks for: itself, or the online processors for 0.
  public var threadCount: Int {
    if jobs > 0 { return jobs }
    return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  }

  /// Runs a filter made by `makeFilter` over the inputs; returns the exit status
  /// as ``FilterRunner/run(_:report:afterBlock:)`` does. `report` receives each
  /// error message, in input order. An error thrown by `makeFilter` is
  /// reported with status 70.
  public func run<Filter: ByteFilter>(
    makeFilter: () throws -> Filter, report: (String) -> Void
  ) -> Int32 {
    let threads = threadCount
    guard threads > 1, inputEncoding == nil, let files = openFiles() else {
      var filter: Filter
      do {
        filter = try makeFilter()
      } catch {
        report("\(error)")
        return 70
      }
      return FilterRunner(
        paths: paths, outputDescriptor: outputDescriptor, blockSize: blockSize,
        inputEncoding: inputEncoding
      ).run(&filter, report: report)
    }
    defer { for file in files { close(file.descriptor) } }
    do {
      for file in files {
        if let stop = try run(file, threads: threads, makeFilter: makeFilter, report: report) {
          return stop
        }
      }
    } catch let error as StreamError {
      if error != .brokenPipe { report(error.description) }
      return error.exitStatus
    } catch {
      report("\(error)")
      return 70
    }
    return 0
  }

  /// An open input and its size.
  private struct OpenFile {
    var path: String
    var descriptor: Int32
    var size: Int
  }

  /// Opens every input, or returns `nil` when one is standard input, cannot be
  /// opened, is not a regular file, or (but for the last) does not end with
  /// the separator: those run on one thread.
  private func openFiles() -> [OpenFile]? {
    var files: [OpenFile] = []
    func giveUp() -> [OpenFile]? {
      for file in files { close(file.descriptor) }
      return nil
    }
    for (index, path) in paths.enumerated() {
      guard path != "-" else { return giveUp() }
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return giveUp() }
      var info = stat()
      guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
        close(descriptor)
        return giveUp()
      }
      let file = OpenFile(path: path, descriptor: descriptor, size: Int(info.st_size))
      files.append(file)
      if index < paths.count - 1, file.size > 0 {
        var last: UInt8 = 0
        guard pread(descriptor, &last, 1, off_t(file.size - 1)) == 1, last == separator else {
          return giveUp()
        }
      }
    }
    return files
  }

  /// Runs one file in rounds of `threads` pieces; returns an exit status when
  /// the run must stop (a data error thrown by the filter).
  private func run<Filter: ByteFilter>(
    _ file: OpenFile, threads: Int, makeFilter: () throws -> Filter, report: (String) -> Void
  ) throws -> Int32? {
    var offset = 0
    var line = 1
    var firstInvalid: UTF8Validator.InvalidByte?
    var buffer: [UInt8] = []
    // The outputs of the last round, emptied and reused: fresh pages cost more than the work.
    var spareOutputs: [[UInt8]] = []
    while offset < file.size {
      let wanted = min(file.size - offset, threads * pieceSize)
      try readFully(file, at: offset, count: wanted, into: &buffer)
      // A round must end with a separator unless it ends the file.
      while offset + buffer.count < file.size, !buffer.contains(separator) {
        let more = min(file.size - offset - buffer.count, pieceSize)
        var extra: [UInt8] = []
        try readFully(file, at: offset + buffer.count, count: more, into: &extra)
        buffer += extra
      }
      var roundEnd = buffer.count
      if offset + buffer.count < file.size, let last = buffer.lastIndex(of: separator) {
        roundEnd = last + 1
      }
      let pieces = cut(buffer[..<roundEnd], into: threads)
      let results = try buffer.withUnsafeBufferPointer { bytes in
        try process(
          pieces, of: bytes, name: file.path, outputs: &spareOutputs, makeFilter: makeFilter)
      }
      for (range, result) in zip(pieces, results) {
        try write(result.output)
        if let error = result.error {
          if let positioned = error as? PositionedError {
            var moved = positioned
            moved.line += line - 1
            report(moved.description)
            return 65
          }
          throw error
        }
        if firstInvalid == nil, result.firstInvalid != nil {
          firstInvalid = try locateInvalidByte(
            in: file, from: offset + range.lowerBound, line: line)
        }
        line += result.newlines
      }
      spareOutputs = results.map { result in
        var output = result.output
        output.removeAll(keepingCapacity: true)
        return output
      }
      offset += roundEnd
    }
    if let firstInvalid { report(firstInvalid.warning(file: file.path)) }
    return nil
  }

  /// Finds the first byte that is not UTF-8 from `start` on, where a piece with
  /// one begins, exactly as ``FilterRunner`` reports it: scanned from the
  /// start of its line (`line`), in blocks at the same offsets as its reads.
  /// Time: O(the line before `start` plus the piece), once per file.
  private func locateInvalidByte(
    in file: OpenFile, from start: Int, line: Int
  ) throws -> UTF8Validator.InvalidByte? {
    var lineStart = start
    var block: [UInt8] = []
    // Back to the newline before `start` (the piece may begin after a NUL).
    while lineStart > 0 {
      let from = max(0, lineStart - blockSize)
      try readFully(file, at: from, count: lineStart - from, into: &block)
      if let newline = block.lastIndex(of: 0x0A) {
        lineStart = from + newline + 1
        break
      }
      lineStart = from
    }
    var validator = UTF8Validator()
    var position = lineStart
    while position < file.size, validator.firstInvalid == nil {
      let blockEnd = min(file.size, (position / blockSize + 1) * blockSize)
      try readFully(file, at: position, count: blockEnd - position, into: &block)
      block.withUnsafeBufferPointer { validator.scan($0) }
      position = blockEnd
    }
    if position >= file.size { validator.finish() }
    guard var invalid = validator.firstInvalid else { return nil }
    invalid.line += line - 1
    return invalid
  }

  /// Cuts `bytes` into at most `count` ranges of about equal size, each but the
  /// last ending with the separator.
  private func cut(_ bytes: ArraySlice<UInt8>, into count: Int) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = bytes.startIndex
    let target = max(1, (bytes.count + count - 1) / count)
    while start < bytes.endIndex {
      var end = min(bytes.endIndex, start + target)
      if end < bytes.endIndex {
        if let next = bytes[end...].firstIndex(of: separator) {
          end = next + 1
        } else {
          end = bytes.endIndex
        }
      }
      ranges.append(start..<end)
      start = end
    }
    if ranges.isEmpty { ranges.append(start..<start) }
    return ranges
  }

  /// What one piece gave.
  private struct PieceResult {
    var output: [UInt8] = []
    var error: (any Error)?
    var newlines = 0
    var firstInvalid: UTF8Validator.InvalidByte?
  }

  /// Runs each piece through its own filter, the first on this thread and the
  /// others on new threads; returns the results in order.
  private func process<Filter: ByteFilter>(
    _ pieces: [Range<Int>], of bytes: UnsafeBufferPointer<UInt8>, name: String,
    outputs: inout [[UInt8]], makeFilter: () throws -> Filter
  ) throws -> [PieceResult] {
    var jobs: [PieceJob<Filter>] = []
    for (index, range) in pieces.enumerated() {
      let job = PieceJob(
        filter: try makeFilter(), piece: UnsafeBufferPointer(rebasing: bytes[range]), name: name)
      if index < outputs.count { swap(&job.result.output, &outputs[index]) }
      jobs.append(job)
    }
    outputs = []
    var threads: [pthread_t] = []
    for job in jobs.dropFirst() {
      var thread = pthread_t()
      let context = Unmanaged.passRetained(job as AnyPieceJob).toOpaque()
      let created = pthread_create(
        &thread, nil,
        { raw in
          guard let raw else { return nil }
          let job = Unmanaged<AnyPieceJob>.fromOpaque(raw).takeRetainedValue()
          job.run()
          return nil
        }, context)
      if created == 0 {
        threads.append(thread)
      } else {
        Unmanaged<AnyPieceJob>.fromOpaque(context).release()
        job.run()
      }
    }
    jobs.first?.run()
    for thread in threads { pthread_join(thread, nil) }
    return jobs.map(\.result)
  }

  /// Reads `count` bytes at `offset` into `buffer` (replacing its contents).
  private func readFully(
    _ file: OpenFile, at offset: Int, count: Int, into buffer: inout [UInt8]
  ) throws {
    if buffer.count != count { buffer = [UInt8](repeating: 0, count: count) }
    var done = 0
    while done < count {
      let got = buffer.withUnsafeMutableBytes { raw in
        pread(
          file.descriptor, raw.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw StreamError.cannotRead(path: file.path, reason: StreamError.reason(errno))
      }
      if got == 0 { break }
      done += got
    }
    if done < count { buffer.removeLast(count - done) }
  }

  private func write(_ output: [UInt8]) throws {
    guard !output.isEmpty else { return }
    try output.withUnsafeBytes { try writeAll($0, to: outputDescriptor) }
  }

  /// A piece and its filter, run on one thread.
  private class AnyPieceJob {
    var result = PieceResult()
    func run() {}
  }

  private final class PieceJob<Filter: ByteFilter>: AnyPieceJob {
    var filter: Filter
    let piece: UnsafeBufferPointer<UInt8>
    let name: String

    init(filter: Filter, piece: UnsafeBufferPointer<UInt8>, name: String) {
      self.filter = filter
      self.piece = piece
      self.name = name
    }

    /// How many newline bytes `bytes` holds, found with memchr(3).
    static func newlines(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
      guard var cursor = bytes.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
      let end = cursor + bytes.count
      var count = 0
      while cursor < end, let found = memchr(cursor, 0x0A, end - cursor) {
        count += 1
        cursor = UnsafeRawPointer(found) + 1
      }
      return count
    }

    override func run() {
      var validator = UTF8Validator()
      validator.scan(piece)
      validator.finish()
      result.firstInvalid = validator.firstInvalid
      result.newlines = Self.newlines(in: piece)
      result.output.reserveCapacity(piece.count * 2)
      filter.beginInput(named: name)
      do {
        try filter.process(piece, into: &result.output)
        try filter.finish(into: &result.output)
      } catch {
        result.error = error
      }
    }
  }
}
