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
/// pipe stops it quietly (status 0). Memory: one block of ``blockSize`` bytes
/// plus what the filter holds.
public struct FilterRunner: Sendable {
  /// The inputs, in order; `-` is standard input.
  public var paths: [String]
  /// Where the output goes.
  public var outputDescriptor: Int32
  /// The size of each read(2).
  public var blockSize: Int

  public init(paths: [String], outputDescriptor: Int32 = 1, blockSize: Int = 128 * 1024) {
    self.paths = paths.isEmpty ? ["-"] : paths
    self.outputDescriptor = outputDescriptor
    self.blockSize = blockSize
  }

  /// Runs `filter` over the inputs; returns the exit status. `report` receives
  /// each error message (without the program name); `afterBlock`, if given,
  /// sees the filter after each block (for a progress line).
  public func run<Filter: ByteFilter>(
    _ filter: inout Filter, report: (String) -> Void, afterBlock: ((Filter) -> Void)? = nil
  ) -> Int32 {
    var status: Int32 = 0
    var output: [UInt8] = []
    output.reserveCapacity(blockSize * 2)
    let block = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: blockSize)
    defer { block.deallocate() }
    do {
      for path in paths {
        do {
          try copy(path, through: &filter, block: block, output: &output, afterBlock: afterBlock)
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
    block: UnsafeMutableBufferPointer<UInt8>, output: inout [UInt8],
    afterBlock: ((Filter) -> Void)?
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
    while true {
      let count = read(descriptor, block.baseAddress, block.count)
      if count < 0 {
        if errno == EINTR { continue }
        let code = errno
        throw code == EISDIR
          ? StreamError.cannotOpen(path: name, reason: StreamError.reason(code))
          : StreamError.cannotRead(path: name, reason: StreamError.reason(code))
      }
      if count == 0 { return }
      try filter.process(UnsafeBufferPointer(rebasing: block[..<count]), into: &output)
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
