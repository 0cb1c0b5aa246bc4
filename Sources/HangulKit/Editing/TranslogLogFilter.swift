/// The `hangul-compose --format translog` filter: a Translog-II log (XML)
/// in, composed text out, each file a document (hangul-keylog(5)).
///
/// The events are the children of `<Events>`; each `<Key>` is a key at
/// `Time` milliseconds: `Type="insert"` types its `Value` (one character
/// as a key, a jamo composing; several as text, a paste) or, with
/// `IMEtext`, commits what the input method's keys composed;
/// `Type="delete"` is `[Back]` or `[Delete]` once for each character of
/// its `Text` (a selection); `Type="navi"` moves (`[Left]`, `[Right]`,
/// `[Up]`, `[Down]`, `[Home]`, `[End]`); `Type="return"` is Enter;
/// `Type="IME"` is a key the input method took (`Value` a jamo or the
/// letter of its QWERTY key). `<Mouse>` commits the syllable; `<System>`,
/// `<Interface>`, `<Eye>` and `<Fix>` type nothing. Other types and
/// elements are warned about once each and skipped.
///
///     var filter = TranslogLogFilter(replaying: EventLogFilter(report: { print($0) }), report: { print($0) })
///     try filter.filtered(Array(log.utf8))   // the text, then "\n"
///
/// Memory: the document and one element's attributes; time O(n).
public struct TranslogLogFilter: EventLogReplaying {
  package var events: EventLogFilter
  private let reader = XMLEventReader()
  private var problems: LogProblems
  /// Whether a file was begun.
  private var began = false
  /// Where the reader is: whether the file stopped being XML, the depth
  /// of the element at hand, and that of `<Events>` while inside it.
  private var place = (stopped: false, depth: 0, eventsDepth: Int?.none)
  /// Whether the input method's keys composed something since the last commit.
  private var composedByInputMethod = false
  /// Where the log's `Cursor` should be at the next key if nothing moved it
  /// (`nil` when not known: after a jamo, Up, Down, Home, End).
  private var expectedCursor: Int?

  /// Reads Translog-II logs and replays their keys through `events` (made
  /// with the keyboard, options and outputs wanted); XML errors go to
  /// `report`, unknown types and elements to `warn`, each once.
  public init(
    replaying events: EventLogFilter,
    report: @escaping (PositionedError) -> Void,
    warn: @escaping (PositionedError) -> Void = { _ in }
  ) {
    self.events = events
    problems = LogProblems(report: report, warn: warn)
  }

  public mutating func beginInput(named name: String) {
    // The file before ends here (a parallel run gives each file a filter of its own).
    if began { endLog() }
    began = true
    problems.fileName = name
    reader.reset()
    place = (false, 0, nil)
    composedByInputMethod = false
    expectedCursor = nil
    events.beginLogDocument(named: name)
  }

  package mutating func readLog(_ chunk: UnsafeBufferPointer<UInt8>, isFinal: Bool) {
    guard !place.stopped else { return }
    let (items, failure) = reader.read(chunk, isFinal: isFinal)
    for item in items where !place.stopped { take(item) }
    if let failure, !place.stopped {
      problems.fail(failure.message, line: failure.line, column: failure.column)
      place.stopped = true
    }
  }

  private mutating func take(_ item: XMLEventReader.Item) {
    switch item {
    case .start(let name, let attributes, let line, let column):
      place.depth += 1
      if place.depth == 1, name != "LogFile" {
        problems.fail(
          "not a Translog-II log: the root element is <\(name)>, not <LogFile> (see hangul-keylog(5))",
          line: line, column: column)
        place.stopped = true
      } else if place.depth == 2, name == "Events" {
        place.eventsDepth = place.depth
      } else if let eventsDepth = place.eventsDepth, place.depth == eventsDepth + 1 {
        takeEvent(name, attributes, line: line, column: column)
      }
    case .end:
      if place.depth == place.eventsDepth { place.eventsDepth = nil }
      place.depth -= 1
    }
  }

  /// The bracketed key names of Translog-II's `Value`.
  private static let namedKeys: [String: EventLogFilter.NamedKey] = [
    "[Back]": .backspace, "[Delete]": .delete, "[Left]": .arrowLeft, "[Right]": .arrowRight,
    "[Up]": .arrowUp, "[Down]": .arrowDown, "[Home]": .home, "[End]": .end, "[Return]": .enter,
    "[Shift+Return]": .enter, "[Tab]": .tab,
  ]

  private mutating func takeEvent(
    _ name: String, _ attributes: [String: String], line: Int, column: Int
  ) {
    var time: Double?
    if let spelling = attributes["Time"] {
      guard let parsed = Double(spelling.trimmingXMLSpace), parsed.isFinite else {
        return problems.fail(
          "Time must be a number of milliseconds, not \(JSONWriter.quoted(spelling))",
          line: line, column: column)
      }
      time = parsed
    }
    switch name {
    case "Key": break
    case "Mouse":
      if let problem = events.takeLogTime(time) {
        return problems.fail(problem, line: line, column: column)
      }
      composedByInputMethod = false
      events.perform([.commit])
      // A click puts the cursor at a character offset of the text.
      if let cursor = attributes["Cursor"].flatMap({ Int($0.trimmingXMLSpace) }) {
        move(by: cursor - events.editor.cursorOffset)
        expectedCursor = cursor
      }
      return
    case "System", "Interface", "Eye", "Fix": return
    default:
      return problems.warnOnce(
        "element " + name, "element <\(name)> is not one hangul-keylog(5) knows: ignored",
        line: line, column: column)
    }
    if let problem = events.takeLogTime(time) {
      return problems.fail(problem, line: line, column: column)
    }
    let type = attributes["Type"] ?? ""
    let value = attributes["Value"] ?? ""
    let recorded = EventLogFilter.loggedKey(value, time: attributes["Time"]?.trimmingXMLSpace)
    var steps: [UIEventStream.Step] = []
    let cursor = attributes["Cursor"].flatMap { Int($0.trimmingXMLSpace) }
    if let named = Self.namedKeys[value] {
      let count = type == "delete" ? max(1, attributes["Text"]?.count ?? 1) : 1
      steps = Array(repeating: .press(.named(named)), count: count)
      // A Backspace's Cursor is where it left the cursor.
      follow(cursor.map { named == .backspace ? $0 + count : $0 })
      switch named {
      case .backspace, .delete: expectedCursor = cursor
      case .arrowLeft: expectedCursor = cursor.map { $0 - 1 }
      case .arrowRight, .enter, .tab: expectedCursor = cursor.map { $0 + 1 }
      default: expectedCursor = nil
      }
    } else {
      switch type {
      case "insert":
        if let committed = attributes["IMEtext"] {
          steps = composedByInputMethod ? [.commit] : [.text(committed)]
          composedByInputMethod = false
        } else if value.unicodeScalars.count == 1 {
          steps = [.press(Self.typed(value))]
        } else if !value.isEmpty {
          steps = [.text(value)]
        }
      case "IME":
        let scalars = Array(value.unicodeScalars)
        if scalars.count == 1, Jamo(scalars[0]) != nil {
          steps = [.press(.character(value))]
        } else if scalars.count == 1, let letter = Self.letterKey(scalars[0]) {
          steps = [.press(letter)]
        }
        composedByInputMethod = composedByInputMethod || !steps.isEmpty
      case "delete", "navi", "return": break
      default:
        return problems.warnOnce(
          "type " + type,
          "key type \(JSONWriter.quoted(type)) is not one hangul-keylog(5) knows: ignored",
          line: line, column: column)
      }
      follow(cursor)
      // A jamo's place in the log's text depends on how its input method shows the syllable.
      let composes = steps.contains {
        if case .press(.character(let typed)) = $0 {
          return typed.unicodeScalars.contains { Jamo($0) != nil }
        }
        if case .press(.code) = $0 { return true }
        return false
      }
      let inserted = attributes["IMEtext"] ?? value
      expectedCursor = composes || type == "IME" ? nil : cursor.map { $0 + inserted.count }
      if steps.isEmpty {
        return problems.warnOnce(
          "value " + type + value,
          "\(type) key \(JSONWriter.quoted(value)) is not one hangul-keylog(5) knows: ignored",
          line: line, column: column)
      }
    }
    events.perform(steps, of: recorded, at: time)
  }

  /// Moves the cursor where the log says the key at hand acts (`before`),
  /// when a click or a key the log does not have moved it since the last key.
  private mutating func follow(_ before: Int?) {
    guard let before, let expected = expectedCursor, before != expected else { return }
    move(by: before - expected)
  }

  /// Moves the cursor `offset` characters, committing the syllable.
  private mutating func move(by offset: Int) {
    guard offset != 0 else { return }
    events.perform([.commit])
    for _ in 0..<abs(offset) { events.editor.move(offset < 0 ? .left : .right) }
  }

  /// A character of an insert as a key: a jamo composes, anything else is
  /// itself (the key-log controls too).
  private static func typed(_ value: String) -> EventLogFilter.Action {
    let controls = [KeyLogControl.separator, KeyLogControl.literalPrefix, "\u{8}", "\u{7F}"]
    return value.unicodeScalars.contains { controls.contains($0) }
      ? .text(value) : .character(value)
  }

  /// An ASCII letter as its QWERTY key, Shift for a capital.
  private static func letterKey(_ scalar: Unicode.Scalar) -> EventLogFilter.Action? {
    switch scalar.value {
    case 0x61...0x7A:
      let lower = UInt8(scalar.value)
      return .code(.position(plain: lower, shifted: lower - 0x20), shifted: false)
    case 0x41...0x5A:
      let upper = UInt8(scalar.value)
      return .code(.position(plain: upper + 0x20, shifted: upper), shifted: true)
    default: return nil
    }
  }

  /// How many problems were reported: XML errors, events that could not be replayed.
  public var errorCount: Int { problems.errorCount }
}

extension TranslogLogFilter: StatisticsReporting {}
