/// The combination rules of a keyboard under given options, flattened into
/// lookup tables so that the automaton does one array read per decision.
struct CombinationTable: Sendable {
  enum Role: UInt8 {
    case initial = 0
    case vowel = 1
    case final = 2
  }

  /// `combined[role][first * 51 + second]` is the result's offset + 1, or 0.
  private let combined: [[UInt8]]
  /// `finalSecond[whole * 51 + first]` is the offset + 1 of the jamo that
  /// `first` combined with to make the final `whole`, or 0.
  private let finalSecond: [UInt8]
  /// Whether each jamo can be a syllable initial, and a final.
  let canBeInitial: [Bool]
  let canBeFinal: [Bool]

  init(keyboard: Keyboard, options: ComposerOptions) {
    func table(_ rules: [Keyboard.Combination]) -> [UInt8] {
      var table = [UInt8](repeating: 0, count: Jamo.count * Jamo.count)
      for rule in rules {
        table[Int(rule.first.offset) * Jamo.count + Int(rule.second.offset)] =
          rule.result.offset + 1
      }
      return table
    }
    let initials = options.doubleStroke ? keyboard.doubleStrokeInitials : []
    let vowels =
      keyboard.vowelCombinations + (options.extendedVowels ? keyboard.extendedVowels : [])
    let finals =
      keyboard.finalCombinations + (options.doubleStroke ? keyboard.doubleStrokeFinals : [])
    combined = [table(initials), table(vowels), table(finals)]
    var second = [UInt8](repeating: 0, count: Jamo.count * Jamo.count)
    for rule in finals {
      second[Int(rule.result.offset) * Jamo.count + Int(rule.first.offset)] = rule.second.offset + 1
    }
    finalSecond = second
    canBeInitial = Jamo.all.map { $0.initialIndex != nil }
    canBeFinal = Jamo.all.map { $0.finalIndex != nil }
  }

  /// The jamo that `first` and `second` make in `role`, if they combine.
  @inline(__always)
  func combine(_ first: Jamo, _ second: Jamo, as role: Role) -> Jamo? {
    let code = combined[Int(role.rawValue)][Int(first.offset) * Jamo.count + Int(second.offset)]
    return code == 0 ? nil : Jamo(offset: code - 1)
  }

  /// The jamo that was added to `first` to make the final `whole` (ㄺ, ㄹ → ㄱ).
  @inline(__always)
  func secondPart(ofFinal whole: Jamo, after first: Jamo) -> Jamo? {
    let code = finalSecond[Int(whole.offset) * Jamo.count + Int(first.offset)]
    return code == 0 ? nil : Jamo(offset: code - 1)
  }
}
