/// The options of the automaton; the defaults are those of libhangul's keyboard "2".
public struct ComposerOptions: Sendable, Hashable {
  /// What a Backspace undoes.
  public enum Backspace: String, Sendable, Hashable, CaseIterable {
    /// One composition step of the syllable being composed (뷁 → 뷀 → 붸 → 부 → ㅂ).
    case jamo
    /// The last keystroke, as if it had never been typed, back to the last non-jamo key.
    case keystroke
  }

  /// The same consonant twice makes the tense one (ㄱㄱ → ㄲ, ㅅㅅ → ㅆ as a final).
  public var doubleStroke = false
  /// Two consonants with no vowel combine into a cluster (ㄱㅅ → ㄳ).
  public var bareClusters = true
  /// A vowel followed by ㅣ makes the vowel with ㅣ (ㅏㅣ → ㅐ), as phone keyboards do.
  public var extendedVowels = false
  /// What a Backspace undoes.
  public var backspace = Backspace.jamo
  /// A jamo typed before one that comes earlier in the syllable still lands
  /// in its place (libhangul's AUTO_REORDER, 모아치기): ㅏㄱ → 가.
  public var autoReorder = false

  public init(
    doubleStroke: Bool = false, bareClusters: Bool = true, extendedVowels: Bool = false,
    backspace: Backspace = .jamo, autoReorder: Bool = false
  ) {
    self.autoReorder = autoReorder
    self.doubleStroke = doubleStroke
    self.bareClusters = bareClusters
    self.extendedVowels = extendedVowels
    self.backspace = backspace
  }
}
