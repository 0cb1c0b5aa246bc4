/// What `hangul-decompose` writes for Hangul (hangul-decompose(1)).
///
/// | form | 닭 | 과 |
/// | --- | --- | --- |
/// | ``keys`` | ㄷㅏㄹㄱ | ㄱㅗㅏ |
/// | ``jamo`` | ㄷㅏㄺ | ㄱㅘ |
/// | ``nfd`` | U+1103 U+1161 U+11B0 | U+1100 U+116A |
/// | ``qwerty`` | ekfr | rhk |
/// | ``initials`` | ㄷ | ㄱ |
public enum DecompositionForm: String, Sendable, CaseIterable {
  /// The compatibility-jamo keys that type the text: compounds split, ㄲ and ㅐ kept.
  case keys
  /// One compatibility jamo per syllable part.
  case jamo
  /// The canonical decomposition into conjoining jamo, equal to NFD on Hangul.
  case nfd
  /// The 2-set QWERTY keys that type the text.
  case qwerty
  /// The initial consonant of each syllable (초성), for initial-consonant search:
  /// 사과 → ㅅㄱ. It keeps no vowel or final, so it cannot be composed back.
  case initials

  /// Whether the output is a keystroke log that composes back to the input.
  public var isKeystrokes: Bool { self == .keys || self == .qwerty }
}
