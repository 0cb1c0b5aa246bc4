/// Modern conjoining jamo read in place from their UTF-8 (initials E1 84
/// 80–92, vowels E1 85 A1–B5, finals E1 86 A8 – E1 87 82), for the loops of
/// NFC and NFKC and the checks of `--verify` that meet decomposed Korean;
/// the arithmetic is ``HangulSyllable``'s.
///
///     // "한" as E1 84 92 E1 85 A1 E1 86 AB, then a space
///     ConjoiningJamoBytes.syllable(bytes)   // (0xD55C, 9)
enum ConjoiningJamoBytes {
  /// The syllable spelled by the modern initial, vowel and optional final at
  /// `bytes` (at least 12 readable), with the length of its spelling, if the
  /// byte after it starts ASCII, a syllable or an initial (each a boundary in
  /// every form, or a byte that is not UTF-8, a boundary too).
  @inline(__always)
  static func syllable(_ bytes: UnsafePointer<UInt8>) -> (value: UInt32, length: Int)? {
    let word = UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self)
    // E1 84 xx E1 85 yy: an initial U+1100–U+113F and a vowel U+1160–U+117F.
    guard word & 0x0000_00FF_FF00_FFFF == 0x0000_0085_E100_84E1 else { return nil }
    let initial = UInt32(truncatingIfNeeded: word >> 16) & 0xFF &- 0x80
    let vowel = UInt32(truncatingIfNeeded: word >> 40) & 0xFF &- 0xA1
    guard initial < 19, vowel < 21 else { return nil }
    var value =
      HangulSyllable.firstScalarValue
      + UInt32(HangulSyllable.index(initial: 0x1100 + initial, vowel: 0x1161 + vowel))
    var length = 6
    if word >> 48 & 0xFE_FF == 0x86_E1, bytes[8] & 0xC0 == 0x80 {
      // E1 86 A8 – E1 87 82: a final U+11A8–U+11C2.
      let final = (UInt32(truncatingIfNeeded: word >> 56) & 1) << 6 | UInt32(bytes[8] & 0x3F)
      if final &- 0x28 < 27 {
        value += final - 0x27
        length = 9
      }
    }
    guard isBoundaryInEveryForm(bytes + length) else { return nil }
    return (value, length)
  }

  /// Whether the bytes at `bytes` (two readable) start ASCII, a syllable or
  /// an initial, each a boundary in every form, or a byte that is not UTF-8,
  /// a boundary too.
  @inline(__always)
  static func isBoundaryInEveryForm(_ bytes: UnsafePointer<UInt8>) -> Bool {
    let next = bytes[0]
    return next < 0x80 || next >= 0xEA && next <= 0xED || next == 0xE1 && bytes[1] == 0x84
  }
}
