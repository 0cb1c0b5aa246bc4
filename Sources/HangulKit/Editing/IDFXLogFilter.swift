/// The `hangul-compose --format idfx` filter: an Inputlog IDFX log (XML)
/// in, composed text out, each file a document (hangul-keylog(5)).
///
/// Each `<event type="keyboard">` is a key: its `winlog` part's `<key>`
/// (a Windows virtual-key name, ``VirtualKey``) and `<value>`, at
/// `<startTime>` milliseconds. A `replacement` event (`start`, `end`,
/// `newtext`) right after a key is that key's edit of a selection: the
/// range is deleted (relative to the key's `wordlog` `<position>`), then
/// the key types; one after no key is text. An `insert` event (`before`,
/// `after`) is text already there. `mouse` and `focus` commit the syllable.
/// Other event types are warned about once each and skipped.
///
///     var filter = IDFXLogFilter(replaying: EventLogFilter(report: { print($0) }), report: { print($0) })
///     try filter.filtered(Array(idfx.utf8))   // the text the keys typed, then "\n"
///
/// The XML is parsed block by block (``XMLEventReader``): memory is bounded
/// by the document and one event's text (at most `maximumLineLength`
/// bytes an element); time O(n). Where the file stops being well-formed
/// XML the error is reported at its line and column and the rest of the
/// file is skipped.
public struct IDFXLogFilter: EventLogReplaying {
  package var events: EventLogFilter
  private let reader: XMLEventReader
  private var problems: LogProblems
  /// Whether a file was begun.
  private var began = false
  private var stopped = false
  private var sawRoot = false
  /// The event being read, and a key held for one event (the replacement
  /// after it may say what it did).
  private var event: Event?
  private var held: Held?
  /// Where the next key's `<position>` should be if nothing moved the
  /// cursor (`nil` when not known: after a key that composes, Up, Down, Home, End).
  private var expectedPosition: Int?

  /// An `<event>` as read so far.
  private struct Event {
    /// The `type` attribute (`keyboard`, `replacement`, …).
    var kind: String
    var line: Int
    var column: Int
    var fields: [String: String] = [:]
    /// Whether an element of it was reported (the event is skipped).
    var rejected = false
  }

  /// A key whose steps wait for the next event.
  private struct Held {
    var steps: [UIEventStream.Step]
    var deletes: Bool
    var recorded: JSONValue
    var time: Double?
    var position: Int?
  }

  /// The elements of an event's parts whose text is used.
  private static let fieldNames: Set<String> = [
    "key", "value", "startTime", "position", "start", "end", "newtext", "before", "after",
  ]

  /// Reads IDFX logs and replays their keys through `events` (made with
  /// the keyboard, options and outputs wanted); XML errors go to `report`,
  /// unknown event types and keys to `warn`, each once; an element's text
  /// is kept up to `maximumLineLength` bytes (at least 4 KiB).
  public init(
    replaying events: EventLogFilter,
    maximumLineLength: Int = EditingDefaults.maximumLineLength,
    report: @escaping (PositionedError) -> Void,
    warn: @escaping (PositionedError) -> Void = { _ in }
  ) {
    self.events = events
    reader = XMLEventReader(textLimit: max(maximumLineLength, 4096))
    reader.keepsText = { Self.fieldNames.contains($0) }
    problems = LogProblems(report: report, warn: warn)
  }

  public mutating func beginInput(named name: String) {
    // The file before ends here (a parallel run gives each file a filter of its own).
    if began { endLog() }
    began = true
    problems.fileName = name
    reader.reset()
    stopped = false
    sawRoot = false
    event = nil
    held = nil
    expectedPosition = nil
    events.beginLogDocument(named: name)
  }

  package mutating func readLog(_ chunk: UnsafeBufferPointer<UInt8>, isFinal: Bool) {
    // A key held for the event after it is typed when the file ends.
    defer { if isFinal { release() } }
    guard !stopped else { return }
    let (items, failure) = reader.read(chunk, isFinal: isFinal)
    for item in items where !stopped { take(item) }
    if let failure, !stopped {
      problems.fail(failure.message, line: failure.line, column: failure.column)
      stopped = true
    }
  }

  private mutating func take(_ item: XMLEventReader.Item) {
    switch item {
    case .start(let name, let attributes, let line, let column):
      guard sawRoot else {
        sawRoot = true
        if name != "log" {
          problems.fail(
            "not an Inputlog IDFX log: the root element is <\(name)>, not <log> (see hangul-keylog(5))",
            line: line, column: column)
          stopped = true
        }
        return
      }
      if name == "event", event == nil {
        event = Event(kind: attributes["type"] ?? "", line: line, column: column)
      }
    case .end(let name, let text):
      guard var current = event else { return }
      if name == "event" {
        event = nil
        if !current.rejected { take(current) }
      } else if Self.fieldNames.contains(name) {
        guard let text else {
          problems.fail(
            "<\(name)> is longer than \(reader.textLimit) bytes (see --max-line)",
            line: current.line, column: current.column)
          current.rejected = true
          event = current
          return
        }
        current.fields[name] = text
        event = current
      }
    }
  }

  /// Takes one whole event.
  private mutating func take(_ event: Event) {
    var time: Double?
    let spelling = event.fields["startTime"]?.trimmingXMLSpace
    if let spelling {
      guard let parsed = Double(spelling), parsed.isFinite else {
        return fail(
          "<startTime> must be a number of milliseconds, not \(JSONWriter.quoted(spelling))",
          at: event)
      }
      time = parsed
    }
    if event.kind == "replacement", let held { return replace(event, after: held, at: time) }
    release()
    if let problem = events.takeLogTime(time) { return fail(problem, at: event) }
    let recordedTime = spelling
    switch event.kind {
    case "keyboard":
      let name = event.fields["key"]?.trimmingXMLSpace ?? ""
      let recorded = EventLogFilter.loggedKey(name, time: recordedTime)
      switch VirtualKey.meaning(
        of: name, value: event.fields["value"] ?? "", in: events.typing.mode)
      {
      case .action(let action):
        var deletes = false
        if case .named(let named) = action { deletes = named == .backspace || named == .delete }
        let position = event.fields["position"].flatMap { Int($0.trimmingXMLSpace) }
        held = Held(
          steps: [.press(action)], deletes: deletes, recorded: recorded, time: time,
          position: position)
      case .nothing:
        // Shift, Control, a function key: a key of the measures, as the
        // other research logs count them, that types nothing and leaves the
        // syllable composing (Shift shows in the next key's value).
        held = Held(
          steps: [.press(.named(.process))], deletes: false, recorded: recorded, time: time,
          position: nil)
      case .unnamedProcessKey:
        warnOnce(
          "VK_PROCESSKEY",
          "key VK_PROCESSKEY without a value: the input method took a key the log does not name: ignored",
          at: event)
      case .unknown:
        warnOnce(
          name,
          "key \(JSONWriter.quoted(name)) without a value is not one hangul-keylog(5) knows: ignored",
          at: event)
      }
    case "replacement":
      replace(event, after: nil, at: time)
    case "insert":
      let before = event.fields["before"] ?? ""
      let after = event.fields["after"] ?? ""
      events.replaceText(
        movingBy: 0, deleting: 0, with: before + after, keyed: false,
        recordedAs: EventLogFilter.loggedKey("insert", time: recordedTime), at: time)
      for _ in after.unicodeScalars { events.editor.move(.left) }
      expectedPosition = event.fields["position"].flatMap { Int($0.trimmingXMLSpace) }
    case "mouse", "focus":
      events.perform([.commit])
    default:
      warnOnce(
        "type " + event.kind,
        "event type \(JSONWriter.quoted(event.kind)) is not one hangul-keylog(5) knows: ignored",
        at: event)
    }
  }

  /// A replacement: after a key, that key's edit of a selection; else text.
  private mutating func replace(_ event: Event, after key: Held?, at time: Double?) {
    held = nil
    if let problem = events.takeLogTime(time) { return fail(problem, at: event) }
    func number(_ name: String) -> Int? { event.fields[name].flatMap { Int($0.trimmingXMLSpace) } }
    guard let start = number("start"), let end = number("end"), start >= 0, end >= start else {
      return fail(
        "a replacement needs <start> and <end>, character offsets, start ≤ end", at: event)
    }
    let text = event.fields["newtext"] ?? ""
    if let key { follow(key.position) }
    let offset = start - (key?.position ?? expectedPosition ?? start)
    let recorded = key?.recorded ?? EventLogFilter.loggedKey("replacement", time: nil)
    if let key, !key.deletes {
      // A key typed over the selection: the selection goes, then the key types.
      events.replaceText(
        movingBy: offset, deleting: end - start, with: "", keyed: false, recordedAs: recorded,
        at: key.time)
      events.perform(key.steps, of: key.recorded, at: key.time)
      expectedPosition = Self.advanced(start, by: key.steps)
    } else {
      events.replaceText(
        movingBy: offset, deleting: end - start, with: text, keyed: key != nil,
        recordedAs: recorded, at: key?.time ?? time)
      expectedPosition = start + text.count
    }
  }

  /// Moves the cursor where the log says the key at hand acts, when a
  /// click (which the log gives no place for) moved it since the last key.
  /// Without an expected place, the committed text's offset says where
  /// the cursor is (a syllable being composed has no place in the log's offsets).
  private mutating func follow(_ position: Int?) {
    let known = events.editor.context.isComposing ? nil : events.editor.cursorOffset
    guard let position, let expected = expectedPosition ?? known, position != expected else {
      return
    }
    events.perform([.commit])
    let offset = position - expected
    for _ in 0..<abs(offset) { events.editor.move(offset < 0 ? .left : .right) }
  }

  /// Where the cursor is after `steps` from `position`, when the log's
  /// offsets can say (a key that composes cannot: it depends on how the
  /// input method shows the syllable).
  private static func advanced(_ position: Int?, by steps: [UIEventStream.Step]) -> Int? {
    guard var position else { return nil }
    for step in steps {
      guard case .press(let action) = step else { return nil }
      switch action {
      case .text(let text): position += text.count
      case .character(let text):
        if text.unicodeScalars.contains(where: { Jamo($0) != nil }) { return nil }
        position += text.count
      case .named(.backspace), .named(.arrowLeft): position -= 1
      case .named(.delete): break
      case .named(.arrowRight), .named(.enter), .named(.tab), .named(.space): position += 1
      default: return nil
      }
    }
    return position
  }

  /// Performs the held key, if any.
  private mutating func release() {
    guard let key = held else { return }
    held = nil
    follow(key.position)
    events.perform(key.steps, of: key.recorded, at: key.time)
    expectedPosition =
      events.typing.mode == .english ? Self.advanced(key.position, by: key.steps) : nil
  }

  /// How many events were rejected, and whether the file stopped being XML.
  public var errorCount: Int { problems.errorCount }

  private mutating func warnOnce(_ key: String, _ message: String, at event: Event) {
    problems.warnOnce(key, message, line: event.line, column: event.column)
  }

  private mutating func fail(_ message: String, at event: Event) {
    problems.fail(message, line: event.line, column: event.column)
  }
}

extension String {
  /// Without the XML white space around it (`<position> 12 </position>`).
  var trimmingXMLSpace: String {
    let scalars = unicodeScalars
    let isSpace: (Unicode.Scalar) -> Bool = { [" ", "\t", "\n", "\r"].contains($0) }
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[first...last])
  }
}

extension IDFXLogFilter: StatisticsReporting {}
