/// The cursor's line of a ``DocumentEditor`` (the others wait packed in a
/// ``LineStack``): a gap buffer of UTF-8 bytes whose gap
/// moves only when the line is edited, by one block move. Positions are
/// columns (scalars), as the editor counts them; a move of the gap finds
/// the byte where a column starts by walking the lead bytes it moves over.
///
/// UTF-8 rather than scalar values (a fourth of the memory for Hangul,
/// three fourths of it for ASCII), and a gap that grows by an eighth of
/// the line rather than doubling: a document of a million characters
/// holds about as many bytes as it writes.
struct GapLine: Sendable {
  /// The line's UTF-8 bytes, with the gap `gapStart..<gapEnd` in between;
  /// always whole scalars on both sides of the gap.
  private var storage: [UInt8] = []
  private var gapStart = 0
  private var gapEnd = 0
  /// How many scalars stand before the gap.
  private(set) var headCount = 0
  /// How many scalars the line holds.
  private(set) var count = 0

  init() {}

  /// A line holding `bytes` (whole, valid scalars, no newline), with its
  /// gap at its end and room in it for a few more scalars.
  init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    assert(!bytes.contains(0x0A), "a line holds no newline")
    storage = [UInt8](unsafeUninitializedCapacity: bytes.count + 16) { buffer, initialized in
      // The whole allocation (its size rounded up) is the line and its gap.
      guard let to = buffer.baseAddress else { return }
      if let from = bytes.baseAddress { to.initialize(from: from, count: bytes.count) }
      (to + bytes.count).initialize(repeating: 0, count: buffer.count - bytes.count)
      initialized = buffer.count
    }
    gapStart = bytes.count
    gapEnd = storage.count
    count = Self.scalarCount(bytes)
    headCount = count
  }

  /// Makes the line the scalars `fill` appends to its emptied storage
  /// (whole and valid, no newline; it returns how many), with its gap at
  /// its end. The storage is reused, unless it is over 4 KiB (a long
  /// line's room is not kept for the lines after it).
  mutating func refill(_ fill: (inout [UInt8]) -> Int) {
    if storage.capacity > 4096 { storage = [] } else { storage.removeAll(keepingCapacity: true) }
    count = fill(&storage)
    headCount = count
    gapStart = storage.count
    // The room the allocation has, and at least 16 bytes.
    storage.append(contentsOf: repeatElement(0, count: max(16, storage.capacity - storage.count)))
    gapEnd = storage.count
  }

  /// UTF-8 bytes of the scalars before the gap.
  var headBytes: Int { gapStart }

  /// UTF-8 bytes of the line.
  var byteCount: Int { storage.count - (gapEnd - gapStart) }

  /// How many scalars whole, valid UTF-8 holds: its bytes that are not continuation bytes.
  static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var scalars = 0
    for byte in bytes where byte & 0xC0 != 0x80 { scalars += 1 }
    return scalars
  }

  /// The scalar just before the gap.
  var lastBeforeGap: Unicode.Scalar? {
    guard gapStart > 0 else { return nil }
    return storage.withUnsafeBufferPointer { bytes in
      let start = Self.scalarStart(before: gapStart, in: bytes)
      return Self.decode(bytes, at: start)
    }
  }

  /// Moves the gap to `column` with one overlapping block move.
  mutating func moveGap(to column: Int) {
    assert(column >= 0 && column <= count, "the column is on the line")
    guard column != headCount else { return }
    let gapSize = gapEnd - gapStart
    storage.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let bytes = UnsafeBufferPointer(buffer)
      if column < headCount {
        var start = gapStart
        for _ in column..<headCount { start = Self.scalarStart(before: start, in: bytes) }
        let moved = gapStart - start
        (base + start + gapSize).update(from: base + start, count: moved)
        gapStart = start
      } else {
        var end = gapEnd
        for _ in headCount..<column { end += Self.scalarLength(lead: bytes[end]) }
        assert(end <= bytes.count, "whole scalars stand after the gap")
        let moved = end - gapEnd
        (base + gapStart).update(from: base + gapEnd, count: moved)
        gapStart += moved
      }
    }
    gapEnd = gapStart + gapSize
    headCount = column
  }

  mutating func pushHead(_ scalar: Unicode.Scalar) {
    let length = Self.utf8Length(scalar.value)
    if gapEnd - gapStart < length { widenGap(by: length) }
    storage.withUnsafeMutableBufferPointer { buffer in
      assert(gapStart + length <= gapEnd, "the gap has room for the scalar")
      var value = scalar.value
      if length == 1 {
        buffer[gapStart] = UInt8(value)
      } else {
        // Continuation bytes last to first, then the lead byte.
        for index in stride(from: gapStart + length - 1, to: gapStart, by: -1) {
          buffer[index] = 0x80 | UInt8(value & 0x3F)
          value >>= 6
        }
        // The lead byte's marker: 0xC0, 0xE0 or 0xF0 for 2, 3 or 4 bytes.
        buffer[gapStart] = UInt8(truncatingIfNeeded: 0xFF00 >> length) | UInt8(value)
      }
    }
    gapStart += length
    headCount += 1
    count += 1
  }

  /// Puts whole scalars' UTF-8 before the gap; returns how many scalars.
  mutating func pushHead(utf8 bytes: [UInt8]) -> Int {
    if gapEnd - gapStart < bytes.count { widenGap(by: bytes.count) }
    var scalars = 0
    storage.withUnsafeMutableBufferPointer { buffer in
      assert(gapStart + bytes.count <= gapEnd, "the gap has room for the bytes")
      for byte in bytes {
        buffer[gapStart] = byte
        gapStart += 1
        if byte & 0xC0 != 0x80 { scalars += 1 }
      }
    }
    headCount += scalars
    count += scalars
    return scalars
  }

  /// Makes room at the gap for at least `needed` bytes: an eighth of the
  /// line, at least 16 bytes, and whatever room the allocation has besides
  /// (the tail moves, and the storage is copied when it has too little
  /// room: O(1) amortized a byte typed).
  private mutating func widenGap(by needed: Int) {
    let tail = storage.count - gapEnd
    let spare = storage.capacity - storage.count
    if spare >= needed {
      // Room the allocation already has (malloc rounds sizes up): no copy.
      storage.append(contentsOf: repeatElement(0, count: spare))
      storage.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        (base + gapEnd + spare).update(from: base + gapEnd, count: tail)
      }
      gapEnd += spare
      return
    }
    let old = storage
    let minimum = old.count + max(needed, 16, old.count / 8)
    storage = [UInt8](unsafeUninitializedCapacity: minimum) { buffer, initialized in
      // The whole allocation (its size rounded up) is the line and its gap.
      let extra = buffer.count - old.count
      assert(extra >= needed, "the new storage has room for the scalar")
      old.withUnsafeBufferPointer { source in
        guard let to = buffer.baseAddress else { return }
        if let from = source.baseAddress { to.initialize(from: from, count: gapStart) }
        (to + gapStart).initialize(repeating: 0, count: gapEnd - gapStart + extra)
        if let from = source.baseAddress {
          (to + gapEnd + extra).initialize(from: from + gapEnd, count: tail)
        }
      }
      initialized = buffer.count
    }
    gapEnd = storage.count - tail
  }

  mutating func popHead() {
    guard gapStart > 0 else { return }
    gapStart = storage.withUnsafeBufferPointer { Self.scalarStart(before: gapStart, in: $0) }
    headCount -= 1
    count -= 1
  }

  mutating func popTail() {
    guard gapEnd < storage.count else { return }
    gapEnd += Self.scalarLength(lead: storage[gapEnd])
    count -= 1
  }

  /// Removes the text before the gap: the gap takes its room (the line
  /// keeps its storage, unless that is over four times what is left).
  mutating func dropHead() {
    gapStart = 0
    count -= headCount
    headCount = 0
    let tail = storage.count - gapEnd
    guard storage.count > 4 * (tail + 64) else { return }
    storage = storage.withUnsafeBufferPointer { bytes in
      var rest = GapLine(utf8: UnsafeBufferPointer(rebasing: bytes[gapEnd...]))
      rest.moveGap(to: 0)
      return rest.storage
    }
    gapEnd = storage.count - tail
  }

  /// Writes all but the last `keep` scalars before the gap to `output` and drops them.
  mutating func flushHead(keeping keep: Int, to output: inout [UInt8]) {
    let written = storage.withUnsafeBufferPointer { bytes in
      var start = gapStart
      for _ in 0..<min(keep, headCount) { start = Self.scalarStart(before: start, in: bytes) }
      return start
    }
    output.append(contentsOf: storage[..<written])
    storage.removeFirst(written)
    gapStart -= written
    gapEnd -= written
    let dropped = headCount - min(keep, headCount)
    headCount -= dropped
    count -= dropped
  }

  /// `first` then `second` as one line, with the gap where they meet.
  static func joined(_ first: GapLine, _ second: GapLine) -> GapLine {
    var line = first
    line.moveGap(to: line.count)
    line.storage.append(contentsOf: second.storage[..<second.gapStart])
    line.storage.append(contentsOf: second.storage[second.gapEnd...])
    line.count += second.count
    return line
  }

  /// Calls `body` with the line's UTF-8 before the gap and after it.
  func withParts<Result>(
    _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    try storage.withUnsafeBufferPointer { bytes in
      try body(
        UnsafeBufferPointer(rebasing: bytes[..<gapStart]),
        UnsafeBufferPointer(rebasing: bytes[gapEnd...]))
    }
  }

  func write(to output: inout [UInt8]) {
    output.append(contentsOf: storage[..<gapStart])
    output.append(contentsOf: storage[gapEnd...])
  }

  @inline(__always)
  static func utf8Length(_ value: UInt32) -> Int {
    1 + (value >= 0x80 ? 1 : 0) + (value >= 0x800 ? 1 : 0) + (value >= 0x1_0000 ? 1 : 0)
  }

  /// The length of the scalar whose UTF-8 starts with `lead`.
  @inline(__always)
  private static func scalarLength(lead: UInt8) -> Int {
    assert(lead & 0xC0 != 0x80, "a lead byte")
    return 1 + (lead >= 0xC0 ? 1 : 0) + (lead >= 0xE0 ? 1 : 0) + (lead >= 0xF0 ? 1 : 0)
  }

  /// Where the scalar that ends at `end` starts.
  @inline(__always)
  private static func scalarStart(before end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    assert(end > 0, "a scalar stands before `end`")
    var start = end - 1
    while bytes[start] & 0xC0 == 0x80 { start -= 1 }
    return start
  }

  /// The scalar whose UTF-8 starts at `start` (the storage holds only whole,
  /// valid scalars).
  private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Unicode.Scalar {
    let lead = bytes[start]
    let length = scalarLength(lead: lead)
    guard length > 1 else { return Unicode.Scalar(lead) }
    var value = UInt32(lead) & (0x7F >> length)
    for index in start + 1..<start + length { value = value << 6 | UInt32(bytes[index] & 0x3F) }
    return Unicode.Scalar(value) ?? "\u{FFFD}"
  }
}
