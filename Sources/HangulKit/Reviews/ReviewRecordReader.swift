/// Reads review records from the inputs of a run, each input a sequence of
/// JSON values of its own (see ``JSONRecordSplitter``), for the import and
/// export filters.
///
/// Records that an input's end completes are written with the next block.
struct ReviewRecordReader {
  /// The input being read, as messages name it.
  private(set) var fileName = "(standard input)"
  /// Problems with an array or envelope itself (the first hundred), with their positions.
  private(set) var structureProblems: [PositionedError] = []
  /// How many such problems there were in all.
  private(set) var structureProblemCount = 0
  let recordsField: String
  let contentField: String
  /// Receives each structure problem as it is found.
  let report: (PositionedError) -> Void
  private var splitter: JSONRecordSplitter
  private var started = false
  private var pending: [UInt8] = []
  /// Where the splitter of a piece of a parallel run started, when not at its input's start.
  private(set) var resumedAt: JSONRecordSplitter.ResumePoint?

  typealias Handler = (JSONRecordSplitter.Record, String, inout [UInt8]) -> Void

  init(
    recordsField: String = "data", contentField: String = "content",
    report: @escaping (PositionedError) -> Void
  ) {
    self.recordsField = recordsField
    self.contentField = contentField
    self.report = report
    splitter = JSONRecordSplitter(recordsField: recordsField, contentField: contentField)
  }

  /// A reader that reads nothing, to stand in while the real one is moved out.
  static var placeholder: ReviewRecordReader { ReviewRecordReader(recordsField: "") { _ in } }

  /// Starts the next input, ending the one before.
  mutating func beginInput(named name: String, _ handle: Handler) {
    if started {
      var buffer: [UInt8] = []
      swap(&buffer, &pending)
      endInput(into: &buffer, handle)
      swap(&buffer, &pending)
    }
    started = true
    fileName = name
  }

  /// Starts a piece of an input, cut at `point` by a ``JSONRecordBoundaryFinder``:
  /// the splitter goes on as the one that read up to there would.
  mutating func beginPiece(named name: String, resumingAt point: JSONRecordSplitter.ResumePoint) {
    started = true
    fileName = name
    resumedAt = point
    splitter = JSONRecordSplitter(
      recordsField: recordsField, contentField: contentField, resumingAt: point)
  }

  /// Whether `next`, a reader that began a piece where this one stops (and
  /// read it), read it as this one would have: it began at an input's start,
  /// or this one's splitter stands at the point `next` resumed from. O(1).
  func isContinued(by next: ReviewRecordReader) -> Bool {
    guard let point = next.resumedAt else { return true }
    return pending.isEmpty && splitter.resumePoint == point
  }

  /// Where the reader stands, when it is between records with nothing
  /// pending (what ``isContinued(by:)`` compares). O(1).
  var resumePoint: JSONRecordSplitter.ResumePoint? {
    pending.isEmpty ? splitter.resumePoint : nil
  }

  /// Reads the next block of the current input.
  mutating func read(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], _ handle: Handler
  ) {
    started = true
    if !pending.isEmpty {
      output.append(contentsOf: pending)
      pending.removeAll()
    }
    feed(chunk, isLast: false, into: &output, handle)
  }

  /// Feeds the splitter; each record's structure problems before it are
  /// reported before it is handled, the rest after the chunk: in input order.
  private mutating func feed(
    _ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool, into output: inout [UInt8],
    _ handle: Handler
  ) {
    let name = fileName
    let report = self.report
    // Only the count and the first hundred are kept: a flood of problems costs no memory here.
    var reportedCount = 0
    var kept = structureProblems
    splitter.feed(chunk, isLast: isLast) { record in
      for problem in record.structureProblemsBefore {
        let error = PositionedError(
          file: name, line: problem.line, column: problem.column, message: problem.message)
        reportedCount += 1
        if kept.count < 100 { kept.append(error) }
        report(error)
      }
      handle(record, name, &output)
    }
    for problem in splitter.takeStructureProblems().dropFirst(reportedCount) {
      let error = PositionedError(
        file: name, line: problem.line, column: problem.column, message: problem.message)
      reportedCount += 1
      if kept.count < 100 { kept.append(error) }
      report(error)
    }
    structureProblemCount += reportedCount
    structureProblems = kept
  }

  /// Ends the last input.
  mutating func finish(into output: inout [UInt8], _ handle: Handler) {
    output.append(contentsOf: pending)
    pending.removeAll()
    if started { endInput(into: &output, handle) }
  }

  private mutating func endInput(into output: inout [UInt8], _ handle: Handler) {
    feed(UnsafeBufferPointer(start: nil, count: 0), isLast: true, into: &output, handle)
    splitter = JSONRecordSplitter(recordsField: recordsField, contentField: contentField)
  }
}

extension JSONRecordSplitter.Record {
  /// The line and column (in characters) of the byte at `offset` of the record.
  func position(ofOffset offset: Int) -> (line: Int, column: Int) {
    var line = self.line
    var column = self.column
    for byte in bytes[..<min(offset, bytes.count)] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }

  /// The record without the whitespace between its tokens (valid JSON only).
  var compacted: [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    bytes.withUnsafeBufferPointer { Self.appendCompacted($0, to: &output) }
    return output
  }

  /// Appends `bytes` (whole tokens of valid JSON) without the whitespace between tokens.
  static func appendCompacted(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    var position = 0
    var copied = 0
    let count = bytes.count
    while position < count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        while position < count {
          let inner = bytes[position]
          if inner == UInt8(ascii: "\\") {
            position += 2
            continue
          }
          position += 1
          if inner == UInt8(ascii: "\"") { break }
        }
        continue
      }
      if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<position]))
        position += 1
        while position < count,
          bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D
            || bytes[position] == 0x09
        {
          position += 1
        }
        copied = position
        continue
      }
      position += 1
    }
    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<count]))
  }

  /// What kind of value starts at `offset`, as messages name it.
  func kindName(at offset: Int) -> String {
    switch bytes[offset] {
    case UInt8(ascii: "{"): "an object"
    case UInt8(ascii: "["): "an array"
    case UInt8(ascii: "\""): "a string"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
    case UInt8(ascii: "n"): "null"
    default: "a number"
    }
  }
}
