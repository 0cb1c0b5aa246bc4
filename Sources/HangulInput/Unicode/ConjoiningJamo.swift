/// Lookups on conjoining jamo (initials U+1100–U+115F and U+A960–U+A97C,
/// vowels U+1160–U+11A7 and U+D7B0–U+D7C6, finals U+11A8–U+11FF and
/// U+D7CB–U+D7FB), the units that keyboard files map keys to.
///
///     ConjoiningJamo.isInitial(0x1100)            // true (ᄀ)
///     ConjoiningJamo.final(ofInitial: 0x1100)      // 0x11A8 (ᆨ)
///     ConjoiningJamo.text(0x1100, 0x1161, 0)       // [0xAC00] (가)
///
/// Every lookup is O(1).
package enum ConjoiningJamo {
  /// The fillers that stand for a missing initial or vowel.
  package static let initialFiller: UInt32 = 0x115F
  package static let vowelFiller: UInt32 = 0x1160

  @inline(__always) package static func isInitial(_ value: UInt32) -> Bool {
    value &- 0x1100 < 0x60 || value &- 0xA960 < 0x1D
  }

  @inline(__always) package static func isVowel(_ value: UInt32) -> Bool {
    value &- 0x1160 < 0x48 || value &- 0xD7B0 < 0x17
  }

  @inline(__always) package static func isFinal(_ value: UInt32) -> Bool {
    value &- 0x11A8 < 0x58 || value &- 0xD7CB < 0x31
  }

  @inline(__always) package static func isJamo(_ value: UInt32) -> Bool {
    isInitial(value) || isVowel(value) || isFinal(value)
  }

  /// Whether a jamo takes part in a precomposed syllable (the 19 initials, 21
  /// vowels and 27 finals of modern Hangul; U+11A7 counts as "no final").
  @inline(__always) package static func isModern(_ value: UInt32) -> Bool {
    value &- 0x1100 < 19 || value &- 0x1161 < 21 || value &- 0x11A7 < 28
  }

  /// The final an initial becomes, or 0.
  package static func final(ofInitial value: UInt32) -> UInt32 {
    initialIndex(value).map { ConjoiningJamoTables.finalOfInitial[$0] } ?? 0
  }

  /// The initial a final becomes, or 0.
  package static func initial(ofFinal value: UInt32) -> UInt32 {
    finalIndex(value).map { ConjoiningJamoTables.initialOfFinal[$0] } ?? 0
  }

  /// The initial that a vowel takes away from the final `current`, when
  /// `previous` was the final before the last key made it `current`
  /// (ᆰ after ᆯ leaves ᄀ); 0 when it takes nothing.
  package static func initialLeft(byFinal current: UInt32, after previous: UInt32) -> UInt32 {
    guard previous != 0 else { return initial(ofFinal: current) }
    guard let index = finalIndex(current), let previousIndex = finalIndex(previous) else {
      return 0
    }
    let difference =
      Int(ConjoiningJamoTables.lettersOfFinal[index])
      - Int(ConjoiningJamoTables.lettersOfFinal[previousIndex]) - 1
    switch difference {
    case 0, 1: return ConjoiningJamoTables.initialLeftByFinal[index * 2 + difference]
    case 2: return initial(ofFinal: current)
    default: return 0
    }
  }

  /// How romaja splits a modern final when a vowel follows: the final that
  /// stays and the initial that moves on (ᆪ → ᆨ, ᄉ); `nil` for other finals.
  package static func split(modernFinal value: UInt32) -> (kept: UInt32, moved: UInt32)? {
    let index = Int(value &- 0x11A8)
    guard index >= 0, index < ConjoiningJamoTables.modernFinalKept.count else { return nil }
    return (
      ConjoiningJamoTables.modernFinalKept[index], ConjoiningJamoTables.modernFinalMoved[index]
    )
  }

  /// The compatibility jamo that shows a jamo alone, or 0 when there is none.
  package static func compatibility(_ value: UInt32) -> UInt32 {
    let index: Int
    switch value {
    case 0x1100...0x11FF: index = Int(value - 0x1100)
    case 0xA960...0xA97C: index = 256 + Int(value - 0xA960)
    case 0xD7B0...0xD7FB: index = 285 + Int(value - 0xD7B0)
    default: return 0
    }
    return ConjoiningJamoTables.compatibilityOfJamo[index]
  }

  package static func initialIndex(_ value: UInt32) -> Int? {
    switch value {
    case 0x1100...0x115F: Int(value - 0x1100)
    case 0xA960...0xA97C: 96 + Int(value - 0xA960)
    default: nil
    }
  }

  package static func finalIndex(_ value: UInt32) -> Int? {
    switch value {
    case 0x11A8...0x11FF: Int(value - 0x11A8)
    case 0xD7CB...0xD7FB: 88 + Int(value - 0xD7CB)
    default: nil
    }
  }

  /// The precomposed syllable of modern jamo (final 0: none), or `nil`.
  @inline(__always)
  package static func syllable(_ initial: UInt32, _ vowel: UInt32, _ final: UInt32) -> UInt32? {
    let finalIndex = final == 0 ? 0 : final &- 0x11A7
    guard initial &- 0x1100 < 19, vowel &- 0x1161 < 21, finalIndex < 28 else { return nil }
    return HangulSyllable.firstScalarValue
      + UInt32(HangulSyllable.index(initial: initial, vowel: vowel, final: final))
  }

  /// The text of a syllable with these positions (0: empty), as libhangul
  /// writes it: a precomposed syllable when all parts are modern; a lone
  /// jamo as its compatibility jamo; otherwise conjoining jamo, with fillers
  /// for a missing initial or vowel (ᄀ ᅡ ᇮ). Calls `write` for each scalar.
  @inline(__always)
  package static func text(
    _ initial: UInt32, _ vowel: UInt32, _ final: UInt32, _ write: (UInt32) -> Void
  ) {
    switch (initial != 0, vowel != 0, final != 0) {
    case (true, true, _):
      if let syllable = syllable(initial, vowel, final) {
        write(syllable)
      } else {
        write(initial)
        write(vowel)
        if final != 0 { write(final) }
      }
    case (true, false, true):
      write(initial)
      write(vowelFiller)
      write(final)
    case (false, true, true):
      write(initialFiller)
      write(vowel)
      write(final)
    case (true, false, false):
      let shown = compatibility(initial)
      if shown != 0 {
        write(shown)
      } else {
        write(initial)
        write(vowelFiller)
      }
    case (false, true, false):
      let shown = compatibility(vowel)
      if shown != 0 {
        write(shown)
      } else {
        write(initialFiller)
        write(vowel)
      }
    case (false, false, true):
      let shown = compatibility(final)
      if shown != 0 {
        write(shown)
      } else {
        write(initialFiller)
        write(vowelFiller)
        write(final)
      }
    case (false, false, false): break
    }
  }
}
