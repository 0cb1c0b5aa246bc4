/// `--format aalto`: the Aalto 136M keystrokes TSV (Dhakal et al., CHI 2018),
/// one key press a record, replayed by its JavaScript `KEYCODE` (a letter or
/// digit key is a key position typed through the keyboard, Shift from a
/// SHIFT record before it or an upper-case `LETTER`), or by its `LETTER`
/// when the input method took the key (keyCode 229). Each `TEST_SECTION_ID`
/// is a document whose target text is its `SENTENCE`.
extension EventLogFilter {
  /// The named keys of JavaScript keyCodes.
  private static let namedKeyCodes: [Int: NamedKey] = [
    8: .backspace, 9: .tab, 13: .enter, 16: .shift, 21: .hangulMode, 32: .space, 35: .end,
    36: .home, 37: .arrowLeft, 38: .arrowUp, 39: .arrowRight, 40: .arrowDown, 46: .delete,
  ]

  /// A record of the fields `TEST_SECTION_ID, SENTENCE, PRESS_TIME, LETTER,
  /// KEYCODE`, at `columns`.
  mutating func takeAaltoKeystroke(_ fields: [String], columns: [Int]) {
    guard let time = milliseconds(fields[2], named: "PRESS_TIME", at: columns[2]) else { return }
    let keyCodeText = fields[4].trimmingSpaces()
    guard let keyCode = Int(keyCodeText), keyCode >= 0 else {
      return fail(
        "KEYCODE must be a JavaScript keyCode (a whole number), not \(JSONWriter.quoted(String(keyCodeText.prefix(40))))",
        at: columns[4])
    }
    enter(Self.documentName(fields[0]), at: time)
    recorder.current.target = fields[1]
    // The sentence shown is what the measures' error rates compare with (--stats).
    setTarget(fields[1])
    let letter = fields[3]
    let action = Self.aaltoAction(keyCode: keyCode, letter: letter)
    var members = [JSONValue.Member("key", .string(letter))]
    if time != nil {
      members.insert(JSONValue.Member("t", .number(fields[2].trimmingSpaces())), at: 0)
    }
    perform([.press(action)], of: .object(members), at: time)
  }

  /// What a key press of the Aalto files does.
  ///
  ///     aaltoAction(keyCode: 82, letter: "r")     // .code(KeyR)
  ///     aaltoAction(keyCode: 229, letter: "ㄱ")   // .character("ㄱ")
  ///     aaltoAction(keyCode: 17, letter: "CTRL")  // .named(.process): a key that types nothing
  static func aaltoAction(keyCode: Int, letter: String) -> Action {
    if let named = namedKeyCodes[keyCode] { return .named(named) }
    let upper = letter.unicodeScalars.count == 1 && ("A"..."Z").contains(letter)
    if (65...90).contains(keyCode), let scalar = Unicode.Scalar(keyCode) {
      let name = "Key" + String(scalar)
      if let code = KeyCode(name: name) { return .code(code, shifted: upper) }
    }
    if (48...57).contains(keyCode), letter.count <= 1 || letter.allSatisfy(\.isNumber),
      let code = KeyCode(name: "Digit\(keyCode - 48)")
    {
      return .code(code, shifted: false)
    }
    if letter.unicodeScalars.count == 1, let scalar = letter.unicodeScalars.first {
      if scalar.isASCII, scalar.value >= 0x21 {
        let ascii = UInt8(scalar.value)
        return .code(.position(plain: ascii, shifted: ascii), shifted: false)
      }
      return .character(letter)
    }
    return .named(.process)
  }
}
