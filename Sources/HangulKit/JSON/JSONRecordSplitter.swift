/// Splits a stream of JSON values into review records, whatever shape holds
/// them: any sequence of top-level values separated by whitespace (JSON
/// Lines, pretty-printed values one after another, several arrays or
/// envelopes joined), with or without a UTF-8 byte order mark. Each top-level
/// value is a record, an array of records, or an envelope: an object whose
/// `recordsField` member (wherever it stands) is an array of records; the
/// envelope's other members are read past.
///
///     var splitter = JSONRecordSplitter()
///     var records: [String] = []
///     splitter.feed(Array(#"{"ok":1,"data":[{"a":1},{"b":2}]} {"c":3}"#.utf8), isLast: true) {
///       records.append(String(decoding: $0.bytes, as: UTF8.self))
///     }
///     // records == [#"{"a":1}"#, #"{"b":2}"#, #"{"c":3}"#]
///
/// Every byte is checked as RFC 8259 and UTF-8 require, once (O(n)); memory
/// is the largest record (plus the nesting of the value being read). A
/// record with a syntax error carries the error and its position; the
/// splitter resynchronizes on bracket kinds (a closer that belongs to an
/// enclosing array ends the broken record there; a `{` or `[` that starts a
/// line left of where a broken record started begins the next record), so a
/// broken record does not swallow the ones after it. A problem with an
/// array or envelope itself (a missing or extra comma, a stray bracket, text
/// after the end) is a ``structureProblems`` entry with its position.
public struct JSONRecordSplitter: Sendable {
  /// A syntax error in a record, or a problem with the structure around records.
  public struct Problem: Sendable, Equatable {
    public var message: String
    /// The line (1-based) and column (1-based, in characters) of the offending character.
    public var line: Int
    public var column: Int
    /// The byte offset of the offending character in the record (records only).
    public var offset: Int
  }

  /// A top-level member of an object record: where its name and value are in the record's bytes.
  public struct Member: Sendable, Equatable {
    /// The name's token, quotes included.
    public var name: Range<Int>
    /// The value's token (or nested value), as it came.
    public var value: Range<Int>
  }

  /// One record: its bytes as they came, where it starts, and what was found in it.
  public struct Record: Sendable {
    public var bytes: [UInt8]
    /// Its 0-based index in the input.
    public var index: Int
    /// The line and column (in characters) of its first character.
    public var line: Int
    public var column: Int
    /// Why the record is not valid JSON, if it is not.
    public var problem: Problem?
    /// Whether it is an object (its first byte is `{`).
    public var isObject: Bool
    /// Its top-level members, in order (valid objects only).
    public var members: [Member]
    /// Whether there is whitespace between its tokens.
    public var hasWhitespace: Bool
    /// Whether ``bytes`` holds only the first ``JSONRecordSplitter/sampleLimit``
    /// bytes of the record (cut at a character boundary): a record that is
    /// broken or not an object is not kept whole, so that garbage costs bounded memory.
    public var isTruncated = false
    /// The structure problems found since the record before (they are in
    /// ``takeStructureProblems()`` too): reporting them before the record
    /// keeps every report in input order, however the input is cut into chunks.
    public var structureProblemsBefore: [Problem] = []
  }

  /// The member that holds an envelope's records.
  public let recordsField: String
  /// The member that holds a review's text: an object with a string there is a record.
  public let contentField: String
  /// Problems with the structure around records found since ``takeStructureProblems()``
  /// was last called (call it after each chunk: memory stays bounded).
  public private(set) var structureProblems: [Problem] = []
  /// How many structure problems there were in all.
  public private(set) var structureProblemCount = 0
  /// How many records were found.
  public private(set) var recordCount = 0
  /// How many of ``structureProblems`` a record carried out already.
  private var problemsHandedOut = 0

  // Frames of the nesting: kind, what comes next, and role.
  private struct Frame: Sendable {
    var isObject: Bool
    var state: State
    var role: Role
  }

  private enum State: UInt8, Sendable {
    case nameOrEnd, name, colon, value, commaOrEndObject
    case valueOrEnd, element, commaOrEndArray
  }

  private enum Role: UInt8, Sendable {
    case plain, envelope, records
  }

  private enum Token: UInt8, Sendable {
    case none, string, number, literal
  }

  private enum NumberState: UInt8, Sendable {
    case minus, zero, integer, dot, fraction, exponent, exponentSign, exponentDigits

    var isComplete: Bool {
      self == .zero || self == .integer || self == .fraction || self == .exponentDigits
    }
  }

  /// The nesting, with the innermost frame kept out of the array (it changes with every token).
  private struct FrameStack: Sendable {
    private var outer: [Frame] = []
    private var top = Frame(isObject: false, state: .value, role: .plain)
    private(set) var count = 0

    var isEmpty: Bool {
      @inline(__always) get { count == 0 }
    }
    var last: Frame? {
      @inline(__always) get { count == 0 ? nil : top }
    }
    var first: Frame? { count == 0 ? nil : count == 1 ? top : outer[0] }
    /// The innermost frame (meaningful only when the stack is not empty).
    var innermost: Frame {
      @inline(__always) get { top }
      @inline(__always) set { top = newValue }
    }

    subscript(index: Int) -> Frame {
      @inline(__always) get { index == count - 1 ? top : outer[index] }
      @inline(__always) set {
        if index == count - 1 { top = newValue } else { outer[index] = newValue }
      }
    }

    @inline(__always)
    mutating func append(_ frame: Frame) {
      if count > 0 { outer.append(top) }
      top = frame
      count += 1
    }

    @inline(__always)
    mutating func removeLast() {
      count -= 1
      if count > 0 { top = outer.removeLast() }
    }

    mutating func removeLast(_ number: Int) {
      for _ in 0..<number { removeLast() }
    }

    mutating func removeAll() {
      outer.removeAll()
      count = 0
    }

    func lastIndex(where predicate: (Frame) -> Bool) -> Int? {
      var index = count - 1
      while index >= 0 {
        if predicate(self[index]) { return index }
        index -= 1
      }
      return nil
    }
  }

  private let recordsFieldBytes: [UInt8]
  /// The member whose string makes an object a record rather than an envelope.
  private let contentFieldBytes: [UInt8]
  private var stack = FrameStack()

  // Position.
  private var chunkStart = 0  // absolute offset of the current chunk
  private var line = 1
  private var anchorOffset = 0  // a known (offset, column) on the current line
  private var anchorColumn = 1
  private var lineHasContent = false
  private var started = false
  private var startBytes: [UInt8] = []
  /// The start of a UTF-8 sequence that the last chunk's end cut.
  private var cutSequence: [UInt8] = []

  // The token being read.
  private var token = Token.none
  private var stringIsName = false
  private var escape = 0  // 0 none, 1 after a backslash, 2...5 reading \u hex digits
  private var unicodeUnit: UInt32 = 0
  private var highSurrogatePending = false
  private var utf8Needed = 0
  private var utf8Low: UInt8 = 0x80
  private var utf8High: UInt8 = 0xBF
  private var numberState = NumberState.zero
  private var literal: StaticString = "true"
  private var literalPosition = 0

  // The name of the member being read in a top-level object.
  private var nameBytes: [UInt8] = []
  private var nameStart = -1  // index in the chunk where the name's bytes start, or -1
  private var nameOverflow = false
  private var pendingStringEnd = -1

  // The record being read.
  private var inRecord = false
  private var record = JSONRecordBuffer()
  private var segmentStart = 0  // index in the chunk where the unsaved record bytes start
  private var recordBase = 0  // stack depth outside the record
  private var recordLine = 1
  private var recordColumn = 1
  private var recordFirstOnLine = false
  private var recordIsObject = false
  private var recordHasWhitespace = false
  private var problem: Problem?
  /// Whether the problem is at a U+0000 and every byte after it so far is one
  /// too: the input may be a file cut short, which ends in NUL bytes.
  private var onlyNULsSinceProblem = false
  /// What the problem interrupted (a string, a number, a literal, or nothing).
  private var tokenAtProblem = Token.none
  /// How much deeper than ``maximumDepth`` a broken record nests: counted, not kept.
  private var excessDepth = 0
  /// The offset in the input of the record's first byte.
  private var recordStartOffset = 0
  /// A top-level object with a records member, while it may yet be a record.
  private var candidate = JSONEnvelopeCandidate()
  /// Whether such an object is an envelope at once (when one is read again as one).
  private var decidesEnvelopesAtOnce = false
  /// Where the scan goes on after a record was read again as an envelope (-1: after the byte).
  private var restartIndex = -1
  private var garbageRecord = false
  private var lenientString = false
  private var lenientEscape = false
  private var members: [Member] = []
  private var memberName = 0..<0
  private var memberValueStart = 0
  private var skippingText = false
  /// A closer in a broken record that matches an array or envelope around it:
  /// its offset in the record and the frame it matches, until the next
  /// character tells whether it was stray (the record's own closer follows) or
  /// ends the record.
  private var pendingCloser = -1
  private var pendingCloserMatch = 0
  private var topLine = 1
  private var topColumn = 1

  /// How deep a record may nest (as ``JSONParser`` allows): deeper is a syntax error.
  public static let maximumDepth = JSONParser.defaultMaximumDepth

  /// How many bytes of a record that cannot be a review (broken, or not an object) are kept.
  public static let sampleLimit = JSONRecordBuffer.sampleLimit

  /// A splitter of envelopes whose records are in `recordsField`; an object
  /// with a `contentField` string member is a record, not an envelope.
  public init(recordsField: String = "data", contentField: String = "content") {
    self.recordsField = recordsField
    self.contentField = contentField
    recordsFieldBytes = Array(recordsField.utf8)
    contentFieldBytes = Array(contentField.utf8)
  }

  /// Feeds the next chunk; `body` receives each complete record.
  public mutating func feed(_ chunk: [UInt8], isLast: Bool, _ body: (Record) throws -> Void)
    rethrows
  {
    try chunk.withUnsafeBufferPointer { try feed($0, isLast: isLast, body) }
  }

  /// Feeds the next chunk; `body` receives each complete record.
  public mutating func feed(
    _ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool, _ body: (Record) throws -> Void
  ) rethrows {
    if !started {
      // A byte order mark may start the input: decide once three bytes are in.
      startBytes.append(contentsOf: chunk)
      guard startBytes.count >= 3 || isLast else { return }
      started = true
      let buffered = startBytes
      startBytes = []
      let skip = buffered.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      chunkStart = skip
      anchorOffset = skip
      try buffered.withUnsafeBufferPointer {
        try scanWholeCharacters(UnsafeBufferPointer(rebasing: $0[skip...]), body)
      }
    } else {
      try scanWholeCharacters(chunk, body)
    }
    if isLast { try finish(body) }
  }

  /// Scans a chunk up to a UTF-8 sequence that its end cuts, which is kept
  /// and scanned with the bytes that complete it: every character is seen
  /// whole (and named alike in messages) wherever the chunks are cut.
  private mutating func scanWholeCharacters(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    var start = 0
    if !cutSequence.isEmpty {
      let needed = Self.sequenceLength(cutSequence[0]) - cutSequence.count
      while start < needed, start < bytes.count, bytes[start] & 0xC0 == 0x80 { start += 1 }
      cutSequence.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<start]))
      if start < needed, start == bytes.count { return }
      let joined = cutSequence
      cutSequence = []
      try joined.withUnsafeBufferPointer { try scan($0, body) }
    }
    let end = Self.endOfWholeCharacters(bytes, from: start)
    try scan(UnsafeBufferPointer(rebasing: bytes[start..<end]), body)
    cutSequence.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[end...]))
  }

  /// How many bytes the UTF-8 sequence that `lead` starts has (1 for a byte that starts none).
  static func sequenceLength(_ lead: UInt8) -> Int {
    switch lead {
    case 0xC2...0xDF: 2
    case 0xE0...0xEF: 3
    case 0xF0...0xF4: 4
    default: 1
    }
  }

  /// Where a UTF-8 sequence that the end of `bytes` cuts begins (`bytes.count` when none does).
  static func endOfWholeCharacters(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var lead = bytes.count - 1
    while lead >= start, lead > bytes.count - 4, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
    guard lead >= start else { return bytes.count }
    return sequenceLength(bytes[lead]) > bytes.count - lead ? lead : bytes.count
  }

  // MARK: - Positions

  /// The column (in characters) of the byte at `index` of the chunk, which is on the current line.
  private mutating func column(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var position = max(anchorOffset - chunkStart, 0)
    guard position < index, let base = bytes.baseAddress else { return anchorColumn }
    var column = anchorColumn
    // Every byte but a continuation byte (10xxxxxx) starts a character: eight at a time.
    while position + 8 <= index {
      let word = ByteSearch.word(base, at: position)
      column += 8 - (word & ~(word << 1) & ByteSearch.highBits).nonzeroBitCount
      position += 8
    }
    while position < index {
      if base[position] & 0xC0 != 0x80 { column += 1 }
      position += 1
    }
    anchorOffset = chunkStart + index
    anchorColumn = column
    return column
  }

  @inline(__always)
  private mutating func newline(at index: Int) {
    line += 1
    anchorOffset = chunkStart + index + 1
    anchorColumn = 1
    lineHasContent = false
  }

  /// The offset in the record of the byte at `index` of the chunk.
  @inline(__always)
  private func recordOffset(_ index: Int) -> Int {
    record.length + index - segmentStart
  }

  /// Whether the record being read can be kept as a sample only: it is broken
  /// or is not an object, so it cannot be a review.
  private var recordIsSampled: Bool {
    @inline(__always) get { problem != nil && !candidate.isOpen || !recordIsObject }
  }

  /// How a character is named in messages: `'}'`, `U+000A`, `byte 0xFF`.
  static func describe(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> String {
    let byte = bytes[index]
    if byte >= 0x20, byte < 0x7F { return "'\(Unicode.Scalar(byte))'" }
    if byte < 0x80 { return CodePointNotation.string(UInt32(byte)) }
    if case .scalar(let value, _) = UTF8Stream.step(bytes, at: index) {
      if let scalar = Unicode.Scalar(value), !scalar.properties.isWhitespace,
        scalar.properties.generalCategory != .control, scalar.properties.generalCategory != .format
      {
        return "'\(scalar)' (\(CodePointNotation.string(value)))"
      }
      return CodePointNotation.string(value)
    }
    return "byte 0x" + hex(UInt32(byte), digits: 2)
  }

  static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }

  // MARK: - Problems

  /// A syntax error at the byte at `index`: the record's problem, or a structure problem.
  private mutating func fail(_ message: String, at index: Int, in bytes: UnsafeBufferPointer<UInt8>)
  {
    let column = column(at: index, in: bytes)
    if inRecord {
      if problem == nil {
        problem = Problem(message: message, line: line, column: column, offset: recordOffset(index))
        onlyNULsSinceProblem = index < bytes.count && bytes[index] == 0
        tokenAtProblem = token
      }
    } else {
      addStructureProblem(Problem(message: message, line: line, column: column, offset: 0))
    }
  }

  private mutating func addStructureProblem(_ problem: Problem) {
    structureProblemCount += 1
    structureProblems.append(problem)
  }

  /// The structure problems found since the last call, in input order.
  public mutating func takeStructureProblems() -> [Problem] {
    defer {
      structureProblems.removeAll()
      problemsHandedOut = 0
    }
    return structureProblems
  }

  // MARK: - Records

  private mutating func startRecord(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) {
    inRecord = true
    recordBase = stack.count
    segmentStart = index
    record.reset()
    members.removeAll(keepingCapacity: true)
    problem = nil
    onlyNULsSinceProblem = false
    excessDepth = 0
    pendingCloser = -1
    garbageRecord = false
    lenientString = false
    lenientEscape = false
    recordHasWhitespace = false
    recordIsObject = bytes[index] == UInt8(ascii: "{")
    recordLine = line
    recordColumn = column(at: index, in: bytes)
    recordFirstOnLine = !lineHasContent
    recordStartOffset = chunkStart + index
    // A candidate is decided (and set afresh) before its record ends.
    assert(!candidate.isOpen, "no envelope candidate left open")
  }

  /// Ends the record just before `end` and hands it to `body`.
  private mutating func finishRecord(
    at end: Int, in bytes: UnsafeBufferPointer<UInt8>, cutAt cut: Int? = nil,
    _ body: (Record) throws -> Void
  ) rethrows {
    if candidate.isOpen, lookAtCandidate(upTo: end, in: bytes) != .record {
      // A record in its records member, or no content string to its end: an envelope, read again as one.
      try readCandidateAsEnvelope(continuingAt: end, in: bytes, body)
      restartIndex = end
      return
    }
    record.append(
      UnsafeBufferPointer(rebasing: bytes[segmentStart..<end]), sampleOnly: recordIsSampled)
    if let cut { record.cut(at: cut) }
    if problem != nil {
      // A broken record ends where its text does, not with the line break after it.
      record.trimTrailingWhitespace()
    }
    if recordIsSampled { record.keepSampleOnly() }
    inRecord = false
    if stack.count > recordBase { stack.removeLast(stack.count - recordBase) }
    token = .none
    var found = Record(
      bytes: record.bytes, index: recordCount, line: recordLine, column: recordColumn,
      problem: problem, isObject: recordIsObject, members: problem == nil ? members : [],
      hasWhitespace: recordHasWhitespace, isTruncated: record.isTruncated)
    if problemsHandedOut < structureProblems.count {
      found.structureProblemsBefore = Array(structureProblems[problemsHandedOut...])
      problemsHandedOut = structureProblems.count
    }
    recordCount += 1
    try body(found)
  }

  // MARK: - Envelope candidates (see JSONEnvelopeCandidate)

  /// Keeps the record's bytes up to `index` of the chunk, so that its members can be looked at.
  private mutating func keepRecord(upTo index: Int, in bytes: UnsafeBufferPointer<UInt8>) {
    record.append(
      UnsafeBufferPointer(rebasing: bytes[segmentStart..<index]), sampleOnly: recordIsSampled)
    segmentStart = index
  }

  /// Whether a top-level member of the record read so far is a content string
  /// (its bytes kept up to the last member's end).
  private var hasContentString: Bool {
    members.contains {
      JSONEnvelopeCandidate.isContentString(
        name: $0.name, value: $0.value, in: record.bytes, contentField: contentFieldBytes)
    }
  }

  /// Looks at what ended in the candidate since the last look, up to
  /// `index` of the chunk (see ``JSONEnvelopeCandidate/look(members:in:contentField:)``).
  private mutating func lookAtCandidate(
    upTo index: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> JSONEnvelopeCandidate.Decision? {
    keepRecord(upTo: index, in: bytes)
    let decision = candidate.look(
      members: members, in: record.bytes, contentField: contentFieldBytes)
    if decision == .record { candidate = JSONEnvelopeCandidate() }
    return decision
  }

  /// Reads the candidate again as an envelope, from its first byte to `index`
  /// of the chunk, and goes on from there as that reading stands: its
  /// records, problems, nesting and positions are those of an envelope read
  /// from the start.
  private mutating func readCandidateAsEnvelope(
    continuingAt index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    record.append(UnsafeBufferPointer(rebasing: bytes[segmentStart..<index]), sampleOnly: false)
    let point = ResumePoint(
      offset: recordStartOffset, line: recordLine, column: recordColumn,
      lineHasContent: !recordFirstOnLine, container: .none)
    var envelope = JSONRecordSplitter(
      recordsField: recordsField, contentField: contentField, resumingAt: point)
    envelope.decidesEnvelopesAtOnce = true
    envelope.recordCount = recordCount
    envelope.structureProblems = structureProblems
    envelope.structureProblemCount = structureProblemCount
    envelope.problemsHandedOut = problemsHandedOut
    let text = record.bytes
    record.discard()
    try text.withUnsafeBufferPointer { try envelope.scan($0, body) }
    assert(envelope.chunkStart == chunkStart + index, "read again up to where this reading stands")
    envelope.decidesEnvelopesAtOnce = false
    envelope.chunkStart = chunkStart
    envelope.cutSequence = cutSequence
    // What that reading left to the next chunk starts at `index` of this one.
    if envelope.inRecord { envelope.segmentStart = index }
    if envelope.nameStart >= 0 { envelope.nameStart = index }
    self = envelope
  }

  // MARK: - Scanning

  private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void)
    rethrows
  {
    var index = 0
    let count = bytes.count
    while index < count {
      if inRecord, problem != nil {
        try lenient(at: index, in: bytes, body)
        index = afterByte(index)
        continue
      }
      switch token {
      case .string:
        index = scanString(from: index, in: bytes)
        if pendingStringEnd >= 0 {
          let end = pendingStringEnd
          pendingStringEnd = -1
          if !valueEndedInsideRecord(at: end) { try valueEnded(at: end, in: bytes, body) }
        }
        continue
      case .number:
        if continueNumber(bytes[index]) {
          index += 1
          while index < count, continueNumber(bytes[index]) { index += 1 }
          continue
        }
        if !numberState.isComplete {
          fail("unexpected \(Self.describe(bytes, at: index)) in a number", at: index, in: bytes)
          token = .none
          continue
        }
        token = .none
        if !valueEndedInsideRecord(at: index) { try valueEnded(at: index, in: bytes, body) }
        continue
      case .literal:
        let expected = literal.withUTF8Buffer { $0[literalPosition] }
        if bytes[index] != expected {
          fail(
            "unexpected \(Self.describe(bytes, at: index)) in '\(literal)'", at: index, in: bytes)
          token = .none
          continue
        }
        literalPosition += 1
        index += 1
        if literalPosition == literal.utf8CodeUnitCount {
          token = .none
          if !valueEndedInsideRecord(at: index) { try valueEnded(at: index, in: bytes, body) }
        }
        continue
      case .none:
        break
      }
      if skippingText {
        // Text between values: skipped up to whitespace or the start of an object or array.
        let byte = bytes[index]
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
          skippingText = false
          continue
        }
        if byte == 0x0A {
          skippingText = false
          newline(at: index)
        } else if byte == 0x20 || byte == 0x09 || byte == 0x0D {
          skippingText = false
        }
        index += 1
        continue
      }
      if bytes[index] == 0xEF, stack.isEmpty, !inRecord, index + 2 < count,
        bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF
      {
        // A byte order mark between values: files joined with cat that each had one.
        index += 3
        continue
      }
      let next = quickStructural(at: index, in: bytes)
      if next > index {
        index = next
        continue
      }
      try structural(at: index, in: bytes, body)
      index = afterByte(index)
    }
    if candidate.isOpen, lookAtCandidate(upTo: count, in: bytes) == .envelope {
      try readCandidateAsEnvelope(continuingAt: count, in: bytes, body)
    }
    // Keep what the chunk held of the record and of a member name.
    if inRecord {
      record.append(
        UnsafeBufferPointer(rebasing: bytes[segmentStart..<count]), sampleOnly: recordIsSampled)
      segmentStart = 0
    }
    if nameStart >= 0 {
      appendName(UnsafeBufferPointer(rebasing: bytes[nameStart..<count]))
      nameStart = 0
    }
    _ = column(at: count, in: bytes)
    chunkStart += count
    if candidate.isOpen, record.length > JSONEnvelopeCandidate.decisionLimit {
      // Too long to wait for, with no content string so far: an envelope (one after this is reported).
      try [UInt8]().withUnsafeBufferPointer {
        try readCandidateAsEnvelope(continuingAt: 0, in: $0, body)
      }
    }
  }

  /// The index the scan goes on from after the byte at `index`.
  @inline(__always)
  private mutating func afterByte(_ index: Int) -> Int {
    guard restartIndex >= 0 else { return index + 1 }
    defer { restartIndex = -1 }
    return restartIndex
  }

  /// The bytes of valid JSON that make up most of a record, taken without
  /// ``structural(at:in:_:)`` (which may end a record and so carries the
  /// record handler): whitespace, and inside a record's nesting every
  /// punctuation (with the spaces after it), a whole string, number or
  /// literal (or its start, when the chunk ends first), and a nested object
  /// or array opening or closing. Returns the index to go on from, or
  /// `index` to leave the byte to ``structural(at:in:_:)``, having changed nothing.
  @inline(__always)
  private mutating func quickStructural(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int
  {
    let byte = bytes[index]
    switch byte {
    case 0x20, 0x09, 0x0D:
      if inRecord { recordHasWhitespace = true }
      return index + 1
    case 0x0A:
      if inRecord { recordHasWhitespace = true }
      newline(at: index)
      return index + 1
    default:
      break
    }
    guard inRecord, stack.count > recordBase else { return index }
    let state = stack.innermost.state
    let isValuePlace = state == .value || state == .valueOrEnd || state == .element
    switch byte {
    case UInt8(ascii: "\""):
      if state == .nameOrEnd || state == .name {
        stack.innermost.state = .colon
        beginString(at: index, isName: true, in: bytes)
      } else if isValuePlace {
        startValue(at: index, state: state)
        beginString(at: index, isName: false, in: bytes)
      } else {
        return index
      }
      lineHasContent = true
      let next = scanString(from: index + 1, in: bytes)
      if pendingStringEnd >= 0 {
        // A string value inside the record: it ends no record.
        let end = pendingStringEnd
        pendingStringEnd = -1
        _ = valueEndedInsideRecord(at: end)
      }
      return next
    case UInt8(ascii: ":"):
      guard state == .colon else { return index }
      stack.innermost.state = .value
      lineHasContent = true
      return skipSpaces(after: index, in: bytes)
    case UInt8(ascii: ","):
      if state == .commaOrEndObject {
        stack.innermost.state = .name
      } else if state == .commaOrEndArray {
        stack.innermost.state = .element
      } else {
        return index
      }
      lineHasContent = true
      return skipSpaces(after: index, in: bytes)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      guard isValuePlace else { return index }
      lineHasContent = true
      startValue(at: index, state: state)
      token = .number
      numberState = .minus
      _ = continueNumber(byte)
      var next = index + 1
      while next < bytes.count, continueNumber(bytes[next]) { next += 1 }
      if next < bytes.count, numberState.isComplete {
        token = .none
        _ = valueEndedInsideRecord(at: next)
      }
      return next
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      guard isValuePlace else { return index }
      lineHasContent = true
      startValue(at: index, state: state)
      token = .literal
      literal = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
      literalPosition = 1
      let length = literal.utf8CodeUnitCount
      guard index + length <= bytes.count else { return index + 1 }
      let whole = literal.withUTF8Buffer { expected in
        (1..<length).allSatisfy { bytes[index + $0] == expected[$0] }
      }
      guard whole else { return index + 1 }
      token = .none
      _ = valueEndedInsideRecord(at: index + length)
      return index + length
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      // An array that may hold an envelope's records, and nesting too deep, take the long way.
      guard isValuePlace, stack.count - recordBase < Self.maximumDepth,
        byte == UInt8(ascii: "{") || stack.count != 1
      else { return index }
      lineHasContent = true
      startValue(at: index, state: state)
      let isObject = byte == UInt8(ascii: "{")
      stack.append(
        Frame(isObject: isObject, state: isObject ? .nameOrEnd : .valueOrEnd, role: .plain))
      return index + 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      // The record's own closer ends the record: the long way.
      guard stack.count > recordBase + 1 else { return index }
      let closes =
        byte == UInt8(ascii: "}")
        ? state == .nameOrEnd || state == .commaOrEndObject
        : state == .valueOrEnd || state == .commaOrEndArray
      guard closes else { return index }
      lineHasContent = true
      stack.removeLast()
      _ = valueEndedInsideRecord(at: index + 1)
      return index + 1
    default:
      return index
    }
  }

  /// The index after `index` and the spaces, tabs and carriage returns that follow it.
  @inline(__always)
  private mutating func skipSpaces(after index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var next = index + 1
    while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 || bytes[next] == 0x0D {
      next += 1
    }
    if next > index + 1 { recordHasWhitespace = true }
    return next
  }

  /// A value starts inside a record where one may (`state` says so): the
  /// frame moves on and a member's value start is noted.
  @inline(__always)
  private mutating func startValue(at index: Int, state: State) {
    stack.innermost.state = state == .value ? .commaOrEndObject : .commaOrEndArray
    if recordIsObject, stack.count == recordBase + 1 { memberValueStart = recordOffset(index) }
  }

  /// A value ended just before `end` inside a record's nesting (or outside
  /// any record): notes a top-level member. Returns false when the value is
  /// the record itself, which ``valueEnded(at:in:_:)`` must end.
  @inline(__always)
  private mutating func valueEndedInsideRecord(at end: Int) -> Bool {
    guard inRecord else { return true }
    if stack.count == recordBase { return false }
    if recordIsObject, stack.count == recordBase + 1 {
      members.append(Member(name: memberName, value: memberValueStart..<recordOffset(end)))
      if candidate.isOpen { candidate.memberEnded() }
    } else if stack.count == candidate.recordsDepth {
      candidate.elementEnded(at: recordOffset(end))
    }
    return true
  }

  /// One byte outside strings, numbers and literals, in a valid stretch.
  private mutating func structural(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    let byte = bytes[index]
    switch byte {
    case 0x20, 0x09, 0x0D:
      if inRecord { recordHasWhitespace = true }
      return
    case 0x0A:
      if inRecord { recordHasWhitespace = true }
      newline(at: index)
      return
    default:
      break
    }
    let state = stack.last?.state
    switch byte {
    case UInt8(ascii: "\""):
      if state == .nameOrEnd || state == .name {
        stack[stack.count - 1].state = .colon
        beginString(at: index, isName: true, in: bytes)
      } else if try beginValue(at: index, in: bytes, body) {
        if !inRecord, stack.count == 1, stack[0].role == .envelope, nameIsContentField {
          fail(
            "the envelope's own \(JSONWriter.quoted(contentField)) string is not imported: "
              + "its \(JSONWriter.quoted(recordsField)) was already read as records",
            at: index, in: bytes)
        }
        beginString(at: index, isName: false, in: bytes)
      }
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let isObject = byte == UInt8(ascii: "{")
      let holdsRecords = !isObject && (stack.isEmpty && !inRecord || isRecordsMember)
      if try beginValue(at: index, in: bytes, body) {
        var role = Role.plain
        if holdsRecords, inRecord, !decidesEnvelopesAtOnce {
          // It may yet be a record with a data array: read on as one until that is known.
          keepRecord(upTo: index, in: bytes)
          if !hasContentString {
            candidate.beginRecords(at: recordOffset(index + 1), depth: stack.count + 1)
          }
        } else if holdsRecords {
          if inRecord {
            // The top-level object being read is an envelope: what came before is read past.
            inRecord = false
            record.discard()
            stack[0].role = .envelope
          }
          role = .records
        }
        stack.append(
          Frame(isObject: isObject, state: isObject ? .nameOrEnd : .valueOrEnd, role: role))
        if inRecord, stack.count - recordBase > Self.maximumDepth {
          fail("nesting deeper than \(Self.maximumDepth)", at: index, in: bytes)
        }
        if stack.count == 1 {
          topLine = line
          topColumn = column(at: index, in: bytes)
        }
      }
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      let isObject = byte == UInt8(ascii: "}")
      let closes =
        isObject
        ? state == .nameOrEnd || state == .commaOrEndObject
        : state == .valueOrEnd || state == .commaOrEndArray
      guard closes else {
        let after = state == .name || state == .element ? " after ','" : ""
        fail("unexpected \(Self.describe(bytes, at: index))\(after)", at: index, in: bytes)
        if inRecord {
          try lenient(at: index, in: bytes, body)
        } else if state == .name || state == .element, stack.last?.isObject == isObject {
          // A trailing comma: the container still ends here.
          stack.removeLast()
          try valueEnded(at: index + 1, in: bytes, body)
        } else if stack.isEmpty {
          // A closer with nothing open: the text it starts is skipped, one report for a run.
          skippingText = true
        }
        return
      }
      stack.removeLast()
      try valueEnded(at: index + 1, in: bytes, body)
    case UInt8(ascii: ","):
      if state == .commaOrEndObject {
        stack[stack.count - 1].state = .name
      } else if state == .commaOrEndArray {
        stack[stack.count - 1].state = .element
      } else {
        unexpected(at: index, in: bytes)
        if inRecord { try lenient(at: index, in: bytes, body) }
      }
    case UInt8(ascii: ":"):
      if state == .colon {
        stack[stack.count - 1].state = .value
      } else {
        unexpected(at: index, in: bytes)
        if inRecord { try lenient(at: index, in: bytes, body) }
      }
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      if try beginValue(at: index, in: bytes, body) {
        token = .number
        numberState = .minus
        _ = continueNumber(byte)
      }
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      if try beginValue(at: index, in: bytes, body) {
        token = .literal
        literal = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
        literalPosition = 1
      }
    default:
      if stack.isEmpty, !inRecord, !lineHasContent {
        // A line of something else at the top level: a record that is not JSON, up to the line's end.
        startRecord(at: index, in: bytes)
        garbageRecord = true
        fail("unexpected \(Self.describe(bytes, at: index))", at: index, in: bytes)
      } else {
        unexpected(at: index, in: bytes)
        if inRecord { try lenient(at: index, in: bytes, body) }
      }
    }
    // After a record read again as an envelope, that reading's state stands.
    if restartIndex < 0 { lineHasContent = true }
  }

  /// Reports an unexpected character; at the top level, the text it starts is skipped.
  private mutating func unexpected(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) {
    let place = stack.isEmpty && !inRecord ? " between values" : ""
    fail("unexpected \(Self.describe(bytes, at: index))\(place)", at: index, in: bytes)
    if stack.isEmpty, !inRecord { skippingText = true }
  }

  /// Whether the value about to start is the records member of a top-level object.
  private var isRecordsMember: Bool {
    guard stack.count == 1, stack[0].isObject, stack[0].state == .value, !nameOverflow else {
      return false
    }
    if !inRecord { return stack[0].role == .envelope && nameMatches }
    return recordBase == 0 && problem == nil && nameMatches
  }

  private var nameMatches: Bool { nameIs(recordsFieldBytes, recordsField) }

  /// Whether the member name just read at the top level is the content field.
  private var nameIsContentField: Bool { !nameOverflow && nameIs(contentFieldBytes, contentField) }

  /// Whether the member name just read at the top level is `text` (its UTF-8 `bytes`).
  private func nameIs(_ bytes: [UInt8], _ text: String) -> Bool {
    if !nameBytes.contains(UInt8(ascii: "\\")) { return nameBytes == bytes }
    let token = [UInt8(ascii: "\"")] + nameBytes + [UInt8(ascii: "\"")]
    return (try? JSONParser.parse(token))?.stringValue == text
  }

  /// A value starts at `index`: checks that one may, starts a record where
  /// records are, notes member positions. Returns whether to read the value.
  private mutating func beginValue(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows -> Bool {
    if let frame = stack.last {
      switch frame.state {
      case .value:
        stack[stack.count - 1].state = .commaOrEndObject
      case .valueOrEnd, .element:
        stack[stack.count - 1].state = .commaOrEndArray
      case .commaOrEndArray where !inRecord:
        // A missing comma between records: report it, read the record.
        fail("missing ',' before \(Self.describe(bytes, at: index))", at: index, in: bytes)
      default:
        fail("unexpected \(Self.describe(bytes, at: index))", at: index, in: bytes)
        if inRecord { try lenient(at: index, in: bytes, body) }
        return false
      }
    }
    let startsRecord =
      stack.isEmpty ? bytes[index] != UInt8(ascii: "[") : stack[stack.count - 1].role == .records
    if !inRecord, startsRecord {
      startRecord(at: index, in: bytes)
    } else if inRecord, recordIsObject, stack.count == recordBase + 1 {
      memberValueStart = recordOffset(index)
    }
    return true
  }

  /// A value ended just before `end`: the record, or a member of it, may be complete.
  private mutating func valueEnded(
    at end: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    guard inRecord else { return }
    if stack.count == recordBase {
      try finishRecord(at: end, in: bytes, body)
    } else if recordIsObject, stack.count == recordBase + 1 {
      members.append(Member(name: memberName, value: memberValueStart..<recordOffset(end)))
      if candidate.isOpen { candidate.memberEnded() }
    } else if stack.count == candidate.recordsDepth {
      candidate.elementEnded(at: recordOffset(end))
    }
  }

  private mutating func appendName(_ bytes: UnsafeBufferPointer<UInt8>) {
    if nameBytes.count + bytes.count > 4096 {
      nameOverflow = true
    } else {
      nameBytes.append(contentsOf: bytes)
    }
  }

  // MARK: - Strings

  private mutating func beginString(
    at index: Int, isName: Bool, in bytes: UnsafeBufferPointer<UInt8>
  ) {
    token = .string
    stringIsName = isName
    escape = 0
    highSurrogatePending = false
    utf8Needed = 0
    utf8Low = 0x80
    utf8High = 0xBF
    if isName {
      if stack.count == 1 {
        nameBytes.removeAll(keepingCapacity: true)
        nameOverflow = false
        nameStart = index + 1
      }
      if inRecord, recordIsObject, stack.count == recordBase + 1 {
        memberName = recordOffset(index)..<recordOffset(index)
      }
    }
  }

  /// Reads string bytes from `start`; returns the index to go on from.
  private mutating func scanString(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var index = start
    let count = bytes.count
    while index < count {
      if utf8Needed == 0, escape == 0, !highSurrogatePending {
        index = Self.skipPlainText(bytes, from: index)
        guard index < count else { break }
      }
      let byte = bytes[index]
      if utf8Needed > 0 {
        guard byte >= utf8Low, byte <= utf8High else {
          return stringFailure(
            "invalid UTF-8: \(Self.describe(bytes, at: index)) where a continuation byte belongs",
            at: index, in: bytes, reread: true)
        }
        utf8Needed -= 1
        utf8Low = 0x80
        utf8High = 0xBF
        index += 1
        continue
      }
      if escape > 0 {
        if let message = escapeProblem(byte, at: index, in: bytes) {
          return stringFailure(message, at: index, in: bytes, reread: byte == UInt8(ascii: "\""))
        }
        index += 1
        continue
      }
      // The common case: plain ASCII and whole UTF-8 sequences.
      if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        if highSurrogatePending {
          return stringFailure(
            "a lone surrogate in a \\u escape", at: index, in: bytes, reread: true)
        }
        index += 1
        while index < count {
          let next = bytes[index]
          guard next >= 0x20, next < 0x80, next != UInt8(ascii: "\""), next != UInt8(ascii: "\\")
          else { break }
          index += 1
        }
        continue
      }
      if byte >= 0x80 {
        if highSurrogatePending {
          return stringFailure(
            "a lone surrogate in a \\u escape", at: index, in: bytes, reread: true)
        }
        // Whole three-byte sequences (Hangul) without the state machine.
        if byte & 0xF0 == 0xE0, index + 2 < count {
          let second = bytes[index + 1]
          let third = bytes[index + 2]
          let low: UInt8 = byte == 0xE0 ? 0xA0 : 0x80
          let high: UInt8 = byte == 0xED ? 0x9F : 0xBF
          if second >= low, second <= high, third & 0xC0 == 0x80 {
            index += 3
            continue
          }
        }
        switch byte {
        case 0xC2...0xDF: utf8Needed = 1
        case 0xE0:
          utf8Needed = 2
          utf8Low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: utf8Needed = 2
        case 0xED:
          utf8Needed = 2
          utf8High = 0x9F
        case 0xF0:
          utf8Needed = 3
          utf8Low = 0x90
        case 0xF1...0xF3: utf8Needed = 3
        case 0xF4:
          utf8Needed = 3
          utf8High = 0x8F
        default:
          return stringFailure(
            "invalid UTF-8: \(Self.describe(bytes, at: index))", at: index, in: bytes)
        }
        index += 1
        continue
      }
      if byte == UInt8(ascii: "\\") {
        escape = 1
        index += 1
        continue
      }
      if highSurrogatePending {
        return stringFailure("a lone surrogate in a \\u escape", at: index, in: bytes, reread: true)
      }
      if byte == UInt8(ascii: "\"") {
        token = .none
        if stringIsName {
          if stack.count == 1, nameStart >= 0 {
            appendName(UnsafeBufferPointer(rebasing: bytes[nameStart..<index]))
            nameStart = -1
          }
          if inRecord, recordIsObject, stack.count == recordBase + 1 {
            memberName = memberName.lowerBound..<recordOffset(index + 1)
          }
        } else {
          pendingStringEnd = index + 1
        }
        return index + 1
      }
      // A control character.
      let what = byte == 0x0A ? "a line break" : Self.describe(bytes, at: index)
      return stringFailure("\(what) inside a string (escape it)", at: index, in: bytes)
    }
    return index
  }

  /// The index of the first byte from `start` that is not plain string text:
  /// printable ASCII other than quote and backslash (eight bytes at a time),
  /// or a whole valid two-, three- or four-byte UTF-8 sequence (Hangul is
  /// three bytes; runs of them are taken without going back to the words).
  @inline(__always)
  static func skipPlainText(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return start }
    var index = start
    let count = bytes.count
    let quotes = ByteSearch.broadcast(UInt8(ascii: "\""))
    let backslashes = ByteSearch.broadcast(UInt8(ascii: "\\"))
    while index < count {
      if index + 8 <= count {
        let word = ByteSearch.word(base, at: index)
        let special =
          ByteSearch.bytesBelow(0x20, in: word) | ByteSearch.zeroBytes(word ^ quotes)
          | ByteSearch.zeroBytes(word ^ backslashes)
        let nonASCII = word & ByteSearch.highBits
        if special | nonASCII == 0 {
          index += 8
          continue
        }
        let firstSpecial = special == 0 ? 8 : ByteSearch.firstFlagged(special)
        let firstNonASCII = nonASCII == 0 ? 8 : ByteSearch.firstFlagged(nonASCII)
        if firstSpecial < firstNonASCII { return index + firstSpecial }
        index += firstNonASCII
      } else {
        let byte = base[index]
        if byte < 0x80 {
          guard byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else {
            return index
          }
          index += 1
          continue
        }
      }
      // Multi-byte sequences, one after another.
      while index < count {
        let byte = base[index]
        if byte & 0xF0 == 0xE0 {
          guard index + 2 < count else { return index }
          let second = base[index + 1]
          let low: UInt8 = byte == 0xE0 ? 0xA0 : 0x80
          let high: UInt8 = byte == 0xED ? 0x9F : 0xBF
          guard second >= low, second <= high, base[index + 2] & 0xC0 == 0x80 else { return index }
          index += 3
        } else if byte >= 0xC2, byte <= 0xDF {
          guard index + 1 < count, base[index + 1] & 0xC0 == 0x80 else { return index }
          index += 2
        } else if byte >= 0xF0, byte <= 0xF4 {
          guard index + 3 < count else { return index }
          let second = base[index + 1]
          let low: UInt8 = byte == 0xF0 ? 0x90 : 0x80
          let high: UInt8 = byte == 0xF4 ? 0x8F : 0xBF
          guard second >= low, second <= high, base[index + 2] & 0xC0 == 0x80,
            base[index + 3] & 0xC0 == 0x80
          else { return index }
          index += 4
        } else if byte < 0x80 {
          break
        } else {
          return index
        }
      }
    }
    return index
  }

  /// A string error at `index`: in a record, the broken-record reading takes
  /// over from that byte; elsewhere it is reported and the string goes on.
  /// Returns the index to go on from.
  private mutating func stringFailure(
    _ message: String, at index: Int, in bytes: UnsafeBufferPointer<UInt8>, reread: Bool = false
  ) -> Int {
    fail(message, at: index, in: bytes)
    if inRecord { return index }
    escape = 0
    utf8Needed = 0
    utf8Low = 0x80
    utf8High = 0xBF
    highSurrogatePending = false
    if reread { return index }
    if bytes[index] == 0x0A { newline(at: index) }
    return index + 1
  }

  /// Takes one byte of an escape; returns what is wrong with it, if anything.
  private mutating func escapeProblem(
    _ byte: UInt8, at index: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> String? {
    if escape == 1 {
      if byte == UInt8(ascii: "u") {
        escape = 2
        unicodeUnit = 0
        return nil
      }
      if highSurrogatePending { return "a lone surrogate in a \\u escape" }
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
        escape = 0
        return nil
      default:
        escape = 0
        return "invalid escape: \(Self.describe(bytes, at: index)) after '\\'"
      }
    }
    guard let digit = jsonHexDigit(byte) else {
      escape = 0
      return "unexpected \(Self.describe(bytes, at: index)) in a \\u escape"
    }
    unicodeUnit = unicodeUnit << 4 | UInt32(digit)
    escape += 1
    guard escape == 6 else { return nil }
    escape = 0
    let isHigh = (0xD800..<0xDC00).contains(unicodeUnit)
    let isLow = (0xDC00..<0xE000).contains(unicodeUnit)
    if highSurrogatePending {
      highSurrogatePending = false
      guard isLow else { return "a lone surrogate in a \\u escape" }
    } else if isHigh {
      highSurrogatePending = true
    } else if isLow {
      return "a lone surrogate in a \\u escape"
    }
    return nil
  }

  // MARK: - Numbers

  /// Takes the next byte of a number if it continues it.
  @inline(__always)
  private mutating func continueNumber(_ byte: UInt8) -> Bool {
    let isDigit = byte >= 0x30 && byte <= 0x39
    switch numberState {
    case .minus:
      if byte == UInt8(ascii: "-") { return true }
      guard isDigit else { return false }
      numberState = byte == 0x30 ? .zero : .integer
    case .zero, .integer:
      if isDigit, numberState == .integer { return true }
      if byte == UInt8(ascii: ".") {
        numberState = .dot
      } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        numberState = .exponent
      } else {
        return false
      }
    case .dot:
      guard isDigit else { return false }
      numberState = .fraction
    case .fraction:
      if isDigit { return true }
      guard byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") else { return false }
      numberState = .exponent
    case .exponent:
      if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
        numberState = .exponentSign
        return true
      }
      guard isDigit else { return false }
      numberState = .exponentDigits
    case .exponentSign:
      guard isDigit else { return false }
      numberState = .exponentDigits
    case .exponentDigits:
      return isDigit
    }
    return true
  }

  // MARK: - Broken records

  /// One byte of a record that already has a syntax error: strings and bracket kinds are
  /// followed so that the record ends where it most likely does.
  private mutating func lenient(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    let byte = bytes[index]
    if onlyNULsSinceProblem, byte != 0 { onlyNULsSinceProblem = false }
    if garbageRecord {
      if byte == 0x0A {
        try finishRecord(at: index, in: bytes, body)
        newline(at: index)
      }
      return
    }
    if token == .string {
      // The string that held the error: it ends at its quote or at the line's end.
      token = .none
      lenientString = true
      lenientEscape = escape == 1
    } else if token != .none {
      token = .none
    }
    if lenientString {
      if byte == 0x0A {
        lenientString = false
        newline(at: index)
      } else if lenientEscape {
        lenientEscape = false
      } else if byte == UInt8(ascii: "\\") {
        lenientEscape = true
      } else if byte == UInt8(ascii: "\"") {
        lenientString = false
      }
      return
    }
    switch byte {
    case 0x0A:
      newline(at: index)
      return
    case 0x20, 0x09, 0x0D:
      return
    default:
      break
    }
    if pendingCloser >= 0 {
      let closesRecordFrame =
        (byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")) && stack.count > recordBase
        && stack[stack.count - 1].isObject == (byte == UInt8(ascii: "}"))
      if closesRecordFrame {
        // The record's own closer follows: the other one was stray.
        pendingCloser = -1
      } else {
        // The closer ended the record and closes what is around it.
        try closeAroundRecord(at: index, in: bytes, body)
        try structural(at: index, in: bytes, body)
        return
      }
    }
    switch byte {
    case UInt8(ascii: "\""):
      lenientString = true
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      if !lineHasContent, column(at: index, in: bytes) <= recordColumn {
        // A value that starts a line no further right than the broken record
        // (which may have begun after another value on its line): the next record.
        try finishRecord(at: index, in: bytes, body)
        // Read again as an envelope: that reading takes this byte too.
        if restartIndex >= 0 { return }
        if let frame = stack.last, frame.role == .records {
          stack[stack.count - 1].state = .element
        }
        try structural(at: index, in: bytes, body)
        return
      }
      if stack.count - recordBase > Self.maximumDepth {
        // Deeper than any record may be: counted, so that memory stays bounded.
        excessDepth += 1
      } else {
        stack.append(
          Frame(isObject: byte == UInt8(ascii: "{"), state: .commaOrEndObject, role: .plain))
      }
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      if excessDepth > 0 {
        excessDepth -= 1
        break
      }
      let isObject = byte == UInt8(ascii: "}")
      guard let match = stack.lastIndex(where: { $0.isObject == isObject }) else { break }
      if match >= recordBase {
        stack.removeLast(stack.count - match)
        if stack.count == recordBase { try finishRecord(at: index + 1, in: bytes, body) }
      } else {
        // It closes an array or envelope around the record, or it is stray: the next character says.
        pendingCloser = recordOffset(index)
        pendingCloserMatch = match
      }
    default:
      break
    }
    lineHasContent = true
  }

  /// Ends the broken record before its pending closer, which closes the frames around it.
  private mutating func closeAroundRecord(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    let match = pendingCloserMatch
    try finishRecord(at: index, in: bytes, cutAt: pendingCloser, body)
    pendingCloser = -1
    stack.removeLast(stack.count - match)
  }

  // MARK: - The end

  /// What an end of input interrupts, as messages say it: ` inside a string`.
  private func inside(_ token: Token) -> String {
    switch token {
    case .string: " inside a string"
    case .number: " inside a number"
    case .literal: " inside '\(literal)'"
    case .none: ""
    }
  }

  private mutating func finish(_ body: (Record) throws -> Void) rethrows {
    if !started {
      started = true
      let buffered = startBytes
      startBytes = []
      try buffered.withUnsafeBufferPointer { try scanWholeCharacters($0, body) }
    }
    if !cutSequence.isEmpty {
      let rest = cutSequence
      cutSequence = []
      try rest.withUnsafeBufferPointer { try scan($0, body) }
    }
    try [UInt8]().withUnsafeBufferPointer { empty in
      if inRecord, candidate.isOpen, lookAtCandidate(upTo: 0, in: empty) != .record {
        try readCandidateAsEnvelope(continuingAt: 0, in: empty, body)
      }
      if token == .number, numberState.isComplete, !(inRecord && problem != nil) {
        token = .none
        try valueEnded(at: 0, in: empty, body)
      }
      if inRecord, pendingCloser >= 0 {
        try closeAroundRecord(at: 0, in: empty, body)
      }
      if inRecord {
        if problem == nil {
          problem = Problem(
            message: "unexpected end of input\(inside(token))", line: line, column: anchorColumn,
            offset: record.length)
        } else if onlyNULsSinceProblem, let found = problem {
          // A file cut short and padded with NUL bytes (as a crash or truncate(1) leaves it).
          let count = record.length - found.offset
          let message =
            "unexpected end of input\(inside(tokenAtProblem)) (the rest of the input is "
            + "\(count) NUL byte\(count == 1 ? "" : "s"), as in a truncated file)"
          problem?.message = message
        }
        try finishRecord(at: 0, in: empty, body)
      }
    }
    if let outer = stack.first {
      let what = outer.role == .envelope ? "envelope" : outer.isObject ? "object" : "array"
      addStructureProblem(
        Problem(
          message:
            "unexpected end of input inside the \(what) that starts at \(topLine):\(topColumn)",
          line: line, column: anchorColumn, offset: 0))
    }
    stack.removeAll()
    token = .none
  }
}

// MARK: - Resuming in the middle of an input

extension JSONRecordSplitter {
  /// A place between two records where a splitter can start reading in the
  /// middle of an input (a piece of a parallel run), and everything the
  /// splitter that read up to it would carry on with: the offset, line and
  /// column, and what holds the records there. ``JSONRecordBoundaryFinder``
  /// finds such places; ``resumePoint`` says whether a splitter that read up
  /// to one stands exactly there.
  ///
  ///     let point = JSONRecordSplitter.ResumePoint(
  ///       offset: 17, line: 1, column: 18, lineHasContent: true, container: .envelope(line: 1, column: 1))
  ///     var splitter = JSONRecordSplitter(resumingAt: point)  // reads `{"b":2}]}` as record 1 of `{"data":[{"a":1},`
  ///
  /// O(1).
  public struct ResumePoint: Sendable, Equatable {
    /// What holds the records at the place, with the line and column where it starts.
    public enum Container: Sendable, Equatable {
      /// Nothing: between top-level values (JSON Lines, values one after another).
      case none
      /// A top-level array of records, just after a comma between two of them.
      case array(line: Int, column: Int)
      /// The records member of an envelope, just after a comma between two records.
      case envelope(line: Int, column: Int)
    }

    /// The byte offset in the input (a byte order mark at its start included).
    public var offset: Int
    /// The line (1-based) and column (1-based, in characters) of the byte at `offset`.
    public var line: Int
    public var column: Int
    /// Whether the line holds anything but whitespace before `offset`.
    public var lineHasContent: Bool
    public var container: Container

    public init(offset: Int, line: Int, column: Int, lineHasContent: Bool, container: Container) {
      self.offset = offset
      self.line = line
      self.column = column
      self.lineHasContent = lineHasContent
      self.container = container
    }
  }

  /// A splitter that starts at `point`, as the splitter that read the input
  /// up to there would go on (records are counted from 0 again).
  public init(
    recordsField: String = "data", contentField: String = "content", resumingAt point: ResumePoint
  ) {
    self.init(recordsField: recordsField, contentField: contentField)
    started = true
    chunkStart = point.offset
    anchorOffset = point.offset
    anchorColumn = point.column
    line = point.line
    lineHasContent = point.lineHasContent
    switch point.container {
    case .none:
      break
    case .array(let line, let column):
      stack.append(Frame(isObject: false, state: .element, role: .records))
      (topLine, topColumn) = (line, column)
    case .envelope(let line, let column):
      stack.append(Frame(isObject: true, state: .commaOrEndObject, role: .envelope))
      stack.append(Frame(isObject: false, state: .element, role: .records))
      (topLine, topColumn) = (line, column)
    }
  }

  /// Where the splitter stands, when it stands where a splitter made with
  /// ``init(recordsField:resumingAt:)`` could take over: between records,
  /// no token, record or cut character open, the nesting one of the
  /// containers of ``ResumePoint/Container``; otherwise `nil`. Every other
  /// field of the splitter is set afresh before it is read again from such a
  /// place (the record's fields when a record starts, a token's when it
  /// starts, a member name when the next name starts), so two splitters at
  /// the same point read the rest of the input alike. O(1).
  public var resumePoint: ResumePoint? {
    guard started, startBytes.isEmpty, cutSequence.isEmpty, !inRecord, token == .none,
      !skippingText, pendingStringEnd < 0, nameStart < 0, anchorOffset == chunkStart
    else { return nil }
    let container: ResumePoint.Container
    switch stack.count {
    case 0:
      container = .none
    case 1:
      let records = stack[0]
      guard !records.isObject, records.state == .element, records.role == .records else {
        return nil
      }
      container = .array(line: topLine, column: topColumn)
    case 2:
      let envelope = stack[0]
      let records = stack[1]
      guard envelope.isObject, envelope.state == .commaOrEndObject, envelope.role == .envelope,
        !records.isObject, records.state == .element, records.role == .records
      else { return nil }
      container = .envelope(line: topLine, column: topColumn)
    default:
      return nil
    }
    return ResumePoint(
      offset: chunkStart, line: line, column: anchorColumn, lineHasContent: lineHasContent,
      container: container)
  }
}
