/// The two control characters of a keystroke log that make decomposition
/// round-trip exactly (hangul-decompose(1)).
///
/// - The separator, U+200C ZERO WIDTH NON-JOINER, ends the syllable being
///   composed and writes nothing. `hangul-decompose` puts it between keys that
///   would otherwise compose into something else: the text 각ㅏ decomposes to
///   ㄱㅏㄱ‌ㅏ, and ㄱ followed by ㅅ to ㄱ‌ㅅ.
/// - The literal prefix, U+2060 WORD JOINER, makes the next character text,
///   never a key, a Backspace or a jamo that composes: `hangul-decompose`
///   writes it before a separator, a literal prefix, BS or DEL that the text
///   itself contains, before conjoining vowels and finals, and (for `qwerty`)
///   before ASCII letters. A literal prefix before a newline or at the end of
///   the input is dropped.
///
/// Both are invisible, so decomposed text still reads naturally.
public enum KeyLogControl {
  /// Ends the syllable being composed and writes nothing.
  public static let separator: Unicode.Scalar = "\u{200C}"
  /// Makes the next character literal text.
  public static let literalPrefix: Unicode.Scalar = "\u{2060}"
}
