extension LayoutComposer {
  /// The initial ㅇ that romaja puts before a vowel that starts a syllable.
  package static let silentInitial: UInt32 = 0x110B
  /// The vowel ㅡ that romaja puts after a consonant that no vowel follows.
  static let romajaFillerVowel: UInt32 = 0x1173
  /// The initial ㅈ that the key `x` types where a syllable starts (elsewhere it is ㄳ).
  static let initialOfX: UInt32 = 0x110C

  /// The romaja state machine: Latin letters spell sounds. A vowel with no
  /// consonant before it gets the initial ㅇ; a consonant that cannot follow
  /// the one before gets the vowel ㅡ (ㅋ + ㅌ → 크ㅌ); a vowel after a final
  /// takes it (or its last part) as its initial; ㅇ (ng) stays a final before
  /// a vowel. A capital letter starts a new syllable.
  mutating func pressRomaja(_ typed: UInt32, key code: UInt8, into line: inout some ByteAppending)
    -> Bool
  {
    var value = typed
    if value != 0, !ConjoiningJamo.isJamo(value) {
      commit(into: &line)
      line.appendUTF8(Unicode.Scalar(value) ?? "\u{FFFD}")  // a symbol key
      return true
    }
    let isX = code | 0x20 == UInt8(ascii: "x")
    if code &- UInt8(ascii: "A") < 26 { commit(into: &line) }
    if buffer.final != 0 {
      if isX { return startOver(with: Self.initialOfX, into: &line) }
      if ConjoiningJamo.isInitial(value) || ConjoiningJamo.isFinal(value) {
        let final = ConjoiningJamo.isFinal(value) ? value : final(ofInitial: value)
        let combined = combine(buffer.final, final)
        if ConjoiningJamo.isFinal(combined) {
          return push(combined, orStartWith: value, into: &line)
        }
        return startOver(with: value, into: &line)
      }
      if ConjoiningJamo.isVowel(value) { return romajaVowelAfterFinal(value, into: &line) }
    } else if buffer.vowel != 0 {
      if ConjoiningJamo.isInitial(value) {
        if buffer.initial != 0 {
          let final = final(ofInitial: value)
          if ConjoiningJamo.isFinal(final) {
            return push(final, orStartWith: value, into: &line)
          }
          return startOver(with: value, into: &line)
        }
        return push(value, orStartWith: value, into: &line)
      }
      if ConjoiningJamo.isVowel(value) {
        let combined = combine(buffer.vowel, value)
        if ConjoiningJamo.isVowel(combined) { return push(combined, into: &line) }
        commit(into: &line)
        buffer.initial = Self.silentInitial
        return push(value, into: &line)
      }
      if ConjoiningJamo.isFinal(value) { return push(value, orStartWith: value, into: &line) }
    } else if buffer.initial != 0 {
      if ConjoiningJamo.isInitial(value) {
        let combined = combine(buffer.initial, value)
        if combined == 0 {
          buffer.vowel = Self.romajaFillerVowel
          commit(into: &line)
          return push(value, into: &line)
        }
        return push(combined, orStartWith: value, into: &line)
      }
      if ConjoiningJamo.isFinal(value) {
        buffer.vowel = Self.romajaFillerVowel
        commit(into: &line)
        return push(isX ? Self.initialOfX : value, into: &line)
      }
      return push(value, orStartWith: value, into: &line)
    } else {
      if isX { value = Self.initialOfX }
      guard push(value, into: &line) else { return false }
      if buffer.initial == 0, buffer.vowel != 0 { buffer.initial = Self.silentInitial }
      return true
    }
    commit(into: &line)
    return false
  }

  /// A vowel after a final: the final's last consonant moves on as the
  /// initial of the next syllable, except ㅇ (ng), which stays.
  private mutating func romajaVowelAfterFinal(_ value: UInt32, into line: inout some ByteAppending)
    -> Bool
  {
    if buffer.final == 0x11BC {
      commit(into: &line)
      buffer.initial = Self.silentInitial
      _ = push(value, into: &line)
      return true
    }
    var last = buffer.pop()
    if ConjoiningJamo.isVowel(buffer.newest) {
      if last == 0x11AA {  // ㄳ typed as one key (x): ㄱ stays, ㅅ moves
        buffer.final = 0x11A8
        last = 0x11BA
      } else {
        buffer.final = 0
      }
      commit(into: &line)
      _ = push(ConjoiningJamo.initial(ofFinal: last), into: &line)
      return push(value, into: &line)
    }
    let parts = ConjoiningJamo.split(modernFinal: buffer.final) ?? (0, 0)
    buffer.final = parts.kept
    commit(into: &line)
    _ = push(parts.moved, into: &line)
    return push(value, into: &line)
  }
}
