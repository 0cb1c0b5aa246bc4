/// Where an automaton writes the text it commits: a growing byte array, or a
/// ``ByteCursor`` into a buffer reserved ahead (the fast path of a run of
/// keys, with no capacity or uniqueness check per byte).
///
///     var bytes: [UInt8] = []
///     bytes.appendUTF8("가")   // bytes == [0xEA, 0xB0, 0x80]
///
/// Appending a byte is O(1) (amortized for an array).
public protocol ByteAppending {
  /// Appends one byte.
  mutating func append(_ byte: UInt8)
}

extension ByteAppending {
  /// Appends the UTF-8 encoding of `scalar`.
  @inlinable @inline(__always)
  public mutating func appendUTF8(_ scalar: Unicode.Scalar) {
    let value = scalar.value
    if value < 0x80 {
      append(UInt8(value))
    } else if value < 0x800 {
      append(UInt8(0xC0 | value >> 6))
      append(UInt8(0x80 | value & 0x3F))
    } else if value < 0x1_0000 {
      append(UInt8(0xE0 | value >> 12))
      append(UInt8(0x80 | value >> 6 & 0x3F))
      append(UInt8(0x80 | value & 0x3F))
    } else {
      append(UInt8(0xF0 | value >> 18))
      append(UInt8(0x80 | value >> 12 & 0x3F))
      append(UInt8(0x80 | value >> 6 & 0x3F))
      append(UInt8(0x80 | value & 0x3F))
    }
  }
}

extension Array: ByteAppending where Element == UInt8 {}

/// Writes bytes through a pointer into memory that the caller reserved for
/// all of them: no bounds, capacity or uniqueness check per byte.
///
///     var storage = [UInt8](repeating: 0, count: 8)
///     storage.withUnsafeMutableBufferPointer { buffer in
///       guard let base = buffer.baseAddress else { return }
///       var cursor = ByteCursor(base)
///       cursor.appendUTF8("가")   // cursor.count == 3
///     }
///
/// The caller guarantees the room; each append is O(1).
struct ByteCursor: ByteAppending {
  let base: UnsafeMutablePointer<UInt8>
  /// Bytes written so far.
  private(set) var count = 0

  init(_ base: UnsafeMutablePointer<UInt8>) {
    self.base = base
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    base[count] = byte
    count += 1
  }
}
