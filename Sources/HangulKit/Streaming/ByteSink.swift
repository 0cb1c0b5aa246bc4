/// A growable byte buffer written through a pointer, for loops that write a
/// few bytes at a time faster than `Array.append` can.
///
///     let sink = ByteSink()
///     sink.append(UInt8(ascii: "a"))
///     sink.appendUTF8(0xAC00)
///     sink.bytes.count   // 4
///
/// Appending is amortized O(1) per byte.
package final class ByteSink {
  @exclusivity(unchecked) package private(set) var base: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) package private(set) var capacity: Int
  @exclusivity(unchecked) package var count = 0

  package init(capacity: Int = 1 << 16) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// The bytes written so far.
  package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// Makes room for `extra` more bytes.
  @inline(__always)
  package func reserve(_ extra: Int) {
    if count + extra > capacity { grow(to: count + extra) }
  }

  private func grow(to needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @inline(__always)
  package func append(_ byte: UInt8) {
    reserve(1)
    assert(count < capacity, "reserve made room for the byte")
    base[count] = byte
    count += 1
  }

  @inline(__always)
  package func append(_ source: UnsafePointer<UInt8>, count length: Int) {
    guard length > 0 else { return }
    reserve(length)
    assert(count + length <= capacity, "reserve made room for the bytes")
    (base + count).update(from: source, count: length)
    count += length
  }

  /// Appends the UTF-8 of a scalar value.
  @inline(__always)
  package func appendUTF8(_ value: UInt32) {
    reserve(4)
    assert(count + 4 <= capacity, "reserve made room for the longest sequence")
    let out = base + count
    if value < 0x80 {
      out[0] = UInt8(value)
      count += 1
    } else if value < 0x800 {
      out[0] = UInt8(0xC0 | value >> 6)
      out[1] = UInt8(0x80 | value & 0x3F)
      count += 2
    } else if value < 0x1_0000 {
      out[0] = UInt8(0xE0 | value >> 12)
      out[1] = UInt8(0x80 | value >> 6 & 0x3F)
      out[2] = UInt8(0x80 | value & 0x3F)
      count += 3
    } else {
      out[0] = UInt8(0xF0 | value >> 18)
      out[1] = UInt8(0x80 | value >> 12 & 0x3F)
      out[2] = UInt8(0x80 | value >> 6 & 0x3F)
      out[3] = UInt8(0x80 | value & 0x3F)
      count += 4
    }
  }

  /// Moves the bytes to the end of `output` and empties the sink.
  package func drain(into output: inout [UInt8]) {
    guard count > 0 else { return }
    output.append(contentsOf: bytes)
    count = 0
  }
}
