/// Renames files and directories whose names are not in a normalization form
/// (`hangul-normalize --rename`, hangul-normalize(1)), as `convmv --nfc` does, but never
/// overwriting anything and never moving anything out of its directory.
///
///     let renamer = try FileRenamer(form: .nfc, recursive: true)
///     let status = renamer.rename(["Downloads/한글"]) { event in print(event.message); return true }
///     // "Downloads/한글/한.txt → Downloads/한글/한.txt (U+1112 U+1161 U+11AB → U+D55C)"
///
/// Paths are the exact bytes given (``FilePath``). It works on directory
/// descriptors (`openat`, `renameat2`), not on path strings: every rename
/// is of one name to one name inside the same directory. A normalized name
/// that is not one name (NFKC makes `／` a slash; it may be empty, `.` or
/// `..`) is reported and left alone. It reads a whole directory before
/// renaming in it and goes deepest first: the entries of a directory, then
/// the directory; the PATHs given go deepest first too (most components
/// first). The walk is a loop, not a recursion, and holds one directory
/// open at a time, so no depth of tree makes it fail (it goes back up
/// through `..`, checking that it comes back to the directory it left). A
/// new name is taken only if nothing has it (`RENAME_NOREPLACE`; where a
/// file system cannot do that, after checking that the name is free).
/// Symbolic links are renamed, never followed. Names that are not UTF-8 are
/// reported and left alone. Time O(entries); memory O(the entries of the
/// directories on the current path + its length).
public struct FileRenamer {
  /// What happened to one entry. Paths are as given on the command line
  /// with the names below them.
  public enum Event: Equatable, Sendable {
    /// Renamed (or, in a dry run, would be).
    case renamed(old: FilePath, new: FilePath, dryRun: Bool)
    /// Left alone: another entry has the new name already (in a dry run:
    /// has it, or would have it after an earlier rename).
    case collision(old: FilePath, new: FilePath, dryRun: Bool)
    /// Left alone: the name is not UTF-8.
    case notUTF8(path: FilePath)
    /// Left alone: the normalized name is not a single name.
    case notOneName(path: FilePath, newName: [UInt8])
    /// A path that cannot be reached.
    case cannotOpen(path: FilePath, reason: String)
    /// A rename or a directory read failed.
    case failed(path: FilePath, reason: String)

    /// How the program reports it: `old → new (code points old → new)` for
    /// a rename, a message otherwise. Paths are shown as
    /// ``FilePath/description`` does.
    public var message: String {
      switch self {
      case .renamed(let old, let new, _):
        "\(old) → \(new) (\(Self.change(from: old, to: new)))"
      case .collision(let old, let new, false): "\(old): not renamed: \(new) exists"
      case .collision(let old, let new, true): "\(old): would collide: \(new) exists"
      case .notUTF8(let path): "\(path): not renamed: the name is not UTF-8"
      case .notOneName(let path, let newName):
        "\(path): not renamed: the normalized name '\(FilePath(bytes: newName))' "
          + (newName.contains(UInt8(ascii: "/"))
            ? "holds a slash" : newName.isEmpty ? "is empty" : "is not a name")
      case .cannotOpen(let path, let reason): "\(path): \(reason)"
      case .failed(let path, let reason): "\(path): \(reason)"
      }
    }

    /// The code points that differ between two names, from the first that
    /// differs to the last: `U+1112 U+1161 U+11AB → U+D55C`. The two names
    /// of a rename usually look the same; this shows what changes.
    static func change(from old: FilePath, to new: FilePath) -> String {
      let before = Array(String(decoding: old.bytes, as: UTF8.self).unicodeScalars)
      let after = Array(String(decoding: new.bytes, as: UTF8.self).unicodeScalars)
      var start = 0
      while start < before.count, start < after.count, before[start] == after[start] {
        start += 1
      }
      var end = 0
      while end < before.count - start, end < after.count - start,
        before[before.count - 1 - end] == after[after.count - 1 - end]
      {
        end += 1
      }
      return CodePointNotation.string(before[start..<(before.count - end)]) + " → "
        + CodePointNotation.string(after[start..<(after.count - end)])
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

  /// Renames each path (and, recursively, what is below it), the deepest
  /// first (most components; paths of the same depth in the order given);
  /// `report` gets each event as it happens and returns whether to go on
  /// (false: stop at once, when the list of renames cannot be written).
  /// What the events mean to a program (its exit status) is the program's
  /// to say.
  public func rename(_ paths: [FilePath], report: (Event) -> Bool) {
    var stopped = false
    let note: (Event) -> Bool = { event in
      stopped = stopped || !report(event)
      return !stopped
    }
    let deepestFirst = paths.enumerated().sorted {
      ($0.element.depth, -$0.offset) > ($1.element.depth, -$1.offset)
    }
    for (_, path) in deepestFirst where !stopped {
      renamePath(path, report: note)
    }
  }

  /// Whether `path` names no entry of a directory (`/`, `.`, `..`, or
  /// ending in one of them): it can be walked with `--recursive`, not renamed.
  public static func namesNoEntry(_ path: FilePath) -> Bool {
    let name = split(path).name
    return name.isEmpty || name == Self.dot || name == Self.dotDot
  }

  static let dot = [UInt8(ascii: ".")]
  static let dotDot = [UInt8(ascii: "."), UInt8(ascii: ".")]

  /// `path` without trailing slashes, cut after its last slash: the prefix
  /// (empty for a bare name) and the name (empty for `/`).
  static func split(_ path: FilePath) -> (prefix: [UInt8], name: [UInt8]) {
    var bytes = path.bytes
    let slash = UInt8(ascii: "/")
    while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
    if bytes == [slash] { return (bytes, []) }
    guard let last = bytes.lastIndex(of: slash) else { return ([], bytes) }
    return (Array(bytes[...last]), Array(bytes[(last + 1)...]))
  }

  private func renamePath(_ path: FilePath, report: (Event) -> Bool) {
    let (prefix, name) = Self.split(path)
    let shown = FilePath(bytes: prefix + name)
    if name.isEmpty || name == Self.dot || name == Self.dotDot {
      // Not a name to rename; with --recursive, what is in it is renamed.
      guard recursive else { return }
      let directory = shown.open(Self.directoryFlags)
      guard directory >= 0 else {
        _ = report(.cannotOpen(path: shown, reason: StreamError.reason(SystemCalls.errorNumber)))
        return
      }
      _ = walk(directory, path: shown.bytes, report: report)
      return
    }
    let parent = FilePath(bytes: prefix.isEmpty ? Self.dot : prefix).open(Self.directoryFlags)
    guard parent >= 0 else {
      _ = report(.cannotOpen(path: shown, reason: StreamError.reason(SystemCalls.errorNumber)))
      return
    }
    defer { SystemCalls.close(parent) }
    let status = name.withCName {
      SystemCalls.status(ofPath: $0, relativeTo: parent, followingLinks: false)
    }
    guard let info = status else {
      _ = report(.cannotOpen(path: shown, reason: StreamError.reason(SystemCalls.errorNumber)))
      return
    }
    if recursive, SystemCalls.isDirectory(info) {
      let directory = name.withCName {
        SystemCalls.open(
          $0, Self.directoryFlags | SystemCalls.OpenFlag.noFollow, relativeTo: parent)
      }
      if directory < 0 {
        let reason = StreamError.reason(SystemCalls.errorNumber)
        guard report(.failed(path: shown, reason: reason)) else { return }
      } else {
        guard walk(directory, path: shown.bytes, report: report) else { return }
      }
    }
    var taken = Set<[UInt8]>()
    _ = renameEntry(name, in: parent, prefix: prefix, taken: &taken, report: report)
  }

  /// The name in the form: unchanged, changed, or not UTF-8.
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
    /// The normalized name, which is not one name (empty, `.`, `..`, or
    /// holding a slash or a NUL).
    case notOneName([UInt8])
  }

  /// What an entry called `name` is renamed to: its name in the form if
  /// that differs and is one name in the same directory, never a path that
  /// leads elsewhere. O(name).
  func newName(for name: UnsafeBufferPointer<UInt8>) -> NameResult {
    let result = normalizedName(name)
    guard case .changed(let newName) = result else { return result }
    guard !newName.isEmpty, newName != Self.dot, newName != Self.dotDot,
      !newName.contains(UInt8(ascii: "/")), !newName.contains(0)
    else { return .notOneName(newName) }
    return result
  }

  /// Renames one entry of `directory` if its name is not in the form;
  /// returns whether to go on. `taken` holds the new names a dry run has
  /// given out in this directory; `prefix` is the directory's path as
  /// shown, ending in a slash (or empty).
  func renameEntry(
    _ name: [UInt8], in directory: Int32, prefix: [UInt8], taken: inout Set<[UInt8]>,
    report: (Event) -> Bool
  ) -> Bool {
    let result = name.withUnsafeBufferPointer { newName(for: $0) }
    let old = FilePath(bytes: prefix + name)
    switch result {
    case .unchanged: return true
    case .notUTF8: return report(.notUTF8(path: old))
    case .notOneName(let newName): return report(.notOneName(path: old, newName: newName))
    case .changed(let newName):
      let new = FilePath(bytes: prefix + newName)
      if dryRun {
        let exists =
          newName.withCName {
            SystemCalls.status(ofPath: $0, relativeTo: directory, followingLinks: false)
          } != nil
        if exists || taken.contains(newName) {
          return report(.collision(old: old, new: new, dryRun: true))
        }
        taken.insert(newName)
        return report(.renamed(old: old, new: new, dryRun: true))
      }
      let outcome = name.withCName { oldName in
        newName.withCName { newName in
          SystemCalls.renameWithoutReplacing(in: directory, oldName, to: newName)
        }
      }
      switch outcome {
      case 0: return report(.renamed(old: old, new: new, dryRun: false))
      case SystemCalls.exists: return report(.collision(old: old, new: new, dryRun: false))
      default: return report(.failed(path: old, reason: StreamError.reason(outcome)))
      }
    }
  }

  /// open(2) flags of a directory to read or rename in.
  static let directoryFlags =
    SystemCalls.OpenFlag.readOnly | SystemCalls.OpenFlag.directory
    | SystemCalls.OpenFlag.closeOnExec
}

extension Array where Element == UInt8 {
  /// Calls `body` with the bytes, one name without NUL, as a C string.
  func withCName<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
    assert(!contains(0), "a name from readdir(3), argv or a checked normalization holds no NUL")
    let cString = map { CChar(bitPattern: $0) } + [0]
    return cString.withUnsafeBufferPointer { buffer in
      // The buffer holds at least the NUL, so it has an address.
      guard let base = buffer.baseAddress else { return body("") }
      return body(base)
    }
  }
}
