#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// A range of a regular file mapped read-only into memory, so that a filter
/// reads its bytes without the kernel's copy of them that read(2) makes.
///
///     if let mapping = FileMapping(descriptor: descriptor, range: 0..<size) {
///       defer { mapping.unmap() }
///       use(mapping.bytes)
///     }
///
/// A file truncated by someone else while it is mapped would make the next
/// access to a page past its new end raise SIGBUS: while any mapping is in
/// use, SIGBUS ends the program with a message and status 74, the status of
/// a read error (``BusErrorGuard``).
struct FileMapping {
  /// The bytes of the range.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The mapping, from the page the range starts in.
  private let mapping: UnsafeMutableRawPointer
  private let length: Int

  /// Maps `range` of the file open as `descriptor`; `nil` for an empty range
  /// or when mapping fails (the caller reads the range instead). `sequential`
  /// tells the kernel to read ahead.
  ///
  /// - Complexity: O(1); pages are read when first touched.
  init?(descriptor: Int32, range: Range<Int>, sequential: Bool = false) {
    guard !range.isEmpty, range.lowerBound >= 0 else { return nil }
    let page = Self.pageSize
    let start = range.lowerBound / page * page
    let length = range.upperBound - start
    guard
      let mapping = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, off_t(start)),
      mapping != MAP_FAILED
    else { return nil }
    if sequential { _ = madvise(mapping, length, MADV_SEQUENTIAL) }
    self.mapping = mapping
    self.length = length
    bytes = UnsafeBufferPointer(
      start: (mapping + (range.lowerBound - start)).assumingMemoryBound(to: UInt8.self),
      count: range.count)
    BusErrorGuard.begin()
  }

  /// Drops the pages of `start..<end` (offsets in ``bytes``) from the
  /// program's memory, from the page that holds `start` to the last page
  /// wholly before `end` (``release(_:)``).
  func release(from start: Int, before end: Int) {
    Self.release(UnsafeBufferPointer(rebasing: bytes[start..<end]))
  }

  /// Drops the pages of `bytes`, which lie in a mapping and have been
  /// read, from the program's memory, from the page that holds the first
  /// byte to the last page wholly before the end: the file's pages stay in
  /// the system's cache, and a later read of them faults them back in.
  /// Without it a file read through once counts whole in the program's
  /// resident memory (a 43 MB input: a peak of 55 MiB instead of 13).
  static func release(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    let page = UInt(pageSize)
    let lower = UInt(bitPattern: base) / page * page
    let upper = UInt(bitPattern: base + bytes.count) / page * page
    if upper > lower {
      _ = madvise(UnsafeMutableRawPointer(bitPattern: lower), Int(upper - lower), MADV_DONTNEED)
    }
  }

  /// Unmaps the range; the last mapping in use restores SIGBUS.
  func unmap() {
    munmap(mapping, length)
    BusErrorGuard.end()
  }

  private static var pageSize: Int { max(sysconf(Int32(_SC_PAGESIZE)), 4096) }
}

/// While any file is mapped (on any thread), SIGBUS writes a message and
/// exits with status 74 instead of dumping core; when the last mapping is
/// gone, what SIGBUS did before (a handler of the program's, or the default)
/// is restored.
enum BusErrorGuard {
  /// How many mappings are in use.
  private static let mappings = Mutex<Int>(0)
  /// The message, made once under the lock before the handler is first set.
  nonisolated(unsafe) private static var message: UnsafeMutablePointer<CChar>?
  /// What SIGBUS did before the first mapping (set and read under the lock).
  nonisolated(unsafe) private static var previous = sigaction()

  /// Counts a mapping in; the first sets the handler.
  static func begin() {
    mappings.withLock { count in
      if count == 0 {
        if message == nil {
          let program = CommandLine.arguments.first?.split(separator: "/").last ?? "hangul"
          message = strdup("\(program): an input file was truncated while it was read\n")
        }
        var action = sigaction()
        // Writes the message and exits: only calls safe in a signal handler.
        action.__sigaction_handler.sa_handler = { _ in
          if let message = BusErrorGuard.message { _ = write(2, message, strlen(message)) }
          _exit(74)
        }
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, &previous)
      }
      count += 1
    }
  }

  /// Counts a mapping out; the last restores what SIGBUS did before.
  static func end() {
    mappings.withLock { count in
      count -= 1
      if count == 0 { sigaction(SIGBUS, &previous, nil) }
    }
  }
}
