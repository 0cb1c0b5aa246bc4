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
///     if let mapping = FileMapping(descriptor: descriptor, range: 0..<size, name: "in.txt") {
///       defer { mapping.unmap() }
///       use(mapping.bytes)
///     }
///
/// A file truncated by someone else while it is mapped would make the next
/// access to a page past its new end raise SIGBUS: while any mapping is in
/// use, SIGBUS ends the program with `PROGRAM: NAME: the file changed while
/// it was read` and status 74, the status of a read error
/// (``BusErrorGuard``). A file cut inside its last mapped page raises
/// nothing (the rest of the page reads as zeros): the caller finds that
/// with ``FileSnapshot/checkUnchanged()`` after reading.
struct FileMapping {
  /// The bytes of the range.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The mapping, from the page the range starts in.
  private let mapping: UnsafeMutableRawPointer
  private let length: Int
  /// Where ``BusErrorGuard`` keeps the mapping's message.
  private let guardSlot: Int

  /// Maps `range` of the file open as `descriptor`, called `name` in the
  /// message of a SIGBUS; `nil` for an empty range or when mapping fails
  /// (the caller reads the range instead). `sequential` tells the kernel to
  /// read ahead.
  ///
  /// - Complexity: O(1); pages are read when first touched.
  init?(descriptor: Int32, range: Range<Int>, name: String, sequential: Bool = false) {
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
    guardSlot = BusErrorGuard.begin(mapping, length: length, name: name)
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
  /// Only for mapped bytes: on other memory it would throw the contents away.
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
    // Its message goes first: no message names a range that another
    // mapping may get once this one is gone.
    BusErrorGuard.end(guardSlot)
    munmap(mapping, length)
  }

  private static var pageSize: Int { max(sysconf(Int32(_SC_PAGESIZE)), 4096) }
}

/// While any file is mapped (on any thread), SIGBUS writes a message naming
/// the file whose mapping the faulting address is in and exits with status
/// 74 instead of dumping core; when the last mapping is gone, what SIGBUS
/// did before (a handler of the program's, or the default) is restored.
///
/// The handler reads only atomics and the messages they point to, made
/// before the mapping is used: nothing in it allocates or locks.
enum BusErrorGuard {
  /// How many mappings are in use.
  private static let mappings = Mutex<Int>(0)
  /// The mappings in use that have a message (a slot each: address range
  /// and message); a mapping beyond them gets the general message.
  private static let slots = (0..<slotCount).map { _ in Slot() }
  private static let slotCount = 256
  /// The message when the faulting address is in no slot.
  nonisolated(unsafe) private static var generalMessage: UnsafeMutablePointer<CChar>?
  /// What SIGBUS did before the first mapping (set and read under the lock).
  nonisolated(unsafe) private static var previous = sigaction()

  /// One mapping's range and message. `start` is 0 while the slot is free;
  /// it is set last and cleared first.
  private final class Slot: Sendable {
    let start = Atomic<UInt>(0)
    let end = Atomic<UInt>(0)
    let message = Atomic<UInt>(0)
  }

  /// The program's name in messages.
  private static var programName: String {
    CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? "hangul"
  }

  /// Counts in the mapping at `address` (`length` bytes) of the file called
  /// `name`; the first sets the handler. Returns its slot (-1: none free).
  static func begin(_ address: UnsafeMutableRawPointer, length: Int, name: String) -> Int {
    mappings.withLock { count in
      var taken = -1
      if let index = slots.firstIndex(where: { $0.start.load(ordering: .relaxed) == 0 }) {
        let slot = slots[index]
        let message = strdup("\(programName): \(name): \(StreamError.fileChangedMessage)\n")
        slot.message.store(UInt(bitPattern: message), ordering: .relaxed)
        slot.end.store(UInt(bitPattern: address) + UInt(length), ordering: .relaxed)
        slot.start.store(UInt(bitPattern: address), ordering: .releasing)
        taken = index
      }
      if count == 0 {
        if generalMessage == nil {
          generalMessage = strdup("\(programName): an input file changed while it was read\n")
        }
        var action = sigaction()
        // Writes the message and exits: only calls safe in a signal handler.
        action.__sigaction_handler.sa_sigaction = { _, info, _ in
          let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
          let message = BusErrorGuard.message(at: address) ?? BusErrorGuard.generalMessage
          if let message { _ = write(2, message, strlen(message)) }
          _exit(74)
        }
        action.sa_flags = SA_SIGINFO
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, &previous)
      }
      count += 1
      return taken
    }
  }

  /// The message of the mapping that holds `address`, if it has a slot.
  private static func message(at address: UInt) -> UnsafeMutablePointer<CChar>? {
    for slot in slots {
      let start = slot.start.load(ordering: .acquiring)
      guard start != 0, start <= address, address < slot.end.load(ordering: .relaxed) else {
        continue
      }
      return UnsafeMutablePointer(bitPattern: slot.message.load(ordering: .relaxed))
    }
    return nil
  }

  /// Counts a mapping out (with its slot from ``begin(_:length:name:)``);
  /// the last restores what SIGBUS did before.
  static func end(_ slotIndex: Int) {
    mappings.withLock { count in
      if slotIndex >= 0 {
        let slot = slots[slotIndex]
        slot.start.store(0, ordering: .releasing)
        free(UnsafeMutablePointer<CChar>(bitPattern: slot.message.load(ordering: .relaxed)))
        slot.message.store(0, ordering: .relaxed)
      }
      count -= 1
      if count == 0 { sigaction(SIGBUS, &previous, nil) }
    }
  }
}
