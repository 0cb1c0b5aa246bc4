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
///     let outcome = runner.run(makeFilter: { NormalizeFilter(.nfc) }) { print($0) }
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
/// reads its own piece with pread(2) into a reused buffer or, with
/// ``mapsInputs``, maps it for the time it filters it (``FileMapping``);
/// finished outputs go to the writer without a copy. Each file is read up
/// to its size at open; a file that changes meanwhile (found by a short
/// read, by fstat(2) after each piece is read, or by the caller's SIGBUS
/// handler) is an error, ``StreamError/fileChanged(path:)``, as on one
/// thread (``FileSnapshot``), and no output of a piece read after the
/// change is written.
///
/// The parts: ``PieceCutter`` cuts, ``PieceSchedule`` hands pieces between
/// threads (``WorkerThread``s) under one mutex, ``PieceWriter`` writes them
/// in order.
/// Time: O(n) over `jobs` threads. Memory: at most 2 pieces per thread in
/// flight, each at most ``pieceSize`` + ``boundaryReach`` bytes, their
/// outputs, and one filter each.
package struct ParallelFilterRunner: Sendable {
  /// The inputs, in order, as the exact bytes given; `-` is standard input.
  package var paths: [FilePath]
  /// How many threads; 0 means one per online processor. At most one per
  /// online processor and one per piece run (``threadCount``).
  package var jobs: Int
  /// The byte that ends a line (or record): pieces are cut after it.
  package var separator: UInt8
  /// The size each piece aims at.
  package var pieceSize: Int
  /// How far past ``pieceSize`` a piece looks for the end of its line
  /// (record) before it ends inside it.
  package var boundaryReach = 256 * 1024
  /// Where the output goes.
  package var outputDescriptor: Int32
  /// The encoding of the inputs when it is not UTF-8 (runs on one thread).
  package var inputEncoding: String?
  /// The size of ``FilterRunner``'s reads, whose boundaries the sample of a
  /// byte that is not UTF-8 stops at (so the encoding guessed from it agrees).
  package var blockSize: Int
  /// Whether ``PiecePlace/outputLinesBefore`` is counted (a pass over the output).
  package var countsOutputLines = false
  /// Whether regular files may be mapped rather than read, as
  /// ``FilterRunner/mapsInputs`` says: only when the process handles SIGBUS.
  package var mapsInputs = false
  /// Called on the calling thread just before a run starts its worker
  /// threads (not for a run on one thread): where a program sets what is
  /// the process's to set (the programs' allocator settings).
  package var willStartThreads: (@Sendable () -> Void)?
  /// Where in a line its document's name is, for inputs whose pieces should
  /// begin with a document (event logs): a piece then starts, where it can,
  /// at a line whose name differs from the one of the line with a name
  /// before it, within 256 KiB after its size.
  package var documentKey: (@Sendable (UnsafeBufferPointer<UInt8>) -> Range<Int>?)?

  package init(
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
  package var threadCount: Int {
    let processors = max(1, SystemCalls.onlineProcessors)
    return jobs > 0 ? min(jobs, processors) : processors
  }

  /// Whether the inputs run on several threads (else as ``FilterRunner``
  /// does), for a run whose pieces end at separators.
  package var runsInParallel: Bool { runsInParallel(findingBoundaries: false) }

  /// Whether the inputs run on several threads, for a run whose pieces end
  /// at separators or, `findingBoundaries`, where a ``PieceBoundaryFinder``
  /// says (files then need not end with the separator).
  package func runsInParallel(findingBoundaries: Bool) -> Bool {
    guard let (files, _) = plan(findingBoundaries: findingBoundaries) else { return false }
    for file in files { SystemCalls.close(file.descriptor) }
    return true
  }

  /// The open inputs and the number of threads, when they run on several
  /// threads: no more than ``threadCount``, nor than the pieces the files
  /// make at most (a piece is ``pieceSize`` bytes or more, an empty file one).
  private func plan(findingBoundaries: Bool) -> (files: [OpenFile], threads: Int)? {
    guard threadCount > 1, inputEncoding == nil,
      let files = openFiles(findingBoundaries: findingBoundaries)
    else { return nil }
    let wanted = threadCount
    var pieces = 0
    for file in files where pieces < wanted {
      pieces += max(1, file.size / pieceSize + (file.size % pieceSize == 0 ? 0 : 1))
    }
    let threads = min(wanted, pieces)
    guard threads > 1 else {
      for file in files { SystemCalls.close(file.descriptor) }
      return nil
    }
    return (files, threads)
  }

  /// Runs a filter made by `makeFilter` over the inputs; returns how the run
  /// ended, as ``FilterRunner/run(_:report:afterBlock:)`` does. `report`
  /// receives each error message, in input order. An error thrown by
  /// `makeFilter` stops the run (``RunStop/other(_:)``).
  package func run<Filter: ByteFilter>(
    makeFilter: () throws -> Filter, report: (String) -> Void
  ) -> RunOutcome {
    run(makeFilter: makeFilter, merge: { _, _, _ in }, report: report)
  }

  /// Runs a filter made by `makeFilter` over the inputs, as
  /// ``run(makeFilter:report:)`` does, for filters that find things (errors,
  /// statistics) and filters whose state can reach across lines.
  ///
  /// - `boundaries`: makes, for each file, the finder of where its pieces
  ///   may begin, for inputs whose records are not lines (JSON envelopes): a
  ///   piece then ends at the first boundary at or after its size, the
  ///   filter of the next one begins with
  ///   ``ByteFilter/beginPiece(named:resumingAt:)`` at the finder's resume
  ///   point, and files need not end with the separator.
  /// - `continues(before, next)`: whether `next`, a fresh filter that ran the
  ///   piece after the one `before` ran (neither finished yet), wrote what
  ///   `before` would have written going on; the filter's own
  ///   ``ByteFilter/isContinued(by:)`` unless given. When it did not,
  ///   `before` runs that piece too, on the calling thread.
  /// - `merge(filter, place, finished)`: called on the calling thread, in input
  ///   order, after each piece a filter ran was written (`finished` false) and
  ///   once more after the filter was finished (`finished` true); `place`
  ///   tells where its first piece stands, to move line numbers by.
  ///
  /// On one thread the single filter gets `merge(filter, start, true)` once
  /// at the end.
  package func run<Filter: ByteFilter>(
    makeFilter: () throws -> Filter,
    boundaries: (@Sendable () -> any PieceBoundaryFinder<Filter.ResumePoint>)? = nil,
    continues: ((Filter, Filter) -> Bool)? = nil,
    merge: (inout Filter, PiecePlace, Bool) -> Void,
    report: (String) -> Void
  ) -> RunOutcome {
    guard let (files, threads) = plan(findingBoundaries: boundaries != nil) else {
      return oneThread.run(makeFilter: makeFilter, merge: merge, report: report)
    }
    defer { for file in files { SystemCalls.close(file.descriptor) } }
    let continues = continues ?? { before, next in before.isContinued(by: next) }
    return withoutActuallyEscaping(makeFilter) { makeFilter in
      withoutActuallyEscaping(continues) { continues in
        withoutActuallyEscaping(merge) { merge in
          withoutActuallyEscaping(report) { report in
            let cutter = PieceCutter(
              files: files, separator: separator, pieceSize: pieceSize,
              boundaryReach: boundaryReach, documentKey: documentKey,
              makeBoundaryFinder: boundaries)
            let schedule = PieceSchedule(
              cutter: cutter, mapsInputs: mapsInputs, inFlight: 2 * threads,
              makeFilter: makeFilter)
            willStartThreads?()
            let workers = (0..<threads).compactMap { _ in WorkerThread { schedule.work() } }
            guard !workers.isEmpty else {
              // No thread could start: one thread it is.
              return oneThread.run(makeFilter: makeFilter, merge: merge, report: report)
            }
            var writer = PieceWriter(
              runner: self, files: files, continues: continues, merge: merge, report: report)
            let outcome = writer.writePieces(from: schedule)
            schedule.stop()
            for worker in workers { worker.join() }
            return outcome
          }
        }
      }
    }
  }

  /// The runner of a run on one thread.
  private var oneThread: FilterRunner {
    FilterRunner(
      paths: paths, outputDescriptor: outputDescriptor, blockSize: blockSize,
      inputEncoding: inputEncoding, mapsInputs: mapsInputs)
  }

  /// Opens every input, or returns `nil` when one is standard input, cannot be
  /// opened, is not a regular file, says it is empty but is not, or (but for
  /// the last, unless `findingBoundaries`) does not end with the separator:
  /// those run on one thread. Every path is looked at before any is opened,
  /// and none that is not a regular file is opened: opening a FIFO would
  /// wait for its writer, and closing it would throw away what the writer
  /// wrote before the one-thread run opens it again.
  private func openFiles(findingBoundaries: Bool) -> [OpenFile]? {
    for path in paths {
      guard !path.isStandardInput, let info = path.status(), SystemCalls.isRegularFile(info)
      else { return nil }
    }
    var files: [OpenFile] = []
    func giveUp() -> [OpenFile]? {
      for file in files { SystemCalls.close(file.descriptor) }
      return nil
    }
    for (index, path) in paths.enumerated() {
      guard !path.isStandardInput else { return giveUp() }
      // Without waiting, should the path have become a FIFO since.
      let descriptor = path.open(
        SystemCalls.OpenFlag.readOnly | SystemCalls.OpenFlag.closeOnExec
          | SystemCalls.OpenFlag.nonBlocking)
      guard descriptor >= 0 else { return giveUp() }
      guard let snapshot = FileSnapshot(descriptor: descriptor, name: path.description) else {
        SystemCalls.close(descriptor)
        return giveUp()
      }
      let file = OpenFile(snapshot: snapshot)
      files.append(file)
      var first: UInt8 = 0
      if file.size == 0, SystemCalls.pread(descriptor, &first, 1, at: 0) != 0 {
        // Not empty but for its size, which does not tell its length (in
        // /proc): one thread reads it to its end.
        return giveUp()
      }
      if index < paths.count - 1, file.size > 0, !findingBoundaries {
        var last: UInt8 = 0
        guard SystemCalls.pread(descriptor, &last, 1, at: file.size - 1) == 1, last == separator
        else {
          return giveUp()
        }
      }
    }
    return files
  }
}

/// Where the first piece that a filter of ``ParallelFilterRunner`` ran
/// stands in the inputs, for moving the line numbers of what it found.
/// Records are what end with the runner's separator (lines, or NUL-ended
/// records).
package struct PiecePlace: Sendable, Equatable {
  /// Records of all inputs before the piece.
  package var recordsBefore = 0
  /// Records of all inputs before the input the piece is in.
  package var inputStartRecord = 0
  /// Newlines written before the filter's output (when the runner counts them).
  package var outputLinesBefore = 0

  package init() {}

  /// Records of its own input before the piece: what its line numbers move by.
  package var recordsBeforeInInput: Int { recordsBefore - inputStartRecord }
}

extension FilterRunner {
  /// Runs a filter made by `makeFilter` (``RunStop/other(_:)`` when that
  /// throws) and hands it to `merge` at the end, as ``ParallelFilterRunner`` does.
  fileprivate func run<Filter: ByteFilter>(
    makeFilter: () throws -> Filter, merge: (inout Filter, PiecePlace, Bool) -> Void,
    report: (String) -> Void
  ) -> RunOutcome {
    var filter: Filter
    do {
      filter = try makeFilter()
    } catch {
      report("\(error)")
      return .stopped(.other("\(error)"))
    }
    let outcome = run(&filter, report: report)
    merge(&filter, PiecePlace(), true)
    return outcome
  }
}
