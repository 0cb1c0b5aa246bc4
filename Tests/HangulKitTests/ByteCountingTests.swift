import HangulKit
import Testing

/// The vector count against a count one byte at a time.
struct ByteCountingTests {
  @Test("counts what a plain loop counts, at every length and alignment")
  func agreesWithPlainCount() {
    var generator = SeededGenerator(seed: 3)
    // Long enough for more than 255 rounds of 64 bytes (four lanes of
    // sixteen), the most a lane counts before it is added up.
    let bytes: [UInt8] = (0..<40_000).map { _ in
      [0x0A, 0x00, 0x61, 0xFF].randomElement(using: &generator) ?? 0
    }
    for start in 0..<17 {
      for length in [
        0, 1, 15, 16, 17, 31, 33, 63, 64, 65, 127, 255 * 64, 255 * 64 + 1, 255 * 64 + 63, 39_000,
      ] {
        let slice = Array(bytes[start..<(start + length)])
        for byte: UInt8 in [0x0A, 0x00, 0xFF, 0x42] {
          let counted = slice.withUnsafeBufferPointer { ByteCounting.count(byte, in: $0) }
          #expect(counted == slice.count { $0 == byte }, "\(byte) from \(start), \(length) bytes")
        }
      }
    }
    // Every byte a match: a lane that counted past 255 would wrap.
    let all = Array(repeating: UInt8(0x0A), count: 40_000)
    #expect(all.withUnsafeBufferPointer { ByteCounting.count(0x0A, in: $0) } == 40_000)
  }
}
