/// What was typed and written in one document, for `--stats`.
///
/// Keystrokes are every key pressed. In a text log that is every character
/// but the ``KeyLogControl`` ones, a compound jamo counting as its two keys;
/// in an event log it is every event: a key (named or not, Shift included) or
/// a phrase inserted by `"text"`. Characters are the Unicode scalars (or bytes that are
/// not UTF-8) of the text, newlines included: Enter is a keystroke and the
/// newline it types a character (`ㄱㅏ` then Enter: 3 keys, 2 characters,
/// KSPC 1.50). The newline that the text output adds after a document that
/// does not end with one is not part of its text and is not counted.
package struct TypingStatistics: Sendable, Equatable {
  /// The document's `"doc"` value, or `nil` for the total and logs without one.
  package var document: String?
  /// The text the document was meant to be (the Aalto files' `SENTENCE`),
  /// for error rates against it; `nil` when the log names none.
  package var target: String?
  package var keystrokes = 0
  package var backspaces = 0
  /// Backspaces that found nothing to undo or delete.
  package var backspacesWithoutEffect = 0
  /// Of those, the ones that could not reach text already flushed from a
  /// line longer than `--max-line`.
  package var backspacesBlockedByFlush = 0
  package var characters = 0
  package var syllables = 0
  /// Of the keystrokes, the presses rebuilt from a browser's composition
  /// or input data (a phone's `Unidentified` keys).
  package var reconstructed = 0
  /// Characters a browser log inserted without keys (a paste, dictation).
  package var insertedText = 0
  /// The `"t"` of the first and last event that had one, in milliseconds.
  package var firstTime: Double?
  package var lastTime: Double?
  /// The summed typing time of the documents (the total only).
  private var summedTime: Double?
  /// The writing-process measures (event logs with `--stats`).
  package var process: WritingMeasures?

  package init(document: String? = nil) {
    self.document = document
  }

  /// Keystrokes per character written.
  package var keystrokesPerCharacter: Double? {
    characters > 0 ? Double(keystrokes) / Double(characters) : nil
  }

  /// Milliseconds from the first to the last timed event (`nil` also when
  /// that is past what a double holds: times of ±1e308).
  package var typingTime: Double? {
    let time: Double
    if let summedTime {
      time = summedTime
    } else {
      guard let firstTime, let lastTime else { return nil }
      time = lastTime - firstTime
    }
    return time.isFinite ? time : nil
  }

  /// Characters written per minute of typing time (`nil` when the time is
  /// too short for the rate to be a double: a span of 1e-300 ms).
  package var charactersPerMinute: Double? {
    guard let typingTime, typingTime > 0 else { return nil }
    let rate = Double(characters) / (typingTime / 60_000)
    return rate.isFinite ? rate : nil
  }

  mutating func noteTime(_ time: Double) {
    if firstTime == nil { firstTime = time }
    lastTime = time
  }

  /// Adds another document's figures to this total.
  mutating func add(_ other: TypingStatistics) {
    addCounts(of: other)
    if let time = other.typingTime { addTime(time) }
  }

  /// Adds another document's figures but its time.
  mutating func addCounts(of other: TypingStatistics) {
    keystrokes += other.keystrokes
    backspaces += other.backspaces
    backspacesWithoutEffect += other.backspacesWithoutEffect
    backspacesBlockedByFlush += other.backspacesBlockedByFlush
    characters += other.characters
    syllables += other.syllables
    reconstructed += other.reconstructed
    insertedText += other.insertedText
    if let theirs = other.process {
      if process == nil { process = WritingMeasures() }
      process?.pauseThreshold = theirs.pauseThreshold
      process?.add(theirs)
    }
  }

  /// Adds a document's typing time to this total.
  mutating func addTime(_ time: Double) {
    summedTime = (summedTime ?? 0) + time
  }
}

/// Statistics per document and in total.
package struct StatisticsReport: Sendable, Equatable {
  /// One entry per document that had a `"doc"`.
  package var documents: [TypingStatistics]
  package var total: TypingStatistics
  /// The typing time of each document that had one, in order (so that a
  /// sum over pieces adds them as one run does, in the same order).
  var documentTimes: [Double] = []
  /// `--plot`: the documents' process graphs.
  package var plot: ProcessPlot?

  package init(documents: [TypingStatistics], total: TypingStatistics) {
    self.documents = documents
    self.total = total
  }

  /// An empty report: no documents, all totals 0.
  package init() {
    self.init(documents: [], total: TypingStatistics())
  }

  /// Appends the report of the text that came after this one's (a later
  /// piece of a parallel run): its documents follow, its figures add to the
  /// total, its documents' times one by one, so the sum is the one run's.
  ///
  ///     var whole = StatisticsReport()
  ///     whole.append(firstPiece.statistics)
  ///
  /// O(documents of `later`).
  package mutating func append(_ later: StatisticsReport) {
    documents += later.documents
    total.addCounts(of: later.total)
    for time in later.documentTimes { total.addTime(time) }
    documentTimes += later.documentTimes
    if let theirs = later.plot {
      if plot == nil { plot = ProcessPlot() }
      plot?.append(theirs)
    }
  }

  /// An aligned table, one row per document and a total row.
  package var text: String {
    let hasTime = total.typingTime != nil
    var header = ["document", "keys", "backspaces", "no effect", "characters", "syllables", "KSPC"]
    if hasTime { header += ["time (s)", "CPM"] }
    var rows = [header]
    for entry in documents + [total] {
      var row = [
        entry.document ?? "total", "\(entry.keystrokes)", "\(entry.backspaces)",
        "\(entry.backspacesWithoutEffect)", "\(entry.characters)", "\(entry.syllables)",
        Self.format(entry.keystrokesPerCharacter),
      ]
      if hasTime {
        row += [
          Self.format(entry.typingTime.map { $0 / 1000 }, digits: 1),
          Self.format(entry.charactersPerMinute, digits: 1),
        ]
      }
      rows.append(row)
    }
    let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    let table =
      rows.map { row in
        row.enumerated().map { column, cell in
          let padding = String(repeating: " ", count: widths[column] - cell.count)
          return column == 0 ? cell + padding : padding + cell
        }.joined(separator: "  ")
      }.joined(separator: "\n") + "\n"
    var notes = ""
    if total.reconstructed > 0 {
      notes +=
        "\(total.reconstructed) of the keys were rebuilt from the log's composition and input data (no key was recorded)\n"
    }
    if total.insertedText > 0 {
      notes +=
        "\(total.insertedText) characters were inserted as text without keys (not counted as keys)\n"
    }
    guard total.backspacesBlockedByFlush > 0 else { return table + notes + processTable }
    return table
      + "\(total.backspacesBlockedByFlush) of the Backspaces with no effect could not reach text already flushed (--max-line)\n"
      + notes + processTable
  }

  /// One JSON object: `{"documents":[…],"total":{…}}`.
  package var json: String {
    func object(_ entry: TypingStatistics) -> String { entry.json(includingDocument: true) }
    return "{\"documents\":[" + documents.map(object).joined(separator: ",") + "],\"total\":"
      + object(total) + "}\n"
  }

  package static func format(_ value: Double?, digits: Int = 2) -> String {
    guard let value else { return "-" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    // A value within a factor `scale` of the largest double has no digits
    // after the point to round: scaling it would make it infinite.
    let scaled = value * scale
    let rounded = scaled.isFinite ? scaled.rounded() / scale : value
    if digits == 0 {
      // A time past Int.max (a "t" of 1.7e19) is written as a Double.
      if let integer = Int(exactly: rounded) { return String(integer) }
      return String(rounded)
    }
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
      let decimals = text.distance(from: dot, to: text.endIndex) - 1
      if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text
  }
}

extension TypingStatistics {
  /// The figures as one JSON object, `{"keys":…,"backspaces":…,…}`, with
  /// `"doc"` first when asked for and known.
  package func json(includingDocument: Bool, includingProcess: Bool = true) -> String {
    let entry = self
    var members: [String] = []
    if includingDocument, let document {
      members.append("\"doc\":\(JSONWriter.quoted(document))")
    }
    members += [
      "\"keys\":\(entry.keystrokes)", "\"backspaces\":\(entry.backspaces)",
      "\"backspacesWithoutEffect\":\(entry.backspacesWithoutEffect)",
      "\"characters\":\(entry.characters)", "\"syllables\":\(entry.syllables)",
    ]
    if entry.backspacesBlockedByFlush > 0 {
      members.append("\"backspacesBlockedByFlush\":\(entry.backspacesBlockedByFlush)")
    }
    if entry.reconstructed > 0 { members.append("\"reconstructedKeys\":\(entry.reconstructed)") }
    if entry.insertedText > 0 { members.append("\"insertedText\":\(entry.insertedText)") }
    if let kspc = entry.keystrokesPerCharacter {
      members.append("\"kspc\":\(StatisticsReport.format(kspc, digits: 3))")
    }
    if let time = entry.typingTime {
      members.append("\"typingTimeMs\":\(StatisticsReport.format(time, digits: 0))")
    }
    if let cpm = entry.charactersPerMinute {
      members.append("\"charactersPerMinute\":\(StatisticsReport.format(cpm, digits: 1))")
    }
    if includingProcess, let columns = processColumns(target: process?.errors != nil) {
      let process = columns.map { name, value in "\"\(name)\":\(value ?? "null")" }
      members.append("\"process\":{" + process.joined(separator: ",") + "}")
    }
    return "{" + members.joined(separator: ",") + "}"
  }
}

/// Collects statistics while a filter runs.
struct StatisticsRecorder: Sendable {
  var current = TypingStatistics()
  var documents: [TypingStatistics] = []
  var total = TypingStatistics()
  /// The typing time of each finished document that had one.
  var documentTimes: [Double] = []
  /// Whether each finished document is kept (``documents``,
  /// ``documentTimes``): without, memory does not grow with the documents,
  /// and only the total of one run is known.
  var keepsDocuments = true

  /// The documents with a name, the total, and the times.
  var report: StatisticsReport {
    var report = StatisticsReport(documents: documents, total: total)
    report.documentTimes = documentTimes
    return report
  }

  /// Counts the characters and syllables in written bytes.
  mutating func count(output bytes: [UInt8]) {
    var index = 0
    while index < bytes.count {
      current.characters += 1
      let step = bytes.withUnsafeBufferPointer { UTF8Stream.step($0, at: index) }
      if case .scalar(let value, let length) = step {
        if value >= 0xAC00, value <= 0xD7A3 { current.syllables += 1 }
        index += length
      } else {
        index += 1
      }
    }
  }

  /// Ends a document, taking the Backspace figures from its editor.
  mutating func finishDocument(editor: LineEditor, named: Bool = false) {
    finishDocument(counts: editor.counts, named: named)
  }

  /// Ends a document with its editor's counts; returns its statistics.
  @discardableResult
  mutating func finishDocument(
    counts: EditCounts, named: Bool = false, process: WritingMeasures? = nil
  ) -> TypingStatistics {
    current.process = process
    current.backspaces = counts.backspaces
    current.backspacesWithoutEffect = counts.backspacesWithoutEffect
    current.backspacesBlockedByFlush = counts.backspacesBlockedByFlush
    let finished = current
    total.add(current)
    if keepsDocuments {
      if let time = current.typingTime { documentTimes.append(time) }
      if named {
        var kept = current
        kept.process?.compact()
        documents.append(kept)
      }
    }
    current = TypingStatistics()
    return finished
  }
}
