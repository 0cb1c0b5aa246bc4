extension LayoutComposer {
  /// The jaso (3-set) state machine: keys are initials, vowels and finals.
  /// A jamo fills its position; a second one of the same position combines
  /// with it if the table says so and it was the last key, or else starts the
  /// next syllable. A position already passed (an initial after the vowel)
  /// also starts the next syllable, unless `--auto-reorder` lets it land in
  /// its place.
  @inline(__always)
  mutating func pressJaso(
    _ value: UInt32, kind: ConjoiningJamo.Kind, into line: inout some ByteAppending
  )
    -> Bool
  {
    switch kind {
    case .initial:
      return typeJaso(
        value, current: buffer.initial, isLater: buffer.vowel != 0 || buffer.final != 0, kind: kind,
        into: &line)
    case .vowel:
      return typeJaso(
        value, current: buffer.vowel, isLater: buffer.final != 0, kind: kind,
        into: &line)
    case .final:
      return typeJaso(
        value, current: buffer.final, isLater: false, kind: kind,
        into: &line)
    case .other:
      break
    }
    commit(into: &line)
    guard value != 0 else { return false }
    line.appendUTF8(Unicode.Scalar(value) ?? "\u{FFFD}")  // a symbol key
    return true
  }

  /// One jamo for a position that holds `current` (0: empty); `isLater`
  /// tells whether a later position is already filled.
  @inline(__always)
  private mutating func typeJaso(
    _ value: UInt32, current: UInt32, isLater: Bool,
    kind: ConjoiningJamo.Kind, into line: inout some ByteAppending
  ) -> Bool {
    // `value` is a jamo of a known position: pushing it cannot fail.
    guard current != 0 else {
      if isLater, !options.autoReorder { commit(into: &line) }
      buffer.push(value, as: kind)
      return true
    }
    // Only the last key's jamo combines with the next.
    let lastWasSamePosition = ConjoiningJamo.kind(buffer.newest) == kind
    let combined = lastWasSamePosition ? combine(current, value) : 0
    if combined != 0 { return push(combined, orStartWith: combined, into: &line) }
    commit(into: &line)
    buffer.push(value, as: kind)
    return true
  }
}
