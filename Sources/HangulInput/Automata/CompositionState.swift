/// The syllable being composed, with the steps that built it.
///
/// Each key that changes the syllable pushes one step (the jamo a position
/// took); undoing a step restores the position to its previous jamo. This is
/// the model libhangul uses, so Backspace undoes exactly what it undoes. The
/// state is a small value (16 bytes), cheap to copy for a keystroke history.
public struct CompositionState: Hashable, Sendable {
  typealias Role = CombinationTable.Role

  /// Each position holds a jamo offset + 1, or 0 when empty.
  private(set) var initialCode: UInt8 = 0
  private(set) var vowelCode: UInt8 = 0
  private(set) var finalCode: UInt8 = 0
  /// Up to eight steps, the newest in the low byte: role << 6 | (offset + 1).
  private var steps: UInt64 = 0
  private(set) var stepCount: UInt8 = 0

  /// The most steps one syllable can take: initial 2, vowel 3, final 2, with room to spare.
  static let capacity: UInt8 = 8

  public init() {}

  /// Whether nothing is being composed.
  @inline(__always) public var isEmpty: Bool { stepCount == 0 }

  /// The initial consonant, if any.
  public var initial: Jamo? { Self.jamo(initialCode) }
  /// The vowel, if any.
  public var vowel: Jamo? { Self.jamo(vowelCode) }
  /// The final consonant, if any; with no vowel it is a bare cluster such as ㄳ.
  public var final: Jamo? { Self.jamo(finalCode) }

  @inline(__always) static func jamo(_ code: UInt8) -> Jamo? {
    code == 0 ? nil : Jamo(offset: code &- 1)
  }

  /// The text the syllable shows: one scalar, or `nil` when empty.
  ///
  /// An initial and a vowel make a precomposed syllable; otherwise the one
  /// jamo shown is the bare cluster, the lone initial or the lone vowel.
  public var text: Unicode.Scalar? {
    if initialCode != 0, vowelCode != 0 {
      let initialIndex = JamoTables.initialIndexOfJamo[Int(initialCode - 1)].raw
      let finalIndex = finalCode == 0 ? 0 : JamoTables.finalIndexOfJamo[Int(finalCode - 1)].raw
      let index = (Int(initialIndex) * 21 + Int(vowelCode) - 31) * 28 + Int(finalIndex)
      return Unicode.Scalar(HangulSyllable.firstScalarValue + UInt32(index))
    }
    let code = finalCode != 0 ? finalCode : (initialCode != 0 ? initialCode : vowelCode)
    return Self.jamo(code)?.scalar
  }

  /// Sets a position and records the step.
  @inline(__always)
  mutating func push(_ jamo: Jamo, as role: Role) {
    let code = jamo.offset + 1
    switch role {
    case .initial: initialCode = code
    case .vowel: vowelCode = code
    case .final: finalCode = code
    }
    steps = steps << 8 | UInt64(role.rawValue << 6 | code)
    if stepCount < Self.capacity { stepCount += 1 }
  }

  /// The newest step, if any.
  var lastStep: (role: Role, jamo: Jamo)? {
    guard stepCount > 0, let role = Role(rawValue: UInt8(truncatingIfNeeded: steps >> 6) & 3)
    else { return nil }
    return (role, Jamo(offset: UInt8(truncatingIfNeeded: steps) & 0x3F &- 1))
  }

  /// The jamo of the step before the newest, when both are final steps (the
  /// final took two keys: ㄹ then ㄺ).
  var finalBeforeLastFinal: Jamo? {
    let finalRole = UInt64(Role.final.rawValue)
    guard stepCount >= 2, steps >> 6 & 3 == finalRole, steps >> 14 & 3 == finalRole else {
      return nil
    }
    return Jamo(offset: UInt8(truncatingIfNeeded: steps >> 8) & 0x3F &- 1)
  }

  /// Removes the newest step and restores its position to the jamo it held
  /// before; returns `false` when there was no step.
  @discardableResult
  mutating func undoStep() -> Bool {
    guard let undone = lastStep else { return false }
    steps >>= 8
    stepCount -= 1
    if stepCount == 0 {
      self = CompositionState()
      return true
    }
    var previous: UInt8 = 0
    if let step = lastStep, step.role == undone.role { previous = step.jamo.offset + 1 }
    switch undone.role {
    case .initial: initialCode = previous
    case .vowel: vowelCode = previous
    case .final: finalCode = previous
    }
    return true
  }

  /// Drops the final without undoing the steps before it (used when a vowel
  /// takes the final away to start the next syllable).
  mutating func removeFinal() {
    finalCode = 0
  }

  /// Replaces the final, keeping the steps (used when a vowel takes only the
  /// second part of a compound final).
  mutating func setFinal(_ jamo: Jamo) {
    finalCode = jamo.offset + 1
  }
}
