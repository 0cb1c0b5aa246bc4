/// The input mode of an event log: the 한/영 key (`HangulMode`, code `Lang1`)
/// toggles it.
///
///     var mode = InputMode.korean
///     mode.toggle()   // .english
public enum InputMode: String, Sendable, Hashable, CaseIterable {
  /// Keys are typed through the keyboard's layout and compose Hangul.
  case korean
  /// Letters and everything else are typed as themselves; Shift gives capitals.
  case english

  /// Switches to the other mode.
  public mutating func toggle() {
    self = self == .korean ? .english : .korean
  }
}

extension EventLogFilter {
  /// The named keys of the event format's `"key"`: W3C UI Events key values
  /// (`KeyboardEvent.key`) and our own `Space`, `DeleteWord` and `Next`.
  ///
  ///     EventLogFilter.NamedKey(rawValue: "ArrowLeft")   // .arrowLeft
  public enum NamedKey: String, CaseIterable, Sendable {
    case backspace = "Backspace"
    case delete = "Delete"
    case enter = "Enter"
    case tab = "Tab"
    case shift = "Shift"
    case arrowLeft = "ArrowLeft"
    case arrowRight = "ArrowRight"
    case arrowUp = "ArrowUp"
    case arrowDown = "ArrowDown"
    case home = "Home"
    case end = "End"
    case hangulMode = "HangulMode"
    case process = "Process"
    case space = "Space"
    case deleteWord = "DeleteWord"
    case next = "Next"
  }
}

/// A physical key as browsers name it in `KeyboardEvent.code` (W3C UI Events
/// code values): the keys of a US 104-key board that a layout can use, the
/// editing keys, the keypad, and `Lang1` (the 한/영 key).
///
///     KeyCode(name: "KeyR")     // .position(plain: "r", shifted: "R")
///     KeyCode(name: "Lang1")    // .named(.hangulMode)
///     KeyCode(name: "Digit1")   // .position(plain: "1", shifted: "!")
///
/// A lookup is one dictionary access.
public enum KeyCode: Sendable, Hashable {
  /// A key that the keyboard's layout assigns: its ASCII character on a US
  /// board without and with Shift.
  case position(plain: UInt8, shifted: UInt8)
  /// A key that does the same as a named key.
  case named(EventLogFilter.NamedKey)
  /// A keypad key: it types its character whatever the layout and mode.
  case keypad(Unicode.Scalar)

  /// The key with this code value, or `nil` when it is not one we know.
  public init?(name: String) {
    guard let key = Self.table[name] else { return nil }
    self = key
  }

  /// Every code value we know, in the order of the table.
  public static var allNames: [String] { entries.map(\.name) }

  private static let table: [String: KeyCode] = {
    var table: [String: KeyCode] = [:]
    for entry in entries { table[entry.name] = entry.key }
    return table
  }()

  private static let entries: [(name: String, key: KeyCode)] = {
    var entries: [(name: String, key: KeyCode)] = []
    for letter in UInt8(ascii: "A")...UInt8(ascii: "Z") {
      let name = "Key" + String(Unicode.Scalar(letter))
      entries.append((name, .position(plain: letter + 0x20, shifted: letter)))
    }
    for (digit, shifted) in zip("0123456789".utf8, ")!@#$%^&*(".utf8) {
      entries.append(
        ("Digit" + String(Unicode.Scalar(digit)), .position(plain: digit, shifted: shifted)))
    }
    let symbols: [(String, Unicode.Scalar, Unicode.Scalar)] = [
      ("Backquote", "`", "~"), ("Minus", "-", "_"), ("Equal", "=", "+"),
      ("BracketLeft", "[", "{"), ("BracketRight", "]", "}"), ("Backslash", "\\", "|"),
      ("Semicolon", ";", ":"), ("Quote", "'", "\""), ("Comma", ",", "<"), ("Period", ".", ">"),
      ("Slash", "/", "?"),
    ]
    for (name, plain, shifted) in symbols {
      entries.append((name, .position(plain: UInt8(plain.value), shifted: UInt8(shifted.value))))
    }
    let named: [(String, EventLogFilter.NamedKey)] = [
      ("Space", .space), ("Backspace", .backspace), ("Delete", .delete), ("Enter", .enter),
      ("NumpadEnter", .enter), ("Tab", .tab), ("ShiftLeft", .shift), ("ShiftRight", .shift),
      ("ArrowLeft", .arrowLeft), ("ArrowRight", .arrowRight), ("ArrowUp", .arrowUp),
      ("ArrowDown", .arrowDown), ("Home", .home), ("End", .end), ("Lang1", .hangulMode),
    ]
    for (name, key) in named { entries.append((name, .named(key))) }
    for digit in "0123456789".unicodeScalars {
      entries.append(("Numpad" + String(digit), .keypad(digit)))
    }
    let keypad: [(String, Unicode.Scalar)] = [
      ("NumpadDecimal", "."), ("NumpadAdd", "+"), ("NumpadSubtract", "-"),
      ("NumpadMultiply", "*"), ("NumpadDivide", "/"),
    ]
    for (name, scalar) in keypad { entries.append((name, .keypad(scalar))) }
    return entries
  }()
}

/// The known name nearest to a misspelt one, for "did you mean" messages.
enum SpellingSuggestion {
  /// The name in `names` with the fewest edits (insertions, deletions,
  /// substitutions, ignoring case) from `name`; the first such on a tie.
  ///
  ///     SpellingSuggestion.nearest(to: "Arrowleft", in: ["ArrowLeft", "End"])   // "ArrowLeft"
  ///
  /// O(n·m) per candidate, for short names.
  static func nearest(to name: String, in names: [String]) -> String? {
    let typed = Array(name.lowercased().unicodeScalars)
    var best: (name: String, distance: Int)?
    for candidate in names {
      let distance = editDistance(typed, Array(candidate.lowercased().unicodeScalars))
      if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
    }
    return best?.name
  }

  static func editDistance(_ first: [Unicode.Scalar], _ second: [Unicode.Scalar]) -> Int {
    var previous = Array(0...second.count)
    for (row, left) in first.enumerated() {
      var current = [row + 1]
      for (column, right) in second.enumerated() {
        let substitution = previous[column] + (left == right ? 0 : 1)
        current.append(min(substitution, previous[column + 1] + 1, current[column] + 1))
      }
      previous = current
    }
    return previous[second.count]
  }
}
