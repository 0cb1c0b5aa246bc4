#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a ``ByteFilter`` over files as `cat` reads them: each path in
/// order, `-` or no path at all meaning standard input, and writes the
/// result to a file descriptor after every block read.
///
///     var filter = ComposeFilter(keys: .qwerty)
///     let status = FilterRunner(paths: ["log.txt"]).run(&filter) { message in
///       print(message)  // "log.txt: No such file or directory"
///     }
///
/// A file that cannot be opened is reported and skipped (status 66 at the
/// end); a read or write error stops the run (status 74); a closed output
/// pipe stops it quietly (status 0). Input in another encoding is converted
/// to UTF-8 first when ``inputEncoding`` names it; otherwise the first byte of
/// each file that is not UTF-8 is reported as a warning (the bytes still pass
/// through). Memory: one block of ``blockSize`` bytes plus what the filter holds.
public struct FilterRunner: Sendable {
  /// The inputs, in order; `-` is standard input.
  public var paths: [String]
  /// Where the output goes.
  public var outputDescriptor: Int32
  /// The size of each read(2).
  public var blockSize: Int
  /// The encoding of the inputs when it is not UTF-8, as ICU names converters (`cp949`).
  public var inputEncoding: String?

  public init(
    paths: [String], outputDescriptor: Int32 = 1, blockSize: Int = 128 * 1024,
    inputEncoding: String? = nil
  ) {
    self.paths = paths.isEmpty ? ["-"] : paths
    self.outputDescriptor = outputDescriptor
    self.blockSize = blockSize
    self.inputEncoding = inputEncoding
  }

  /// Runs `filter` over the inputs; returns the exit status. `report` receives
  /// each error message (without the program name); `afterBlock`, if given,
  /// sees the filter after each block (for a progress line).
  public func run<Filter: ByteFilter>(
    _ filter: inout Filter, report: (String) -> Void, afterBlock: ((Filter) -> Void)? = nil
  ) -> Int32 {
    var status: Int32 = 0
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
        return 64
      }
    }
    var reader = InputReader(transcoder: transcoder)
    do {
      for path in paths {
        do {
          try copy(
            path, through: &filter, block: block, reader: &reader, output: &output,
            report: report, afterBlock: afterBlock)
        } catch StreamError.cannotOpen(let path, let reason) {
          report(StreamError.cannotOpen(path: path, reason: reason).description)
          status = 66
        }
      }
      try filter.finish(into: &output)
      try write(&output)
    } catch let error as StreamError {
      if error != .brokenPipe { report(error.description) }
      return error.exitStatus
    } catch let error as PositionedError {
      // A data error that stops the filter: what came before is written.
      try? write(&output)
      report(error.description)
      return 65
    } catch {
      report("\(error)")
      return 70
    }
    return status
  }

  private func copy<Filter: ByteFilter>(
    _ path: String, through filter: inout Filter,
    block: UnsafeMutableBufferPointer<UInt8>, reader: inout InputReader, output: inout [UInt8],
    report: (String) -> Void, afterBlock: ((Filter) -> Void)?
  ) throws {
    let descriptor: Int32
    if path == "-" {
      descriptor = 0
    } else {
      descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw StreamError.cannotOpen(path: path, reason: StreamError.reason(errno))
      }
      var info = stat()
      if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
        close(descriptor)
        throw StreamError.cannotOpen(path: path, reason: StreamError.reason(EISDIR))
      }
    }
    defer { if descriptor != 0 { close(descriptor) } }
    let name = path == "-" ? "(standard input)" : path
    filter.beginInput(named: name)
    reader.begin()
    while true {
      let count = read(descriptor, block.baseAddress, block.count)
      if count < 0 {
        if errno == EINTR { continue }
        let code = errno
        throw code == EISDIR
          ? StreamError.cannotOpen(path: name, reason: StreamError.reason(code))
          : StreamError.cannotRead(path: name, reason: StreamError.reason(code))
      }
      if count == 0 {
        let warning = try reader.end(named: name) { try filter.process($0, into: &output) }
        try write(&output)
        if let warning { report(warning) }
        return
      }
      try reader.read(UnsafeBufferPointer(rebasing: block[..<count])) {
        // A filter with storage of its own is written from it (no copy into
        // `output`), which it then empties and reuses.
        try filter.process($0, into: &output) { sink in
          try writeAll(UnsafeRawBufferPointer(sink.bytes), to: outputDescriptor)
          return false
        }
        return filter.lastChunkWasUTF8
      }
      try write(&output)
      afterBlock?(filter)
    }
  }

  /// Writes and empties `output`.
  private func write(_ output: inout [UInt8]) throws {
    guard !output.isEmpty else { return }
    try output.withUnsafeBytes { try writeAll($0, to: outputDescriptor) }
    output.removeAll(keepingCapacity: true)
  }
}

/// What stands between read(2) and the filter: the conversion of another
/// encoding to UTF-8, or the check that the input is UTF-8.
private struct InputReader {
  let transcoder: InputTranscoder?
  var validator = UTF8Validator()
  var converted: [UInt8] = []

  init(transcoder: InputTranscoder?) {
    self.transcoder = transcoder
  }

  mutating func begin() {
    transcoder?.reset()
    validator = UTF8Validator()
  }

  /// Hands `block`, as UTF-8, to `process`, which says whether it found the
  /// block to be UTF-8 itself (then only its lines are counted here).
  mutating func read(
    _ block: UnsafeBufferPointer<UInt8>, _ process: (UnsafeBufferPointer<UInt8>) throws -> Bool
  ) rethrows {
    guard let transcoder else {
      if try process(block) { validator.skipValid(block) } else { validator.scan(block) }
      return
    }
    converted.removeAll(keepingCapacity: true)
    transcoder.transcode(block, isLast: false, into: &converted)
    _ = try converted.withUnsafeBufferPointer { try process($0) }
  }

  /// Ends one input: converts what the converter holds; returns a warning
  /// about bytes that were not UTF-8 or not in the encoding, if there were any.
  mutating func end(
    named name: String, _ process: (UnsafeBufferPointer<UInt8>) throws -> Void
  ) rethrows -> String? {
    guard let transcoder else {
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

  /// `FILE:LINE:COLUMN: message`, as SPEC §7 writes it.
  public var description: String {
    if let column { return "\(file):\(line):\(column): \(message)" }
    return "\(file):\(line): \(message)"
  }
}
