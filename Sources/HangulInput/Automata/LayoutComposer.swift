/// The automaton for any keyboard file: one small state machine per keyboard
/// type (``KeyboardLayout/KeyboardType``: jamo, jaso, romaja, and the old-Hangul
/// variants of the first two), reading every rule from the layout's tables,
/// so that it types exactly what libhangul types with the same keyboard.
///
///     var composer = LayoutComposer(layout: KeyboardLayout(builtIn: "3f")!)
///     var line: [UInt8] = []
///     for key in "kf".utf8 { _ = composer.press(key: key, into: &line) }
///     composer.commit(into: &line)
///     // String(decoding: line, as: UTF8.self) == "가"
///
/// A key that types a symbol ends the syllable and writes the symbol. Each key
/// and each Backspace takes O(1) time.
package struct LayoutComposer: Sendable {
  package let layout: KeyboardLayout
  package let options: ComposerOptions
  /// The syllable being composed.
  package internal(set) var buffer = LayoutBuffer()
  /// What each key types: its value, and its kind in the low bits of a
  /// second table (so that the automaton classifies a key with one load).
  private let keyValues: [UInt32]
  let keyKinds: [ConjoiningJamo.Kind]
  /// The layout's combinations (with the options' additions), for fast lookups.
  private let pairs: JamoPairTable

  /// The vowels that `--extended-vowels` adds (ᅡᅵ → ᅢ …), as conjoining jamo.
  static let extendedVowels: [(UInt32, UInt32, UInt32)] = [
    (0x1161, 0x1175, 0x1162), (0x1163, 0x1175, 0x1164), (0x1165, 0x1175, 0x1166),
    (0x1167, 0x1175, 0x1168), (0x116A, 0x1175, 0x116B), (0x116F, 0x1175, 0x1170),
  ]

  package init(layout: KeyboardLayout, options: ComposerOptions = ComposerOptions()) {
    var layout = layout
    if options.extendedVowels {
      for (first, second, result) in Self.extendedVowels {
        layout.addCombination(first, second, result)
      }
    }
    self.layout = layout
    self.options = options
    keyValues = layout.keyMap
    keyKinds = layout.keyMap.map(ConjoiningJamo.kind)
    pairs = JamoPairTable(layout.combinations)
  }

  /// Whether nothing is being composed.
  @inline(__always) public var isEmpty: Bool { buffer.isEmpty }

  /// The text of the syllable being composed.
  package var composing: [Unicode.Scalar] {
    var bytes: [UInt8] = []
    buffer.write(into: &bytes)
    return Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
  }

  /// Types one key (an ASCII code): writes what it finishes to `line`.
  /// Returns `false` when the keyboard does not take the key; then the
  /// syllable has been written and the key is text.
  @inline(__always)
  package mutating func press(key code: UInt8, into line: inout some ByteAppending) -> Bool {
    guard code < 128 else { return pressJamo(0, into: &line) }
    let value = keyValues[Int(code)]
    switch layout.type {
    case .jaso, .jasoYet: return pressJaso(value, kind: keyKinds[Int(code)], into: &line)
    case .romaja: return pressRomaja(value, key: code, into: &line)
    case .jamo, .jamoYet: return pressJamo(value, into: &line)
    case .keypad: return push(0, into: &line)  // read by KeypadComposer instead
    }
  }

  /// The symbol that `code` types as text whatever is composing (a symbol
  /// key of a jaso keyboard: ``press(key:into:)`` commits, then writes it),
  /// or `nil` for a key that goes through the automaton or that the
  /// keyboard does not take. Lets a table of the automaton's steps (the
  /// editors' key runs) write such a key without a step of its own.
  package func symbolTyped(byKey code: UInt8) -> Unicode.Scalar? {
    guard code < 128, keyKinds[Int(code)] == .other, keyValues[Int(code)] != 0 else { return nil }
    switch layout.type {
    case .jaso, .jasoYet: return Unicode.Scalar(keyValues[Int(code)]) ?? "\u{FFFD}"
    case .romaja, .jamo, .jamoYet, .keypad: return nil
    }
  }

  /// Ends the syllable and writes it.
  @inline(__always)
  package mutating func commit(into line: inout some ByteAppending) {
    if !buffer.isEmpty { buffer.write(into: &line) }
    buffer.clear()
  }

  /// Undoes the last step (see ``LayoutBuffer/undo()``); `false` when there was none.
  package mutating func undoStep() -> Bool {
    buffer.undo()
  }

  /// Restores a state saved from ``buffer`` (to undo whole keystrokes).
  package mutating func restore(_ saved: LayoutBuffer) {
    buffer = saved
  }

  // MARK: Steps the state machines share

  /// Pushes a jamo; anything else ends the syllable instead and returns `false`.
  @inline(__always)
  mutating func push(_ value: UInt32, into line: inout some ByteAppending) -> Bool {
    guard ConjoiningJamo.isJamo(value) else {
      commit(into: &line)
      return false
    }
    buffer.push(value)
    return true
  }

  /// Pushes a jamo; if that fails (the syllable ended), pushes `retry` into
  /// the new one.
  @inline(__always)
  mutating func push(
    _ value: UInt32, orStartWith retry: UInt32, into line: inout some ByteAppending
  ) -> Bool {
    push(value, into: &line) || push(retry, into: &line)
  }

  /// Ends the syllable and starts the next with a jamo.
  @inline(__always)
  mutating func startOver(with value: UInt32, into line: inout some ByteAppending) -> Bool {
    commit(into: &line)
    return push(value, into: &line)
  }

  /// The jamo two jamo typed in a row make under the options, or 0.
  @inline(__always)
  func combine(_ first: UInt32, _ second: UInt32) -> UInt32 {
    if !options.doubleStroke, layout.type == .jamo, first == second,
      ConjoiningJamo.isModern(first)
    {
      return 0  // the same consonant twice makes a tense one only with --double-stroke
    }
    let result = pairs.combine(first, second)
    if !options.bareClusters, ConjoiningJamo.isInitial(first), ConjoiningJamo.isInitial(second),
      ConjoiningJamo.isFinal(result)
    {
      return 0  // two initials make a bare cluster only with bare clusters on
    }
    return result
  }

  /// The final that an initial typed after a vowel becomes, or 0; on the
  /// old-Hangul types any final, otherwise only a modern one.
  @inline(__always)
  func final(ofInitial value: UInt32) -> UInt32 {
    let final = ConjoiningJamo.final(ofInitial: value)
    return layout.type.isOldHangul || final &- 0x11A7 < 28 ? final : 0
  }
}
