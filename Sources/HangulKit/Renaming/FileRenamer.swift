#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
internal import CSystemCalls

/// Renames files and directories whose names are not in a normalization form
/// (`hangul-normalize --rename`, SPEC §6), as `convmv --nfc` does, but never
/// overwriting anything.
///
///     var renamer = try FileRenamer(form: .nfc, recursive: true)
///     let status = renamer.rename(["Downloads/한글"]) { event in print(event) }
///     // "Downloads/한글/한.txt → Downloads/한글/한.txt"
///
/// It works on directory descriptors (`openat`, `renameat2`), not on path
/// strings, reads a whole directory before renaming in it, and goes deepest
/// first: the entries of a directory, then the directory. A new name is taken
/// only if nothing has it (`RENAME_NOREPLACE`; where a file system cannot do
/// that, after checking that the name is free). Symbolic links are renamed,
/// never followed. Names that are not UTF-8 are reported and left alone.
/// Time O(entries); memory O(entries of the largest directory + depth).
public struct FileRenamer {
  /// What happened to one entry.
  public enum Event: Equatable, Sendable {
    /// Renamed (or, in a dry run, would be).
    case renamed(old: String, new: String)
    /// Left alone: another entry has the new name already.
    case collision(old: String, new: String)
    /// Left alone: the name is not UTF-8.
    case notUTF8(path: String)
    /// A path that cannot be reached (status 66).
    case cannotOpen(path: String, reason: String)
    /// A rename or a directory read failed (status 74).
    case failed(path: String, reason: String)

    /// The exit status this event calls for (0 for a rename).
    public var status: Int32 {
      switch self {
      case .renamed: 0
      case .collision, .notUTF8: 65
      case .cannotOpen: 66
      case .failed: 74
      }
    }

    /// How the program reports it: `old → new` for a rename, a message otherwise.
    public var message: String {
      switch self {
      case .renamed(let old, let new): "\(old) → \(new)"
      case .collision(let old, let new): "\(old): not renamed: \(new) exists"
      case .notUTF8(let path): "\(path): not renamed: the name is not UTF-8"
      case .cannotOpen(let path, let reason): "\(path): \(reason)"
      case .failed(let path, let reason): "\(path): \(reason)"
      }
    }
  }

  public let normalizer: UnicodeNormalizer
  public var recursive: Bool
  public var dryRun: Bool
  private let normalizedNames = ByteSink(capacity: 1024)

  public init(form: ICUNormalizer.Form, recursive: Bool = false, dryRun: Bool = false) throws {
    normalizer = try UnicodeNormalizer(form)
    self.recursive = recursive
    self.dryRun = dryRun
  }

  /// Renames each path (and, recursively, what is below it); `report` gets
  /// each event as it happens. Returns the exit status: the highest one of
  /// the events (65 for a collision or a name that is not UTF-8, 66 for a
  /// path that does not exist, 74 for a failed rename).
  public func rename(_ paths: [String], report: (Event) -> Void) -> Int32 {
    var status: Int32 = 0
    let note: (Event) -> Void = { event in
      status = max(status, event.status)
      report(event)
    }
    for path in paths {
      renamePath(path, report: note)
    }
    return status
  }

  /// The name in the form, or `nil` when it already is; `.none` for a name that is not UTF-8.
  func normalizedName(_ name: UnsafeBufferPointer<UInt8>) -> NameResult {
    if !name.contains(where: { $0 >= 0x80 }) { return .unchanged }
    var position = 0
    while position < name.count {
      guard case .scalar(_, let length) = UTF8Stream.step(name, at: position) else {
        return .notUTF8
      }
      position += length
    }
    normalizedNames.count = 0
    _ = normalizer.normalize(name, isLast: true, into: normalizedNames)
    let result = normalizedNames.bytes
    if result.elementsEqual(name) { return .unchanged }
    return .changed(Array(result))
  }

  enum NameResult: Equatable {
    case unchanged
    case changed([UInt8])
    case notUTF8
  }

  private func renamePath(_ path: String, report: (Event) -> Void) {
    var bytes = Array(path.utf8)
    while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    let slash = bytes.lastIndex(of: UInt8(ascii: "/"))
    let parentBytes: [UInt8] =
      slash.map { $0 == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<$0]) } ?? []
    let name = slash.map { Array(bytes[($0 + 1)...]) } ?? bytes
    let parentPath = parentBytes.isEmpty ? "." : String(decoding: parentBytes, as: UTF8.self)
    let parent = open(parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard parent >= 0 else {
      return report(.cannotOpen(path: path, reason: StreamError.reason(errno)))
    }
    defer { close(parent) }
    let prefix =
      parentBytes.isEmpty
      ? ""
      : String(decoding: parentBytes, as: UTF8.self)
        + (parentBytes == [UInt8(ascii: "/")] ? "" : "/")
    var info = stat()
    let exists = name.withCString { fstatat(parent, $0, &info, AT_SYMLINK_NOFOLLOW) } == 0
    guard exists else { return report(.cannotOpen(path: path, reason: StreamError.reason(errno))) }
    let isDirectory = info.st_mode & S_IFMT == S_IFDIR
    if recursive, isDirectory {
      let display = prefix + String(decoding: name, as: UTF8.self)
      let directory = name.withCString {
        openat(parent, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      }
      if directory < 0 {
        report(.failed(path: display, reason: StreamError.reason(errno)))
      } else {
        renameEntries(of: directory, display: display, report: report)
      }
    }
    // ".", ".." and "/" are not names to rename.
    guard !name.isEmpty, name != [UInt8(ascii: ".")],
      name != [UInt8(ascii: "."), UInt8(ascii: ".")],
      name != [UInt8(ascii: "/")]
    else { return }
    var taken = Set<[UInt8]>()
    renameEntry(name, in: parent, prefix: prefix, taken: &taken, report: report)
  }

  /// Renames what is in `directory` (deepest first) and closes it.
  private func renameEntries(of directory: Int32, display: String, report: (Event) -> Void) {
    guard let stream = fdopendir(directory) else {
      close(directory)
      return report(.failed(path: display, reason: StreamError.reason(errno)))
    }
    defer { closedir(stream) }
    var names: [(name: [UInt8], isDirectory: Bool)] = []
    while true {
      errno = 0
      guard let entry = readdir(stream) else {
        if errno != 0 { report(.failed(path: display, reason: StreamError.reason(errno))) }
        break
      }
      let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: UInt8.self, capacity: 256) { bytes in
          Array(
            UnsafeBufferPointer(
              start: bytes,
              count: strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))))
        }
      }
      if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
      var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
      if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
        var info = stat()
        isDirectory =
          name.withCString { fstatat(dirfd(stream), $0, &info, AT_SYMLINK_NOFOLLOW) } == 0
          && info.st_mode & S_IFMT == S_IFDIR
      }
      names.append((name, isDirectory))
    }
    let descriptor = dirfd(stream)
    let prefix = display == "/" ? "/" : display + "/"
    for (name, isDirectory) in names where isDirectory {
      let child = name.withCString {
        openat(descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      }
      guard child >= 0 else {
        report(
          .failed(
            path: prefix + String(decoding: name, as: UTF8.self), reason: StreamError.reason(errno))
        )
        continue
      }
      renameEntries(
        of: child, display: prefix + String(decoding: name, as: UTF8.self), report: report)
    }
    var taken = Set<[UInt8]>()
    for (name, _) in names {
      renameEntry(name, in: descriptor, prefix: prefix, taken: &taken, report: report)
    }
  }

  /// Renames one entry of `directory` if its name is not in the form.
  /// `taken` holds the new names a dry run has given out in this directory.
  private func renameEntry(
    _ name: [UInt8], in directory: Int32, prefix: String, taken: inout Set<[UInt8]>,
    report: (Event) -> Void
  ) {
    let result = name.withUnsafeBufferPointer { normalizedName($0) }
    let old = prefix + String(decoding: name, as: UTF8.self)
    switch result {
    case .unchanged: return
    case .notUTF8: return report(.notUTF8(path: prefix + Self.escaped(name)))
    case .changed(let newName):
      let new = prefix + String(decoding: newName, as: UTF8.self)
      if dryRun {
        var info = stat()
        let exists = newName.withCString { fstatat(directory, $0, &info, AT_SYMLINK_NOFOLLOW) } == 0
        if exists || taken.contains(newName) {
          return report(.collision(old: old, new: new))
        }
        taken.insert(newName)
        return report(.renamed(old: old, new: new))
      }
      let outcome = name.withCString { oldName in
        newName.withCString { newName in Self.renameNoReplace(directory, oldName, newName) }
      }
      switch outcome {
      case 0: report(.renamed(old: old, new: new))
      case EEXIST: report(.collision(old: old, new: new))
      default: report(.failed(path: old, reason: StreamError.reason(outcome)))
      }
    }
  }

  /// renameat2 with RENAME_NOREPLACE; where the file system cannot do it,
  /// renameat after checking that the new name is free. Returns 0 or errno.
  private static func renameNoReplace(
    _ directory: Int32, _ old: UnsafePointer<CChar>, _ new: UnsafePointer<CChar>
  ) -> Int32 {
    if csys_rename_no_replace(directory, old, directory, new) == 0 { return 0 }
    let code = errno
    guard code == EINVAL || code == ENOSYS else { return code }
    var info = stat()
    if fstatat(directory, new, &info, AT_SYMLINK_NOFOLLOW) == 0 { return EEXIST }
    return renameat(directory, old, directory, new) == 0 ? 0 : errno
  }

  /// A name that is not UTF-8, with its bytes that are not written as `\xHH`.
  static func escaped(_ name: [UInt8]) -> String {
    var text = ""
    var decoder = UTF8Stream()
    decoder.decode(name, isLast: true) { unit in
      switch unit {
      case .scalar(let scalar): text.unicodeScalars.append(scalar)
      case .invalidByte(let byte):
        let digits = String(byte, radix: 16, uppercase: true)
        text += "\\x" + (digits.count < 2 ? "0" : "") + digits
      }
    }
    return text
  }
}

extension Array where Element == UInt8 {
  /// Calls `body` with the bytes as a NUL-terminated C string.
  fileprivate func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
    let cString = map { CChar(bitPattern: $0) } + [0]
    return cString.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return body("") }
      return body(base)
    }
  }
}
