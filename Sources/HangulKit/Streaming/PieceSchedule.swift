import Synchronization

/// The pieces of a parallel run between the threads: the workers cut the
/// next piece (``PieceCutter``), run it through a fresh filter and leave it
/// done; the writer takes the done pieces in order (``take(_:)``) and gives
/// back their buffers (``release(_:)``). At most ``inFlightLimit`` pieces
/// are cut and not yet given back. The shared state is all in ``state``,
/// under its mutex; a thread that must wait for it to change waits on
/// ``wakeUps``.
final class PieceSchedule<Filter: ByteFilter>: @unchecked Sendable {
  let files: [OpenFile]
  let separator: UInt8
  /// Whether the workers may map the pieces (``ParallelFilterRunner/mapsInputs``).
  let mapsInputs: Bool
  let inFlightLimit: Int
  let makeFilter: () throws -> Filter
  private let state: Mutex<State>
  private let wakeUps = WakeUps()

  /// What the threads share.
  private struct State {
    var cutter: PieceCutter<Filter.ResumePoint>
    /// Pieces cut and not yet given back by the writer.
    var inFlight = 0
    var stopped = false
    /// The number of pieces, once the last was cut.
    var pieceCount: Int?
    /// Why the cutting failed (a read error).
    var cutError: (any Error)?
    /// Pieces run (or, beginning inside a line, left to the writer), by index.
    var done: [Int: Piece<Filter>] = [:]
    /// Buffers of written pieces (outputs emptied; inputs, of pieces that
    /// could not be mapped), kept for the next ones: fresh pages cost more
    /// than the work.
    var spareInputs: [[UInt8]] = []
    var spareOutputs: [[UInt8]] = []
  }

  /// What a worker does next.
  private enum Step {
    case wait
    case quit
    case run(Piece<Filter>)
    case handOver
  }

  init(
    cutter: sending PieceCutter<Filter.ResumePoint>, mapsInputs: Bool, inFlight: Int,
    makeFilter: @escaping () throws -> Filter
  ) {
    files = cutter.files
    separator = cutter.separator
    self.mapsInputs = mapsInputs
    inFlightLimit = max(inFlight, 1)
    self.makeFilter = makeFilter
    state = Mutex(State(cutter: cutter))
  }

  /// Tells the workers to stop after their current piece.
  func stop() {
    state.withLock { $0.stopped = true }
    wakeUps.wakeAll()
  }

  /// Waits for the piece with `index`; `nil` after the last one. Throws when
  /// the cutting failed (a read error).
  func take(_ index: Int) throws -> Piece<Filter>? {
    while true {
      let seen = wakeUps.current
      let taken = state.withLock { state -> Result<Piece<Filter>?, any Error>? in
        if let piece = state.done.removeValue(forKey: index) { return .success(piece) }
        if let count = state.pieceCount, index >= count { return .success(nil) }
        if let error = state.cutError { return .failure(error) }
        return nil
      }
      if let taken { return try taken.get() }
      wakeUps.wait(past: seen)
    }
  }

  /// Gives back the buffers of a piece that was written.
  func release(_ piece: Piece<Filter>) {
    let (input, output) = piece.takeBuffers()
    state.withLock { state in
      assert(state.inFlight > 0, "a piece is given back once")
      state.inFlight -= 1
      state.spareInputs.append(input)
      state.spareOutputs.append(output)
    }
    wakeUps.wakeAll()
  }

  /// Tells the cutting that a piece's filter did not go on from where the
  /// one before it stopped (a wrong guess of the boundary finder, or broken
  /// input), in the file at `fileIndex`, where that filter stood at
  /// `knownGood`, if it is known: the finder stops guessing.
  func noteWrongBoundary(inFile fileIndex: Int, knownGood: Filter.ResumePoint?) {
    let wrongGuess = PieceCutter<Filter.ResumePoint>.WrongGuess(
      fileIndex: fileIndex, knownGood: knownGood)
    state.withLock { $0.cutter.wrongGuess = wrongGuess }
  }

  /// The worker loop: cut the next piece, read it, run it, hand it over.
  /// A piece that begins inside a line is handed over unread: the writer
  /// runs it.
  func work() {
    // The filter of the piece this thread read last: the next one takes
    // over its caches (``ByteFilter/reuseCaches(of:)``).
    var earlier: Filter?
    while true {
      let seen = wakeUps.current
      switch state.withLock({ nextStep(&$0) }) {
      case .wait:
        wakeUps.wait(past: seen)
      case .quit:
        wakeUps.wakeAll()
        return
      case .handOver:
        wakeUps.wakeAll()
      case .run(let piece):
        run(piece, after: earlier)
        earlier = piece.filter
        state.withLock { $0.done[piece.index] = piece }
        wakeUps.wakeAll()
      }
    }
  }

  /// Cuts the next piece, with the lock held: a piece to run, or one to
  /// hand over at once, or why not.
  private func nextStep(_ state: inout State) -> Step {
    guard !state.stopped, state.pieceCount == nil, state.cutError == nil else { return .quit }
    guard state.inFlight < inFlightLimit else { return .wait }
    let piece: Piece<Filter>
    do {
      guard let cut = try state.cutter.nextPiece() else {
        state.pieceCount = state.cutter.nextIndex
        return .quit
      }
      piece = Piece(cut)
    } catch {
      state.cutError = error
      return .quit
    }
    state.inFlight += 1
    if piece.startsInsideRecord {
      state.done[piece.index] = piece
      return .handOver
    }
    if let buffer = state.spareInputs.popLast() { piece.input = buffer }
    if let buffer = state.spareOutputs.popLast() { piece.output = buffer }
    return .run(piece)
  }

  /// Reads and runs one piece (on a worker, without the lock), then checks
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
      try piece.withBytes(in: file, mapping: mapsInputs) { bytes, _ in
        if let point = piece.resumePoint {
          filter.beginPiece(named: file.path, resumingAt: point)
        } else {
          filter.beginPiece(named: file.path, atInputStart: piece.isInputStart)
        }
        defer { piece.filter = filter }
        // Lines are counted block by block after the filter, from the cache
        // (a pass of their own over the piece cost 3 % of the time).
        let checked = try PieceFeeding.feed(
          bytes, to: &filter, into: &piece.output, reserving: bytes.count * 3,
          handingOver: { piece.handed.append($0) },
          fed: { block in
            let records = ByteCounting.count(separator, in: block)
            piece.records += records
            piece.newlines += separator == 0x0A ? records : ByteCounting.count(0x0A, in: block)
          })
        piece.firstInvalid = PieceFeeding.firstInvalid(in: bytes, filterFoundUTF8: checked)
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
}
