/// What each character of a keystroke log does: the rules of hangul-compose(1) that
/// the text format and the event format share.
///
/// Compatibility jamo (and under ``KeyEncoding/qwerty`` ASCII letters) are
/// keys; BS and DEL are Backspace; a newline ends the line; U+200C ends the
/// syllable and U+2060 makes the next character literal (``KeyLogControl``);
/// everything else is text that ends the syllable.
struct KeyInterpreter: Sendable {
  let keys: KeyEncoding
  let keyboard: Keyboard
  /// Whether the last character was the literal prefix.
  private(set) var literalPending = false

  init(keys: KeyEncoding, keyboard: Keyboard) {
    self.keys = keys
    self.keyboard = keyboard
  }

  /// Applies one unit of the log to `editor`; returns how many keystrokes it
  /// was: a compound jamo is two, the control characters none.
  @discardableResult
  mutating func apply(_ unit: DecodedUnit, to editor: inout LineEditor) -> Int {
    guard case .scalar(let scalar) = unit else {
      literalPending = false
      if case .invalidByte(let byte) = unit { editor.insert(bytes: CollectionOfOne(byte)) }
      return 1
    }
    if literalPending {
      literalPending = false
      if scalar == "\n" { editor.endLine() } else { editor.insertLiteral(scalar) }
      return 1
    }
    switch scalar.value {
    case 0x0A: editor.endLine()
    case 0x08, 0x7F: editor.backspace()
    case KeyLogControl.separator.value:
      editor.endSyllable()
      return 0
    case KeyLogControl.literalPrefix.value:
      literalPending = true
      return 0
    case 0x20...0x7E where keys == .qwerty && editor.context.automaton.keysAreLayoutPositions:
      let code = UInt8(scalar.value)
      if keyboard.layout.value(forKey: code) != 0 {
        editor.press(key: code)
      } else {
        editor.insert(scalar)
      }
    case 0x41...0x5A where keys == .qwerty, 0x61...0x7A where keys == .qwerty:
      if let jamo = keyboard.jamo(forASCII: UInt8(scalar.value)) {
        editor.press(jamo)
      } else {
        editor.insert(scalar)
      }
    default:
      if let jamo = Jamo(scalar) {
        editor.press(jamo)
        return JamoTables.compoundParts[Int(jamo.offset)] == nil ? 1 : 2
      }
      editor.insert(scalar)
    }
    return 1
  }
}
