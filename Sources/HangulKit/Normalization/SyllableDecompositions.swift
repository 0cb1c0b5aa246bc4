/// The canonical decomposition (NFD) of every precomposed Hangul syllable as
/// UTF-8, one 16-byte entry each, so that the normalizer's fast path writes a
/// syllable's jamo with two 8-byte stores.
///
/// Entry `index` (the syllable U+AC00 + index) holds the initial, the vowel
/// and the final if there is one (six or nine bytes), zeros, and its length
/// in the last byte:
///
///     let table = SyllableDecompositions.shared
///     table.bytes[0..<6]   // 가: E1 84 80 E1 85 A1 (U+1100 U+1161)
///     table.bytes[15]      // 6
///
/// Built once by the arithmetic of Unicode (ARCHITECTURE.md) (no allocation per syllable:
/// about 0.3 million instructions, against tens of millions for a table built
/// from scalars); ``NormalFormChecker`` and the tests compare it with ICU.
/// A look-up is O(1).
struct SyllableDecompositions: Sendable {
  /// Bytes per entry.
  static let stride = 16

  /// `stride` bytes for each of the 11,172 syllables, then 16 bytes of slack.
  let bytes: [UInt8]

  /// The table, built on first use.
  static let shared = SyllableDecompositions()

  private init() {
    let count = HangulSyllable.count * Self.stride + 16
    bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      base.initialize(repeating: 0, count: count)
      for index in 0..<HangulSyllable.count {
        let entry = base + index * Self.stride
        let syllable = HangulSyllable(index: index)
        let (initial, vowel, final) = (
          syllable.initialIndex, syllable.vowelIndex, syllable.finalIndex
        )
        // U+1100 + initial is E1 84 80+initial; U+1161 + vowel is E1 85 A1+vowel.
        entry[0] = 0xE1
        entry[1] = 0x84
        entry[2] = UInt8(0x80 + initial)
        entry[3] = 0xE1
        entry[4] = 0x85
        entry[5] = UInt8(0xA1 + vowel)
        entry[15] = 6
        guard final > 0 else { continue }
        // U+11A7 + final: E1 86 A8–BF, then E1 87 80–82.
        let value = 0x11A7 + final
        entry[6] = 0xE1
        entry[7] = UInt8(0x80 | value >> 6 & 0x3F)
        entry[8] = UInt8(0x80 | value & 0x3F)
        entry[15] = 9
      }
      initialized = count
    }
  }
}
