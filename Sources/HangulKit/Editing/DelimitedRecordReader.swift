/// Reads the records of a delimited text file (TSV, CSV) as they stream in,
/// for the research loggers' formats (``DelimitedLogFormat``).
///
/// - ``Quoting/none`` (the Aalto TSV files): a field is the bytes between
///   two delimiters, quotes included; a record ends with its line.
/// - ``Quoting/rfc4180`` (CSV): a field that starts with `"` runs to the
///   next lone `"`, and holds delimiters, line breaks and `""` (one quote).
///
/// A carriage return before a line feed ends the line with it. A record
/// longer than ``limit`` bytes, a quote that is not closed, or text after a
/// closing quote makes a ``Rejection`` (at its line and column); the rest of
/// that record is skipped.
///
///     var reader = DelimitedRecordReader(delimiter: 0x2C, quoting: .rfc4180, limit: 1 << 20)
///     let bytes = Array("a,\"b,c\"\n".utf8)
///     bytes.withUnsafeBufferPointer { _ = reader.read($0, from: 0) }  // (8, true)
///     reader.field(1)   // "b,c"
///
/// Time O(n); memory: one record's fields.
struct DelimitedRecordReader {
  enum Quoting { case none, rfc4180 }

  struct Rejection: Equatable {
    var message: String
    /// The line (from 1 in the input) and column (in characters) of the place.
    var line: Int
    var column: Int
  }

  let delimiter: UInt8
  let quoting: Quoting
  /// The most bytes of one record.
  let limit: Int
  /// The fields of the record read so far, back to back.
  private(set) var bytes: [UInt8] = []
  /// Where each field ends in ``bytes``, and the column where it starts.
  private(set) var ends: [Int] = []
  private(set) var columns: [Int] = [1]
  /// The line the last field started on.
  private var fieldLine = 1
  /// The line the record at hand started on, and lines read to their end.
  private(set) var recordLine = 1
  private(set) var linesRead = 0
  /// Characters of the line read so far.
  private var column = 0
  private var phase = Phase.fieldStart
  private var rejection: Rejection?
  /// Whether bytes of a record were read.
  private(set) var isInRecord = false

  private enum Phase {
    case fieldStart, plain, quoted, quoteInQuoted, skipping, skippingQuoted, carriageReturn
  }

  init(delimiter: UInt8, quoting: Quoting, limit: Int) {
    self.delimiter = delimiter
    self.quoting = quoting
    self.limit = limit
  }

  /// The number of fields of the record.
  var fieldCount: Int { ends.count }

  /// Field `index` of the record as text (bytes that are not UTF-8 as U+FFFD).
  func field(_ index: Int) -> String {
    let start = index == 0 ? 0 : ends[index - 1]
    return String(decoding: bytes[start..<ends[index]], as: UTF8.self)
  }

  /// Why the record just read was rejected, once.
  mutating func takeRejection() -> Rejection? {
    defer { rejection = nil }
    return rejection
  }

  /// Reads from `start` to the end of a record (returns `true` then) or of
  /// the chunk; returns the index after the bytes read.
  mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Bool) {
    var index = start
    while index < chunk.count {
      let byte = chunk[index]
      index += 1
      if byte & 0xC0 != 0x80 { column += 1 }
      if take(byte) { return (index, true) }
    }
    return (index, false)
  }

  /// Ends a record the input left without its line break; returns whether
  /// there was one.
  mutating func finish() -> Bool {
    guard isInRecord else { return false }
    if phase == .quoted || phase == .skippingQuoted {
      rejection = nil
      reject("a quoted field is not closed before the end of the input", column: columns.last ?? 1)
      rejection?.line = fieldLine
    }
    endField()
    return true
  }

  /// Counts `count` lines as read before the first record (the header line).
  mutating func skipLines(_ count: Int) {
    linesRead += count
    recordLine = linesRead + 1
    fieldLine = recordLine
  }

  /// Clears the record taken, for the next one.
  mutating func clearRecord() {
    bytes.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    columns = [1]
    fieldLine = linesRead + 1
    isInRecord = false
    phase = .fieldStart
    recordLine = linesRead + 1
  }

  /// Takes one byte; returns whether it ended the record.
  private mutating func take(_ byte: UInt8) -> Bool {
    isInRecord = true
    switch phase {
    case .skipping, .carriageReturn, .plain, .fieldStart:
      if byte == 0x0A { return endLine() }
      if phase == .skipping { return false }
      if phase == .carriageReturn { phase = .plain }
      if byte == 0x0D {
        phase = .carriageReturn
        return false
      }
      if byte == delimiter {
        startField()
      } else if byte == 0x22, quoting == .rfc4180 {
        if phase == .fieldStart {
          phase = .quoted
        } else {
          reject("a quote inside a field that does not start with one", column: column)
        }
      } else {
        phase = .plain
        append(byte)
      }
    case .quoted:
      if byte == 0x22 {
        phase = .quoteInQuoted
      } else {
        if byte == 0x0A { newLine() }
        append(byte)
      }
    case .quoteInQuoted:
      if byte == 0x22 {
        append(0x22)
        phase = .quoted
      } else if byte == delimiter {
        startField()
      } else if byte == 0x0A {
        return endLine()
      } else if byte == 0x0D {
        phase = .carriageReturn
      } else {
        reject("text after the closing quote of a field", column: column)
      }
    case .skippingQuoted:
      if byte == 0x22 { phase = .skipping } else if byte == 0x0A { newLine() }
    }
    return false
  }

  private mutating func startField() {
    endField()
    columns.append(column + 1)
    fieldLine = linesRead + 1
    phase = .fieldStart
  }

  private mutating func newLine() {
    linesRead += 1
    column = 0
  }

  private mutating func endLine() -> Bool {
    endField()
    newLine()
    return true
  }

  private mutating func endField() {
    if phase != .skipping, phase != .skippingQuoted { ends.append(bytes.count) }
  }

  private mutating func append(_ byte: UInt8) {
    guard bytes.count < limit else {
      reject("a record longer than \(limit) bytes (see --max-line)", column: column)
      return
    }
    bytes.append(byte)
  }

  private mutating func reject(_ message: String, column: Int) {
    if rejection == nil {
      rejection = Rejection(message: message, line: linesRead + 1, column: column)
    }
    phase = phase == .quoted ? .skippingQuoted : .skipping
  }
}
