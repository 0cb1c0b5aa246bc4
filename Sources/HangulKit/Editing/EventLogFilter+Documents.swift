/// How an event log's documents are named and where a parallel run may cut it.
extension EventLogFilter {
  /// Where the documents of the log stand.
  struct DocumentProgress {
    /// The `"doc"` of the current document.
    var current: DocumentName?
    /// The `"doc"` of the first event taken (`nil` when it had none).
    var first: DocumentName?
    var started = false
    /// Whether the current document's JSON object was opened (its text streams).
    var objectOpened = false
    /// The last byte of the current document's text written so far.
    var lastTextByte: UInt8?
    /// Whether any line was taken as an event.
    var acceptedAny = false
    /// The text the document should have been (``setTarget(_:)``, `--target`),
    /// and, while there is one, the document's text so far.
    var target: String?
    var text: [UInt8]?
  }

  /// Takes an event of document `name` (the current one when `nil`) at
  /// `time`: a new name ends the document before it.
  mutating func enter(_ name: DocumentName?, at time: Double?) {
    if !documents.acceptedAny {
      documents.acceptedAny = true
      documents.first = name
    }
    if let name, name != documents.current {
      endDocument()
      documents.current = name
    }
    if !documents.started, setup.targets != nil || documents.target != nil {
      documents.text = []
    }
    documents.started = true
    if let time {
      if let multitapTimeout, let lastTime = clock.lastTime, time - lastTime > multitapTimeout {
        editor.endCycle()
      }
      clock.lastTime = time
      recorder.current.noteTime(time)
    }
    recorder.current.document = documents.current?.text
  }

  /// A `"doc"` value as the log spelled it.
  enum DocumentName: Equatable {
    case string(String)
    case number(String)

    var text: String {
      switch self {
      case .string(let text), .number(let text): text
      }
    }

    var json: String {
      switch self {
      case .string(let text): JSONWriter.quoted(text)
      case .number(let spelling): spelling
      }
    }
  }

  /// The `"doc"` member's value of an event line as written (a piece of a
  /// parallel run starts where it changes), or `nil` when the line has none.
  /// A guess from the bytes, not a parse: ``isContinued(by:)`` decides.
  ///
  ///     EventLogFilter.documentKey(ofLine: #"{"doc":"a","key":"ㄱ"}"#.utf8)  // "a" with its quotes
  ///
  /// O(line).
  public static func documentKey(ofLine line: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    let pattern: [UInt8] = Array("\"doc\"".utf8)
    var index = 0
    while index + pattern.count <= line.count {
      if line[index] == 0x22, line[index..<(index + pattern.count)].elementsEqual(pattern) {
        var start = index + pattern.count
        while start < line.count, line[start] == 0x20 || line[start] == 0x3A { start += 1 }
        var end = start
        if end < line.count, line[end] == 0x22 {
          end += 1
          while end < line.count, line[end] != 0x22 { end += line[end] == 0x5C ? 2 : 1 }
          return start..<min(end + 1, line.count)
        }
        while end < line.count, line[end] != 0x2C, line[end] != 0x7D, line[end] != 0x20 {
          end += 1
        }
        return start..<end
      }
      index += 1
    }
    return nil
  }
}
