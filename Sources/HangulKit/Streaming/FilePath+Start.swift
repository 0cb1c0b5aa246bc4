extension FilePath {
  /// The first `count` bytes (fewer when the file is shorter) of the regular
  /// file at this path, for guessing what it holds (`--format`, `--keyboard
  /// auto`); `nil` when it is not a regular file or cannot be read.
  ///
  /// A FIFO, a terminal or standard input is never opened here: reading
  /// its start would take those bytes from the run that follows.
  ///
  ///     FilePath("samples/inputlog-korean.idfx").start(upTo: 4096)   // "<?xml …"
  package func start(upTo count: Int) -> [UInt8]? {
    guard !isStandardInput, let info = status(), SystemCalls.isRegularFile(info) else { return nil }
    let descriptor = open(SystemCalls.OpenFlag.readOnly | SystemCalls.OpenFlag.closeOnExec)
    guard descriptor >= 0 else { return nil }
    defer { _ = SystemCalls.close(descriptor) }
    // Replaced by something else since the check: not read either.
    guard let opened = SystemCalls.status(of: descriptor), SystemCalls.isRegularFile(opened) else {
      return nil
    }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let read = bytes.withUnsafeMutableBytes { buffer in
        assert(filled < buffer.count, "room is left past what was read")
        return SystemCalls.read(descriptor, buffer.baseAddress.map { $0 + filled }, count - filled)
      }
      if read < 0, SystemCalls.errorNumber == SystemCalls.interrupted { continue }
      if read < 0 { return nil }
      if read == 0 { break }
      filled += read
    }
    return Array(bytes[..<filled])
  }
}
