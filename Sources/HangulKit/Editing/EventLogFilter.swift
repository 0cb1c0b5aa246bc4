/// The `hangul-compose --format events` filter: a JSON Lines log of key
/// events in, composed text out, one document after another.
///
/// Each line is an object with exactly one of `"key"` (a jamo, a letter under
/// `--keys qwerty`, any other single character, or a named key: `Backspace`,
/// `Space`, `Enter`, `Tab`, `Shift`, `DeleteWord`) or `"text"` (a phrase
/// inserted after committing the syllable), and optionally `"t"` (time in
/// milliseconds, never decreasing) and `"doc"` (a string or an integer; a new
/// value starts a new document). Each document's text is written followed by
/// a newline as soon as the document ends. Blank lines are skipped; a line
/// that is not a valid event is reported through `report` and skipped, and the
/// rest of the log is still processed.
///
///     var filter = EventLogFilter(keys: .jamo) { error in print(error) }
///     let log = #"{"key":"Shift"}\#n{"key":"ㄱ"}\#n{"key":"ㄱ"}\#n{"key":"ㅏ"}"#
///     try filter.filtered(Array(log.utf8))   // "ㄲ가\n"
///
/// Time is O(n); memory is bounded by the longest line (of input or output).
public struct EventLogFilter: ByteFilter {
  /// The named keys of the event format.
  public enum NamedKey: String, CaseIterable, Sendable {
    case backspace = "Backspace"
    case space = "Space"
    case enter = "Enter"
    case tab = "Tab"
    case shift = "Shift"
    case deleteWord = "DeleteWord"
  }

  public private(set) var editor: LineEditor
  public let keys: KeyEncoding
  /// How many lines were rejected.
  public private(set) var errorCount = 0

  private let makeEditor: @Sendable () -> LineEditor
  private let report: (PositionedError) -> Void
  private var interpreter: KeyInterpreter
  private let shiftedJamo: [Jamo?]
  private var pendingLine: [UInt8] = []
  /// Output counted and ready to be written.
  private var ready: [UInt8] = []
  private var fileName = "(standard input)"
  private var lineNumber = 0
  private var shiftPending = false
  private var lastTime: Double?
  private var document: String?
  private var documentStarted = false
  private var recorder = StatisticsRecorder()

  public init(
    keys: KeyEncoding = .jamo, keyboard: Keyboard = .twoSet,
    options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength,
    report: @escaping (PositionedError) -> Void
  ) {
    self.keys = keys
    self.report = report
    makeEditor = {
      LineEditor(keyboard: keyboard, options: options, maximumLineLength: maximumLineLength)
    }
    editor = makeEditor()
    interpreter = KeyInterpreter(keys: keys, keyboard: keyboard)
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
    shiftedJamo = shifted
  }

  /// Statistics per document (for documents with a `"doc"`) and in total.
  public var statistics: StatisticsReport {
    var current = recorder
    if documentStarted { current.finishDocument(editor: editor, named: document != nil) }
    return StatisticsReport(documents: current.documents, total: current.total)
  }

  public mutating func beginInput(named name: String) {
    fileName = name
    lineNumber = 0
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    var start = 0
    for index in chunk.indices where chunk[index] == 0x0A {
      pendingLine.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<index]))
      handleLine()
      pendingLine.removeAll(keepingCapacity: pendingLine.capacity <= 1 << 20)
      start = index + 1
    }
    pendingLine.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start...]))
    drain(into: &output)
  }

  public mutating func finish(into output: inout [UInt8]) {
    if !pendingLine.isEmpty {
      handleLine()
      pendingLine.removeAll()
    }
    endDocument()
    drain(into: &output)
  }

  private mutating func drain(into output: inout [UInt8]) {
    collectOutput()
    output.append(contentsOf: ready)
    ready.removeAll(keepingCapacity: true)
  }

  /// Counts what the editor wrote and moves it to ``ready``.
  private mutating func collectOutput() {
    recorder.count(output: editor.output)
    ready.append(contentsOf: editor.output)
    editor.output.removeAll(keepingCapacity: true)
  }

  private mutating func endDocument() {
    guard documentStarted else { return }
    editor.finish()
    collectOutput()
    ready.append(0x0A)
    recorder.finishDocument(editor: editor, named: document != nil)
    editor = makeEditor()
    shiftPending = false
    documentStarted = false
  }

  private mutating func fail(_ message: String) {
    errorCount += 1
    report(PositionedError(file: fileName, line: lineNumber, message: message))
  }

  private mutating func handleLine() {
    lineNumber += 1
    // A UTF-8 byte order mark may start each input (Windows exports).
    if lineNumber == 1, pendingLine.starts(with: [0xEF, 0xBB, 0xBF]) { pendingLine.removeFirst(3) }
    if pendingLine.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
    let event: JSONValue
    do {
      event = try JSONParser.parse(pendingLine)
    } catch {
      fail("not valid JSON: \(error.message) at byte \(error.offset + 1)")
      return
    }
    guard case .object = event else {
      fail("an event must be a JSON object, not \(event.kindName)")
      return
    }
    let key = event["key"]
    let text = event["text"]
    guard (key == nil) != (text == nil) else {
      fail(
        key == nil
          ? "an event needs \"key\" or \"text\""
          : "an event has either \"key\" or \"text\", not both")
      return
    }
    var time: Double?
    if let value = event["t"] {
      guard let spelling = value.numberSpelling, let parsed = Double(spelling) else {
        fail("\"t\" must be a number of milliseconds, not \(value.kindName)")
        return
      }
      if let lastTime, parsed < lastTime {
        fail(
          "\"t\" went backwards: \(spelling) after \(StatisticsReport.format(lastTime, digits: 0))")
        return
      }
      time = parsed
    }
    var documentName: String?
    if let value = event["doc"] {
      switch value {
      case .string(let name): documentName = name
      case .number(let spelling) where spelling.allSatisfy({ $0 == "-" || $0.isNumber }):
        documentName = spelling
      default:
        fail("\"doc\" must be a string or an integer, not \(value.kindName)")
        return
      }
    }
    let action: Action
    if let key {
      guard let name = key.stringValue else {
        fail("\"key\" must be a string, not \(key.kindName)")
        return
      }
      if let named = NamedKey(rawValue: name) {
        action = .named(named)
      } else if name.count == 1 {
        action = .character(name)
      } else {
        let known = NamedKey.allCases.map(\.rawValue).joined(separator: ", ")
        fail("unknown key \(JSONWriter.quoted(name)): a key is one character or one of \(known)")
        return
      }
    } else {
      guard let phrase = text?.stringValue else {
        fail("\"text\" must be a string, not \(text?.kindName ?? "missing")")
        return
      }
      action = .text(phrase)
    }
    if let documentName, documentName != document {
      endDocument()
      document = documentName
    }
    documentStarted = true
    if let time {
      lastTime = time
      recorder.current.noteTime(time)
    }
    recorder.current.document = document
    recorder.current.keystrokes += 1
    perform(action)
  }

  private enum Action {
    case named(NamedKey)
    case character(String)
    case text(String)
  }

  private mutating func perform(_ action: Action) {
    switch action {
    case .named(.shift):
      shiftPending = true
    case .named(let named):
      shiftPending = false
      switch named {
      case .backspace: editor.backspace()
      case .space: editor.insert(" ")
      case .enter: editor.endLine()
      case .tab: editor.insert("\t")
      case .deleteWord: editor.deleteWord()
      case .shift: break
      }
    case .character(let character):
      for scalar in character.unicodeScalars {
        let typed = shiftPending ? shifted(scalar) : scalar
        interpreter.apply(.scalar(typed), to: &editor)
      }
      shiftPending = false
    case .text(let phrase):
      editor.endSyllable()
      for scalar in phrase.unicodeScalars {
        if scalar == "\n" { editor.endLine() } else { editor.insert(scalar) }
      }
    }
  }

  /// What a key types with Shift held.
  private func shifted(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if let jamo = Jamo(scalar) { return shiftedJamo[Int(jamo.offset)]?.scalar ?? scalar }
    let plain = Array("`1234567890-=[]\\;',./".unicodeScalars)
    let shifted = Array("~!@#$%^&*()_+{}|:\"<>?".unicodeScalars)
    if let index = plain.firstIndex(of: scalar) { return shifted[index] }
    if (0x61...0x7A).contains(scalar.value) { return Unicode.Scalar(scalar.value - 0x20) ?? scalar }
    return scalar
  }
}
