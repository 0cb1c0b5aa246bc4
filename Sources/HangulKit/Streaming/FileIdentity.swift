/// Which file a path or an open descriptor is (its device and inode), so
/// that a program can refuse to write over one of its inputs.
///
///     FileIdentity.input(overwrittenBy: "r.json", inputs: ["r.json"])   // "r.json"
///     FileIdentity.input(overwrittenBy: "out.json", inputs: ["in.json"]) // nil
///
/// Each check is one stat(2) per path.
package struct FileIdentity: Equatable, Sendable {
  package let device: UInt64
  package let inode: UInt64

  /// The file at `path`, if it exists.
  package init?(path: FilePath) {
    guard let info = path.status() else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }

  /// The file open on `descriptor`, if it is a regular file.
  package init?(regularFileOn descriptor: Int32) {
    guard let info = SystemCalls.status(of: descriptor), SystemCalls.isRegularFile(info) else {
      return nil
    }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }

  /// The identity of an input as the programs name it: `-` is standard input.
  static func input(_ path: FilePath) -> FileIdentity? {
    path.isStandardInput ? FileIdentity(regularFileOn: 0) : FileIdentity(path: path)
  }

  /// The first of `inputs` (no inputs: standard input) that writing to the
  /// path `output` would write over: the same path, or the same file.
  package static func input(overwrittenBy output: FilePath, inputs: [FilePath]) -> FilePath? {
    let inputs = inputs.isEmpty ? [.standardInput] : inputs
    if let same = inputs.first(where: { $0 == output && !$0.isStandardInput }) { return same }
    guard let target = FileIdentity(path: output) else { return nil }
    return inputs.first { input($0) == target }
  }

  /// The first of `inputs` (no inputs: standard input) that is the regular
  /// file open on `descriptor` (standard output: 1), whether it was opened to
  /// write over the file or to append to it: either way the program would
  /// read what it writes.
  package static func input(onDescriptor descriptor: Int32, inputs: [FilePath]) -> FilePath? {
    guard descriptor != 0, let target = FileIdentity(regularFileOn: descriptor) else { return nil }
    let inputs = inputs.isEmpty ? [.standardInput] : inputs
    return inputs.first { input($0) == target }
  }
}
