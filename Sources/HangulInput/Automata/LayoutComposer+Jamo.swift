extension LayoutComposer {
  /// The jamo (2-set) state machine: keys are initials and vowels, and a
  /// consonant becomes a final by where it is typed.
  ///
  /// - With a final: a consonant joins it into a compound final, or starts
  ///   the next syllable; a vowel takes the last consonant typed as the
  ///   initial of the next syllable (닭 + ㅏ → 달가).
  /// - With a vowel: a consonant becomes the final (after an initial), or
  ///   starts the next syllable (before one, unless `--auto-reorder`); a
  ///   vowel joins into a compound vowel or starts the next syllable.
  /// - With an initial only: a consonant combines (ㄱㅅ → bare cluster ㄳ,
  ///   whose parts become finals), a vowel fills its place.
  @inline(__always)
  mutating func pressJamo(_ value: UInt32, into line: inout some ByteAppending) -> Bool {
    if value != 0, !ConjoiningJamo.isJamo(value) {
      commit(into: &line)
      line.appendUTF8(Unicode.Scalar(value) ?? "\u{FFFD}")  // a symbol key
      return true
    }
    let isInitial = ConjoiningJamo.isInitial(value)
    let isVowel = ConjoiningJamo.isVowel(value)
    if buffer.final != 0 {
      if isInitial {
        let combined = combine(buffer.final, final(ofInitial: value))
        if ConjoiningJamo.isFinal(combined) {
          return push(combined, orStartWith: value, into: &line)
        }
        return startOver(with: value, into: &line)
      }
      if isVowel { return moveFinal(beforeVowel: value, into: &line) }
    } else if buffer.vowel != 0 {
      if isInitial {
        if buffer.initial != 0 {
          let final = final(ofInitial: value)
          if ConjoiningJamo.isFinal(final) {
            return push(final, orStartWith: value, into: &line)
          }
          return startOver(with: value, into: &line)
        }
        if options.autoReorder { return push(value, orStartWith: value, into: &line) }
        return startOver(with: value, into: &line)
      }
      if isVowel {
        let combined = combine(buffer.vowel, value)
        if ConjoiningJamo.isVowel(combined) { return push(combined, into: &line) }
        return startOver(with: value, into: &line)
      }
    } else if buffer.initial != 0 {
      if isInitial {
        let combined = combine(buffer.initial, value)
        if ConjoiningJamo.isFinal(combined) {
          // A bare cluster: the initial becomes a final step before it, so
          // that a vowel later takes only the second consonant.
          buffer.initial = 0
          let first = buffer.pop()
          _ = push(ConjoiningJamo.final(ofInitial: first), into: &line)
        }
        return push(combined, orStartWith: value, into: &line)
      }
      return push(value, orStartWith: value, into: &line)
    } else {
      return push(value, into: &line)
    }
    commit(into: &line)
    return false
  }

  /// A vowel after a final: the final, or its last part, moves on as the
  /// initial of the next syllable.
  @inline(__always)
  private mutating func moveFinal(beforeVowel value: UInt32, into line: inout some ByteAppending)
    -> Bool
  {
    let last = buffer.pop()
    let previous = buffer.newest
    if ConjoiningJamo.isFinal(previous) {
      let moving = ConjoiningJamo.initialLeft(byFinal: buffer.final, after: previous)
      if moving == 0 { return startOver(with: value, into: &line) }
      buffer.final = previous
      commit(into: &line)
      _ = push(moving, into: &line)
      return push(value, into: &line)
    }
    buffer.final = 0
    commit(into: &line)
    _ = push(ConjoiningJamo.initial(ofFinal: last), into: &line)
    return push(value, into: &line)
  }
}
