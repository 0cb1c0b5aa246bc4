/// What an Inputlog keyboard event typed: its Windows virtual-key name
/// (`VK_R`, `VK_BACK`, `VK_HANGUL`) and the `value` the logger saw
/// (hangul-keylog(5), IDFX). The letters are typed through the keyboard's
/// layout as the QWERTY key of their name; what else prints is the value.
enum VirtualKey {
  /// What one keyboard event means.
  enum Meaning {
    /// A key the editor takes.
    case action(EventLogFilter.Action)
    /// A modifier, a lock, a function key or a shortcut: nothing typed
    /// (what a shortcut did comes as its own event).
    case nothing
    /// A key the input method took whose key the log does not name.
    case unnamedProcessKey
    /// A name not known, with no value to type.
    case unknown
  }

  /// The meaning of the key `name` that typed `value` (empty when none) in `mode`.
  ///
  ///     VirtualKey.meaning(of: "VK_R", value: "R", in: .korean)   // KeyR with Shift: ㄲ on 2-set
  ///     VirtualKey.meaning(of: "VK_OEM_7", value: "ä", in: .korean)   // the character ä
  static func meaning(of name: String, value: String, in mode: InputMode) -> Meaning {
    if let named = named[name] { return .action(.named(named)) }
    if silent.contains(name) || isFunctionKey(name) { return .nothing }
    let scalars = Array(value.unicodeScalars)
    let letter = letterKey(name)
    // A control character (or its Control Picture, as ``XMLEventReader``
    // reads Inputlog's references) is a shortcut (Ctrl+C): it types nothing.
    if scalars.count == 1,
      scalars[0].value < 0x20 || scalars[0].value == 0x7F
        || (0x2400..<0x2420).contains(scalars[0].value)
    {
      return .nothing
    }
    if scalars.count > 1 { return .action(.text(value)) }  // a paste (Ctrl+V)
    if let scalar = scalars.first {
      if Jamo(scalar) != nil { return .action(.character(value)) }
      if mode == .korean, let lower = asciiLetter(scalar) {
        let processed: KeyCode? =
          name == "VK_PROCESSKEY" ? .position(plain: lower, shifted: lower - 0x20) : nil
        if let code = letter ?? processed {
          // The key of the name, with Shift when the logger saw a capital.
          return .action(.code(code, shifted: UInt8(scalar.value) != lower))
        }
      }
      let controls = [KeyLogControl.separator, KeyLogControl.literalPrefix]
      return .action(controls.contains(scalar) ? .text(value) : .character(value))
    }
    if let letter { return .action(.code(letter, shifted: false)) }
    if let code = codeNames[name].flatMap(KeyCode.init(name:)) {
      return .action(.code(code, shifted: false))
    }
    return name == "VK_PROCESSKEY" ? .unnamedProcessKey : .unknown
  }

  /// The lower-case ASCII letter of `scalar`, if it is one.
  private static func asciiLetter(_ scalar: Unicode.Scalar) -> UInt8? {
    switch scalar.value {
    case 0x61...0x7A: UInt8(scalar.value)
    case 0x41...0x5A: UInt8(scalar.value + 0x20)
    default: nil
    }
  }

  /// `VK_A` … `VK_Z` as their QWERTY key.
  private static func letterKey(_ name: String) -> KeyCode? {
    let bytes = Array(name.utf8)
    guard bytes.count == 4, name.hasPrefix("VK_"), (0x41...0x5A).contains(bytes[3]) else {
      return nil
    }
    return .position(plain: bytes[3] + 0x20, shifted: bytes[3])
  }

  private static func isFunctionKey(_ name: String) -> Bool {
    guard name.hasPrefix("VK_F"), let number = Int(name.dropFirst(4)) else { return false }
    return (1...24).contains(number)
  }

  private static let named: [String: EventLogFilter.NamedKey] = [
    "VK_BACK": .backspace, "VK_DELETE": .delete, "VK_RETURN": .enter, "VK_TAB": .tab,
    "VK_SPACE": .space, "VK_LEFT": .arrowLeft, "VK_RIGHT": .arrowRight, "VK_UP": .arrowUp,
    "VK_DOWN": .arrowDown, "VK_HOME": .home, "VK_END": .end, "VK_HANGUL": .hangulMode,
    "VK_KANA": .hangulMode,
  ]

  /// Keys that type nothing themselves.
  private static let silent: Set<String> = [
    "VK_SHIFT", "VK_LSHIFT", "VK_RSHIFT", "VK_CONTROL", "VK_LCONTROL", "VK_RCONTROL", "VK_MENU",
    "VK_LMENU", "VK_RMENU", "VK_CAPITAL", "VK_LWIN", "VK_RWIN", "VK_APPS", "VK_NUMLOCK",
    "VK_SCROLL", "VK_HANJA", "VK_ESCAPE", "VK_INSERT", "VK_PRIOR", "VK_NEXT", "VK_PAUSE",
    "VK_SNAPSHOT", "VK_CONVERT", "VK_NONCONVERT", "VK_ACCEPT", "VK_MODECHANGE", "VK_CLEAR",
  ]

  /// The W3C code values of the other printing keys, typed when the log
  /// gives no value.
  private static let codeNames: [String: String] = {
    var names: [String: String] = [
      "VK_OEM_1": "Semicolon", "VK_OEM_PLUS": "Equal", "VK_OEM_COMMA": "Comma",
      "VK_OEM_MINUS": "Minus", "VK_OEM_PERIOD": "Period", "VK_OEM_2": "Slash",
      "VK_OEM_3": "Backquote", "VK_OEM_4": "BracketLeft", "VK_OEM_5": "Backslash",
      "VK_OEM_6": "BracketRight", "VK_OEM_7": "Quote", "VK_DECIMAL": "NumpadDecimal",
      "VK_ADD": "NumpadAdd", "VK_SUBTRACT": "NumpadSubtract", "VK_MULTIPLY": "NumpadMultiply",
      "VK_DIVIDE": "NumpadDivide",
    ]
    for digit in 0...9 {
      names["VK_\(digit)"] = "Digit\(digit)"
      names["VK_NUMPAD\(digit)"] = "Numpad\(digit)"
    }
    return names
  }()
}
