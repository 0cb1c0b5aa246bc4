/// The syllable a ``LayoutComposer`` is composing: its three positions
/// (conjoining jamo, 0 when empty) and the jamo each key put there, newest
/// last, so that Backspace restores what was there before. This is the
/// model libhangul uses, so Backspace undoes exactly what libhangul undoes.
///
///     var buffer = LayoutBuffer()
///     buffer.push(0x1100)   // ᄀ
///     buffer.push(0x1161)   // ᅡ
///     buffer.undo()         // back to ᄀ
///
/// A fixed-size value (no heap), cheap to copy for a keystroke history.
public struct LayoutBuffer: Sendable {
  public internal(set) var initial: UInt32 = 0
  public internal(set) var vowel: UInt32 = 0
  public internal(set) var final: UInt32 = 0
  private var steps = InlineArray<12, UInt32>(repeating: 0)
  private var count = 0

  public init() {}

  /// Whether nothing is being composed.
  @inline(__always) public var isEmpty: Bool { initial == 0 && vowel == 0 && final == 0 }

  /// Empties the syllable (the steps left behind are never read).
  @inline(__always) mutating func clear() {
    initial = 0
    vowel = 0
    final = 0
    count = 0
  }

  /// Puts a jamo whose position is known in it and records the step.
  @inline(__always) mutating func push(_ jamo: UInt32, as kind: ConjoiningJamo.Kind) {
    switch kind {
    case .initial: initial = jamo
    case .vowel: vowel = jamo
    case .final: final = jamo
    case .other: break
    }
    if count == 12 { count = 11 }
    steps[count] = jamo
    count += 1
  }

  /// Puts a jamo in its position and records the step.
  @inline(__always) mutating func push(_ jamo: UInt32) {
    if ConjoiningJamo.isInitial(jamo) {
      initial = jamo
    } else if ConjoiningJamo.isVowel(jamo) {
      vowel = jamo
    } else if ConjoiningJamo.isFinal(jamo) {
      final = jamo
    }
    if count == 12 { count = 11 }  // more steps than any syllable takes: keep the newest
    steps[count] = jamo
    count += 1
  }

  /// Removes the newest step and returns its jamo (0 when there is none),
  /// leaving the positions as they are.
  @inline(__always) mutating func pop() -> UInt32 {
    guard count > 0 else { return 0 }
    count -= 1
    return steps[count]
  }

  /// The newest step's jamo, or 0.
  @inline(__always) var newest: UInt32 { count > 0 ? steps[count - 1] : 0 }

  /// Undoes the newest step: its position gets back the jamo of the step
  /// before it if that was in the same position, or empties. Returns
  /// `false` when there was no step.
  mutating func undo() -> Bool {
    guard count > 0 else { return false }
    let undone = pop()
    guard count > 0 else {
      clear()
      return true
    }
    let previous = newest
    if ConjoiningJamo.isInitial(undone) {
      initial = ConjoiningJamo.isInitial(previous) ? previous : 0
    } else if ConjoiningJamo.isVowel(undone) {
      vowel = ConjoiningJamo.isVowel(previous) ? previous : 0
    } else if ConjoiningJamo.isFinal(undone) {
      final = ConjoiningJamo.isFinal(previous) ? previous : 0
    } else {
      return false
    }
    return true
  }

  /// Writes the syllable's text (see ``ConjoiningJamo/text(_:_:_:_:)``) as UTF-8.
  @inline(__always) package func write(into line: inout some ByteAppending) {
    if let syllable = ConjoiningJamo.syllable(initial, vowel, final) {
      // The usual case: a modern syllable, three bytes.
      line.append(UInt8(0xE0 | syllable >> 12))
      line.append(UInt8(0x80 | syllable >> 6 & 0x3F))
      line.append(UInt8(0x80 | syllable & 0x3F))
      return
    }
    ConjoiningJamo.text(initial, vowel, final) { value in
      line.appendUTF8(Unicode.Scalar(value) ?? "\u{FFFD}")
    }
  }
}

/// Two buffers are equal when their positions and steps are: the steps left
/// behind by ``LayoutBuffer/clear()`` or ``LayoutBuffer/pop()`` are not part of the value.
extension LayoutBuffer: Hashable {
  public static func == (left: LayoutBuffer, right: LayoutBuffer) -> Bool {
    guard left.initial == right.initial, left.vowel == right.vowel, left.final == right.final,
      left.count == right.count
    else { return false }
    for index in 0..<left.count where left.steps[index] != right.steps[index] { return false }
    return true
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(initial)
    hasher.combine(vowel)
    hasher.combine(final)
    hasher.combine(count)
    for index in 0..<count { hasher.combine(steps[index]) }
  }
}
