import HangulKit
import Testing

@Suite("UTF-8 stream decoding")
struct UTF8StreamTests {
  func units(_ bytes: [UInt8], chunkSize: Int) -> [DecodedUnit] {
    var stream = UTF8Stream()
    var result: [DecodedUnit] = []
    var start = 0
    repeat {
      let end = min(start + chunkSize, bytes.count)
      stream.decode(Array(bytes[start..<end]), isLast: end == bytes.count) { result.append($0) }
      start = end
    } while start < bytes.count
    return result
  }

  @Test(
    "well-formed and ill-formed sequences, in any chunk size",
    arguments: [
      ([0x41], [DecodedUnit.scalar("A")]),
      (Array("가".utf8), [.scalar("가")]),
      (Array("😀".utf8), [.scalar("😀")]),
      ([0xC0, 0xAF], [.invalidByte(0xC0), .invalidByte(0xAF)]),
      ([0xE0, 0x80, 0xAF], [.invalidByte(0xE0), .invalidByte(0x80), .invalidByte(0xAF)]),
      ([0xED, 0xA0, 0x80], [.invalidByte(0xED), .invalidByte(0xA0), .invalidByte(0x80)]),
      ([0xEA, 0xB0], [.invalidByte(0xEA), .invalidByte(0xB0)]),
      ([0xEA, 0xB0, 0x41], [.invalidByte(0xEA), .invalidByte(0xB0), .scalar("A")]),
      (
        [0xF4, 0x90, 0x80, 0x80],
        [.invalidByte(0xF4), .invalidByte(0x90), .invalidByte(0x80), .invalidByte(0x80)]
      ),
      ([0xF0, 0x9F, 0x98, 0x80, 0xFF], [.scalar("😀"), .invalidByte(0xFF)]),
    ])
  func decoding(bytes: [UInt8], expected: [DecodedUnit]) {
    for chunkSize in 1...5 {
      #expect(units(bytes, chunkSize: chunkSize) == expected, "chunk size \(chunkSize)")
    }
  }

  @Test("random bytes decode the same in any chunking, and re-encode to the input")
  func randomBytes() {
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<300 {
      let pool: [UInt8] = [
        0x41, 0x80, 0xBF, 0xC2, 0xE0, 0xEA, 0xED, 0xF0, 0xF4, 0xFF, 0xB0, 0x9F, 0x90,
      ]
      let bytes = (0..<Int.random(in: 1...24, using: &generator)).map { _ in
        pool.randomElement(using: &generator) ?? 0
      }
      let reference = units(bytes, chunkSize: bytes.count)
      for chunkSize in 1...4 { #expect(units(bytes, chunkSize: chunkSize) == reference) }
      var encoded: [UInt8] = []
      for unit in reference {
        switch unit {
        case .scalar(let scalar): encoded.append(contentsOf: Array(String(scalar).utf8))
        case .invalidByte(let byte): encoded.append(byte)
        }
      }
      #expect(encoded == bytes)
    }
  }
}
