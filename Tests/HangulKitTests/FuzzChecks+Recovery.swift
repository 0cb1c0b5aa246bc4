#if !FUZZING
  @testable import HangulKit
#endif

/// The checks of the inputs that issue 35 made streaming or recoverable:
/// event logs read in bounded memory, review imports that resynchronise
/// after a broken record, and the names `hangul-normalize --rename` gives.
extension FuzzChecks {
  // MARK: Event logs

  /// What an event-log filter wrote and reported.
  struct EventOutcome: Equatable {
    var output: [UInt8]
    var errors: [PositionedError]
  }

  /// What event-log filters report, and import filters reject (a list for
  /// each: the test suite runs the targets at the same time).
  final class Reports<Item>: @unchecked Sendable {
    var items: [Item] = []
  }
  static let eventReports = Reports<PositionedError>()
  static let importProblems = Reports<PositionedError>()
  static let importRejects = Reports<ReviewReject>()

  /// Filters made once and copied for each input (making one costs more
  /// than reading most inputs): event-log filters by their options, and an
  /// import filter.
  nonisolated(unsafe) static var eventFilters: [String: EventLogFilter] = [:]
  nonisolated(unsafe) static var importPrototype: ReviewImportFilter?

  /// A fresh event-log filter that reports to ``eventReports`` (emptied).
  static func eventFilter(keys: KeyEncoding, shortLines: Bool, output: EventLogFilter.Output)
    -> EventLogFilter
  {
    eventReports.items.removeAll()
    let key = "\(keys) \(shortLines) \(output)"
    if let filter = eventFilters[key] { return filter }
    let filter = EventLogFilter(
      keys: keys, maximumLineLength: shortLines ? 8 : LineEditor.defaultMaximumLineLength,
      output: output, includesStatistics: output == .jsonl
    ) { eventReports.items.append($0) }
    eventFilters[key] = filter
    return filter
  }

  /// A fresh import filter that reports to ``importProblems`` and ``importRejects`` (emptied).
  static func importFilter() -> ReviewImportFilter? {
    importRejects.items.removeAll()
    importProblems.items.removeAll()
    if importPrototype == nil {
      importPrototype = try? ReviewImportFilter(
        structureProblem: { importProblems.items.append($0) },
        reject: { importRejects.items.append($0) })
    }
    return importPrototype
  }

  /// The event-log filter (JSON Lines output with statistics) on `input`
  /// cut at `cuts`.
  static func eventOutcome(_ input: [UInt8], cuts: [Int]) -> EventOutcome {
    var filter = eventFilter(
      keys: input.count % 2 == 0 ? .jamo : .qwerty, shortLines: false, output: .jsonl)
    filter.beginInput(named: "log")
    let output = feed(&filter, input, cuts: cuts)
    return EventOutcome(output: output, errors: eventReports.items)
  }

  /// The same output and the same errors (at the same FILE:LINE:COLUMN)
  /// whatever the pieces the log comes in; every output line is JSON (no
  /// `inf` or `nan`, whatever the `"t"` values).
  static func eventsWhateverTheCut(_ input: [UInt8]) -> String? {
    let whole = eventOutcome(input, cuts: [])
    let cut = eventOutcome(input, cuts: randomCuts(input))
    if whole.output != cut.output { return "events: output depends on the cut" }
    if whole.errors != cut.errors {
      return "events: errors depend on the cut: \(whole.errors) against \(cut.errors)"
    }
    for line in whole.output.split(separator: 0x0A) {
      guard case .object = try? JSONParser.parse(Array(line)) else {
        return "events: output line is not a JSON object: \(String(decoding: line, as: UTF8.self))"
      }
    }
    return nil
  }

  /// ``EventLineReader`` on its own, against ``JSONParser`` on the lines
  /// of each event it read (one, or several when an object was left open at
  /// a line's end): they are blank when they hold only spaces, tabs and
  /// carriage returns, an event when they parse as an object (with the first
  /// member of each name an event uses kept, containers as their kind),
  /// rejected with a reason otherwise; the same with any cut. With a small
  /// limit, the outcome is the same with any cut too.
  static func eventLinesAsJSON(_ input: [UInt8]) -> String? {
    let whole = readEventLines(input, limit: 1 << 20, cuts: [])
    if whole != readEventLines(input, limit: 1 << 20, cuts: randomCuts(input, salt: 1)) {
      return "event reader: lines depend on the cut"
    }
    // One input in four with a tiny limit too (each pass costs a fuzzer's run).
    if seed(input, salt: 2) & 3 == 0 {
      let small = readEventLines(input, limit: 4, cuts: [])
      if small != readEventLines(input, limit: 4, cuts: randomCuts(input, salt: 2)) {
        return "event reader: lines depend on the cut with a small limit"
      }
    }
    var lines = input.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    if lines.last?.isEmpty == true { lines.removeLast() }
    let spanned = whole.reduce(0) { $0 + $1.lines }
    if spanned != lines.count { return "event reader: \(spanned) lines for \(lines.count)" }
    var first = 0
    for (number, read) in whole.enumerated() {
      guard read.lines >= 1 else { return "event reader: event \(number + 1) spans no line" }
      var text = Array(lines[first..<first + read.lines].joined(separator: [0x0A]))
      if first == 0, text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
      first += read.lines
      let expected: EventLineReader.Line
      if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
        expected = .blank
      } else if case .object(let members) = try? JSONParser.parse(text) {
        expected = .event(members: keptMembers(members), column: 0)
      } else {
        expected = .rejected
      }
      var got = read.line
      if case .event(let members, _) = got {
        got = .event(
          members: members.map { .init(name: $0.name, value: $0.value, column: 0) }, column: 0)
      }
      if got != expected {
        return "event reader: line \(number + 1) read as \(got), JSONParser says \(expected)"
      }
      if (got == .rejected) != (read.rejection != nil) {
        return
          "event reader: line \(number + 1) \(got) with rejection \(String(describing: read.rejection))"
      }
    }
    return nil
  }

  /// The members an event keeps of an object's: the first of each used name.
  static func keptMembers(_ members: [JSONValue.Member]) -> [EventLineReader.Member] {
    var kept: [EventLineReader.Member] = []
    for member in members
    where EventLineReader.usedNames.contains(Array(member.name.utf8))
      && !kept.contains(where: { $0.name == member.name })
    {
      var value = member.value
      if case .object = value { value = .object([]) }
      if case .array = value { value = .array([]) }
      kept.append(.init(name: member.name, value: value, column: 0))
    }
    return kept
  }

  struct ReadLine: Equatable {
    var line: EventLineReader.Line
    var rejection: EventLineReader.Rejection?
    /// The lines of the input it took.
    var lines = 1
  }

  /// Each line as ``EventLineReader`` takes it, `input` cut at `cuts`.
  static func readEventLines(_ input: [UInt8], limit: Int, cuts: [Int]) -> [ReadLine] {
    var reader = EventLineReader(limit: limit)
    var lines: [ReadLine] = []
    var rejection: EventLineReader.Rejection?
    var start = 0
    for end in cuts + [input.count] {
      let piece = Array(input[start..<end])
      piece.withUnsafeBufferPointer { bytes in
        var index = 0
        while index < bytes.count {
          let (next, ended) = reader.read(bytes, from: index)
          index = next
          if let found = reader.takeRejection() { rejection = found }
          if ended {
            let spanned = reader.linesInside + (reader.cutOff ? 0 : 1)
            lines.append(ReadLine(line: reader.takeLine(), rejection: rejection, lines: spanned))
            rejection = nil
          }
        }
      }
      start = end
    }
    if reader.isInLine {
      reader.endLine()
      if let found = reader.takeRejection() { rejection = found }
      // A newline that ended the input inside an event began no line.
      let spanned = reader.linesInside + (input.last == 0x0A ? 0 : 1)
      lines.append(ReadLine(line: reader.takeLine(), rejection: rejection, lines: spanned))
    }
    return lines
  }

  // MARK: Review imports

  /// What an import wrote and reported.
  struct ImportOutcome: Equatable {
    var output: [UInt8]
    var rejects: [ReviewReject]
    var problems: [PositionedError]
    var counts: [Int]
  }

  static func importOutcome(_ input: [UInt8], cuts: [Int]) -> ImportOutcome? {
    guard var filter = importFilter() else { return nil }
    filter.beginInput(named: "reviews")
    let output = feed(&filter, input, cuts: cuts)
    return ImportOutcome(
      output: output, rejects: importRejects.items, problems: importProblems.items,
      counts: [filter.recordsRead, filter.recordsImported, filter.recordsRejected])
  }

  /// The same records imported, the same rejects and problems (at the same
  /// places) whatever the pieces the input comes in.
  static func reviewsWhateverTheCut(_ input: [UInt8]) -> String? {
    guard let whole = importOutcome(input, cuts: []),
      let cut = importOutcome(input, cuts: randomCuts(input))
    else { return "no ICU" }
    if whole.output != cut.output { return "import: output depends on the cut" }
    if whole.rejects != cut.rejects {
      return "import: rejects depend on the cut: \(whole.rejects) against \(cut.rejects)"
    }
    if whole.problems != cut.problems {
      return "import: problems depend on the cut: \(whole.problems) against \(cut.problems)"
    }
    if whole.counts != cut.counts { return "import: counts depend on the cut" }
    return nil
  }

  static let sentinel = Array(#"{"content":"가","_id":"fuzz-sentinel"}"#.utf8)

  /// Any bytes, then a control character (which breaks whatever value is
  /// open: a string, a number, a literal, a container), then a good record
  /// at a line's start: that record is imported, and is the last line out.
  /// One input in 256 gets 70,000 bytes more before the break, so that the
  /// broken record is longer than the sample a reject keeps (64 KiB):
  /// every reject that is not a whole valid record shows at most that.
  static func reviewsAfterGarbage(_ input: [UInt8]) -> String? {
    var data = input
    if seed(input, salt: 3) >> 56 == 0 {
      let filler = input.first.map { $0 < 0x20 ? UInt8(ascii: "a") : $0 } ?? UInt8(ascii: "a")
      data += [UInt8](repeating: filler, count: 70_000)
    }
    data += [0x01, 0x0A] + sentinel + [0x0A]
    guard let outcome = importOutcome(data, cuts: randomCuts(data, salt: 4)) else {
      return "no ICU"
    }
    let lines = outcome.output.split(separator: 0x0A)
    guard let last = lines.last, Array(last) == sentinel else {
      return "import: the good record after the garbage is not the last line out"
    }
    if outcome.counts[0] != outcome.counts[1] + outcome.counts[2] {
      return "import: counts \(outcome.counts) do not add up"
    }
    for reject in outcome.rejects {
      guard case .string(let raw) = try? JSONParser.parse(Array(reject.recordJSON.utf8)) else {
        continue
      }
      // A raw sample: at most one scalar a byte of the 64 KiB kept.
      if raw.unicodeScalars.count > JSONRecordBuffer.sampleLimit {
        return "import: a reject shows \(raw.unicodeScalars.count) characters"
      }
    }
    return nil
  }

  // MARK: Renamed names

  nonisolated(unsafe) static let renamers = ICUNormalizer.Form.allCases.compactMap {
    try? FileRenamer(form: $0)
  }
  static let normalizers = ICUNormalizer.Form.allCases.compactMap {
    try? ICUNormalizer($0)
  }

  /// `hangul-normalize --rename`'s new name for any bytes, in every form:
  /// never empty, `.`, `..`, a slash or a NUL (those are refused and left
  /// alone); only for a name that is UTF-8 and a single component; what ICU
  /// makes of the name; and a name the form leaves alone (a second run
  /// renames nothing). A name that is not UTF-8 is left alone, reported.
  static func rename(_ name: [UInt8]) -> String? {
    guard renamers.count == 4, normalizers.count == 4 else { return "no ICU" }
    let valid = isValidUTF8(name)
    for (renamer, icu) in zip(renamers, normalizers) {
      let form = renamer.normalizer.form.name
      let result = name.withUnsafeBufferPointer { renamer.newName(for: $0) }
      let expected =
        valid ? Array(icu.normalized(String(decoding: name, as: UTF8.self)).utf8) : name
      switch result {
      case .unchanged:
        if !valid && name.contains(where: { $0 >= 0x80 }) {
          return "rename \(form): a name that is not UTF-8 passes as unchanged"
        }
        if expected != name { return "rename \(form): unchanged, but ICU changes it" }
      case .notUTF8:
        if valid { return "rename \(form): UTF-8 taken for not UTF-8" }
      case .notOneName(let newName):
        if newName != expected { return "rename \(form): refused name is not ICU's" }
        if !(newName.isEmpty || newName == [0x2E] || newName == [0x2E, 0x2E]
          || newName.contains(0x2F) || newName.contains(0))
        {
          return "rename \(form): \(newName) refused though it is one name"
        }
      case .changed(let newName):
        if newName.isEmpty || newName == [0x2E] || newName == [0x2E, 0x2E]
          || newName.contains(0x2F) || newName.contains(0)
        {
          return "rename \(form): renames to \(newName), not one name"
        }
        if name.isEmpty || name == [0x2E] || name == [0x2E, 0x2E] || name.contains(0x2F) {
          return "rename \(form): renames \(name), not one name"
        }
        if !valid || !isValidUTF8(newName) { return "rename \(form): not UTF-8" }
        if newName == name { return "rename \(form): changed to the same name" }
        if newName != expected { return "rename \(form): new name is not ICU's" }
        let again = newName.withUnsafeBufferPointer { renamer.newName(for: $0) }
        if again != .unchanged { return "rename \(form): the new name is renamed again" }
      }
    }
    return nil
  }
}
