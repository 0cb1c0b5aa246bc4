import ArgumentParser
import HangulKit

/// The automaton's options, shared by `hangul-compose` and `hangul-reviews import`.
public struct ComposeOptions: ParsableArguments {
  @Option(help: "How keys are written: jamo (ㄱ ㅏ …) or qwerty (2-set letter positions).")
  public var keys: KeyEncoding = .jamo

  @Flag(help: "Make a tense consonant from the same consonant typed twice (ㄱㄱ → ㄲ).")
  public var doubleStroke = false

  @Flag(help: "Keep two consonants apart until a vowel comes (ㄱㅅ stays ㄱㅅ, not ㄳ).")
  public var noBareClusters = false

  @Flag(help: "Combine a vowel with a following ㅣ as phone keyboards do (ㅏㅣ → ㅐ).")
  public var extendedVowels = false

  @Option(help: "What Backspace undoes: jamo (one composition step) or keystroke (the last key).")
  public var backspace: ComposerOptions.Backspace = .jamo

  public init() {}

  /// The options as the library takes them.
  public var composerOptions: ComposerOptions {
    ComposerOptions(
      doubleStroke: doubleStroke, bareClusters: !noBareClusters, extendedVowels: extendedVowels,
      backspace: backspace)
  }
}

extension KeyEncoding: ExpressibleByArgument {}
extension ComposerOptions.Backspace: ExpressibleByArgument {}
extension DecompositionForm: ExpressibleByArgument {}
