/// What a regular input file was when it was opened: its size, its
/// modification time and the descriptor's offset. The runners read such a
/// file up to that size and no further, and call ``checkUnchanged()`` after
/// reading (and before writing what mapped bytes made): a file that was
/// truncated, grew or was written meanwhile is an error
/// (``StreamError/fileChanged(path:)``), never bytes that were
/// not in it (the zeros past a shrunk end in a mapped page) or bytes that
/// silently are not read.
///
///     guard let snapshot = FileSnapshot(descriptor: descriptor, name: "in.txt") else { … }
///     // … read snapshot.length bytes …
///     try snapshot.checkUnchanged()
///
/// A file whose size does not tell its length is read as it is: one that
/// says it is empty (in /proc) is read to its end, one that ends before its
/// size or goes on past it while its size and time stay what they were (in
/// /sys) ends where it ends.
struct FileSnapshot: Sendable {
  let descriptor: Int32
  /// The name the messages give the file.
  let name: String
  /// The size when the file was opened.
  let size: Int
  /// The descriptor's offset when the file was opened.
  let start: Int
  private let modifiedSeconds: Int
  private let modifiedNanoseconds: Int

  /// The snapshot of the file open as `descriptor` if it is a regular file; `nil` otherwise.
  init?(descriptor: Int32, name: String) {
    guard let info = SystemCalls.status(of: descriptor), SystemCalls.isRegularFile(info) else {
      return nil
    }
    let offset = SystemCalls.currentOffset(descriptor)
    self.descriptor = descriptor
    self.name = name
    size = Int(info.st_size)
    start = max(0, Int(offset))
    (modifiedSeconds, modifiedNanoseconds) = SystemCalls.modificationTime(info)
  }

  /// How many bytes there are to read from ``start``, or `nil` for a file
  /// that says it is empty (read to its end).
  var length: Int? { size > 0 ? max(0, size - start) : nil }

  /// Throws ``StreamError/fileChanged(path:)`` when the file's size or
  /// modification time is not what it was at open (or fstat(2) fails).
  /// Time: one fstat(2).
  func checkUnchanged() throws {
    guard let info = SystemCalls.status(of: descriptor), Int(info.st_size) == size,
      SystemCalls.modificationTime(info) == (modifiedSeconds, modifiedNanoseconds)
    else { throw StreamError.fileChanged(path: name) }
  }
}
