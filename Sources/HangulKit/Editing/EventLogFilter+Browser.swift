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
        if keystrokes != nil { record(action, of: event, at: time) } else { perform(action) }
      case .text(let phrase):
        recorder.current.insertedText += phrase.count
        if keystrokes != nil {
          record(.text(phrase), of: event, at: time)
        } else {
          perform(.text(phrase))
        }
      case .commit:
        keystrokes?.flush()
        editor.commitSyllable()
      }
    }
  }
}
