/// Runs a ``ByteFilter`` over files as `cat` reads them: each path in
/// order, `-` or no path at all meaning standard input, and writes the
/// result to a file descriptor after every block read (a regular file of
/// 1 MiB or more is mapped instead, with ``mapsInputs``, and taken in the
/// same blocks, or in pieces of several for a filter that takes large
/// chunks). A regular file
/// is read up to the size it had when it was opened; one that changes while
/// it is read is an error (``FileSnapshot``).
///
///     var filter = ComposeFilter(keys: .qwerty)
///     let outcome = FilterRunner(paths: ["log.txt"]).run(&filter) { message in
///       print(message)  // "log.txt: No such file or directory"
///     }
///     // outcome == .completedSkippingInputs
///
/// A file that cannot be opened is reported and skipped
/// (``RunOutcome/completedSkippingInputs`` at the end); a read or write
/// error, or a regular file that changed while it was read, stops the run
/// (``RunStop/stream(_:)``); a closed output pipe stops it quietly. The
/// runner never ends the process. Input in another encoding is converted
/// to UTF-8 first when ``inputEncoding`` names it; otherwise the first byte of
/// each file that is not UTF-8 is reported as a warning (the bytes still pass
/// through). Memory: one block of ``blockSize`` bytes (a mapped file: the
/// pages of the piece being filtered) plus what the filter holds.
package struct FilterRunner: Sendable {
  /// The inputs, in order, as the exact bytes given; `-` is standard input.
  package var paths: [FilePath]
  /// Where the output goes.
  package var outputDescriptor: Int32
  /// The size of each read(2), and of the blocks a mapped file is taken in.
  package var blockSize: Int
  /// The encoding of the inputs when it is not UTF-8, as ICU names converters (`cp949`).
  package var inputEncoding: String?
  /// Whether a large regular file may be mapped into memory rather than
  /// read (it saves the kernel's copy of every byte). A file that someone
  /// truncates while it is mapped raises SIGBUS, which ends the process
  /// unless it handles it: set this only when the process has a handler
  /// (the programs' `MappedInputGuard`, which names the file with
  /// ``MappedFileFaults``). `false`: every file is read with read(2).
  package var mapsInputs: Bool

  package init(
    paths: [FilePath], outputDescriptor: Int32 = 1, blockSize: Int = 128 * 1024,
    inputEncoding: String? = nil, mapsInputs: Bool = false
  ) {
    self.paths = paths.isEmpty ? [.standardInput] : paths
    self.outputDescriptor = outputDescriptor
    self.blockSize = blockSize
    self.inputEncoding = inputEncoding
    self.mapsInputs = mapsInputs
  }

  /// Runs `filter` over the inputs; returns how the run ended. `report` receives
  /// each error message (without the program name); `afterBlock`, if given,
  /// sees the filter after each block (for a progress line).
  package func run<Filter: ByteFilter>(
    _ filter: inout Filter, report: (String) -> Void, afterBlock: ((Filter) -> Void)? = nil
  ) -> RunOutcome {
    var outcome = RunOutcome.completed
    var output: [UInt8] = []
    // Room for a block that comes out three times as long (NFD), so that
    // the buffer is not copied to grow (pages are touched only as used).
    output.reserveCapacity(blockSize * 3 + 256)
    let block = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: blockSize)
    defer { block.deallocate() }
    var transcoder: InputTranscoder?
    if let inputEncoding {
      do {
        transcoder = try InputTranscoder(encoding: inputEncoding)
      } catch {
        report(error.description)
        return .stopped(.unknownEncoding(inputEncoding))
      }
    }
    var reader = InputReader(transcoder: transcoder)
    let destination = AlignedOutput(descriptor: outputDescriptor)
    // A message comes after the output written before it (when both go to
    // one file, `2>&1`): what waits is written first. A failure shows at
    // the next write.
    func reportInOrder(_ message: String) {
      try? destination.flush()
      report(message)
    }
    do {
      for path in paths {
        do {
          try copy(
            path, through: &filter, block: block, reader: &reader, output: &output,
            to: destination, report: reportInOrder, afterBlock: afterBlock)
        } catch StreamError.cannotOpen(let path, let reason) {
          reportInOrder(StreamError.cannotOpen(path: path, reason: reason).description)
          outcome = .completedSkippingInputs
        }
      }
      // A filter that ends holding much hands it over a part at a time.
      try filter.finish(into: &output) { sink in
        try destination.write(UnsafeRawBufferPointer(sink.bytes))
        return false
      }
      try write(&output, to: destination)
      try destination.flush()
    } catch let error as StreamError {
      destination.flush(after: error)
      if error != .brokenPipe { report(error.description) }
      return .stopped(.stream(error))
    } catch let error as PositionedError {
      // A data error that stops the filter: what came before is written.
      try? write(&output, to: destination)
      try? destination.flush()
      report(error.description)
      return .stopped(.data(error))
    } catch {
      try? destination.flush()
      report("\(error)")
      return .stopped(.other("\(error)"))
    }
    return outcome
  }

  private func copy<Filter: ByteFilter>(
    _ path: FilePath, through filter: inout Filter,
    block: UnsafeMutableBufferPointer<UInt8>, reader: inout InputReader, output: inout [UInt8],
    to destination: AlignedOutput, report: (String) -> Void, afterBlock: ((Filter) -> Void)?
  ) throws {
    let descriptor: Int32
    let name = path.isStandardInput ? "(standard input)" : path.description
    if path.isStandardInput {
      descriptor = 0
    } else {
      descriptor = path.open(SystemCalls.OpenFlag.readOnly | SystemCalls.OpenFlag.closeOnExec)
      guard descriptor >= 0 else {
        throw StreamError.cannotOpen(
          path: name, reason: StreamError.reason(SystemCalls.errorNumber))
      }
      if let info = SystemCalls.status(of: descriptor), SystemCalls.isDirectory(info) {
        SystemCalls.close(descriptor)
        throw StreamError.cannotOpen(
          path: name, reason: StreamError.reason(SystemCalls.isDirectoryError))
      }
    }
    defer { if descriptor != 0 { SystemCalls.close(descriptor) } }
    filter.beginInput(named: name)
    reader.begin()
    // Passes a chunk through the filter; returns whether it was UTF-8. A
    // filter with storage of its own is written from it (no copy into
    // `output`), which it then empties and reuses.
    func filterWritingFromSink(_ chunk: UnsafeBufferPointer<UInt8>) throws -> Bool {
      try filter.process(chunk, into: &output) { sink in
        try destination.write(UnsafeRawBufferPointer(sink.bytes))
        return false
      }
      return filter.lastChunkWasUTF8
    }
    // A regular file is read up to its size at open, and checked after.
    let snapshot = FileSnapshot(descriptor: descriptor, name: name)
    var remaining = snapshot?.length
    // Mapped until the end of this input: the reader may check its bytes
    // late (``InputReader/catchUp()``).
    let mapping = mapsInputs ? snapshot.flatMap { MappedInput($0, blockSize: blockSize) } : nil
    defer {
      // Nothing may point into the mapping once it is gone.
      reader.unchecked = nil
      mapping?.unmap()
    }
    if let mapped = mapping {
      // The blocks read(2) would return, without the kernel's copy of them.
      // UTF-8 goes to a filter that takes large chunks in pieces of several
      // blocks (others get a block at a time): NFD of Korean
      // text then leaves in writes of about 1 MiB, which cost the kernel
      // less per byte than writes of a block's 290 KB (17.6 against 20.6 ms
      // for 96 MB on ext4).
      let piece =
        reader.transcoder == nil && filter.takesLargeChunks
        ? max(1, Self.mappedPieceSize / blockSize) * blockSize : blockSize
      var start = 0
      while start < mapped.count {
        let end = min(start + piece, mapped.count)
        try reader.read(
          UnsafeBufferPointer(rebasing: mapped.bytes[start..<end]), checkingBlocksOf: blockSize
        ) { try filterWritingFromSink($0) }
        // Before what the bytes made is written: a file cut inside the
        // mapping's last page reads as zeros there, raising nothing.
        try snapshot?.checkUnchanged()
        try write(&output, to: destination)
        afterBlock?(filter)
        mapped.release(from: start, before: end)
        start = end
      }
      // What read(2) would leave: the offset after the bytes taken.
      mapped.moveOffsetPastMapping()
      remaining = 0
    }
    while true {
      // Up to the size at open, then once more for the end of the file.
      let wanted = remaining.map { $0 == 0 ? block.count : min($0, block.count) } ?? block.count
      let count = SystemCalls.read(descriptor, block.baseAddress, wanted)
      if count < 0 {
        let code = SystemCalls.errorNumber
        if code == SystemCalls.interrupted { continue }
        throw code == SystemCalls.isDirectoryError
          ? StreamError.cannotOpen(path: name, reason: StreamError.reason(code))
          : StreamError.cannotRead(path: name, reason: StreamError.reason(code))
      }
      if count == 0 {
        try snapshot?.checkUnchanged()
        let warning = try reader.end(named: name) { try filter.process($0, into: &output) }
        try write(&output, to: destination)
        if let warning { report(warning) }
        return
      }
      if remaining == 0 {
        // Bytes past the size at open: the file grew (an error), or its
        // size does not tell its length and it is read on to its end.
        try snapshot?.checkUnchanged()
        remaining = nil
      }
      remaining? -= count
      try reader.read(UnsafeBufferPointer(rebasing: block[..<count])) {
        try filterWritingFromSink($0)
      }
      // What was read may be a stream (`tail -f log | prog > file`): what
      // it made is written at once, aligned or not. (A mapped file is all
      // there: its output waits for the alignment.)
      try write(&output, to: destination)
      try destination.flush()
      afterBlock?(filter)
    }
  }

  /// How much of a mapped file goes to the filter at once.
  static let mappedPieceSize = 512 * 1024

  /// Writes and empties `output`.
  private func write(_ output: inout [UInt8], to destination: AlignedOutput) throws {
    guard !output.isEmpty else { return }
    try output.withUnsafeBytes { try destination.write($0) }
    output.removeAll(keepingCapacity: true)
  }
}

/// A large regular file mapped into memory from the offset its descriptor
/// is at, to be taken in the blocks read(2) would return: on a 43 MB file
/// it saves the kernel's copy of every byte (about 2.5 ms of 80 in text →
/// NFD). Pipes, terminals, special files and files under ``threshold``
/// bytes (a file in /proc says it has none) are read as before. The
/// mapping ends at the file's size at open (``FileSnapshot``); a file
/// truncated while it is mapped raises SIGBUS (``FileMapping``). At the
/// end the descriptor's offset is where read(2) would have left it.
private struct MappedInput {
  private let mapping: FileMapping
  private let descriptor: Int32
  /// The descriptor's offset when the file was mapped.
  private let offset: Int

  /// Files smaller than this are read.
  static let threshold = 1 << 20

  /// The mapping's bytes from the descriptor's offset on.
  var bytes: UnsafeBufferPointer<UInt8> { mapping.bytes }
  var count: Int { mapping.bytes.count }

  /// Maps what is left of the file of `snapshot` if it has at least
  /// ``threshold`` bytes left and at least two blocks; `nil` otherwise (or
  /// when mapping fails).
  init?(_ snapshot: FileSnapshot, blockSize: Int) {
    guard let length = snapshot.length, length >= max(Self.threshold, 2 * blockSize),
      let mapping = FileMapping(
        descriptor: snapshot.descriptor, range: snapshot.start..<(snapshot.start + length),
        name: snapshot.name, sequential: true)
    else { return nil }
    self.mapping = mapping
    self.descriptor = snapshot.descriptor
    self.offset = snapshot.start
  }

  /// Drops the pages already taken (``FileMapping/release(from:before:)``).
  func release(from start: Int, before end: Int) {
    mapping.release(from: start, before: end)
  }

  /// Sets the descriptor's offset to the end of what was mapped.
  func moveOffsetPastMapping() {
    SystemCalls.moveOffset(descriptor, to: offset + count)
  }

  /// Unmaps the file.
  func unmap() { mapping.unmap() }
}

/// What stands between read(2) and the filter: the conversion of another
/// encoding to UTF-8, or the check that the input is UTF-8.
private struct InputReader {
  let transcoder: InputTranscoder?
  var validator = UTF8Validator()
  var converted: [UInt8] = []

  /// Mapped bytes that the filter found to be UTF-8 and the validator has
  /// not seen: their lines are counted only if a warning may need them
  /// (a pass over the input that a valid file does not need). They start
  /// where a block starts.
  var unchecked: (base: UnsafePointer<UInt8>, count: Int, blockSize: Int)?

  init(transcoder: InputTranscoder?) {
    self.transcoder = transcoder
  }

  mutating func begin() {
    transcoder?.reset()
    validator = UTF8Validator()
    unchecked = nil
  }

  /// Hands `block`, as UTF-8, to `process`, which says whether it found the
  /// block to be UTF-8 itself (then only its lines are counted here).
  mutating func read(
    _ block: UnsafeBufferPointer<UInt8>, _ process: (UnsafeBufferPointer<UInt8>) throws -> Bool
  ) rethrows {
    catchUp()
    guard let transcoder else {
      if try process(block) { validator.skipValid(block) } else { validator.scan(block) }
      return
    }
    converted.removeAll(keepingCapacity: true)
    transcoder.transcode(block, isLast: false, into: &converted)
    _ = try converted.withUnsafeBufferPointer { try process($0) }
  }

  /// Hands `piece` (mapped bytes, each piece right after the one before)
  /// to `process` as ``read(_:_:)`` does, but checks it in blocks of
  /// `blockSize` bytes as if each had been read alone: the sample kept of a
  /// byte that is not UTF-8 ends where its block ends, so the warning is the
  /// same whatever the size of the piece. A piece the filter found to be
  /// UTF-8 is checked only when something after it is not, or when the input
  /// ends in the middle of a sequence (``unchecked``): counting the lines of
  /// 43 MB took 1.5 % of text → NFD.
  mutating func read(
    _ piece: UnsafeBufferPointer<UInt8>, checkingBlocksOf blockSize: Int,
    _ process: (UnsafeBufferPointer<UInt8>) throws -> Bool
  ) rethrows {
    guard transcoder == nil, let base = piece.baseAddress else {
      try read(piece, process)
      return
    }
    guard try process(piece) else {
      catchUp()
      check(piece, blocksOf: blockSize, wereUTF8: false)
      return
    }
    if let pending = unchecked, pending.base + pending.count == base {
      unchecked?.count += piece.count
    } else {
      catchUp()
      unchecked = (base, piece.count, blockSize)
    }
  }

  /// Has the validator check what it has not seen yet, dropping the mapped
  /// pages it has checked again (``FileMapping/release(_:)``): a late
  /// check of a whole file does not make it count whole in memory.
  mutating func catchUp() {
    guard let pending = unchecked else { return }
    unchecked = nil
    check(
      UnsafeBufferPointer(start: pending.base, count: pending.count), blocksOf: pending.blockSize,
      wereUTF8: true, releasing: true)
  }

  /// Checks `bytes` in blocks of `blockSize`, as if each had been read alone.
  private mutating func check(
    _ bytes: UnsafeBufferPointer<UInt8>, blocksOf blockSize: Int, wereUTF8: Bool,
    releasing: Bool = false
  ) {
    var start = 0
    while start < bytes.count {
      let block = UnsafeBufferPointer(rebasing: bytes[start..<min(start + blockSize, bytes.count)])
      if wereUTF8 { validator.skipValid(block) } else { validator.scan(block) }
      if releasing { FileMapping.release(block) }
      start += blockSize
    }
  }

  /// Ends one input: converts what the converter holds; returns a warning
  /// about bytes that were not UTF-8 or not in the encoding, if there were any.
  mutating func end(
    named name: String, _ process: (UnsafeBufferPointer<UInt8>) throws -> Void
  ) rethrows -> String? {
    guard let transcoder else {
      if let pending = unchecked {
        // UTF-8 that ends with a whole sequence, after a whole sequence: no
        // warning can come of it, and its lines need no counting.
        if validator.isBetweenSequences,
          UTF8Validator.openSequenceStart(
            in: UnsafeBufferPointer(start: pending.base, count: pending.count)) == nil
        {
          unchecked = nil
        } else {
          catchUp()
        }
      }
      validator.finish()
      return validator.firstInvalid?.warning(file: name)
    }
    converted.removeAll(keepingCapacity: true)
    transcoder.transcode(UnsafeBufferPointer(start: nil, count: 0), isLast: true, into: &converted)
    try converted.withUnsafeBufferPointer { try process($0) }
    guard transcoder.invalidSequences > 0 else { return nil }
    let count = transcoder.invalidSequences
    return "\(name): warning: \(count) byte sequence\(count == 1 ? " is" : "s are") not "
      + "\(transcoder.encodingName); copied through unchanged"
  }
}

/// An error in the data with the place it was found.
public struct PositionedError: Error, Equatable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var column: Int?
  public var message: String

  public init(file: String, line: Int, column: Int? = nil, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  /// `FILE:LINE:COLUMN: message`, as the man pages' DIAGNOSTICS write it.
  public var description: String {
    if let column { return "\(file):\(line):\(column): \(message)" }
    return "\(file):\(line): \(message)"
  }
}
