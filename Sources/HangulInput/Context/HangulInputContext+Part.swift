/// The three places a jamo can take in a Hangul syllable.
public enum SyllablePart: String, Sendable, Hashable, CaseIterable {
  /// The initial consonant (초성).
  case initial
  /// The vowel (중성).
  case vowel
  /// The final consonant (종성).
  case final
}

extension HangulInputContext {
  /// The part of the syllable being composed that its newest step filled:
  /// where the jamo of the last key taken landed (ㄱ ㅏ ㄴ: `final`; then ㅏ,
  /// which moves ㄴ to a new syllable 나: `vowel`). `nil` when nothing is
  /// being composed. Writing-process measures read it after each key.
  ///
  ///     var context = HangulInputContext(keyboard: .twoSet)
  ///     context.process("r")
  ///     context.newestPart   // .initial
  ///
  /// O(1) (on a keypad, O(the run of presses)).
  public var newestPart: SyllablePart? {
    switch automaton {
    case .syllable:
      return syllable.state.lastStep.map { SyllablePart(role: $0.role) }
    case .layout:
      let newest = layout.buffer.newest
      if ConjoiningJamo.isInitial(newest) { return .initial }
      if ConjoiningJamo.isVowel(newest) { return .vowel }
      if ConjoiningJamo.isFinal(newest) { return .final }
      return nil
    case .keypad:
      return keypad?.runState.syllable.lastStep.map { SyllablePart(role: $0.role) }
    }
  }
}

extension SyllablePart {
  init(role: CombinationTable.Role) {
    switch role {
    case .initial: self = .initial
    case .vowel: self = .vowel
    case .final: self = .final
    }
  }
}
