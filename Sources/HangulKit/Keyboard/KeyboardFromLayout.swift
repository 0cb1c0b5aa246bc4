extension Keyboard {
  /// The standard 2-set (두벌식, KS X 5002) keyboard: the built-in keyboard "2".
  public static let twoSet: Keyboard =
    (try? Keyboard(parsingID: "2"))
    ?? Keyboard(layout: KeyboardLayout(id: "2", name: "Dubeolsik", type: .jamo))

  /// The vowels that `--extended-vowels` adds (ㅏㅣ → ㅐ …), as phone keyboards do.
  static let extendedVowelRules = rules("ㅏㅣㅐ ㅑㅣㅒ ㅓㅣㅔ ㅕㅣㅖ ㅘㅣㅙ ㅝㅣㅞ")

  /// A built-in keyboard by id ("2", "3f", …) or a keyboard file by path.
  ///
  ///     let keyboard = try Keyboard(id: "3f")
  ///     keyboard.hasJamoLabels   // false: type it with --keys qwerty
  ///
  /// An argument that names a built-in id is that keyboard; anything else is
  /// read as a file. Throws ``KeyboardFileError`` naming the place of a fault.
  public init(id: String) throws(KeyboardFileError) {
    // The default keyboard is read once per run, however often it is asked for.
    if id == "2", BuiltInKeyboardFiles.keyboardIDs.contains(id) {
      self = .twoSet
      return
    }
    try self.init(parsingID: id)
  }

  /// Reads the built-in keyboard `id` or the keyboard file `id`.
  private init(parsingID id: String) throws(KeyboardFileError) {
    if BuiltInKeyboardFiles.keyboardIDs.contains(id) {
      self.init(
        layout: try KeyboardFileParser.layout(
          fromFile: FilePath("hangul-keyboard-\(id).xml"), source: .builtIn))
    } else {
      try self.init(file: FilePath(id))
    }
  }

  /// Reads the keyboard file at `path` (the exact bytes given), even where
  /// its name is a built-in id.
  public init(file path: FilePath) throws(KeyboardFileError) {
    self.init(layout: try KeyboardFileParser.layout(fromFile: path, source: .disk))
  }

  /// The ids of the built-in keyboards, in the order of `--list-keyboards`.
  public static var builtInIDs: [String] { BuiltInKeyboardFiles.keyboardIDs }

  /// The built-in keyboards, in the order of `--list-keyboards`.
  public static var builtIn: [Keyboard] {
    BuiltInKeyboardFiles.keyboardIDs.compactMap { try? Keyboard(id: $0) }
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
    for list in [
      \Keyboard.vowelCombinations, \.finalCombinations, \.doubleStrokeInitials,
      \.doubleStrokeFinals,
    ] {
      self[keyPath: list].sort { ($0.first, $0.second) < ($1.first, $1.second) }
    }
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
  enum Kind: Sendable {
    case initial, vowel, final, other
  }

  static func kind(_ value: UInt32) -> Kind {
    isInitial(value) ? .initial : isVowel(value) ? .vowel : isFinal(value) ? .final : .other
  }
}
