extension Keyboard {
  /// The standard 2-set (두벌식, KS X 5002) keyboard: the built-in keyboard "2".
  public static let twoSet: Keyboard = Keyboard(
    layout: BuiltInKeyboards.layout(id: "2")
      ?? KeyboardLayout(id: "2", name: "Dubeolsik", type: .jamo))

  /// The vowels that `--extended-vowels` adds (ㅏㅣ → ㅐ …), as phone keyboards do.
  static let extendedVowelRules = rules("ㅏㅣㅐ ㅑㅣㅒ ㅓㅣㅔ ㅕㅣㅖ ㅘㅣㅙ ㅝㅣㅞ")

  /// The built-in keyboard `id` ("2", "3f", "cheonjiin" …), or `nil` when
  /// there is none of that id.
  ///
  ///     let keyboard = Keyboard(builtIn: "3f")
  ///     keyboard?.hasJamoLabels   // false: its keys are ASCII positions
  public init?(builtIn id: String) {
    // The default keyboard is built once per run, however often it is asked for.
    if id.utf8.elementsEqual("2".utf8) {  // bytes: no Unicode tables in Embedded Swift
      self = .twoSet
      return
    }
    guard let layout = KeyboardLayout(builtIn: id) else { return nil }
    self.init(layout: layout)
  }

  /// The ids of the built-in keyboards, in the order of `--list-keyboards`.
  public static var builtInIDs: [String] { BuiltInKeyboards.ids }

  /// The built-in keyboards, in the order of `--list-keyboards`.
  public static var builtIn: [Keyboard] {
    BuiltInKeyboards.ids.compactMap { Keyboard(builtIn: $0) }
  }

  /// A keyboard for a layout. When the layout is a 2-set one whose keys are
  /// letters typing modern initials and vowels, and whose combinations fit
  /// the 2-set automaton, its tables are filled in and ``hasJamoLabels`` is
  /// set; otherwise only the layout is kept.
  public init(layout: KeyboardLayout) {
    self.init(
      name: layout.id, asciiMap: [Jamo?](repeating: nil, count: 128), vowelCombinations: [],
      finalCombinations: [], doubleStrokeInitials: [], doubleStrokeFinals: [],
      extendedVowels: Self.extendedVowelRules, layout: layout)
    hasJamoLabels = fillJamoTables()
    if !hasJamoLabels {
      asciiMap = [Jamo?](repeating: nil, count: 128)
      vowelCombinations = []
      finalCombinations = []
      doubleStrokeInitials = []
      doubleStrokeFinals = []
    }
  }

  /// Fills the 2-set tables from the layout; `false` if it does not fit them.
  private mutating func fillJamoTables() -> Bool {
    guard layout.type == .jamo else { return false }
    func label(_ value: UInt32) -> Jamo? {
      guard ConjoiningJamo.isModern(value), value != 0x11A7 else { return nil }
      return Unicode.Scalar(ConjoiningJamo.compatibility(value)).flatMap { Jamo($0) }
    }
    for code in layout.mappedKeys {
      let value = layout.value(forKey: code)
      let isLetter = code | 0x20 >= UInt8(ascii: "a") && code | 0x20 <= UInt8(ascii: "z")
      guard isLetter, ConjoiningJamo.isInitial(value) || ConjoiningJamo.isVowel(value),
        let jamo = label(value)
      else { return false }
      asciiMap[Int(code)] = jamo
    }
    var bareClusters: Set<Combination> = []
    for (pair, resultValue) in layout.combinations {
      let firstValue = UInt32(truncatingIfNeeded: pair >> 32)
      let secondValue = UInt32(truncatingIfNeeded: pair)
      guard let first = label(firstValue), let second = label(secondValue),
        let result = label(resultValue)
      else { return false }
      let rule = Combination(first, second, result)
      let kinds = [firstValue, secondValue, resultValue].map(ConjoiningJamo.kind)
      switch (kinds[0], kinds[1], kinds[2]) {
      case (.initial, .initial, .initial) where first == second: doubleStrokeInitials.append(rule)
      case (.initial, .initial, .final): bareClusters.insert(rule)
      case (.vowel, .vowel, .vowel) where first != second: vowelCombinations.append(rule)
      case (.final, .final, .final) where first == second: doubleStrokeFinals.append(rule)
      case (.final, .final, .final): finalCombinations.append(rule)
      default: return false
      }
    }
    // The 2-set automaton makes bare clusters with the compound-final rules.
    guard bareClusters == Set(finalCombinations) else { return false }
    let order = { (left: Combination, right: Combination) in
      (left.first, left.second) < (right.first, right.second)
    }
    vowelCombinations.sort(by: order)
    finalCombinations.sort(by: order)
    doubleStrokeInitials.sort(by: order)
    doubleStrokeFinals.sort(by: order)
    return true
  }

  /// The ASCII key that types a jamo on a keyboard with jamo labels (the
  /// lower-case one where both do), or `nil`.
  public func key(typing jamo: Jamo) -> UInt8? {
    var found: UInt8?
    for code in layout.mappedKeys where asciiMap[Int(code)] == jamo {
      if found == nil || code >= UInt8(ascii: "a") { found = code }
    }
    return found
  }

  /// Parses space-separated groups "first second result".
  static func rules(_ groups: String) -> [Combination] {
    JamoTables.triples(groups).map { Combination($0.0, $0.1, $0.2) }
  }
}

extension ConjoiningJamo {
  package enum Kind: Sendable {
    case initial, vowel, final, other
  }

  package static func kind(_ value: UInt32) -> Kind {
    isInitial(value) ? .initial : isVowel(value) ? .vowel : isFinal(value) ? .final : .other
  }
}
