extension FileRenamer {
  /// One directory on the path the walk is at.
  private struct Level {
    /// Device and inode, to check that `..` leads back to it.
    var identity: [UInt64]
    /// How many bytes of the walk's path are this directory's path.
    var pathLength: Int
    var entries: [(name: [UInt8], isDirectory: Bool)]
    /// The entry to look at next for a directory to go down into.
    var next = 0
  }

  /// Renames what is below the open directory `directory` (whose path is
  /// shown as `shown`), deepest first, and closes it; returns whether to go on.
  ///
  /// A loop over an explicit stack of ``Level``s, not a recursion: a tree
  /// of any depth takes no call stack. Only the directory being worked in
  /// is open: going down opens a subdirectory (never through a symbolic
  /// link), going up opens `..` and checks that it is the directory that
  /// was left (its device and inode); if it is not (the tree was moved
  /// meanwhile), the walk stops with an error rather than rename in
  /// another directory.
  func walk(_ directory: Int32, path shown: [UInt8], report: (Event) -> Bool) -> Bool {
    var current = directory
    var path = shown
    var levels: [Level] = []
    defer { SystemCalls.close(current) }
    switch readLevel(current, pathLength: path.count) {
    case .success(let level): levels.append(level)
    case .failure(let failure):
      return report(.failed(path: FilePath(bytes: path), reason: failure.reason))
    }
    while let last = levels.indices.last {
      let level = levels[last]
      if let index = level.entries[level.next...].firstIndex(where: \.isDirectory) {
        levels[last].next = index + 1
        let name = level.entries[index].name
        path.removeSubrange(level.pathLength...)
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        path += name
        let child = name.withCName {
          SystemCalls.open(
            $0, Self.directoryFlags | SystemCalls.OpenFlag.noFollow, relativeTo: current)
        }
        guard child >= 0 else {
          let reason = StreamError.reason(SystemCalls.errorNumber)
          guard report(.failed(path: FilePath(bytes: path), reason: reason))
          else { return false }
          continue
        }
        switch readLevel(child, pathLength: path.count) {
        case .success(let childLevel):
          SystemCalls.close(current)
          current = child
          levels.append(childLevel)
        case .failure(let failure):
          SystemCalls.close(child)
          guard report(.failed(path: FilePath(bytes: path), reason: failure.reason)) else {
            return false
          }
        }
        continue
      }
      // Everything below this directory is done: now its own entries.
      path.removeSubrange(level.pathLength...)
      var prefix = path
      if !prefix.isEmpty, prefix.last != UInt8(ascii: "/") { prefix.append(UInt8(ascii: "/")) }
      var taken = Set<[UInt8]>()
      for entry in level.entries {
        guard renameEntry(entry.name, in: current, prefix: prefix, taken: &taken, report: report)
        else { return false }
      }
      levels.removeLast()
      guard let parent = levels.last else { break }
      let up = SystemCalls.open("..", Self.directoryFlags, relativeTo: current)
      guard up >= 0, Self.identity(of: up) == parent.identity else {
        let reason =
          up < 0
          ? StreamError.reason(SystemCalls.errorNumber) : "moved while its entries were renamed"
        if up >= 0 { SystemCalls.close(up) }
        _ = report(.failed(path: FilePath(bytes: path), reason: reason))
        return false
      }
      SystemCalls.close(current)
      current = up
    }
    return true
  }

  /// Device and inode of an open directory (empty when fstat fails).
  private static func identity(of descriptor: Int32) -> [UInt64] {
    guard let info = SystemCalls.status(of: descriptor) else { return [] }
    return [UInt64(info.st_dev), UInt64(info.st_ino)]
  }

  private struct ReadFailure: Error {
    var reason: String
  }

  /// Reads every entry of the open directory `descriptor` (but `.` and
  /// `..`), noting which are directories (not symbolic links to them);
  /// the descriptor stays open. Returns the level, or the reason it failed.
  private func readLevel(_ descriptor: Int32, pathLength: Int) -> Result<Level, ReadFailure> {
    let identity = Self.identity(of: descriptor)
    guard !identity.isEmpty else {
      return .failure(ReadFailure(reason: StreamError.reason(SystemCalls.errorNumber)))
    }
    let read: [(name: [UInt8], isDirectory: Bool?)]
    switch SystemCalls.entries(ofDirectory: descriptor) {
    case .success(let found): read = found
    case .failure(let error): return .failure(ReadFailure(reason: StreamError.reason(error.code)))
    }
    var entries: [(name: [UInt8], isDirectory: Bool)] = []
    for (name, type) in read {
      if name == Self.dot || name == Self.dotDot { continue }
      // A file system that does not say: the entry's own status (not a link's target).
      let isDirectory =
        type
        ?? name.withCName {
          SystemCalls.status(ofPath: $0, relativeTo: descriptor, followingLinks: false)
        }.map(SystemCalls.isDirectory) ?? false
      entries.append((name, isDirectory))
    }
    return .success(Level(identity: identity, pathLength: pathLength, entries: entries))
  }
}
