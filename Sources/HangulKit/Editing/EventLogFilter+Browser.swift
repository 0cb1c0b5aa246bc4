/// The steps of browser events (``UIEventStream``) on the document: a press
/// is typed and counted as a key, a rebuilt press too (and counted as
/// rebuilt), text is inserted and counted as text.
extension EventLogFilter {
  /// Performs the steps one event (or the end of a document) asked for.
  mutating func perform(
    _ steps: [UIEventStream.Step], of event: JSONValue = .null, at time: Double? = nil
  ) {
    for step in steps {
      switch step {
      case .press(let action), .reconstructed(let action):
        recorder.current.keystrokes += 1
        if case .reconstructed = step { recorder.current.reconstructed += 1 }
        typeKey(action, of: Self.recorded(action, of: event, rebuilt: step), at: time)
      case .text(let phrase):
        recorder.current.insertedText += phrase.count
        typeKey(.text(phrase), of: event, at: time)
      case .commit:
        keystrokes?.flush()
        editor.commitSyllable()
      }
    }
    checkComposition()
  }

  /// The event as `--output keystrokes` names it: its time as `"t"`, and a
  /// rebuilt press by what it typed (ㄱ, Backspace), not by the log's `Unidentified`.
  static func recorded(
    _ action: Action, of event: JSONValue, rebuilt step: UIEventStream.Step
  ) -> JSONValue {
    var members: [JSONValue.Member] = []
    if let time = event["t"] ?? event["timeStamp"] ?? event["time"] {
      members.append(JSONValue.Member("t", time))
    }
    guard case .reconstructed = step else {
      for name in ["key", "code"] {
        if let value = event[name] { members.append(JSONValue.Member(name, value)) }
      }
      return .object(members)
    }
    let name: String
    switch action {
    case .character(let typed), .text(let typed): name = typed
    case .named(let named): name = named.rawValue
    default: name = ""
    }
    return .object(members + [JSONValue.Member("key", .string(name))])
  }

  /// Compares the composition data of the event at hand with our preedit
  /// (or, at a syllable boundary, the one of the keys just before): on the
  /// first disagreement of the log, one warning that names a built-in
  /// keyboard whose preedit would agree. The keys are replayed only when the
  /// preedit differs.
  mutating func checkComposition() {
    guard let shown = browser.shownComposition else { return }
    let ours = editor.context.preeditString
    let positions = browser.recentPositions
    // A log that begins in the middle of a syllable shows more than its keys typed.
    guard shown != ours, UIEventStream.keys(of: shown).count <= positions.count else { return }
    let keyboard = editor.context.keyboard
    if Self.shows(shown, typing: positions, on: keyboard) { return }
    browser.disagreements += 1
    guard !browser.disagreed else { return }
    browser.disagreed = true
    let better = Keyboard.builtIn.first {
      $0.layout.id != keyboard.layout.id && Self.shows(shown, typing: positions, on: $0)
    }
    warn(
      "the log's input method shows \(JSONWriter.quoted(shown)) where keyboard \(keyboard.layout.id) shows \(JSONWriter.quoted(ours))"
        + (better.map { " (try --keyboard \($0.layout.id))" } ?? ""))
  }

  /// Whether some run of the keys of `positions` leaves `shown` as the
  /// preedit on `keyboard` (the last ones, or those before the last key
  /// when the log shows the syllable that key ended).
  static func shows(_ shown: String, typing positions: [UInt8], on keyboard: Keyboard) -> Bool {
    for start in positions.indices {
      var context = HangulInputContext(keyboard: keyboard)
      for position in positions[start...] {
        context.process(InputKey(ascii: position))
        if context.preeditString == shown { return true }
      }
    }
    return false
  }

  /// How many composition data of a browser log's start disagree with our
  /// preedits on `keyboard` (``checkComposition()``).
  public static func disagreements(of sample: [UInt8], on keyboard: Keyboard) -> Int {
    var filter = EventLogFilter(keys: .qwerty, keyboard: keyboard, report: { _ in })
    _ = try? filter.filtered(sample)
    return filter.browser.disagreements
  }

  /// The built-in keyboard (not a phone keypad) whose preedits agree best
  /// with the composition data of `sample`, the start of a browser log
  /// (`--keyboard auto`); on a tie the first of `--list-keyboards`, 2-set.
  /// O(sample × keyboards), and more where the keys disagree: give it the
  /// first 64 KiB or so.
  public static func agreeingKeyboard(for sample: [UInt8]) -> Keyboard {
    var best: (keyboard: Keyboard, count: Int) = (.twoSet, disagreements(of: sample, on: .twoSet))
    for keyboard in Keyboard.builtIn where best.count > 0 {
      guard InputAutomaton(keyboard: keyboard, options: ComposerOptions()) != .keypad else {
        continue
      }
      let count = disagreements(of: sample, on: keyboard)
      if count < best.count { best = (keyboard, count) }
    }
    return best.keyboard
  }

  /// ``agreeingKeyboard(for:)`` of the first `count` bytes of the file at
  /// `path`, or `nil` when it is not a regular file (a FIFO's bytes would be
  /// taken from the run) or cannot be read.
  public static func agreeingKeyboard(forFile path: FilePath, reading count: Int = 1 << 16)
    -> Keyboard?
  {
    guard let sample = path.start(upTo: count) else { return nil }
    let filled = sample.count
    // Whole lines only: a line cut short would be an error.
    let end = filled == count ? (sample[..<filled].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) : filled
    return agreeingKeyboard(for: Array(sample[..<end]))
  }
}
