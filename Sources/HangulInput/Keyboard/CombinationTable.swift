/// The combination rules of a keyboard under given options, flattened into
/// lookup tables so that the automaton does one array read per decision.
final class CombinationTable: Sendable {
  enum Role: UInt8 {
    case initial = 0
    case vowel = 1
    case final = 2
  }

  /// `combined[role * 51 * 51 + first * 51 + second]` is the result's offset + 1, or 0.
  private let combined: [UInt8]
  /// `finalSecond[whole * 51 + first]` is the offset + 1 of the jamo that
  /// `first` combined with to make the final `whole`, or 0.
  private let finalSecond: [UInt8]
  /// Bit `offset` is set for each jamo that can be a syllable initial, and final.
  private let initialMask: UInt64
  private let finalMask: UInt64
  /// The initial index (0 ..< 19) and final index (1 ..< 28) of each jamo, or -1.
  /// Copies of ``JamoTables`` kept here so the hot path reads no lazy global.
  private let initialIndices: [Int8]
  private let finalIndices: [Int8]

  init(keyboard: Keyboard, options: ComposerOptions) {
    let size = Jamo.count * Jamo.count
    var combined = [UInt8](repeating: 0, count: 3 * size)
    func add(_ rules: [Keyboard.Combination], as role: Role) {
      for rule in rules {
        let index =
          Int(role.rawValue) * size + Int(rule.first.offset) * Jamo.count + Int(rule.second.offset)
        combined[index] = rule.result.offset + 1
      }
    }
    let vowels =
      keyboard.vowelCombinations + (options.extendedVowels ? keyboard.extendedVowels : [])
    let finals =
      keyboard.finalCombinations + (options.doubleStroke ? keyboard.doubleStrokeFinals : [])
    add(options.doubleStroke ? keyboard.doubleStrokeInitials : [], as: .initial)
    add(vowels, as: .vowel)
    add(finals, as: .final)
    self.combined = combined
    var second = [UInt8](repeating: 0, count: size)
    for rule in finals {
      second[Int(rule.result.offset) * Jamo.count + Int(rule.first.offset)] = rule.second.offset + 1
    }
    finalSecond = second
    initialIndices = JamoTables.initialIndexOfJamo.map { $0.raw }
    finalIndices = JamoTables.finalIndexOfJamo.map { $0.raw }
    var initialMask: UInt64 = 0
    var finalMask: UInt64 = 0
    for offset in 0..<Jamo.count {
      if initialIndices[offset] >= 0 { initialMask |= 1 << UInt64(offset) }
      if finalIndices[offset] >= 0 { finalMask |= 1 << UInt64(offset) }
    }
    self.initialMask = initialMask
    self.finalMask = finalMask
  }

  /// The jamo that `first` and `second` make in `role`, if they combine.
  @inline(__always)
  func combine(_ first: Jamo, _ second: Jamo, as role: Role) -> Jamo? {
    let index =
      Int(role.rawValue) * Jamo.count * Jamo.count + Int(first.offset) * Jamo.count
      + Int(second.offset)
    let code = combined[index]
    return code == 0 ? nil : Jamo(offset: code - 1)
  }

  /// The jamo that was added to `first` to make the final `whole` (ㄺ, ㄹ → ㄱ).
  @inline(__always)
  func secondPart(ofFinal whole: Jamo, after first: Jamo) -> Jamo? {
    let code = finalSecond[Int(whole.offset) * Jamo.count + Int(first.offset)]
    return code == 0 ? nil : Jamo(offset: code - 1)
  }

  @inline(__always)
  func canBeInitial(_ jamo: Jamo) -> Bool { initialMask >> UInt64(jamo.offset) & 1 == 1 }

  @inline(__always)
  func canBeFinal(_ jamo: Jamo) -> Bool { finalMask >> UInt64(jamo.offset) & 1 == 1 }

  /// The scalar a state shows (see ``CompositionState/text``).
  @inline(__always)
  func text(initial: UInt8, vowel: UInt8, final: UInt8) -> Unicode.Scalar? {
    if initial != 0, vowel != 0 {
      let initialIndex = Int(initialIndices[Int(initial) - 1])
      let finalIndex = final == 0 ? 0 : Int(finalIndices[Int(final) - 1])
      let index = (initialIndex * 21 + Int(vowel) - 31) * 28 + finalIndex
      return Unicode.Scalar(HangulSyllable.firstScalarValue + UInt32(index))
    }
    let code = final != 0 ? final : (initial != 0 ? initial : vowel)
    return code == 0 ? nil : Unicode.Scalar(Jamo.firstScalarValue + UInt32(code) - 1)
  }
}
