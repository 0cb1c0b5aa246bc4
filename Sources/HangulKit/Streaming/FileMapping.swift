import Synchronization

/// A range of a regular file mapped read-only into memory, so that a filter
/// reads its bytes without the kernel's copy of them that read(2) makes.
///
///     if let mapping = FileMapping(descriptor: descriptor, range: 0..<size, name: "in.txt") {
///       defer { mapping.unmap() }
///       use(mapping.bytes)
///     }
///
/// A file truncated by someone else while it is mapped makes the next
/// access to a page past its new end raise SIGBUS, which ends the process
/// unless it handles it: the runners map files only when their caller says
/// it does (``FilterRunner/mapsInputs``), and the handler finds the file
/// the fault is in with ``MappedFileFaults/message(forFaultAt:)``. A file
/// cut inside its last mapped page raises nothing (the rest of the page
/// reads as zeros): the caller finds that with
/// ``FileSnapshot/checkUnchanged()`` after reading.
struct FileMapping {
  /// The bytes of the range.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The mapping, from the page the range starts in.
  private let mapping: UnsafeMutableRawPointer
  private let length: Int
  /// Where ``MappedFileFaults`` keeps the mapping's message.
  private let guardSlot: Int

  /// Maps `range` of the file open as `descriptor`, called `name` in the
  /// message of a SIGBUS; `nil` for an empty range or when mapping fails
  /// (the caller reads the range instead). `sequential` tells the kernel to
  /// read ahead.
  ///
  /// - Complexity: O(1); pages are read when first touched. (Not
  ///   MAP_POPULATE: with `--jobs`, one thread's populating holds the
  ///   address space's lock that another's munmap waits for; faults take
  ///   only the mapping's own lock. NFD → NFC of 1 GB with `--jobs 2`: 426
  ///   against 419 ms, median of 15.)
  init?(
    descriptor: Int32, range: Range<Int>, name: String, sequential: Bool = false
  ) {
    guard !range.isEmpty, range.lowerBound >= 0 else { return nil }
    let page = Self.pageSize
    let start = range.lowerBound / page * page
    let length = range.upperBound - start
    guard
      let mapping = SystemCalls.mapReadOnly(
        descriptor, length: length, offset: start)
    else { return nil }
    if sequential { SystemCalls.adviseSequential(mapping, length: length) }
    self.mapping = mapping
    self.length = length
    bytes = UnsafeBufferPointer(
      start: (mapping + (range.lowerBound - start)).assumingMemoryBound(to: UInt8.self),
      count: range.count)
    guardSlot = MappedFileFaults.begin(mapping, length: length, name: name)
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
      SystemCalls.adviseDropPages(
        UnsafeMutableRawPointer(bitPattern: lower), length: Int(upper - lower))
    }
  }

  /// Unmaps the range.
  func unmap() {
    // Its message goes first: no message names a range that another
    // mapping may get once this one is gone.
    MappedFileFaults.end(guardSlot)
    SystemCalls.unmap(mapping, length: length)
  }

  private static var pageSize: Int { max(SystemCalls.pageSize, 4096) }
}

/// The files mapped now (on any thread) and the message that names each,
/// for a SIGBUS handler of the program's: the library installs none (a
/// library must not decide how the process ends).
///
///     // In the handler, with the address of the fault:
///     if let message = MappedFileFaults.message(forFaultAt: address) { write(2, message, strlen(message)) }
///
/// ``message(forFaultAt:)`` reads only atomics and the messages they point
/// to, made before the mapping is used: nothing in it allocates or locks.
package enum MappedFileFaults {
  /// How many mappings are in use (taken while a slot is claimed or given back).
  private static let claims = Mutex(0)
  /// How many mappings are in use, for the handler.
  private static let mappedCount = Atomic<Int>(0)
  /// The mappings in use that have a message (a slot each: address range
  /// and message); a mapping beyond them has none.
  private static let slots = (0..<slotCount).map { _ in Slot() }
  private static let slotCount = 256

  /// One mapping's range and message. `start` is 0 while the slot is free;
  /// it is set last and cleared first.
  private final class Slot: Sendable {
    let start = Atomic<UInt>(0)
    let end = Atomic<UInt>(0)
    let message = Atomic<UInt>(0)
  }

  /// Makes what ``message(forFaultAt:)`` reads, so that a handler that
  /// calls it never initializes anything: call it before installing one.
  package static func prepare() {
    _ = slots.count
  }

  /// Whether any file is mapped now (a fault outside every slot may still
  /// be in a mapping that got none). Safe in a signal handler.
  package static var anyFileIsMapped: Bool { mappedCount.load(ordering: .acquiring) > 0 }

  /// Counts in the mapping at `address` (`length` bytes) of the file called
  /// `name`. Returns its slot (-1: none free).
  static func begin(_ address: UnsafeMutableRawPointer, length: Int, name: String) -> Int {
    claims.withLock { count in
      count += 1
      mappedCount.store(count, ordering: .releasing)
      guard let index = slots.firstIndex(where: { $0.start.load(ordering: .relaxed) == 0 }) else {
        return -1
      }
      let slot = slots[index]
      let message = SystemCalls.cString("\(name): \(StreamError.fileChangedMessage)\n")
      slot.message.store(UInt(bitPattern: message), ordering: .relaxed)
      slot.end.store(UInt(bitPattern: address) + UInt(length), ordering: .relaxed)
      slot.start.store(UInt(bitPattern: address), ordering: .releasing)
      return index
    }
  }

  /// The message (`NAME: the file changed while it was read` and a newline)
  /// of the mapping that holds `address`, if it has a slot. Safe in a
  /// signal handler once ``prepare()`` was called.
  package static func message(forFaultAt address: UInt) -> UnsafePointer<CChar>? {
    for slot in slots {
      let start = slot.start.load(ordering: .acquiring)
      guard start != 0, start <= address, address < slot.end.load(ordering: .relaxed) else {
        continue
      }
      return UnsafePointer(bitPattern: slot.message.load(ordering: .relaxed))
    }
    return nil
  }

  /// Counts a mapping out (with its slot from ``begin(_:length:name:)``).
  static func end(_ slotIndex: Int) {
    claims.withLock { count in
      count -= 1
      mappedCount.store(count, ordering: .releasing)
      guard slotIndex >= 0 else { return }
      let slot = slots[slotIndex]
      slot.start.store(0, ordering: .releasing)
      SystemCalls.freeCString(
        UnsafeMutablePointer<CChar>(bitPattern: slot.message.load(ordering: .relaxed)))
      slot.message.store(0, ordering: .relaxed)
    }
  }
}
