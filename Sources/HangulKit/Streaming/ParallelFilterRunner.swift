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
/// A piece reaches at most ``boundaryReach`` bytes past ``pieceSize`` for
/// the end of its line (or record); a piece that finds none there ends
/// inside the line, and the pieces after it, up to the next line's start,
/// are run in order on the calling thread by the filter before them, block
/// by block, as ``FilterRunner`` runs a file: a file without a newline runs
/// as on one thread, in the same memory.
///
/// Standard input, a path that is not a regular file (it is not opened: a
/// FIFO's writer is left to the one-thread run), a file other than the last
/// that does not end with the separator, ``inputEncoding``, and a
/// ``threadCount`` or a number of pieces of 1 make it run as
/// ``FilterRunner`` does, on one thread. The warning about bytes that are
/// not UTF-8 names the same line and column as on one thread. Each worker
/// maps its own piece for the time it filters it (``FileMapping``; read
/// with pread(2) into a reused buffer when it cannot be mapped); finished
/// outputs go to the writer without a copy. Each file is read up to its
/// size at open; a file that changes meanwhile (found by a short read, by
/// fstat(2) after each piece is read, or by SIGBUS) is an error, status 74,
/// as on one thread (``FileSnapshot``), and no output of a piece read after
/// the change is written.
/// Time: O(n) over `jobs` threads. Memory: at most 2 pieces per thread in
/// flight, each at most ``pieceSize`` + ``boundaryReach`` bytes, their
/// outputs, and one filter each.
public struct ParallelFilterRunner: Sendable {
  /// The inputs, in order, as the exact bytes given; `-` is standard input.
  public var paths: [FilePath]
  /// How many threads; 0 means one per online processor. At most one per
  /// online processor and one per piece run (``threadCount``).
  public var jobs: Int
  /// The byte that ends a line (or record): pieces are cut after it.
  public var separator: UInt8
  /// The size each piece aims at.
  public var pieceSize: Int
  /// How far past ``pieceSize`` a piece looks for the end of its line
  /// (record) before it ends inside it.
  public var boundaryReach = 256 * 1024
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
    paths: [FilePath], jobs: Int, separator: UInt8 = 0x0A, pieceSize: Int = 2 << 20,
    outputDescriptor: Int32 = 1, inputEncoding: String? = nil, blockSize: Int = 128 * 1024
  ) {
    self.blockSize = max(blockSize, 1)
    self.paths = paths.isEmpty ? [.standardInput] : paths
    self.jobs = jobs
    self.separator = separator
    self.pieceSize = max(pieceSize, 1)
    self.outputDescriptor = outputDescriptor
    self.inputEncoding = inputEncoding
  }

  /// The number of threads `jobs` asks for, at most the online processors
  /// (0: as many). A run starts no more threads than it has pieces either.
  public var threadCount: Int {
    let processors = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    return jobs > 0 ? min(jobs, processors) : processors
  }

  /// Whether the inputs run on several threads (else as ``FilterRunner`` does).
  public var runsInParallel: Bool {
    guard let (files, _) = plan() else { return false }
    for file in files { close(file.descriptor) }
    return true
  }

  /// The open inputs and the number of threads, when they run on several
  /// threads: no more than ``threadCount``, nor than the pieces the files
  /// make at most (a piece is ``pieceSize`` bytes or more, an empty file one).
  private func plan() -> (files: [OpenFile], threads: Int)? {
    guard threadCount > 1, inputEncoding == nil, let files = openFiles() else { return nil }
    let wanted = threadCount
    var pieces = 0
    for file in files where pieces < wanted {
      pieces += max(1, file.size / pieceSize + (file.size % pieceSize == 0 ? 0 : 1))
    }
    let threads = min(wanted, pieces)
    guard threads > 1 else {
      for file in files { close(file.descriptor) }
      return nil
    }
    return (files, threads)
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
    guard let (files, threads) = plan() else {
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
              files: files, separator: separator, pieceSize: pieceSize,
              boundaryReach: boundaryReach, inFlight: 2 * threads, documentKey: documentKey,
              makeFilter: makeFilter)
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
  /// opened, is not a regular file, says it is empty but is not, or (but for
  /// the last) does not end with the separator: those run on one thread. Every path is looked at before
  /// any is opened, and none that is not a regular file is opened: opening
  /// a FIFO would wait for its writer, and closing it would throw away what
  /// the writer wrote before the one-thread run opens it again.
  fileprivate func openFiles() -> [OpenFile]? {
    for path in paths {
      guard !path.isStandardInput, let info = path.status(), info.st_mode & S_IFMT == S_IFREG
      else { return nil }
    }
    var files: [OpenFile] = []
    func giveUp() -> [OpenFile]? {
      for file in files { close(file.descriptor) }
      return nil
    }
    for (index, path) in paths.enumerated() {
      guard !path.isStandardInput else { return giveUp() }
      // Without waiting, should the path have become a FIFO since.
      let descriptor = path.open(O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      guard descriptor >= 0 else { return giveUp() }
      guard let snapshot = FileSnapshot(descriptor: descriptor, name: path.description) else {
        close(descriptor)
        return giveUp()
      }
      let file = OpenFile(snapshot: snapshot)
      files.append(file)
      var first: UInt8 = 0
      if file.size == 0, pread(descriptor, &first, 1, 0) != 0 {
        // Not empty but for its size, which does not tell its length (in
        // /proc): one thread reads it to its end.
        return giveUp()
      }
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

/// An open input, with its size and time at open.
private struct OpenFile {
  let snapshot: FileSnapshot

  /// The path as messages show it (``FilePath/description``).
  var path: String { snapshot.name }
  var descriptor: Int32 { snapshot.descriptor }
  /// The size at open: the runner reads no further.
  var size: Int { snapshot.size }
}

/// Reads `count` bytes of `file` at `offset` into `buffer` (replacing its
/// contents). A file that ends before (it shrank) is an error
/// (``StreamError/fileChanged(path:)``).
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
    if got == 0 { throw StreamError.fileChanged(path: file.path) }
    done += got
  }
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
  /// Whether the piece begins inside a line (record) that the piece before
  /// it could not reach the end of: no worker runs it, the writer runs it
  /// in order with the filter before it.
  let startsInsideRecord: Bool

  init(index: Int, fileIndex: Int, range: Range<Int>, startsInsideRecord: Bool = false) {
    self.index = index
    self.fileIndex = fileIndex
    self.range = range
    self.startsInsideRecord = startsInsideRecord
  }

  var isInputStart: Bool { range.lowerBound == 0 }

  /// Whether `input` holds the piece's bytes (it may be a reused buffer of
  /// an earlier piece's).
  private var inputIsRead = false

  /// Calls `body` with the piece's bytes: those read already, or its range
  /// of `file` mapped for the time of the call (no kernel copy of it), or,
  /// when it cannot be mapped, read into `input`; and whether they are
  /// mapped (only mapped pages may be dropped with ``FileMapping/release(_:)``).
  func withBytes<Result>(
    in file: OpenFile, _ body: (UnsafeBufferPointer<UInt8>, _ mapped: Bool) throws -> Result
  ) throws -> Result {
    if !inputIsRead {
      if let mapping = FileMapping(descriptor: file.descriptor, range: range, name: file.path) {
        defer { mapping.unmap() }
        return try body(mapping.bytes, true)
      }
      try readFully(file, at: range.lowerBound, count: range.count, into: &input)
      inputIsRead = true
    }
    return try input.withUnsafeBufferPointer { try body($0, false) }
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
  let boundaryReach: Int
  let inFlightLimit: Int
  let documentKey: (@Sendable (UnsafeBufferPointer<UInt8>) -> Range<Int>?)?
  let makeFilter: () throws -> Filter
  var makeBoundaryFinder: (@Sendable () -> any PieceBoundaryFinder)?

  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  // Guarded by the mutex:
  /// Where the next piece is cut from.
  private var fileIndex = 0
  private var offset = 0
  /// Whether the next piece begins inside a line (the last one cut found no end for it).
  private var cutInsideRecord = false
  /// Whether the empty file at `fileIndex` had its (empty) piece cut.
  private var emptyFileCut = false
  private var nextIndex = 0
  private var inFlight = 0
  private var stopped = false
  private var pieceCount: Int?
  private var cutError: (any Error)?
  private var done: [Int: Piece<Filter>] = [:]
  /// The boundary finder of the file being cut, and what it found where the next piece begins.
  private var boundaryFinder: (any PieceBoundaryFinder)?
  private var nextResumePoint: (any Sendable)?
  /// Whether the filter before a piece found that the piece's boundary was
  /// not where the finder said.
  private var guessWasWrong = false
  /// The bytes the cutting reads.
  private var window: [UInt8] = []
  /// Buffers of written pieces (outputs emptied; inputs, of pieces that
  /// could not be mapped), kept for the next ones: fresh pages cost more
  /// than the work.
  private var spareInputs: [[UInt8]] = []
  private var spareOutputs: [[UInt8]] = []

  init(
    files: [OpenFile], separator: UInt8, pieceSize: Int, boundaryReach: Int, inFlight: Int,
    documentKey: (@Sendable (UnsafeBufferPointer<UInt8>) -> Range<Int>?)?,
    makeFilter: @escaping () throws -> Filter
  ) {
    self.documentKey = documentKey
    self.files = files
    self.separator = separator
    self.pieceSize = pieceSize
    self.boundaryReach = max(boundaryReach, 0)
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
  /// A piece that begins inside a line is handed over unread: the writer
  /// runs it.
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
      if !piece.startsInsideRecord {
        if let buffer = spareInputs.popLast() { piece.input = buffer }
        if let buffer = spareOutputs.popLast() { piece.output = buffer }
        pthread_mutex_unlock(mutex)
        run(piece, after: earlier)
        earlier = piece.filter
        pthread_mutex_lock(mutex)
      }
      done[piece.index] = piece
      pthread_cond_broadcast(condition)
    }
    pthread_mutex_unlock(mutex)
  }

  /// The next piece: from where the last one ended to just after the first
  /// separator at or past `pieceSize` bytes on, looked for up to
  /// `boundaryReach` bytes further (from the piece's start for a piece that
  /// begins inside a line); where there is none, it ends after `pieceSize`
  /// bytes, at the start of a UTF-8 sequence (an empty file is one empty
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
      cutInsideRecord = false
      emptyFileCut = false
    }
    guard fileIndex < files.count else { return nil }
    let file = files[fileIndex]
    let insideRecord = cutInsideRecord
    // A piece that begins inside a line ends at its end, the sooner the better.
    let target = insideRecord ? offset + 1 : min(file.size, offset + pieceSize)
    let limit = min(file.size, offset + pieceSize + boundaryReach)
    var end: Int?
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
      resumePoint = insideRecord ? nil : nextResumePoint
      end = try boundaryEnd(in: file, notBefore: target, before: limit)
    } else if target == file.size {
      end = file.size
    } else {
      if !insideRecord { end = try documentStart(in: file, from: target - 1) }
      end = try end ?? separatorEnd(in: file, from: target - 1, before: limit)
    }
    cutInsideRecord = end == nil
    let cut = try end ?? sequenceStart(in: file, backFrom: min(file.size, offset + pieceSize))
    assert(cut > offset && cut <= file.size, "a piece has bytes, of its file")
    defer {
      nextIndex += 1
      offset = cut
    }
    let piece = Piece<Filter>(
      index: nextIndex, fileIndex: fileIndex, range: offset..<cut,
      startsInsideRecord: insideRecord)
    piece.resumePoint = resumePoint
    return piece
  }

  /// `end`, or the start of the UTF-8 sequence whose continuation byte is
  /// at `end` (a line cut there is cut between characters: the piece's
  /// check for bytes that are not UTF-8 finds none), when that start is
  /// after `offset`.
  private func sequenceStart(in file: OpenFile, backFrom end: Int) throws -> Int {
    guard end < file.size else { return end }
    let from = max(offset + 1, end - 3)
    try readFully(file, at: from, count: end + 1 - from, into: &window)
    var cut = end
    while cut > from, window[cut - from] & 0xC0 == 0x80 { cut -= 1 }
    return window[cut - from] & 0xC0 == 0x80 ? end : cut
  }

  /// The first boundary at or after `target` that the finder meets reading
  /// on from where it stopped last, or the end of the file; `nil` when it
  /// has read up to `limit` without one.
  private func boundaryEnd(in file: OpenFile, notBefore target: Int, before limit: Int) throws
    -> Int?
  {
    guard var finder = boundaryFinder else { return file.size }
    defer { boundaryFinder = finder }
    assert(target <= limit, "the reach is past the target")
    var position = finder.position
    while position < file.size {
      guard position < limit else {
        nextResumePoint = nil
        return nil
      }
      let count = min(file.size - position, 256 * 1024)
      try readFully(file, at: position, count: count, into: &window)
      if let end = window.withUnsafeBufferPointer({
        finder.boundary(in: $0, notBefore: target)
      }) {
        nextResumePoint = finder.resumePoint
        return end
      }
      // The finder reads on, or (giving up its guesses) from the start again.
      assert(finder.position > position || finder.position == 0, "the finder moves on")
      position = finder.position
    }
    return file.size
  }

  /// Tells the cutting that a piece's filter did not go on from where the
  /// one before it stopped (a wrong guess of the boundary finder, or broken
  /// input): the finder stops guessing.
  func noteWrongBoundary() {
    pthread_mutex_lock(mutex)
    guessWasWrong = true
    pthread_mutex_unlock(mutex)
  }

  /// Just after the first separator at or after `start` and before `limit`,
  /// `nil` when there is none, the end of the file when it comes first.
  private func separatorEnd(in file: OpenFile, from start: Int, before limit: Int) throws -> Int? {
    var position = start
    while position < limit {
      let count = min(limit - position, 64 * 1024)
      try readFully(file, at: position, count: count, into: &window)
      // memchr(3): a file without a separator is looked through piece by piece.
      let found = window.withUnsafeBytes { raw -> Int? in
        guard let base = raw.baseAddress, let hit = memchr(base, Int32(separator), raw.count)
        else { return nil }
        return UnsafeRawPointer(hit) - base
      }
      if let found { return position + found + 1 }
      position += count
    }
    return limit == file.size ? file.size : nil
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

  /// Reads and runs one piece (on a worker, without the mutex), then checks
  /// that its file has not changed: a piece read after a change gets that
  /// error instead of its output. The filter takes over the caches of
  /// `earlier`, the filter of the piece the thread read before.
  private func run(_ piece: Piece<Filter>, after earlier: Filter?) {
    assert(!piece.startsInsideRecord, "the writer runs pieces that begin inside a line")
    let file = files[piece.fileIndex]
    do {
      var filter = try makeFilter()
      if let earlier { filter.reuseCaches(of: earlier) }
      let separator = self.separator
      try piece.withBytes(in: file) { bytes, _ in
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
        piece.firstInvalid = Self.firstInvalid(in: bytes, filterFoundUTF8: checked)
      }
    } catch {
      piece.error = error
    }
    do {
      try file.snapshot.checkUnchanged()
    } catch {
      // What was read may not be the file's: no error found in it counts.
      piece.error = error
    }
  }

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
  /// take over or the piece begins inside a line, through the current one;
  /// returns a status when the run stops.
  private mutating func write(_ piece: Piece<Filter>) throws -> Int32? {
    // A file that changed, or could not be read: nothing of the piece is written.
    if let error = piece.error as? StreamError { throw error }
    let recordsBefore = records
    var pieceError = piece.error
    // Whether the piece goes on from the one before: it begins inside a
    // line, or its filter started afresh where it should have gone on.
    var inOrder = piece.startsInsideRecord
    if !inOrder, let next = piece.filter, let current { inOrder = !continues(current, next) }
    if inOrder {
      // Run (again) in order, by the filter before.
      guard var filter = current else {
        preconditionFailure("a piece that begins inside a line comes after one with a filter")
      }
      if !piece.startsInsideRecord, piece.resumePoint != nil { schedule?.noteWrongBoundary() }
      self.current = nil
      if piece.isInputStart { filter.beginInput(named: files[piece.fileIndex].path) }
      do {
        try runInOrder(piece, through: &filter, counting: piece.startsInsideRecord)
        pieceError = nil
      } catch {
        pieceError = error
      }
      merge(&filter, currentPlace, false)
      self.current = filter
    } else if var next = piece.filter {
      try finishCurrent(handingOver: piece.resumePoint != nil)
      currentPlace = PiecePlace()
      currentPlace.recordsBefore = recordsBefore
      currentPlace.inputStartRecord = inputStartRecord
      currentPlace.outputLinesBefore = outputLines
      try emitOutput(of: piece)
      merge(&next, currentPlace, false)
      current = next
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

  /// Runs `piece` through `filter` on this thread in the blocks
  /// ``FilterRunner`` reads, writing each block's output before the next
  /// (memory: one block's output, whatever the length of the piece; the
  /// mapped pages read are dropped). With `counting`, counts the piece's
  /// records and lines and checks it for bytes that are not UTF-8, which no
  /// worker did. What a block made is written only after a check that the
  /// file has not changed.
  private mutating func runInOrder(
    _ piece: Piece<Filter>, through filter: inout Filter, counting: Bool
  ) throws {
    let file = files[piece.fileIndex]
    let separator = runner.separator
    let blockSize = 128 * 1024
    try piece.withBytes(in: file) { bytes, mapped in
      var foundUTF8 = true
      var start = 0
      while start < bytes.count {
        let block = UnsafeBufferPointer(
          rebasing: bytes[start..<min(bytes.count, start + blockSize)])
        scratch.removeAll(keepingCapacity: true)
        do {
          foundUTF8 =
            try PieceSchedule<Filter>.feed(block, to: &filter, into: &scratch) && foundUTF8
        } catch let error as PositionedError {
          // As on one thread: what came before the error is written.
          try file.snapshot.checkUnchanged()
          try emit(scratch)
          throw error
        }
        if counting {
          let records = ByteCounting.count(separator, in: block)
          piece.records += records
          piece.newlines += separator == 0x0A ? records : ByteCounting.count(0x0A, in: block)
        }
        try file.snapshot.checkUnchanged()
        try emit(scratch)
        if mapped { FileMapping.release(block) }
        start += block.count
      }
      if counting {
        piece.firstInvalid = PieceSchedule<Filter>.firstInvalid(
          in: bytes, filterFoundUTF8: foundUTF8)
      }
    }
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
