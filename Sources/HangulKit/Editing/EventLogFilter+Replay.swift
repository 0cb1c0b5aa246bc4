/// The research loggers' XML files (Inputlog IDFX, Translog-II:
/// hangul-keylog(5)) replayed on the same editor as event logs: their
/// readers (``IDFXLogFilter``, ``TranslogLogFilter``) turn each logged event
/// into the steps a browser event turns into (``UIEventStream/Step``) and
/// hand them here, so that keys, text, statistics and `--output
/// keystrokes` mean what they mean for `--format events`.
extension EventLogFilter {
  /// Starts the document a log file is, named after the file (several
  /// files give several documents; their clocks are their own).
  mutating func beginLogDocument(named name: String) {
    endDocument()
    documents.current = .string(name)
    clock.lastTime = nil
  }

  /// Takes the time (milliseconds) of the event at hand; returns why it
  /// cannot be taken (it went back before the last one), or `nil`.
  mutating func takeLogTime(_ time: Double?) -> String? {
    if let time {
      guard time.isFinite else { return "time \(time) is not a number of milliseconds" }
      if let lastTime = clock.lastTime, time < lastTime {
        return
          "time went backwards: \(StatisticsReport.format(time, digits: 0)) after \(StatisticsReport.format(lastTime, digits: 0))"
      }
      if let multitapTimeout, let lastTime = clock.lastTime, time - lastTime > multitapTimeout {
        editor.endCycle()
      }
      clock.lastTime = time
      recorder.current.noteTime(time)
    }
    documents.started = true
    documents.acceptedAny = true
    recorder.current.document = documents.current?.text
    return nil
  }

  /// A key whose edit the log gives as a range (Inputlog's `replacement`
  /// after the key that made it: a selection deleted or typed over): the
  /// cursor moves `offset` characters (committing the syllable), `count`
  /// characters after it are deleted and `text` goes in. Counted as one
  /// keystroke when `keyed`, else as inserted text.
  mutating func replaceText(
    movingBy offset: Int, deleting count: Int, with text: String, keyed: Bool,
    recordedAs event: JSONValue, at time: Double?
  ) {
    if keyed {
      recorder.current.keystrokes += 1
    } else {
      recorder.current.insertedText += text.count
    }
    var keystrokeRecorder = keystrokes
    keystrokes = nil
    keystrokeRecorder?.begin()
    keystrokeRecorder?.flush()
    editor.commitSyllable()
    for _ in 0..<abs(offset) { editor.move(offset < 0 ? .left : .right) }
    for _ in 0..<count { editor.deleteForward() }
    for scalar in text.unicodeScalars { editor.insert(scalar) }
    if var recorder = keystrokeRecorder {
      recorder.deleted += count
      recorder.insert(Array(text.utf8))
      recorder.write(
        key: event["key"]?.stringValue.map { Array($0.utf8) }, text: keyed ? nil : Array(text.utf8),
        document: documents.current?.json, time: event["t"]?.numberSpelling, into: &ready)
      keystrokes = recorder
    }
  }

  /// The text the editor made final, and the objects of `--output
  /// keystrokes`, so far.
  mutating func drainReplay(into output: inout [UInt8]) {
    drain(into: &output)
  }

  /// Ends the document at hand and writes what is left.
  mutating func finishReplay(into output: inout [UInt8]) {
    endDocument()
    drain(into: &output)
  }

  /// Ends the document at hand, its text handed to `take` a part at a time
  /// when `output` is empty (``ByteFilter/finish(into:handingOver:)``).
  mutating func finishReplay(
    into output: inout [UInt8], handingOver take: (ByteSink) throws -> Bool
  ) throws {
    try endDocument(into: &output, handingOver: take)
  }

  /// The event object `--output keystrokes` names a logged key by: its
  /// time as `"t"`, its name as `"key"`.
  static func loggedKey(_ name: String, time: String?) -> JSONValue {
    var members: [JSONValue.Member] = []
    if let time { members.append(JSONValue.Member("t", .number(time))) }
    members.append(JSONValue.Member("key", .string(name)))
    return .object(members)
  }
}
