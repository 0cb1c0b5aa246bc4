import HangulInput

/// The writing-process measures (hangul-keylog(5), MEASURES), taken from
/// the editor key by key: what the key was, where its jamo landed in the
/// syllable being composed, whether it began one. Whatever reads a log —
/// events, browser streams, the research loggers' formats — types its keys
/// through ``typeKey(_:of:at:)``, so all are measured alike. Without
/// `--stats` or ``Output/keystrokes`` there is no ``meter`` and a key costs
/// one test more.
extension EventLogFilter {
  /// What the editor was before a key.
  struct KeySnapshot {
    var state: HangulInputContext.State
    var composing: Bool
    var committed: Int
  }

  /// Types one key (or inserted text): recorded for ``Output/keystrokes``
  /// and measured when measures are kept, else just performed.
  mutating func typeKey(_ action: Action, of event: JSONValue, at time: Double?) {
    guard meter != nil else {
      return keystrokes != nil ? record(action, of: event, at: time) : perform(action)
    }
    let before = KeySnapshot(
      state: editor.context.state, composing: editor.context.isComposing,
      committed: editor.counts.charactersCommitted)
    if keystrokes != nil {
      record(action, of: event, at: time, before: before)
    } else {
      perform(action)
      _ = measure(action, since: before, at: time)
    }
  }

  /// Measures the key just performed; returns its `--output keystrokes` columns.
  mutating func measure(_ action: Action, since before: KeySnapshot, at time: Double?)
    -> KeyMeasures?
  {
    guard meter != nil else { return nil }
    let kind = Self.kind(of: action)
    var role: SyllablePart?
    var startsSyllable = false
    let context = editor.context
    if kind == .other, context.isComposing, context.state != before.state {
      role = context.newestPart
      startsSyllable = !before.composing || editor.counts.charactersCommitted != before.committed
    }
    let columns = meter?.take(
      KeyEffect(time: time, kind: kind, role: role, startsSyllable: startsSyllable))
    if let keeps = plot?.keepsNextPoint, let time, let columns {
      let counts = editor.counts
      let point = ProcessPlot.Point(
        time: time, keys: recorder.current.keystrokes,
        length: counts.charactersCommitted - counts.charactersDeleted,
        cursor: keeps ? editor.cursorOffset : 0)
      plot?.add(
        point, pauseSince: columns.pause ? columns.interval.map { time - $0 } : nil,
        revision: columns.revision)
    }
    return columns
  }

  /// The document's measures at its end, from the ended editor's `counts`
  /// (with the error rates when it has a target); the meter starts over for
  /// the next one.
  mutating func finishMeasures(counts: EditCounts) -> WritingMeasures? {
    guard let meter else { return nil }
    var measures = meter.measures(counts: counts)
    self.meter = WritingProcessMeter(pauseThreshold: meter.pauseThreshold)
    let target = documents.target ?? setup.targets?()
    if let target, let text = documents.text {
      var transcribed = String(decoding: text, as: UTF8.self)
      // A document's last line break ends it; a target line has none.
      if transcribed.hasSuffix("\n"), !target.hasSuffix("\n") { transcribed.removeLast() }
      measures.errors = ErrorRates(
        transcribed: transcribed, target: target, fixed: measures.charactersDeleted,
        fixes: measures.backspacesInSyllable + measures.backspacesDeletingText)
    }
    return measures
  }

  /// Sets the text the current document should have been (a reader whose
  /// format carries it: the Aalto typing test's `SENTENCE`). Call it after
  /// the document's first event and before its end; it wins over
  /// `--target`. The document's `--stats` then has its error rates.
  package mutating func setTarget(_ target: String) {
    documents.target = target
    if documents.text == nil { documents.text = [] }
  }

  static func kind(of action: Action) -> KeyEffect.Kind {
    switch action {
    case .named(let named), .code(.named(let named), _):
      switch named {
      case .backspace, .delete, .deleteWord: return .deleting
      case .arrowLeft, .arrowRight, .arrowUp, .arrowDown, .home, .end: return .moving
      case .space, .enter, .tab: return .whitespace
      default: return .other
      }
    case .character(let typed):
      if typed.unicodeScalars.contains(where: { $0 == "\u{8}" || $0 == "\u{7F}" }) {
        return .deleting
      }
      return typed.unicodeScalars.last.map(Self.isWhitespace) == true ? .whitespace : .other
    case .text(let phrase):
      return phrase.unicodeScalars.last.map(Self.isWhitespace) == true ? .whitespace : .other
    case .code, .phoneKey:
      return .other
    }
  }

  private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t" || scalar == "\n"
  }
}
