/// Counts one byte value in a buffer sixteen bytes at a time, for counting
/// lines and records without a call per line.
///
///     Array("a\nb\n".utf8).withUnsafeBufferPointer { ByteCounting.count(0x0A, in: $0) }  // 2
///
/// Time is O(n) with one vector compare and subtract per sixteen bytes, in
/// four independent lanes.
package enum ByteCounting {
  /// How many times `byte` occurs in `bytes`.
  package static func count(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    let target = SIMD16<UInt8>(repeating: byte)
    var total = 0
    var index = 0
    while count - index >= 64 {
      // Four lanes of counters, so that the adds do not wait on each other;
      // each lane counts up to 255 matches before it is added up. A match
      // is a lane of all ones (-1): subtracting it adds one.
      var lanes = (SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>())
      let stop = index + min((count - index) / 64, 255) * 64
      assert(stop <= count, "every 64-byte step ends inside the buffer")
      while index < stop {
        lanes.0 &-= matches(raw, index, target)
        lanes.1 &-= matches(raw, index &+ 16, target)
        lanes.2 &-= matches(raw, index &+ 32, target)
        lanes.3 &-= matches(raw, index &+ 48, target)
        index &+= 64
      }
      total &+= sum(lanes.0) &+ sum(lanes.1) &+ sum(lanes.2) &+ sum(lanes.3)
    }
    while index < count {
      if base[index] == byte { total &+= 1 }
      index &+= 1
    }
    return total
  }

  /// All ones in each lane of the 16 bytes at `offset` that equals `target`'s.
  @inline(__always)
  private static func matches(
    _ raw: UnsafeRawPointer, _ offset: Int, _ target: SIMD16<UInt8>
  ) -> SIMD16<UInt8> {
    let block = raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
    return SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: block .== target)
  }

  @inline(__always)
  private static func sum(_ lanes: SIMD16<UInt8>) -> Int {
    Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
  }
}
