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

  /// The event object `--output keystrokes` names a logged key by: its
  /// time as `"t"`, its name as `"key"`.
  static func loggedKey(_ name: String, time: String?) -> JSONValue {
    var members: [JSONValue.Member] = []
    if let time { members.append(JSONValue.Member("t", .number(time))) }
    members.append(JSONValue.Member("key", .string(name)))
    return .object(members)
  }
}

/// A research logger's XML log read as a ``ByteFilter`` (``IDFXLogFilter``,
/// ``TranslogLogFilter``): the conforming reader only reads the log and
/// replays its events through ``events``, which writes; what the runners
/// ask of a filter is answered here, once for every such reader.
package protocol EventLogReplaying: ByteFilter {
  /// The filter the events are replayed through: the editor, the
  /// statistics and the output, shared with `--format events`.
  var events: EventLogFilter { get set }
  /// Reads `chunk` of the log and replays the events it completes through
  /// ``events``; with `isFinal` (and an empty chunk) the file ends there.
  mutating func readLog(_ chunk: UnsafeBufferPointer<UInt8>, isFinal: Bool)
}

extension EventLogReplaying {
  package var statistics: StatisticsReport { events.statistics }

  /// Ends the file at hand: what the reader still holds is replayed.
  mutating func endLog() {
    readLog(UnsafeBufferPointer(start: nil, count: 0), isFinal: true)
  }

  /// A log file is one whole: a parallel run never cuts it.
  public func isContinued(by next: Self) -> Bool { false }

  /// Writes the text the editor made final so far (and the objects of
  /// `--output keystrokes`).
  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    readLog(chunk, isFinal: false)
    events.drain(into: &output)
  }

  /// Ends the file and its document, and writes what is left.
  public mutating func finish(into output: inout [UInt8]) {
    endLog()
    events.endDocument()
    events.drain(into: &output)
  }

  /// Ends the file and its document, the text handed to `take` a part at a
  /// time when `output` is empty (``ByteFilter/finish(into:handingOver:)``).
  package mutating func finish(
    into output: inout [UInt8], handingOver take: (ByteSink) throws -> Bool
  ) throws {
    endLog()
    try events.endDocument(into: &output, handingOver: take)
  }
}

/// Where a replayed log's problems go, at a line and column of the file at
/// hand: XML errors and events that cannot be replayed to `report`
/// (counted), unknown event types, elements and keys to `warn`, once each.
struct LogProblems {
  let report: (PositionedError) -> Void
  let warn: (PositionedError) -> Void
  /// The file at hand, as the messages name it.
  var fileName = "(standard input)"
  /// How many problems were reported.
  private(set) var errorCount = 0
  /// What was warned about, by a key of the warning's own.
  private var warned: Set<String> = []

  init(report: @escaping (PositionedError) -> Void, warn: @escaping (PositionedError) -> Void) {
    self.report = report
    self.warn = warn
  }

  mutating func fail(_ message: String, line: Int, column: Int) {
    errorCount += 1
    report(PositionedError(file: fileName, line: line, column: column, message: message))
  }

  /// Warns with `message` unless a warning with the same `key` came before.
  mutating func warnOnce(_ key: String, _ message: String, line: Int, column: Int) {
    guard warned.insert(key).inserted else { return }
    warn(PositionedError(file: fileName, line: line, column: column, message: message))
  }
}
