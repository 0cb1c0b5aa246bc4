/// `--format lwp`: the Kaggle "Linking Writing Processes" / KLiCKe CSV, one
/// event a record, a document per `id` (hangul-keylog(5)):
/// - `Input` of one character is a key press (a jamo is typed through the
///   keyboard; a space, a line break, any other character is typed as
///   itself); of more characters, text;
/// - `Remove/Cut` by Backspace or Delete of one character is that key;
///   any other removal deletes `text_change` at `cursor_position` (by
///   Backspace or Delete over a selection it counts as one key);
/// - `Paste` inserts, `Replace` (`old => new`) replaces, and
///   `Move From [a, b] To [c, d]` moves, at the positions the record gives,
///   as text, not keys;
/// - `Nonproduction`: an arrow, Home or End moves the cursor, a click puts
///   it at `cursor_position`; any other key is a key that types nothing.
///
/// Positions count characters (Unicode scalars) from the start of the
/// document, the syllable being composed committed.
extension EventLogFilter {
  /// A record of the fields `id, down_time, activity, down_event,
  /// text_change, cursor_position`, at `columns`.
  mutating func takeWritingProcessEvent(_ fields: [String], columns: [Int]) {
    guard let time = milliseconds(fields[1], named: "down_time", at: columns[1]) else { return }
    let positionText = fields[5].trimmingSpaces()
    guard let position = Int(positionText), position >= 0 else {
      return fail(
        "cursor_position must be a whole number of characters, not \(JSONWriter.quoted(String(positionText.prefix(40))))",
        at: columns[5])
    }
    let (activity, key, change) = (fields[2], fields[3], fields[4])
    var members = [JSONValue.Member("key", .string(key))]
    if time != nil {
      members.insert(JSONValue.Member("t", .number(fields[1].trimmingSpaces())), at: 0)
    }
    let event = JSONValue.object(members)
    let length = change.unicodeScalars.count
    switch activity {
    case "Input":
      enter(Self.documentName(fields[0]), at: time)
      if length == 1 {
        perform([.press(Self.typing(change))], of: event, at: time)
      } else if length > 1 {
        perform([.text(change)], of: event, at: time)
      }
    case "Remove/Cut":
      enter(Self.documentName(fields[0]), at: time)
      if length == 1, key == "Backspace" || key == "Delete" {
        perform([.press(.named(key == "Delete" ? .delete : .backspace))], of: event, at: time)
      } else {
        // A selection deleted by Backspace or Delete is one key; a cut is a shortcut's doing.
        if key == "Backspace" || key == "Delete" { recorder.current.keystrokes += 1 }
        placeCursor(at: position)
        for _ in 0..<length { editor.deleteForward() }
      }
    case "Paste":
      enter(Self.documentName(fields[0]), at: time)
      placeCursor(at: position - length)
      perform([.text(change)], of: event, at: time)
    case "Replace":
      let scalars = Array(change.unicodeScalars)
      let arrow = Array(" => ".unicodeScalars)
      guard let at = scalars.indices.first(where: { scalars[$0...].starts(with: arrow) }) else {
        return fail(
          "a Replace needs text_change \"old => new\", not \(JSONWriter.quoted(String(change.prefix(40))))",
          at: columns[4])
      }
      enter(Self.documentName(fields[0]), at: time)
      let (old, new) = (scalars[..<at], scalars[(at + arrow.count)...])
      placeCursor(at: position - new.count)
      for _ in 0..<old.count { editor.deleteForward() }
      if !new.isEmpty {
        perform([.text(String(String.UnicodeScalarView(new)))], of: event, at: time)
      }
    case "Nonproduction":
      enter(Self.documentName(fields[0]), at: time)
      if let named = NamedKey(rawValue: key),
        [.arrowLeft, .arrowRight, .arrowUp, .arrowDown, .home, .end].contains(named)
      {
        perform([.press(.named(named))], of: event, at: time)
      } else if key.hasSuffix("click") {
        placeCursor(at: position)
      } else {
        perform([.press(.named(.process))], of: event, at: time)
      }
    default:
      guard let move = Self.moveRanges(activity) else {
        return fail(
          "unknown activity \(JSONWriter.quoted(String(activity.prefix(40)))): an activity is Input, Remove/Cut, Paste, Replace, Nonproduction or Move From [a, b] To [c, d]",
          at: columns[2])
      }
      enter(Self.documentName(fields[0]), at: time)
      placeCursor(at: move.from.lowerBound)
      for _ in move.from { editor.deleteForward() }
      placeCursor(at: move.to)
      perform([.text(change)], of: event, at: time)
    }
  }

  /// The key that typed one character of an `Input`.
  private static func typing(_ character: String) -> Action {
    switch character {
    case " ": .named(.space)
    case "\n": .named(.enter)
    case "\t": .named(.tab)
    default: .character(character)
    }
  }

  /// The ranges of `Move From [a, b] To [c, d]`: the text moved and where it starts after.
  static func moveRanges(_ activity: String) -> (from: Range<Int>, to: Int)? {
    guard activity.hasPrefix("Move From [") else { return nil }
    let numbers = activity.split { !$0.isNumber }.compactMap { Int($0) }
    guard numbers.count == 4, numbers[0] <= numbers[1] else { return nil }
    return (numbers[0]..<numbers[1], numbers[2])
  }

  /// Puts the cursor `offset` characters from the document's start (the
  /// syllable being composed committed; as near as the text allows).
  mutating func placeCursor(at offset: Int) {
    keystrokes?.flush()
    editor.commitSyllable()
    var current = editor.cursorOffset
    while current != offset {
      editor.move(current > offset ? .left : .right)
      let moved = editor.cursorOffset
      if moved == current { break }
      current = moved
    }
  }
}
