import HangulKit

/// What keys type in Korean mode, and which keys type a run of Hangul: the
/// one place the wrong-mode filter uses the input-method automata, so that it
/// can move to another automaton (the `HangulInput` core) by changing this
/// type alone.
///
///     var typing = try WrongModeTyping(keyboard: .twoSet)
///     typing.hangul(typedBy: Array("dkssud".utf8))    // 안녕
///     typing.keys(typing: Array("재깅".unicodeScalars)) // "world"
///
/// A 2-set keyboard runs on ``SyllableComposer`` and ``Decomposer`` (the
/// `hangul-compose --keys qwerty` and `hangul-decompose --to qwerty --plain`
/// paths); any other keyboard on ``LayoutComposer`` and ``LayoutDecomposer``.
/// The keys of every syllable are found once, when the type is made (a few
/// milliseconds); then each key and each character takes O(1) time.
public struct WrongModeTyping: Sendable {
  /// A keyboard the filter cannot use (the phone keypads: their keys are digits).
  public struct UnsupportedKeyboard: Error, CustomStringConvertible {
    public var name: String
    public var description: String {
      "keyboard '\(name)' is a phone keypad; wrong-mode text is looked for with computer keyboards"
    }
  }

  public let keyboard: Keyboard
  /// Whether the keyboard runs on ``LayoutComposer`` (not 2-set).
  private let typesOnLayout: Bool
  /// Whether each ASCII code types a jamo in Korean mode (128 entries): the
  /// characters a span typed in English mode is made of.
  public let typesJamo: [Bool]
  /// Whether each ASCII capital letter types what its small letter types (128
  /// entries): a Shift no one presses for Korean (2-set: all but Q W E R T O P).
  public let capitalTypesSmall: [Bool]
  /// The keys of each syllable (by index) and then each compatibility jamo,
  /// one after another in `tableKeys`, from `tableStart[i]` to
  /// `tableStart[i + 1]`; an entry whose first byte is 0 cannot be typed.
  private let tableKeys: [UInt8]
  private let tableStart: [Int32]
  /// The automata, reset after each run of keys (their tables are shared).
  private var composer: SyllableComposer
  private var layoutComposer: LayoutComposer

  public init(keyboard: Keyboard) throws(UnsupportedKeyboard) {
    let decomposition = InputAutomaton.keyDecomposition(of: keyboard)
    guard decomposition != .phonePresses else { throw UnsupportedKeyboard(name: keyboard.name) }
    self.keyboard = keyboard
    typesOnLayout = decomposition == .layoutKeys
    var types = [Bool](repeating: false, count: 128)
    var same = [Bool](repeating: false, count: 128)
    for code in UInt8(0x21)...0x7E {
      types[Int(code)] = Self.typesJamo(code, keyboard, typesOnLayout)
    }
    for capital in UInt8(ascii: "A")...UInt8(ascii: "Z") where types[Int(capital)] {
      let small = capital + 0x20
      same[Int(capital)] =
        typesOnLayout
        ? keyboard.layout.value(forKey: capital) == keyboard.layout.value(forKey: small)
        : keyboard.jamo(forASCII: capital) == keyboard.jamo(forASCII: small)
    }
    typesJamo = types
    capitalTypesSmall = same
    composer = SyllableComposer(keyboard: typesOnLayout ? .twoSet : keyboard)
    layoutComposer = LayoutComposer(layout: keyboard.layout)
    (tableKeys, tableStart) = Self.keyTable(keyboard, typesOnLayout)
  }

  /// The keys of every syllable and compatibility jamo, as a person types
  /// each alone (``Decomposer`` in plain form, or ``LayoutDecomposer`` without
  /// its separators); 0 for one the keyboard does not type.
  private static func keyTable(_ keyboard: Keyboard, _ typesOnLayout: Bool) -> ([UInt8], [Int32]) {
    var keys: [UInt8] = []
    var starts: [Int32] = []
    let decomposer = Decomposer(form: .qwerty, keyboard: keyboard, plain: true)
    let layoutDecomposer = LayoutDecomposer(keyboard: keyboard)
    let separator = Array(String(KeyLogControl.separator).utf8)
    let values =
      (0..<UInt32(HangulSyllable.count)).map { HangulSyllable.firstScalarValue + $0 }
      + (0..<UInt32(Jamo.count)).map { 0x3131 + $0 }
    var written: [UInt8] = []
    for value in values {
      written.removeAll(keepingCapacity: true)
      let scalar = Unicode.Scalar(value) ?? "?"
      if typesOnLayout {
        var fresh = layoutDecomposer
        fresh.decompose(.scalar(scalar), into: &written)
        written = Self.removing(separator, from: written)
      } else {
        var fresh = decomposer
        fresh.decompose(.scalar(scalar), into: &written)
      }
      starts.append(Int32(keys.count))
      if written.isEmpty || !written.allSatisfy({ $0 > 0 && $0 < 0x80 }) {
        keys.append(0)
      } else {
        keys.append(contentsOf: written)
      }
    }
    starts.append(Int32(keys.count))
    return (keys, starts)
  }

  private static func typesJamo(_ code: UInt8, _ keyboard: Keyboard, _ typesOnLayout: Bool) -> Bool
  {
    guard typesOnLayout else { return keyboard.jamo(forASCII: code) != nil }
    let value = keyboard.layout.value(forKey: code)
    return (0x1100...0x11FF).contains(value) || (0x3131...0x318E).contains(value)
      || (0xA960...0xA97C).contains(value) || (0xD7B0...0xD7FB).contains(value)
  }

  /// What `keys` (ASCII codes that type jamo) type in Korean mode, from a fresh start.
  public mutating func hangul(typedBy keys: some Collection<UInt8>) -> [Unicode.Scalar] {
    var text: [Unicode.Scalar] = []
    hangul(typedBy: keys, into: &text)
    return text
  }

  /// Replaces the contents of `text` with what `keys` type (see ``hangul(typedBy:)``).
  public mutating func hangul(
    typedBy keys: some Collection<UInt8>, into text: inout [Unicode.Scalar]
  ) {
    text.removeAll(keepingCapacity: true)
    if typesOnLayout {
      var bytes: [UInt8] = []
      for key in keys { _ = layoutComposer.press(key: key, into: &bytes) }
      layoutComposer.commit(into: &bytes)
      text.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
    } else {
      for key in keys {
        guard let jamo = keyboard.jamo(forASCII: key) else { continue }
        if let done = composer.press(jamo) { text.append(done) }
      }
      if let last = composer.commit() { text.append(last) }
    }
  }

  /// The keys that type `text` (Hangul syllables and compatibility jamo), as
  /// a person types them (no separators), or `nil` when the keyboard cannot
  /// type one of its characters.
  public func keys(typing text: some Collection<Unicode.Scalar>) -> [UInt8]? {
    var keys: [UInt8] = []
    return self.keys(typing: text, into: &keys) ? keys : nil
  }

  /// Replaces the contents of `keys` with the keys that type `text`; returns
  /// `false` when the keyboard cannot type one of its characters. O(keys).
  public func keys(typing text: some Collection<Unicode.Scalar>, into keys: inout [UInt8]) -> Bool {
    keys.removeAll(keepingCapacity: true)
    for scalar in text {
      let index: Int
      switch scalar.value {
      case 0xAC00...0xD7A3: index = Int(scalar.value - HangulSyllable.firstScalarValue)
      case 0x3131...0x3163: index = HangulSyllable.count + Int(scalar.value - 0x3131)
      default: return false
      }
      let start = Int(tableStart[index])
      let end = Int(tableStart[index + 1])
      guard tableKeys[start] != 0 else { return false }
      keys.append(contentsOf: tableKeys[start..<end])
    }
    return true
  }

  private static func removing(_ pattern: [UInt8], from bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == pattern[0], bytes[index...].starts(with: pattern) {
        index += pattern.count
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return result
  }
}
