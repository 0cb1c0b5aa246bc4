/// What a line of an event log means: its members checked, its time and
/// document taken, its key or text made an ``EventLogFilter/Action``
/// (hangul-keylog(5), "Event logs").
extension EventLogFilter {
  /// Takes the event of a line, its members as ``EventLineReader`` kept
  /// them; one that is not valid is reported at its member's column.
  mutating func handleEvent(_ members: [EventLineReader.Member], objectColumn: Int) {
    let event = JSONValue.object(members.map { JSONValue.Member($0.name, $0.value) })
    func position(of name: String) -> (column: Int, line: Int) {
      guard let member = members.first(where: { $0.name == name }) else { return (objectColumn, 0) }
      return (member.column, member.line)
    }
    // A line with a "type" is a browser's event (SPEC 3.6); one without means what it always did.
    let type = event["type"]
    var action: Action?
    if let type {
      guard type.stringValue != nil else {
        fail("\"type\" must be a string, not \(type.kindName)", at: position(of: "type"))
        return
      }
    } else {
      guard let parsed = self.action(of: event, position: position) else { return }
      action = parsed
    }
    var time: Double?
    let timeName = type == nil ? "t" : ["t", "timeStamp", "time"].first { event[$0] != nil } ?? "t"
    if let value = event[timeName] {
      guard let spelling = value.numberSpelling, let parsed = Double(spelling) else {
        fail(
          "\"\(timeName)\" must be a number of milliseconds, not \(value.kindName)",
          at: position(of: timeName))
        return
      }
      guard parsed.isFinite else {
        fail(
          "\"\(timeName)\" is too large for a number of milliseconds: \(Self.shown(spelling))",
          at: position(of: timeName))
        return
      }
      if clock.lastTime == nil {
        clock.earliestUnchecked = min(clock.earliestUnchecked ?? parsed, parsed)
      }
      if let lastTime = clock.lastTime, parsed < lastTime {
        fail(
          "\"\(timeName)\" went backwards: \(Self.shown(spelling)) after \(StatisticsReport.format(lastTime, digits: 0))",
          at: position(of: timeName))
        return
      }
      time = parsed
    }
    var documentName: DocumentName?
    if let value = event["doc"] {
      switch value {
      case .string(let name): documentName = .string(name)
      case .number(let spelling) where Self.isInteger(spelling):
        documentName = .number(spelling)
      default:
        fail(
          "\"doc\" must be a string or an integer, not \(value.kindName)", at: position(of: "doc"))
        return
      }
    }
    enter(documentName, at: time)
    if let typeName = type?.stringValue {
      let (steps, warning) = browser.take(event, type: typeName)
      if let warning { warn(warning) }
      perform(steps, of: event, at: time)
      return
    }
    guard let action else { return }
    recorder.current.keystrokes += 1
    typeKey(action, of: event, at: time)
  }

  /// A value as a message shows it: its first 40 characters.
  private static func shown(_ spelling: String) -> String {
    spelling.unicodeScalars.count > 40 ? String(spelling.unicodeScalars.prefix(40)) + "…" : spelling
  }

  private static func isInteger(_ spelling: String) -> Bool {
    spelling.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) }
  }

  enum Action {
    case named(NamedKey)
    case character(String)
    case code(KeyCode, shifted: Bool)
    /// A phone keypad's key named in the keyboard file (획추가).
    case phoneKey(UInt8)
    case text(String)
  }

  /// What an event does, or `nil` (reported) when it is not a valid event.
  private mutating func action(
    of event: JSONValue, position: (String) -> (column: Int, line: Int)
  ) -> Action? {
    let key = event["key"]
    let code = event["code"]
    let text = event["text"]
    if let text {
      guard key == nil, code == nil else {
        fail("an event has either \"key\" or \"code\", or \"text\", not both", at: position("text"))
        return nil
      }
      guard let phrase = text.stringValue else {
        fail("\"text\" must be a string, not \(text.kindName)", at: position("text"))
        return nil
      }
      return .text(phrase)
    }
    var shifted = false
    if let value = event["shiftKey"] {
      guard case .bool(let flag) = value else {
        fail("\"shiftKey\" must be true or false, not \(value.kindName)", at: position("shiftKey"))
        return nil
      }
      shifted = flag
    }
    if let code {
      guard let name = code.stringValue else {
        fail("\"code\" must be a string, not \(code.kindName)", at: position("code"))
        return nil
      }
      guard let physical = KeyCode(name: name) else {
        fail(Self.unknown("code", name, known: KeyCode.allNames), at: position("code"))
        return nil
      }
      return .code(physical, shifted: shifted)
    }
    guard let key else {
      fail("an event needs \"key\", \"code\" or \"text\"", at: position("{"))
      return nil
    }
    guard let name = key.stringValue else {
      fail("\"key\" must be a string, not \(key.kindName)", at: position("key"))
      return nil
    }
    if let named = NamedKey(rawValue: name) { return .named(named) }
    if let code = setup.keypadKeyNames[name] { return .phoneKey(code) }
    if name.count == 1 { return .character(name) }
    fail(
      Self.unknown(
        "key", name,
        known: NamedKey.allCases.map(\.rawValue) + setup.keypadKeyNames.keys.sorted()),
      at: position("key"))
    return nil
  }

  /// `unknown key "Esc" (did you mean "End"?): a key is one character or one of …`
  private static func unknown(_ member: String, _ name: String, known: [String]) -> String {
    let shown = name.unicodeScalars.count > 40 ? String(name.unicodeScalars.prefix(40)) + "…" : name
    let probe = String(name.unicodeScalars.prefix(64))
    let suggestion = SpellingSuggestion.nearest(to: probe, in: known).map {
      " (did you mean \(JSONWriter.quoted($0))?)"
    }
    let rule =
      member == "key"
      ? "a key is one character or one of \(known.joined(separator: ", "))"
      : "see hangul-keylog(5) for the code values"
    return "unknown \(member) \(JSONWriter.quoted(shown))\(suggestion ?? ""): \(rule)"
  }
}
