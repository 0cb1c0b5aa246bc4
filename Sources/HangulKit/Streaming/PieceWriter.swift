/// The calling thread's side of a parallel run: takes the pieces in order,
/// judges whether each one's filter may take over, writes, and reports.
struct PieceWriter<Filter: ByteFilter> {
  let runner: ParallelFilterRunner
  let files: [OpenFile]
  let continues: (Filter, Filter) -> Bool
  let merge: (inout Filter, PiecePlace, Bool) -> Void
  let report: (String) -> Void
  /// Where the pieces go, in writes aligned as one thread's are.
  private let destination: AlignedOutput

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
    destination = AlignedOutput(descriptor: runner.outputDescriptor)
  }

  /// Writes every piece in order; returns how the run ended.
  mutating func writePieces(from schedule: PieceSchedule<Filter>) -> RunOutcome {
    self.schedule = schedule
    defer { self.schedule = nil }
    var fileIndex = -1
    do {
      var index = 0
      while let piece = try schedule.take(index) {
        assert(piece.index == index, "pieces are written in order")
        if piece.fileIndex != fileIndex {
          try endFile(fileIndex)
          fileIndex = piece.fileIndex
          inputStartRecord = records
          linesInInput = 0
        }
        let stop = try write(piece)
        schedule.release(piece)
        if let stop {
          try destination.flush()
          return .stopped(stop)
        }
        index += 1
      }
      // As on one thread: the last file's warning, then what finishing finds.
      try endFile(fileIndex)
      try finishCurrent()
      try destination.flush()
    } catch let error as StreamError {
      destination.flush(after: error)
      if error != .brokenPipe { report(error.description) }
      return .stopped(.stream(error))
    } catch {
      try? destination.flush()
      report("\(error)")
      return .stopped(.other("\(error)"))
    }
    return .completed
  }

  /// Reports the first byte of a file that is not UTF-8, after its pieces.
  private mutating func endFile(_ fileIndex: Int) throws {
    guard fileIndex >= 0, let invalid = firstInvalid else { return }
    // After the output before it, as on one thread.
    try destination.flush()
    report(invalid.warning(file: files[fileIndex].path))
    firstInvalid = nil
  }

  /// Writes one piece through its own filter or, when that filter cannot
  /// take over or the piece begins inside a line, through the current one;
  /// returns why the run stops, if it does.
  private mutating func write(_ piece: Piece<Filter>) throws -> RunStop? {
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
      if !piece.startsInsideRecord, piece.resumePoint != nil {
        // The filter stands where the piece really begins: the finder goes on from there.
        schedule?.noteWrongBoundary(inFile: piece.fileIndex, knownGood: filter.resumePoint)
      }
      self.current = nil
      if piece.isInputStart { filter.beginInput(named: files[piece.fileIndex].path) }
      do {
        // A worker's filter that failed stopped counting where it failed.
        try runInOrder(
          piece, through: &filter, counting: piece.startsInsideRecord || piece.error != nil)
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
        try destination.flush()
        report(positioned.description)
        return .data(positioned)
      }
      throw error
    }
    if firstInvalid == nil, piece.firstInvalid != nil {
      firstInvalid = try locateInvalidByte(
        in: files[piece.fileIndex], from: piece.range.lowerBound, line: linesInInput + 1)
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
  /// worker did (or one whose filter failed did in part). What a block made is written only after a check that the
  /// file has not changed.
  private mutating func runInOrder(
    _ piece: Piece<Filter>, through filter: inout Filter, counting: Bool
  ) throws {
    let file = files[piece.fileIndex]
    let separator = runner.separator
    let blockSize = PieceFeeding.blockSize
    if counting {
      piece.records = 0
      piece.newlines = 0
    }
    try piece.withBytes(in: file, mapping: runner.mapsInputs) { bytes, mapped in
      var foundUTF8 = true
      var start = 0
      while start < bytes.count {
        let block = UnsafeBufferPointer(
          rebasing: bytes[start..<min(bytes.count, start + blockSize)])
        scratch.removeAll(keepingCapacity: true)
        do {
          foundUTF8 = try PieceFeeding.feed(block, to: &filter, into: &scratch) && foundUTF8
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
        piece.firstInvalid = PieceFeeding.firstInvalid(in: bytes, filterFoundUTF8: foundUTF8)
      }
    }
  }

  /// Finishes the current filter (or, `handingOver` to the filter of a piece
  /// that resumes its input, ends its piece), writes what it still held, and merges it.
  mutating func finishCurrent(handingOver: Bool = false) throws {
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
    try destination.write(UnsafeRawBufferPointer(bytes))
  }

  private mutating func emit(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBufferPointer { try emit($0) }
  }

  /// Finds the first byte that is not UTF-8 from `start` on, where a piece with
  /// one begins, exactly as ``FilterRunner`` reports it: scanned from the
  /// start of its line (`line`), in blocks at the same offsets as its reads.
  /// Time: O(the line before `start` plus the piece), once per file.
  private func locateInvalidByte(
    in file: OpenFile, from start: Int, line: Int
  ) throws -> UTF8Validator.InvalidByte? {
    let blockSize = runner.blockSize
    var lineStart = start
    var block: [UInt8] = []
    // Back to the newline before `start` (the piece may begin after a NUL).
    while lineStart > 0 {
      let from = max(0, lineStart - blockSize)
      try file.read(at: from, count: lineStart - from, into: &block)
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
      try file.read(at: position, count: blockEnd - position, into: &block)
      block.withUnsafeBufferPointer { validator.scan($0) }
      position = blockEnd
    }
    if position >= file.size { validator.finish() }
    guard var invalid = validator.firstInvalid else { return nil }
    invalid.line += line - 1
    return invalid
  }
}
