/// The project's own canonical composition and decomposition of Hangul: the
/// arithmetic of Unicode (ARCHITECTURE.md), independent of ICU (which checks it).
///
///     HangulNormalization.composed(["\u{1100}", "\u{1161}", "\u{11A8}"])  // ["각"]
///     HangulNormalization.decomposed(["닭"])   // U+1103 U+1161 U+11B0
///
/// Scalars that are not modern Hangul pass through. Both are O(n).
public enum HangulNormalization {
  /// The scalar that canonical composition makes of `first` followed by
  /// `second`, if it joins them: an initial and a vowel (U+1100–U+1112 and
  /// U+1161–U+1175) make an LV syllable, an LV syllable and a final
  /// (U+11A8–U+11C2) make an LVT syllable.
  @inline(__always)
  public static func composition(of first: UInt32, _ second: UInt32) -> UInt32? {
    if second &- 0x1161 < 21 {
      guard first &- 0x1100 < 19 else { return nil }
      return HangulSyllable.firstScalarValue
        + UInt32(HangulSyllable.index(initial: first, vowel: second))
    }
    if second &- 0x11A8 < 27 {
      guard HangulSyllable.contains(first), (first - HangulSyllable.firstScalarValue) % 28 == 0
      else { return nil }
      return first + second - 0x11A7
    }
    return nil
  }

  /// `scalars` with conjoining jamo composed canonically.
  public static func composed(_ scalars: some Sequence<Unicode.Scalar>) -> [Unicode.Scalar] {
    var result: [Unicode.Scalar] = []
    for scalar in scalars {
      if let last = result.last, let joined = composition(of: last.value, scalar.value),
        let composite = Unicode.Scalar(joined)
      {
        result[result.count - 1] = composite
      } else {
        result.append(scalar)
      }
    }
    return result
  }

  /// `scalars` with precomposed syllables decomposed into conjoining jamo.
  public static func decomposed(_ scalars: some Sequence<Unicode.Scalar>) -> [Unicode.Scalar] {
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(scalars.underestimatedCount)
    for scalar in scalars {
      guard HangulSyllable.contains(scalar.value) else {
        result.append(scalar)
        continue
      }
      // The jamo by the arithmetic of Unicode (ARCHITECTURE.md), with no array for each syllable.
      let jamo = HangulSyllable.jamoValues(
        ofIndex: Int(scalar.value - HangulSyllable.firstScalarValue))
      if let initial = Unicode.Scalar(jamo.initial), let vowel = Unicode.Scalar(jamo.vowel) {
        result.append(initial)
        result.append(vowel)
      }
      if jamo.final != 0, let final = Unicode.Scalar(jamo.final) { result.append(final) }
    }
    return result
  }

  /// Whether `scalar` belongs to a Hangul span that ``OutputVerifier`` checks:
  /// syllables, conjoining jamo (old ones included) and compatibility jamo.
  @inline(__always)
  public static func isHangul(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3131...0x318E, 0xA960...0xA97F, 0xD7B0...0xD7FF: true
    default: false
    }
  }
}
