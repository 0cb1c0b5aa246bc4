/// The `hangul-compose --format events` filter: a JSON Lines log of key
/// events in, composed text out, one document after another (hangul-compose(1)).
///
/// Each line is an object with `"key"` (a W3C key value: a single character
/// or a ``NamedKey``), `"code"` (a W3C code value, ``KeyCode``, typed through
/// the keyboard's layout; with both, `"code"` wins; `"shiftKey": true`
/// applies Shift to it) or `"text"` (a phrase inserted after committing the
/// syllable), and optionally `"t"` (time in milliseconds, never decreasing)
/// and `"doc"` (a string or an integer; a new value starts a new document).
/// The keys edit a ``DocumentEditor``; the 한/영 key toggles the
/// ``InputMode``. Each document starts in the start mode with a fresh editor
/// and is written as soon as it ends: as text followed by a newline (none
/// when the text already ends with one), or as one JSON object
/// `{"doc":…,"text":…}` a line. Blank lines are skipped; a line that is not a
/// valid event is reported through `report` (at its line and column) and
/// skipped. Lines are read as they stream in (``EventLineReader``): of a line
/// only the members an event uses are kept, each up to `maximumLineLength`
/// bytes (at least 4 KiB); a longer one is reported and its line skipped.
///
///     var filter = EventLogFilter(keys: .jamo) { error in print(error) }
///     let log = #"{"key":"Shift"}\#n{"key":"ㄱ"}\#n{"key":"ㄱ"}\#n{"key":"ㅏ"}"#
///     try filter.filtered(Array(log.utf8))   // "ㄲ가\n"
///
/// Time is O(n) plus the block moves of ``DocumentEditor`` when an edit
/// follows a cursor movement; memory is bounded by `maximumLineLength` for
/// each member an event uses and by the longest document (and, with
/// `includesStatistics`, a few numbers per document for ``statistics``).
public struct EventLogFilter: ByteFilter {
  /// How each document is written.
  public enum Output: String, Sendable, Hashable, CaseIterable {
    /// The text, then a newline unless it ends with one.
    case text
    /// One `{"doc":…,"text":…}` object a line (`"stats"` too when asked for).
    case jsonl
    /// One object a key, what ``HangulInputContext`` made of it
    /// (``KeystrokeRecorder``), instead of the text.
    case keystrokes
  }

  package internal(set) var editor: DocumentEditor
  /// How many lines were rejected.
  public private(set) var errorCount = 0

  /// What the filter was made with and does not change.
  let setup: Setup
  /// What the next key is typed under.
  var typing: TypingState
  private var reader: EventLineReader
  /// Output ready to be written.
  var ready: [UInt8] = []
  /// The input being read.
  var place = InputPlace()
  var clock = EventClock()
  /// With ``Output/keystrokes``: the objects, from a context of its own
  /// (the editor goes on too: it knows what a Backspace deletes).
  var keystrokes: KeystrokeRecorder?
  var recorder = StatisticsRecorder()
  /// With `--stats` or ``Output/keystrokes``: the document's writing-process measures.
  var meter: WritingProcessMeter?
  /// With `--plot`: the documents' process graphs.
  var plot: ProcessPlot?
  /// Where the documents stand.
  var documents = DocumentProgress()
  /// The browser events' state (lines with a `"type"`, SPEC 3.6).
  var browser = UIEventStream()
  /// A research logger's delimited file instead of JSON Lines (``DelimitedLogFormat``).
  var delimited: DelimitedLog?

  public init(
    keys: KeyEncoding = .jamo, keyboard: Keyboard = .twoSet,
    options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = EditingDefaults.maximumLineLength,
    startMode: InputMode = .korean, output: Output = .text, includesStatistics: Bool = false,
    multitapTimeout: Double? = nil, pauseThreshold: Double = 2000,
    targets: (() -> String?)? = nil, keystrokesFormat: KeystrokesFormat = .jsonl,
    plots: Bool = false, delimitedFormat: DelimitedLogFormat? = nil,
    report: @escaping (PositionedError) -> Void,
    warn: @escaping (PositionedError) -> Void = { _ in }
  ) {
    var names: [String: UInt8] = [:]
    for (key, name) in keyboard.layout.keypad.keyNames { names[name] = key }
    reader = EventLineReader(limit: max(maximumLineLength, EventLogFilter.shortestValueLimit))
    delimited = delimitedFormat.map { DelimitedLog(format: $0) }
    recorder.keepsDocuments = includesStatistics
    if plots { plot = ProcessPlot() }
    if includesStatistics || output == .keystrokes || plots {
      meter = WritingProcessMeter(pauseThreshold: pauseThreshold)
    }
    typing = TypingState(mode: startMode)
    let freshEditor = DocumentEditor(
      keyboard: keyboard, options: options, maximumLineLength: maximumLineLength)
    editor = freshEditor
    if output == .keystrokes {
      keystrokes = KeystrokeRecorder(
        context: HangulInputContext(
          keyboard: keyboard, options: options, multitapTimeout: multitapTimeout))
      keystrokes?.writesCSV = keystrokesFormat == .csv
    }
    // Shift turns a jamo into the one its key types with Shift (ㄱ → ㄲ, ㅐ → ㅒ).
    var shifted = [Jamo?](repeating: nil, count: Jamo.count)
    for lower in UInt8(ascii: "a")...UInt8(ascii: "z") {
      if let plain = keyboard.jamo(forASCII: lower),
        let upper = keyboard.jamo(forASCII: lower - 0x20),
        plain != upper
      {
        shifted[Int(plain.offset)] = upper
      }
    }
    setup = Setup(
      keys: keys, output: output, freshEditor: freshEditor, startMode: startMode,
      report: report, warn: warn,
      shiftedJamo: shifted, keypadKeyNames: names, includesStatistics: includesStatistics,
      multitapTimeout: multitapTimeout, targets: targets)
  }

  /// How the keys of `"key"` are written.
  public var keys: KeyEncoding { setup.keys }
  /// How each document is written.
  public var output: Output { setup.output }
  /// Whether statistics are kept for `--stats`: each JSON document object
  /// carries its own, and ``statistics`` lists the documents. Without, the
  /// documents already written are not kept (memory does not grow with
  /// them) and ``statistics`` has the total of this filter's lines only.
  public var includesStatistics: Bool { setup.includesStatistics }
  /// A pause longer than this (milliseconds) ends a phone keypad's multi-tap cycle.
  public var multitapTimeout: Double? { setup.multitapTimeout }

  /// What the filter is made with and never changes.
  struct Setup {
    let keys: KeyEncoding
    let output: Output
    /// An editor with nothing typed, copied for each document (its tables
    /// are shared, not built again: that took 60 µs a document), and the
    /// mode each document starts in.
    let freshEditor: DocumentEditor
    let startMode: InputMode
    /// Where rejected lines and warnings (an unknown event type) go.
    let report: (PositionedError) -> Void
    let warn: (PositionedError) -> Void
    /// What the keyboard's keys are: the jamo each jamo's key types with
    /// Shift (ㄱ → ㄲ), and the keys of a phone keypad that have names
    /// instead of jamo labels (획추가).
    let shiftedJamo: [Jamo?]
    let keypadKeyNames: [String: UInt8]
    let includesStatistics: Bool
    let multitapTimeout: Double?
    /// `--target`: the next document's target text, one a document in order.
    let targets: (() -> String?)?
  }

  /// What the next key is typed under: the 한/영 mode, and a Shift or a
  /// literal prefix waiting for the key it applies to. Each document starts afresh.
  struct TypingState {
    var mode: InputMode
    var shift = false
    var literal = false
  }

  /// Where in its input the line at hand is: the input's name, and the
  /// lines read to their end.
  struct InputPlace {
    var fileName = "(standard input)"
    var lineNumber = 0
  }

  /// The times of the events: the last `"t"` taken, and the smallest one
  /// checked while no earlier time was known (what a parallel run's next
  /// piece is held to, ``isContinued(by:)``).
  struct EventClock {
    var lastTime: Double?
    var earliestUnchecked: Double?
  }

  /// Statistics per document (for documents with a `"doc"`, with
  /// ``includesStatistics``) and in total.
  package var statistics: StatisticsReport {
    var current = recorder
    if documents.started {
      current.finishDocument(
        counts: editor.counts, named: documents.current != nil,
        process: meter?.measures(counts: editor.counts))
    }
    var report = current.report
    report.plot = plot
    if documents.started { report.plot?.finishDocument(named: documents.current?.text) }
    return report
  }

  public mutating func beginInput(named name: String) {
    // The input before ends first, under its own name.
    if delimited != nil { beginDelimitedInput() } else { endInput() }
    place.fileName = name
    place.lineNumber = 0
    reader.byteOrderMarkAllowed = true
  }

  public mutating func beginPiece(named name: String, atInputStart: Bool) {
    if atInputStart {
      beginInput(named: name)
    } else {
      // The rest of the same file: an event open at the piece's end goes on.
      place.fileName = name
      place.lineNumber = 0
      reader.byteOrderMarkAllowed = false
    }
  }

  /// Ends the input's last line where the input ends, as a newline would:
  /// a file that does not end in one does not run on into the next file.
  private mutating func endInput() {
    guard reader.isInLine else { return }
    reader.endLine()
    reportRejection()
    endLine()
  }

  /// The least ``EventLineReader/limit`` whatever `--max-line` says: room
  /// for any key or code name.
  static let shortestValueLimit = 4096

  /// Whether `next`, a fresh filter that read the lines after the ones this
  /// filter read, wrote and reported what this one would have going on
  /// (``ParallelFilterRunner``): it began a new document with its first
  /// event, and no `"t"` it took went back before this one's last.
  ///
  ///     // {"doc":1,"key":"ㄱ"} read by `self`, {"doc":2,"key":"ㅏ"} by `next`
  ///     self.isContinued(by: next)   // true: a new document begins
  ///
  /// O(1).
  public func isContinued(by next: EventLogFilter) -> Bool {
    // A piece that ends inside an event (pretty-printed over lines) is not
    // where the next piece's reading began.
    if reader.isInLine { return false }
    if let lastTime = clock.lastTime, let earliest = next.clock.earliestUnchecked,
      earliest < lastTime
    {
      return false
    }
    let pristine = !documents.started && documents.current == nil
    guard next.documents.acceptedAny else { return pristine && clock.lastTime == nil }
    // Without a time of its own, `next` ends without the one the pieces after it are held to.
    if clock.lastTime != nil, next.clock.lastTime == nil { return false }
    guard let first = next.documents.first else { return pristine }
    return first != documents.current
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    if delimited != nil {
      readDelimited(chunk)
      return drain(into: &output)
    }
    var start = 0
    while start < chunk.count {
      let (next, lineEnded) = reader.read(chunk, from: start)
      start = next
      reportRejection()
      if lineEnded { endLine() }
    }
    drain(into: &output)
  }

  public mutating func finish(into output: inout [UInt8]) {
    endLastRecord()
    endDocument()
    drain(into: &output)
  }

  package mutating func finish(
    into output: inout [UInt8], handingOver take: (ByteSink) throws -> Bool
  ) throws {
    endLastRecord()
    try endDocument(into: &output, handingOver: take)
  }

  /// Takes the input's last record or line, which no newline ended.
  private mutating func endLastRecord() {
    if delimited != nil {
      finishDelimitedRecord()
    } else {
      endInput()
    }
  }

  /// Ends the document at hand and writes it, through `output` or, when
  /// `output` is empty, handed to `take` a part at a time (the text is never
  /// whole in memory twice), then what is left.
  mutating func endDocument(
    into output: inout [UInt8], handingOver take: (ByteSink) throws -> Bool
  ) throws {
    guard output.isEmpty else {
      endDocument()
      return drain(into: &output)
    }
    var sink = ByteSink(capacity: Self.partSize + 1024)
    try endDocument { ready in
      ready.withUnsafeBufferPointer { bytes in
        if let base = bytes.baseAddress { sink.append(base, count: bytes.count) }
      }
      ready.removeAll(keepingCapacity: true)
      if try take(sink) { sink = ByteSink(capacity: Self.partSize + 1024) } else { sink.count = 0 }
    }
    drain(into: &output)
  }

  /// How much of a document's text an ending document hands over at once.
  static let partSize = 1 << 16

  /// Reports why the line at hand is not an event, once, as soon as the reader knows.
  private mutating func reportRejection() {
    if let rejection = reader.takeRejection() {
      fail(rejection.message, at: rejection.column, line: rejection.line)
    }
  }

  /// Takes the event of the line that just ended, if it was one.
  private mutating func endLine() {
    // An event pretty-printed over several lines counts them all (and one
    // cut off by the next counts those before the next's).
    let lines = reader.linesInside + (reader.cutOff ? 0 : 1)
    if case .event(let members, let column) = reader.takeLine() {
      handleEvent(members, objectColumn: column)
    }
    place.lineNumber += lines
  }

  mutating func drain(into output: inout [UInt8]) {
    collectText()
    if output.isEmpty, ready.count > output.capacity {
      // A document's whole text (or a big part of it): handed over, not copied.
      swap(&output, &ready)
    } else {
      output.append(contentsOf: ready)
    }
    ready.removeAll(keepingCapacity: true)
  }

  /// Counts and writes the text the editor made final.
  private mutating func collectText() {
    guard !editor.output.isEmpty else { return }
    // Moved out (not copied) while the filter takes it, and back with its room.
    var text: [UInt8] = []
    swap(&text, &editor.output)
    collect(&text)
    swap(&text, &editor.output)
  }

  /// Counts and writes `text`, final text of the document, and empties it.
  private mutating func collect(_ text: inout [UInt8]) {
    guard !text.isEmpty else { return }
    defer { text.removeAll(keepingCapacity: true) }
    recorder.count(output: text)
    documents.text?.append(contentsOf: text)
    documents.lastTextByte = text.last
    switch output {
    case .text:
      ready.append(contentsOf: text)
    case .jsonl:
      openObject()
      JSONWriter.appendEscaped(utf8: text, to: &ready)
    case .keystrokes: break
    }
  }

  /// Writes the start of the document's JSON object, up to its text's opening quote.
  private mutating func openObject() {
    guard !documents.objectOpened else { return }
    documents.objectOpened = true
    if let current = documents.current {
      ready.append(contentsOf: "{\"doc\":\(current.json),\"text\":\"".utf8)
    } else {
      ready.append(contentsOf: "{\"text\":\"".utf8)
    }
  }

  /// Ends the document at hand: its text goes to ``ready``.
  mutating func endDocument() {
    endDocument(handingOver: { _ in })
  }

  /// Ends the document at hand: its text goes to ``ready``, which
  /// `handOver` gets to empty whenever it holds ``partSize`` bytes or more.
  mutating func endDocument(handingOver handOver: (inout [UInt8]) throws -> Void) rethrows {
    guard documents.started else { return }
    perform(browser.finish())
    collectText()
    // The editor is moved out while its text is taken a part at a time.
    var ended = setup.freshEditor
    swap(&ended, &editor)
    try ended.finish(partSize: Self.partSize) { text in
      collect(&text)
      if ready.count >= Self.partSize { try handOver(&ready) }
    }
    let finished = recorder.finishDocument(
      counts: ended.counts, named: documents.current != nil,
      process: finishMeasures(counts: ended.counts))
    plot?.finishDocument(named: documents.current?.text)
    switch output {
    case .text:
      if documents.lastTextByte != 0x0A { ready.append(0x0A) }
    case .jsonl:
      openObject()
      ready.append(0x22)
      if includesStatistics {
        let stats = finished.json(includingDocument: false, includingProcess: false)
        ready.append(contentsOf: ",\"stats\":\(stats)".utf8)
      }
      ready.append(contentsOf: "}\n".utf8)
    case .keystrokes:
      keystrokes?.reset()
    }
    typing = TypingState(mode: setup.startMode)
    documents.started = false
    documents.objectOpened = false
    documents.lastTextByte = nil
    documents.target = nil
    documents.text = nil
  }

  /// Warns about the line at hand (it is taken, not rejected).
  mutating func warn(_ message: String) {
    setup.warn(PositionedError(file: place.fileName, line: place.lineNumber + 1, message: message))
  }

  /// Reports a line that is not a valid event, at `column` of the event's
  /// first line, or of the `line`th after it.
  mutating func fail(_ message: String, at column: Int, line: Int = 0) {
    errorCount += 1
    setup.report(
      PositionedError(
        file: place.fileName, line: place.lineNumber + 1 + line, column: column, message: message))
  }

  /// Reports a line that is not a valid event, at a member's place.
  mutating func fail(_ message: String, at position: (column: Int, line: Int)) {
    fail(message, at: position.column, line: position.line)
  }

  mutating func perform(_ action: Action) {
    switch action {
    case .named(let named):
      perform(named)
    case .character(let character):
      let shift = typing.shift
      typing.shift = false
      for scalar in character.unicodeScalars {
        type(shift ? shifted(scalar) : scalar)
      }
    case .code(.named(let named), _):
      perform(named)
    case .code(.position(let plain, let upper), let shiftKey):
      let shift = typing.shift || shiftKey
      typing.shift = false
      let ascii = shift ? upper : plain
      switch typing.mode {
      case .korean: editor.typePosition(ascii)
      case .english: editor.insert(Unicode.Scalar(ascii))
      }
    case .code(.keypad(let scalar), _):
      typing.shift = false
      // On a phone keypad the numeric keypad's keys are the phone's keys.
      if editor.context.automaton.takesNumericKeypad, typing.mode == .korean, scalar.isASCII {
        editor.typePosition(UInt8(scalar.value))
      } else {
        editor.insert(scalar)
      }
    case .phoneKey(let code):
      typing.shift = false
      if typing.mode == .korean {
        editor.typePosition(code)
      } else {
        editor.insert(Unicode.Scalar(code))
      }
    case .text(let phrase):
      typing.shift = false
      editor.endSyllable()
      for scalar in phrase.unicodeScalars { editor.insert(scalar) }
    }
  }

  private mutating func perform(_ named: NamedKey) {
    switch named {
    case .shift:
      typing.shift = true
      return
    case .process:
      return  // the input method took the key; only its "code" can say which
    default: break
    }
    typing.shift = false
    switch named {
    case .backspace: editor.backspace()
    case .delete: editor.deleteForward()
    case .space:
      // A keyboard file may put something on the space bar.
      if typing.mode == .korean { editor.typePosition(0x20) } else { editor.insert(" ") }
    case .enter: editor.insert("\n")
    case .tab: editor.insert("\t")
    case .deleteWord: editor.deleteWord()
    case .next: editor.endSyllable()
    case .arrowLeft: editor.move(.left)
    case .arrowRight: editor.move(.right)
    case .arrowUp: editor.move(.up)
    case .arrowDown: editor.move(.down)
    case .home: editor.move(.lineStart)
    case .end: editor.move(.lineEnd)
    case .hangulMode:
      editor.commitSyllable()
      typing.mode.toggle()
    case .shift, .process: break
    }
  }

  /// Types one character of a `"key"`: in Korean mode a jamo is a key, and
  /// under `--keys qwerty` an ASCII character is a key position; BS, DEL, a
  /// newline and the ``KeyLogControl`` characters act as in text logs;
  /// everything else is text.
  private mutating func type(_ scalar: Unicode.Scalar) {
    if typing.literal {
      typing.literal = false
      editor.insert(scalar)
      return
    }
    switch scalar.value {
    case 0x08, 0x7F:
      editor.backspace()
    case KeyLogControl.separator.value:
      editor.endSyllable()
    case KeyLogControl.literalPrefix.value:
      typing.literal = true
    case 0x20...0x7E where typing.mode == .korean && keys == .qwerty:
      editor.typePosition(UInt8(scalar.value))
    default:
      if typing.mode == .korean, let code = editor.keypadKey(labelled: scalar) {
        editor.typePosition(code)
      } else if typing.mode == .korean, let jamo = Jamo(scalar) {
        editor.press(jamo)
      } else {
        editor.insert(scalar)
      }
    }
  }

  /// What a key types with Shift held.
  func shifted(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if let jamo = Jamo(scalar) { return setup.shiftedJamo[Int(jamo.offset)]?.scalar ?? scalar }
    let plain = Array("`1234567890-=[]\\;',./".unicodeScalars)
    let shifted = Array("~!@#$%^&*()_+{}|:\"<>?".unicodeScalars)
    if let index = plain.firstIndex(of: scalar) { return shifted[index] }
    if (0x61...0x7A).contains(scalar.value) { return Unicode.Scalar(scalar.value - 0x20) ?? scalar }
    return scalar
  }
}
