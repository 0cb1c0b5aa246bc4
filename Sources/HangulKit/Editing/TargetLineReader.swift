/// The lines of a `--target` file, one a document, read in 64 KiB blocks as
/// they are asked for: memory is bounded by the longest line. A line ends
/// at LF (a CR before it is dropped); bytes that are not UTF-8 become U+FFFD.
///
///     var lines = try TargetLineReader(path: "targets.txt")
///     lines.next()   // the first line, without its line break
package struct TargetLineReader {
  /// Why the file cannot be read: the path and the system's reason.
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
  }

  private let descriptor: Int32
  private let path: String
  private var buffer: [UInt8] = []
  private var start = 0
  private var ended = false

  package init(path: FilePath) throws {
    self.path = path.description
    descriptor =
      path.withCString {
        SystemCalls.open(
          $0, SystemCalls.OpenFlag.readOnly | SystemCalls.OpenFlag.closeOnExec,
          relativeTo: SystemCalls.currentDirectory)
      } ?? -1
    guard descriptor >= 0 else {
      throw Failure(
        description: "\(path): \(SystemCalls.errorText(SystemCalls.errorNumber) ?? "cannot open")")
    }
  }

  /// The next line, or `nil` after the last (a final line without LF counts).
  package mutating func next() -> String? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        var end = newline
        if end > start, buffer[end - 1] == 0x0D { end -= 1 }
        let line = String(decoding: buffer[start..<end], as: UTF8.self)
        start = newline + 1
        return line
      }
      if ended {
        guard start < buffer.count else { return nil }
        let line = String(decoding: buffer[start...], as: UTF8.self)
        start = buffer.count
        return line
      }
      buffer.removeFirst(start)
      start = 0
      var block = [UInt8](repeating: 0, count: 1 << 16)
      let count = block.withUnsafeMutableBytes {
        SystemCalls.read(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0, SystemCalls.errorNumber == SystemCalls.interrupted { continue }
      if count <= 0 {
        ended = true
        _ = SystemCalls.close(descriptor)
      } else {
        buffer += block[..<count]
      }
    }
  }
}
