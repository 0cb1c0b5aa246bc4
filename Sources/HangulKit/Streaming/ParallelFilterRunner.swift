#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
internal import CSystemCalls

/// Runs a ``ByteFilter`` over regular files on several threads: each file is
/// cut into pieces that end with a ``separator`` byte (a newline: a line
/// never spans two pieces), every piece goes through a fresh filter on a
/// worker thread, and the outputs are written in input order by the calling
/// thread while the workers go on. The output is byte for byte what
/// ``FilterRunner`` writes, for a filter whose state at the start of a line
/// is its initial state, or whose `continues` check tells when it is not (the
/// piece is then run again, in order, by the filter before it).
///
///     let runner = ParallelFilterRunner(paths: ["big.txt"], jobs: 2)
///     let status = runner.run(makeFilter: { NormalizeFilter(.nfc) }) { print($0) }
///
/// Standard input, a path that is not a readable regular file, a file other
/// than the last that does not end with the separator, ``inputEncoding`` or
/// `jobs` of 1 make it run as ``FilterRunner`` does, on one thread. The
/// warning about bytes that are not UTF-8 names the same line and column as on
/// one thread. Each worker maps its own piece for the time it filters it
/// (``FileMapping``; read with pread(2) into a reused buffer when it cannot
/// be mapped); finished outputs go to the writer without a copy.
/// Time: O(n) over `jobs` threads. Memory: at most 2 × `jobs` pieces of about
/// ``pieceSize`` bytes in flight, their outputs, and one filter each; a line
/// longer than a piece makes its piece that long.
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
  /// Whether ``PiecePlace/outputLinesBefore`` is counted (a pass over the output).
  public var countsOutputLines = false
  /// Where in a line its document's name is, for inputs whose pieces should
  /// begin with a document (event logs): a piece then starts, where it can,
  /// at a line whose name differs from the one of the line with a name
  /// before it, within 256 KiB after its size.
  public var documentKey: (@Sendable (UnsafeBufferPointer<UInt8>) -> Range<Int>?)?
  /// Makes, for each file, the finder of where its pieces may begin, for
  /// inputs whose records are not lines (JSON envelopes): a piece then ends
  /// at the first boundary at or after its size, the filter of the next one
  /// begins with ``ByteFilter/beginPiece(named:resumingAt:)``, and files
  /// need not end with the separator.
  public var boundaryFinder: (@Sendable () -> any PieceBoundaryFinder)?

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

  /// Whether the inputs run on several threads (else as ``FilterRunner`` does).
  public var runsInParallel: Bool {
    guard threadCount > 1, inputEncoding == nil, let files = openFiles() else { return false }
    for file in files { close(file.descriptor) }
    return true
  }

  /// Runs a filter made by `makeFilter` over the inputs; returns the exit status
  /// as ``FilterRunner/run(_:report:afterBlock:)`` does. `report` receives each
  /// error message, in input order. An error thrown by `makeFilter` is
  /// reported with status 70.
  public func run<Filter: ByteFilter>(
    makeFilter: () throws -> Filter, report: (String) -> Void
  ) -> Int32 {
    run(makeFilter: makeFilter, continues: { _, _ in true }, merge: { _, _, _ in }, report: report)
  }

  /// Runs a filter made by `makeFilter` over the inputs, as
  /// ``run(makeFilter:report:)`` does, for filters that find things (errors,
  /// statistics) and filters whose state can reach across lines.
  ///
  /// - `continues(before, next)`: whether `next`, a fresh filter that ran the
  ///   piece after the one `before` ran (neither finished yet), wrote what
  ///   `before` would have written going on. When it did not, `before` runs
  ///   that piece too, on the calling thread.
  /// - `merge(filter, place, finished)`: called on the calling thread, in input
  ///   order, after each piece a filter ran was written (`finished` false) and
  ///   once more after the filter was finished (`finished` true); `place`
  ///   tells where its first piece stands, to move line numbers by.
  ///
  /// On one thread the single filter gets `merge(filter, start, true)` once
  /// at the end.
  public func run<Filter: ByteFilter>(
    makeFilter: () throws -> Filter,
    continues: (Filter, Filter) -> Bool,
    merge: (inout Filter, PiecePlace, Bool) -> Void,
    report: (String) -> Void
  ) -> Int32 {
    let threads = threadCount
    guard threads > 1, inputEncoding == nil, let files = openFiles() else {
      return FilterRunner(
        paths: paths, outputDescriptor: outputDescriptor, blockSize: blockSize,
        inputEncoding: inputEncoding
      ).run(makeFilter: makeFilter, merge: merge, report: report)
    }
    defer { for file in files { close(file.descriptor) } }
    return withoutActuallyEscaping(makeFilter) { makeFilter in
      withoutActuallyEscaping(continues) { continues in
        withoutActuallyEscaping(merge) { merge in
          withoutActuallyEscaping(report) { report in
            let schedule = PieceSchedule(
              files: files, separator: separator, pieceSize: pieceSize, inFlight: 2 * threads,
              documentKey: documentKey, makeFilter: makeFilter)
            schedule.makeBoundaryFinder = boundaryFinder
            // Each piece's fresh filter allocates its tables and buffers
            // again: glibc would hand their pages back at every free and
            // fault them in anew (65,000 faults for 1 GB of text → NFD, a
            // quarter of the CPU time --jobs 2 spent over --jobs 1).
            csys_keep_freed_memory()
            let workers = startWorkers(threads, schedule)
            guard !workers.isEmpty else {
              // No thread could start: one thread it is.
              return FilterRunner(
                paths: paths, outputDescriptor: outputDescriptor, blockSize: blockSize
              ).run(
                makeFilter: makeFilter, merge: merge, report: report)
            }
            var writer = PieceWriter(
              runner: self, files: files, continues: continues, merge: merge, report: report)
            let status = writer.writePieces(from: schedule)
            schedule.stop()
            for worker in workers { pthread_join(worker, nil) }
            return status
          }
        }
      }
    }
  }

  /// Starts `count` threads that run pieces from `schedule`.
  private func startWorkers<Filter>(_ count: Int, _ schedule: PieceSchedule<Filter>) -> [pthread_t]
  {
    var workers: [pthread_t] = []
    for _ in 0..<count {
      var thread = pthread_t()
      let context = Unmanaged.passRetained(schedule as AnyPieceSchedule).toOpaque()
      let created = pthread_create(
        &thread, nil,
        { raw in
          guard let raw else { return nil }
          Unmanaged<AnyPieceSchedule>.fromOpaque(raw).takeRetainedValue().work()
          return nil
        }, context)
      if created == 0 {
        workers.append(thread)
      } else {
        Unmanaged<AnyPieceSchedule>.fromOpaque(context).release()
      }
    }
    return workers
  }

  /// Opens every input, or returns `nil` when one is standard input, cannot be
  /// opened, is not a regular file, or (but for the last) does not end with
  /// the separator: those run on one thread.
  fileprivate func openFiles() -> [OpenFile]? {
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
      if index < paths.count - 1, file.size > 0, boundaryFinder == nil {
        var last: UInt8 = 0
        guard pread(descriptor, &last, 1, off_t(file.size - 1)) == 1, last == separator else {
          return giveUp()
        }
      }
    }
    return files
  }

  /// Finds the first byte that is not UTF-8 from `start` on, where a piece with
  /// one begins, exactly as ``FilterRunner`` reports it: scanned from the
  /// start of its line (`line`), in blocks at the same offsets as its reads.
  /// Time: O(the line before `start` plus the piece), once per file.
  fileprivate func locateInvalidByte(
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
}

/// Where the first piece that a filter of ``ParallelFilterRunner`` ran
/// stands in the inputs, for moving the line numbers of what it found.
/// Records are what end with the runner's separator (lines, or NUL-ended
/// records).
public struct PiecePlace: Sendable, Equatable {
  /// Records of all inputs before the piece.
  public var recordsBefore = 0
  /// Records of all inputs before the input the piece is in.
  public var inputStartRecord = 0
  /// Newlines written before the filter's output (when the runner counts them).
  public var outputLinesBefore = 0

  public init() {}

  /// Records of its own input before the piece: what its line numbers move by.
  public var recordsBeforeInInput: Int { recordsBefore - inputStartRecord }
}

/// An open input and its size.
private struct OpenFile {
  var path: String
  var descriptor: Int32
  var size: Int
}

/// Reads `count` bytes of `file` at `offset` into `buffer` (replacing its contents).
private func readFully(
  _ file: OpenFile, at offset: Int, count: Int, into buffer: inout [UInt8]
) throws {
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
      pread(file.descriptor, raw.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
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

/// `count` rounded up to a whole MiB, so that a buffer reused for pieces of
/// nearly the same size is not reallocated for a few bytes more.
private func roundedCapacity(_ count: Int) -> Int {
  (count + (1 << 20) - 1) & ~((1 << 20) - 1)
}

/// A piece of one input and what its filter made of it.
private final class Piece<Filter: ByteFilter> {
  let index: Int
  let fileIndex: Int
  let range: Range<Int>
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
  /// What the boundary finder found where the piece begins.
  var resumePoint: (any Sendable)?

  init(index: Int, fileIndex: Int, range: Range<Int>) {
    self.index = index
    self.fileIndex = fileIndex
    self.range = range
  }

  var isInputStart: Bool { range.lowerBound == 0 }

  /// Whether `input` holds the piece's bytes (it may be a reused buffer of
  /// an earlier piece's).
  private var inputIsRead = false

  /// Calls `body` with the piece's bytes: those read already, or its range
  /// of `file` mapped for the time of the call (no kernel copy of it), or,
  /// when it cannot be mapped, read into `input`.
  func withBytes<Result>(
    in file: OpenFile, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) throws -> Result {
    if !inputIsRead {
      if let mapping = FileMapping(descriptor: file.descriptor, range: range, name: file.path) {
        defer { mapping.unmap() }
        return try body(mapping.bytes)
      }
      try readFully(file, at: range.lowerBound, count: range.count, into: &input)
      inputIsRead = true
    }
    return try input.withUnsafeBufferPointer(body)
  }
}

/// The thread body, without the filter type (for pthread_create).
private class AnyPieceSchedule {
  func work() {}
}

/// The pieces of a run: which is next to cut, which are done, under one mutex.
private final class PieceSchedule<Filter: ByteFilter>: AnyPieceSchedule {
  let files: [OpenFile]
  let separator: UInt8
  let pieceSize: Int
  let inFlightLimit: Int
  let documentKey: (@Sendable (UnsafeBufferPointer<UInt8>) -> Range<Int>?)?
  let makeFilter: () throws -> Filter
  var makeBoundaryFinder: (@Sendable () -> any PieceBoundaryFinder)?

  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  // Guarded by the mutex:
  private var fileIndex = 0
  private var offset = 0
  private var nextIndex = 0
  private var inFlight = 0
  private var stopped = false
  private var pieceCount: Int?
  private var cutError: (any Error)?
  private var done: [Int: Piece<Filter>] = [:]
  /// Buffers of written pieces (outputs emptied; inputs, of pieces that
  /// could not be mapped), kept for the next ones: fresh pages cost more
  /// than the work.
  private var spareInputs: [[UInt8]] = []
  private var spareOutputs: [[UInt8]] = []

  init(
    files: [OpenFile], separator: UInt8, pieceSize: Int, inFlight: Int,
    documentKey: (@Sendable (UnsafeBufferPointer<UInt8>) -> Range<Int>?)?,
    makeFilter: @escaping () throws -> Filter
  ) {
    self.documentKey = documentKey
    self.files = files
    self.separator = separator
    self.pieceSize = pieceSize
    self.inFlightLimit = inFlight
    self.makeFilter = makeFilter
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    condition.deallocate()
  }

  /// Tells the workers to stop after their current piece.
  func stop() {
    pthread_mutex_lock(mutex)
    stopped = true
    pthread_cond_broadcast(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Waits for the piece with `index`; `nil` after the last one. Throws when
  /// the cutting failed (a read error).
  func take(_ index: Int) throws -> Piece<Filter>? {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    while true {
      if let piece = done.removeValue(forKey: index) { return piece }
      if let pieceCount, index >= pieceCount { return nil }
      if let cutError, pieceCount == nil || index >= nextIndex { throw cutError }
      pthread_cond_wait(condition, mutex)
    }
  }

  /// Gives back the buffers of a piece that was written.
  func release(_ piece: Piece<Filter>) {
    var input: [UInt8] = []
    var output: [UInt8] = []
    swap(&input, &piece.input)
    swap(&output, &piece.output)
    output.removeAll(keepingCapacity: true)
    piece.handed.removeAll()
    pthread_mutex_lock(mutex)
    inFlight -= 1
    spareInputs.append(input)
    spareOutputs.append(output)
    pthread_cond_broadcast(condition)
    pthread_mutex_unlock(mutex)
  }

  /// The worker loop: cut the next piece, read it, run it, hand it over.
  override func work() {
    // The filter of the piece this thread read last: the next one takes
    // over its caches (``ByteFilter/reuseCaches(of:)``).
    var earlier: Filter?
    pthread_mutex_lock(mutex)
    while true {
      while !stopped, pieceCount == nil, cutError == nil, inFlight >= inFlightLimit {
        pthread_cond_wait(condition, mutex)
      }
      guard !stopped, pieceCount == nil, cutError == nil else { break }
      let piece: Piece<Filter>
      do {
        guard let next = try cutPiece() else {
          pieceCount = nextIndex
          pthread_cond_broadcast(condition)
          break
        }
        piece = next
      } catch {
        cutError = error
        pthread_cond_broadcast(condition)
        break
      }
      inFlight += 1
      if let buffer = spareInputs.popLast() { piece.input = buffer }
      if let buffer = spareOutputs.popLast() { piece.output = buffer }
      pthread_mutex_unlock(mutex)
      run(piece, after: earlier)
      earlier = piece.filter
      pthread_mutex_lock(mutex)
      done[piece.index] = piece
      pthread_cond_broadcast(condition)
    }
    pthread_mutex_unlock(mutex)
  }

  /// The next piece: from where the last one ended to just after the first
  /// separator at or past `pieceSize` bytes on (an empty file is one empty
  /// piece). Called with the mutex held. Time: O(the bytes it looks at).
  private func cutPiece() throws -> Piece<Filter>? {
    while fileIndex < files.count {
      if files[fileIndex].size == 0, !emptyFileCut {
        emptyFileCut = true
        defer { nextIndex += 1 }
        return Piece(index: nextIndex, fileIndex: fileIndex, range: 0..<0)
      }
      if offset < files[fileIndex].size { break }
      fileIndex += 1
      offset = 0
      emptyFileCut = false
    }
    guard fileIndex < files.count else { return nil }
    let file = files[fileIndex]
    var end = min(file.size, offset + pieceSize)
    var resumePoint: (any Sendable)?
    if let makeBoundaryFinder {
      if offset == 0 {
        boundaryFinder = makeBoundaryFinder()
        nextResumePoint = nil
      } else if guessWasWrong {
        // From here on the finder follows the input (from its start, once).
        boundaryFinder?.stopGuessing()
      }
      guessWasWrong = false
      resumePoint = nextResumePoint
      end = try boundaryEnd(in: file, notBefore: end)
    } else if end < file.size {
      end = try documentStart(in: file, from: end - 1) ?? separatorEnd(in: file, from: end - 1)
    }
    defer {
      nextIndex += 1
      offset = end
    }
    let piece = Piece<Filter>(index: nextIndex, fileIndex: fileIndex, range: offset..<end)
    piece.resumePoint = resumePoint
    return piece
  }

  /// The boundary finder of the file being cut, and what it found where the next piece begins.
  private var boundaryFinder: (any PieceBoundaryFinder)?
  private var nextResumePoint: (any Sendable)?

  /// The first boundary at or after `target` that the finder meets reading
  /// on from where it stopped last, or the end of the file.
  private func boundaryEnd(in file: OpenFile, notBefore target: Int) throws -> Int {
    guard var finder = boundaryFinder else { return file.size }
    defer { boundaryFinder = finder }
    var position = finder.position
    while position < file.size {
      let count = min(file.size - position, 256 * 1024)
      try readFully(file, at: position, count: count, into: &window)
      if let end = window.withUnsafeBufferPointer({
        finder.boundary(in: $0, notBefore: target)
      }) {
        nextResumePoint = finder.resumePoint
        return end
      }
      position = finder.position
    }
    return file.size
  }

  /// Whether the filter before a piece found that the piece's boundary was
  /// not where the finder said (guarded by the mutex).
  private var guessWasWrong = false

  /// Tells the cutting that a piece's filter did not go on from where the
  /// one before it stopped (a wrong guess of the boundary finder, or broken
  /// input): the finder stops guessing.
  func noteWrongBoundary() {
    pthread_mutex_lock(mutex)
    guessWasWrong = true
    pthread_mutex_unlock(mutex)
  }

  /// Whether the empty file at `fileIndex` had its (empty) piece cut.
  private var emptyFileCut = false

  /// Just after the first separator at or after `start`, or the end of the file.
  private func separatorEnd(in file: OpenFile, from start: Int) throws -> Int {
    var position = start
    while position < file.size {
      let count = min(file.size - position, 64 * 1024)
      try readFully(file, at: position, count: count, into: &window)
      if let found = window.firstIndex(of: separator) { return position + found + 1 }
      position += count
    }
    return file.size
  }

  /// The start of the first line after `start` whose document differs
  /// from the one of the line with a document before it, within 256 KiB.
  private func documentStart(in file: OpenFile, from start: Int) throws -> Int? {
    guard let documentKey else { return nil }
    try readFully(file, at: start, count: min(file.size - start, 256 * 1024), into: &window)
    return window.withUnsafeBufferPointer { bytes -> Int? in
      guard let firstEnd = bytes.firstIndex(of: separator) else { return nil }
      var lineStart = firstEnd + 1
      var lastKey: UnsafeBufferPointer<UInt8>?
      while lineStart < bytes.count, let lineEnd = bytes[lineStart...].firstIndex(of: separator) {
        let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
        if let range = documentKey(line) {
          let key = UnsafeBufferPointer(rebasing: line[range])
          if let lastKey, !lastKey.elementsEqual(key) { return start + lineStart }
          lastKey = key
        }
        lineStart = lineEnd + 1
      }
      return nil
    }
  }

  /// The bytes `separatorEnd` reads (guarded by the mutex).
  private var window: [UInt8] = []

  /// Reads and runs one piece (on a worker, without the mutex). The piece is
  /// checked for bytes that are not UTF-8 only when its filter did not find
  /// every chunk to be UTF-8 (``ByteFilter/lastChunkWasUTF8``) or it ends
  /// inside a sequence. The filter takes over the caches of `earlier`, the
  /// filter of the piece the thread read before.
  private func run(_ piece: Piece<Filter>, after earlier: Filter?) {
    let file = files[piece.fileIndex]
    do {
      var filter = try makeFilter()
      if let earlier { filter.reuseCaches(of: earlier) }
      let separator = self.separator
      try piece.withBytes(in: file) { bytes in
        piece.records = ByteCounting.count(separator, in: bytes)
        piece.newlines = separator == 0x0A ? piece.records : ByteCounting.count(0x0A, in: bytes)
        if let point = piece.resumePoint {
          filter.beginPiece(named: file.path, resumingAt: point)
        } else {
          filter.beginPiece(named: file.path, atInputStart: piece.isInputStart)
        }
        defer { piece.filter = filter }
        let checked = try Self.feed(
          bytes, to: &filter, into: &piece.output, reserving: bytes.count * 3
        ) { piece.handed.append($0) }
        guard !checked || UTF8Validator.openSequenceStart(in: bytes) != nil else { return }
        var validator = UTF8Validator()
        validator.scan(bytes)
        validator.finish()
        piece.firstInvalid = validator.firstInvalid
      }
    } catch {
      piece.error = error
    }
  }

  /// Hands `bytes` to `filter` in blocks of 128 KiB, the blocks
  /// ``FilterRunner`` reads: a filter's scratch space stays the size it has on one
  /// thread (a fresh filter per piece would otherwise grow it afresh, page by
  /// page). A filter that writes into storage of its own may hand it to
  /// `hand` instead of copying into `output` (NFD of Korean text: its
  /// output, twice the input, is not copied). Returns whether the filter
  /// found every block to be UTF-8. Once the filter has written into
  /// `output`, it is given room for `expected` bytes (outputs up to three
  /// times as long, keys and NFD, without growing); a filter that hands its
  /// storage over is given none (peak memory).
  static func feed(
    _ bytes: UnsafeBufferPointer<UInt8>, to filter: inout Filter, into output: inout [UInt8],
    reserving expected: Int = 0, handingOver hand: ((ByteSink) -> Void)? = nil
  ) throws -> Bool {
    let block = 128 * 1024
    var start = 0
    var checked = true
    while start < bytes.count {
      let end = min(bytes.count, start + block)
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
      start = end
    }
    return checked
  }
}

/// The calling thread's side of a run: takes the pieces in order, judges
/// whether each one's filter may take over, writes, and reports.
private struct PieceWriter<Filter: ByteFilter> {
  let runner: ParallelFilterRunner
  let files: [OpenFile]
  let continues: (Filter, Filter) -> Bool
  let merge: (inout Filter, PiecePlace, Bool) -> Void
  let report: (String) -> Void

  /// The filter that ran the last piece written, not finished yet, and its place.
  private var current: Filter?
  private var currentPlace = PiecePlace()
  private var records = 0
  private var outputLines = 0
  private var inputStartRecord = 0
  /// Newlines of the current input before the piece being written.
  private var linesInInput = 0
  private var firstInvalid: UTF8Validator.InvalidByte?
  private var scratch: [UInt8] = []
  /// The schedule whose pieces are being written.
  private var schedule: PieceSchedule<Filter>?

  init(
    runner: ParallelFilterRunner, files: [OpenFile],
    continues: @escaping (Filter, Filter) -> Bool,
    merge: @escaping (inout Filter, PiecePlace, Bool) -> Void,
    report: @escaping (String) -> Void
  ) {
    self.runner = runner
    self.files = files
    self.continues = continues
    self.merge = merge
    self.report = report
  }

  /// Writes every piece in order; returns the exit status.
  mutating func writePieces(from schedule: PieceSchedule<Filter>) -> Int32 {
    self.schedule = schedule
    defer { self.schedule = nil }
    var fileIndex = -1
    do {
      var index = 0
      while let piece = try schedule.take(index) {
        if piece.fileIndex != fileIndex {
          try endFile(fileIndex)
          fileIndex = piece.fileIndex
          inputStartRecord = records
          linesInInput = 0
        }
        let stop = try write(piece)
        schedule.release(piece)
        if let stop { return stop }
        index += 1
      }
      // As on one thread: the last file's warning, then what finishing finds.
      try endFile(fileIndex)
      try finishCurrent()
    } catch let error as StreamError {
      if error != .brokenPipe { report(error.description) }
      return error.exitStatus
    } catch {
      report("\(error)")
      return 70
    }
    return 0
  }

  /// Reports the first byte of a file that is not UTF-8, after its pieces.
  private mutating func endFile(_ fileIndex: Int) throws {
    guard fileIndex >= 0, let invalid = firstInvalid else { return }
    report(invalid.warning(file: files[fileIndex].path))
    firstInvalid = nil
  }

  /// Writes one piece through its own filter or, when that filter cannot
  /// take over, through the current one; returns a status when the run stops.
  private mutating func write(_ piece: Piece<Filter>) throws -> Int32? {
    let recordsBefore = records
    var pieceError = piece.error
    if var next = piece.filter {
      if let current, !continues(current, next) {
        // The piece's filter started afresh where it should have gone on: run it again in order.
        if piece.resumePoint != nil { schedule?.noteWrongBoundary() }
        scratch.removeAll(keepingCapacity: true)
        var filter = current
        self.current = nil
        if piece.isInputStart { filter.beginInput(named: files[piece.fileIndex].path) }
        do {
          _ = try piece.withBytes(in: files[piece.fileIndex]) {
            try PieceSchedule<Filter>.feed($0, to: &filter, into: &scratch)
          }
          pieceError = nil
        } catch {
          pieceError = error
        }
        try emit(scratch)
        merge(&filter, currentPlace, false)
        self.current = filter
      } else {
        try finishCurrent(handingOver: piece.resumePoint != nil)
        currentPlace = PiecePlace()
        currentPlace.recordsBefore = recordsBefore
        currentPlace.inputStartRecord = inputStartRecord
        currentPlace.outputLinesBefore = outputLines
        try emitOutput(of: piece)
        merge(&next, currentPlace, false)
        current = next
      }
    } else {
      try emitOutput(of: piece)
    }
    if let error = pieceError {
      if var positioned = error as? PositionedError {
        positioned.line += currentPlace.recordsBeforeInInput
        report(positioned.description)
        return 65
      }
      throw error
    }
    if firstInvalid == nil, piece.firstInvalid != nil {
      firstInvalid = try runner.locateInvalidByte(
        in: files[piece.fileIndex], from: piece.range.lowerBound,
        line: linesInInput + 1)
    }
    records += piece.records
    linesInInput += piece.newlines
    return nil
  }

  /// Finishes the current filter (or, `handingOver` to the filter of a piece
  /// that resumes its input, ends its piece), writes what it still held, and merges it.
  private mutating func finishCurrent(handingOver: Bool = false) throws {
    guard var filter = current else { return }
    current = nil
    scratch.removeAll(keepingCapacity: true)
    if handingOver {
      try filter.endPiece(into: &scratch)
    } else {
      try filter.finish(into: &scratch)
    }
    try emit(scratch)
    merge(&filter, currentPlace, true)
  }

  /// Writes what a piece's filter wrote: the sinks it handed over, then its output.
  private mutating func emitOutput(of piece: Piece<Filter>) throws {
    for sink in piece.handed { try emit(sink.bytes) }
    try emit(piece.output)
  }

  private mutating func emit(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    if runner.countsOutputLines { outputLines += ByteCounting.count(0x0A, in: bytes) }
    try writeAll(UnsafeRawBufferPointer(bytes), to: runner.outputDescriptor)
  }

  private mutating func emit(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBufferPointer { try emit($0) }
  }
}

extension FilterRunner {
  /// Runs a filter made by `makeFilter` (status 70 when that throws) and
  /// hands it to `merge` at the end, as ``ParallelFilterRunner`` does.
  fileprivate func run<Filter: ByteFilter>(
    makeFilter: () throws -> Filter, merge: (inout Filter, PiecePlace, Bool) -> Void,
    report: (String) -> Void
  ) -> Int32 {
    var filter: Filter
    do {
      filter = try makeFilter()
    } catch {
      report("\(error)")
      return 70
    }
    let status = run(&filter, report: report)
    merge(&filter, PiecePlace(), true)
    return status
  }
}
