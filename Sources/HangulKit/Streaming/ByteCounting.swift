/// Counts one byte value in a buffer sixteen bytes at a time, for counting
/// lines and records without a call per line.
///
///     Array("a\nb\n".utf8).withUnsafeBufferPointer { ByteCounting.count(0x0A, in: $0) }  // 2
///
/// Time is O(n) with one vector compare and add per sixteen bytes.
package enum ByteCounting {
  /// How many times `byte` occurs in `bytes`.
  package static func count(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    let target = SIMD16<UInt8>(repeating: byte)
    let one = SIMD16<UInt8>(repeating: 1)
    var total = 0
    var index = 0
    while count - index >= 16 {
      // Each lane counts up to 255 matches before it is added up.
      var lanes = SIMD16<UInt8>()
      let stop = index + min((count - index) / 16, 255) * 16
      assert(stop <= count, "every 16-byte load ends inside the buffer")
      while index < stop {
        let block = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
        lanes &+= one.replacing(with: 0, where: block .!= target)
        index &+= 16
      }
      total &+= Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
    }
    while index < count {
      if base[index] == byte { total &+= 1 }
      index &+= 1
    }
    return total
  }
}
