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
  /// Bytes between the mapping's start and the range's.
  private let lead: Int

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
    lead = range.lowerBound - start
    bytes = UnsafeBufferPointer(
      start: (mapping + lead).assumingMemoryBound(to: UInt8.self), count: range.count)
    BusErrorGuard.begin()
  }

  /// Drops the pages wholly inside `start..<end` (offsets in ``bytes``) from
  /// the program's memory: the file's pages stay in the system's cache, and
  /// a later read of them faults them back in. Without it a file read
  /// through once counts whole in the program's resident memory (a 43 MB
  /// input: a peak of 55 MiB instead of 13).
  func release(from start: Int, before end: Int) {
    let page = Self.pageSize
    let lower = (lead + start) / page * page
    let upper = (lead + end) / page * page
    if upper > lower { _ = madvise(mapping + lower, upper - lower, MADV_DONTNEED) }
  }

  /// Unmaps the range; the last mapping in use restores SIGBUS.
  func unmap() {
    munmap(mapping, length)
    BusErrorGuard.end()
  }

  private static var pageSize: Int { max(sysconf(Int32(_SC_PAGESIZE)), 4096) }
}

/// While any file is mapped (on any thread), SIGBUS writes a message and
/// exits with status 74 instead of dumping core; otherwise it does what it
/// did before.
enum BusErrorGuard {
  /// How many mappings are in use.
  private static let mappings = Mutex<Int>(0)
  /// The message, made once under the lock before the handler is first set.
  nonisolated(unsafe) private static var message: UnsafeMutablePointer<CChar>?

  /// Counts a mapping in; the first sets the handler.
  static func begin() {
    mappings.withLock { count in
      if count == 0 {
        if message == nil {
          let program = CommandLine.arguments.first?.split(separator: "/").last ?? "hangul"
          message = strdup("\(program): an input file was truncated while it was read\n")
        }
        // Writes the message and exits: only calls safe in a signal handler.
        signal(SIGBUS) { _ in
          if let message = BusErrorGuard.message { _ = write(2, message, strlen(message)) }
          _exit(74)
        }
      }
      count += 1
    }
  }

  /// Counts a mapping out; the last restores SIGBUS.
  static func end() {
    mappings.withLock { count in
      count -= 1
      if count == 0 { signal(SIGBUS, SIG_DFL) }
    }
  }
}
