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
package struct JSONRecordSplitter: Sendable {
  /// A syntax error in a record, or a problem with the structure around records.
  package struct Problem: Sendable, Equatable {
    package var message: String
    /// The line (1-based) and column (1-based, in characters) of the offending character.
    package var line: Int
    package var column: Int
    /// The byte offset of the offending character in the record (records only).
    package var offset: Int
  }

  /// A top-level member of an object record: where its name and value are in the record's bytes.
  package struct Member: Sendable, Equatable {
    /// The name's token, quotes included.
    package var name: Range<Int>
    /// The value's token (or nested value), as it came.
    package var value: Range<Int>
  }

  /// One record: its bytes as they came, where it starts, and what was found in it.
  package struct Record: Sendable {
    package var bytes: [UInt8]
    /// Its 0-based index in the input.
    package var index: Int
    /// The line and column (in characters) of its first character.
    package var line: Int
    package var column: Int
    /// Why the record is not valid JSON, if it is not.
    package var problem: Problem?
    /// Whether it is an object (its first byte is `{`).
    package var isObject: Bool
    /// Its top-level members, in order (valid objects only).
    package var members: [Member]
    /// Whether there is whitespace between its tokens.
    package var hasWhitespace: Bool
    /// Whether ``bytes`` holds only the first ``JSONRecordSplitter/sampleLimit``
    /// bytes of the record (cut at a character boundary): a record that is
    /// broken or not an object is not kept whole, so that garbage costs bounded memory.
    package var isTruncated = false
    /// The structure problems found since the record before (they are in
    /// ``takeStructureProblems()`` too): reporting them before the record
    /// keeps every report in input order, however the input is cut into chunks.
    package var structureProblemsBefore: [Problem] = []
  }

  /// The member that holds an envelope's records.
  package var recordsField: String { fields.records }
  /// The member that holds a review's text: an object with a string there is a record.
  package var contentField: String { fields.content }
  /// Problems with the structure around records found since ``takeStructureProblems()``
  /// was last called (call it after each chunk: memory stays bounded).
  package var structureProblems: [Problem] { problemLog.problems }
  /// How many structure problems there were in all.
  package var structureProblemCount: Int { problemLog.count }
  /// How many records were found.
  package internal(set) var recordCount = 0

  // Each part of the state is a type of its own (JSONRecordSplitter+State.swift,
  // +Position, +Token, +Nesting), read and changed by the scan in the extensions:
  // +Structure (valid JSON, byte by byte), +FastPath (its common cases, quicker),
  // +Strings, +Records (records and envelope candidates), +Recovery (broken
  // records, the end of input), +Resume (starting in the middle of an input).
  let fields: FieldNames
  var problemLog = ProblemLog()
  var input = ChunkJoint()
  var position = TextPosition()
  var stack = FrameStack()
  /// Where the outermost open value starts.
  var outerStart = LineColumn()
  var lexer = TokenState()
  var name = TopLevelName()
  var current = OpenRecord()
  var recovery = Recovery()
  /// A top-level object with a records member, while it may yet be a record.
  var candidate = JSONEnvelopeCandidate()
  /// Whether such an object is an envelope at once (when one is read again as one).
  var decidesEnvelopesAtOnce = false
  /// Where the scan goes on after a record was read again as an envelope (-1: after the byte).
  var restartIndex = -1
  /// Whether text between values is being skipped (after an unexpected character there).
  var skippingText = false

  /// How deep a record may nest (as ``JSONParser`` allows): deeper is a syntax error.
  package static let maximumDepth = JSONParser.defaultMaximumDepth

  /// How many bytes of a record that cannot be a review (broken, or not an object) are kept.
  package static let sampleLimit = JSONRecordBuffer.sampleLimit

  /// A splitter of envelopes whose records are in `recordsField`; an object
  /// with a `contentField` string member is a record, not an envelope.
  package init(recordsField: String = "data", contentField: String = "content") {
    fields = FieldNames(records: recordsField, content: contentField)
  }

  /// Feeds the next chunk; `body` receives each complete record.
  package mutating func feed(_ chunk: [UInt8], isLast: Bool, _ body: (Record) throws -> Void)
    rethrows
  {
    try chunk.withUnsafeBufferPointer { try feed($0, isLast: isLast, body) }
  }

  /// Feeds the next chunk; `body` receives each complete record.
  package mutating func feed(
    _ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool, _ body: (Record) throws -> Void
  ) rethrows {
    if !input.started {
      // A byte order mark may start the input: decide once three bytes are in.
      input.startBytes.append(contentsOf: chunk)
      guard input.startBytes.count >= 3 || isLast else { return }
      input.started = true
      let buffered = input.startBytes
      input.startBytes = []
      let skip = buffered.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      position.chunkStart = skip
      position.anchorOffset = skip
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
  mutating func scanWholeCharacters(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    var start = 0
    if !input.cutSequence.isEmpty {
      let needed = Self.sequenceLength(input.cutSequence[0]) - input.cutSequence.count
      while start < needed, start < bytes.count, bytes[start] & 0xC0 == 0x80 { start += 1 }
      input.cutSequence.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<start]))
      if start < needed, start == bytes.count { return }
      let joined = input.cutSequence
      input.cutSequence = []
      try joined.withUnsafeBufferPointer { try scan($0, body) }
    }
    let end = Self.endOfWholeCharacters(bytes, from: start)
    try scan(UnsafeBufferPointer(rebasing: bytes[start..<end]), body)
    input.cutSequence.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[end...]))
  }

  /// How many bytes the UTF-8 sequence that `lead` starts has (1 for a byte that starts none).
  static func sequenceLength(_ lead: UInt8) -> Int {
    (UTF8Lead(lead)?.following ?? 0) + 1
  }

  /// Where a UTF-8 sequence that the end of `bytes` cuts begins (`bytes.count` when none does).
  static func endOfWholeCharacters(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var lead = bytes.count - 1
    while lead >= start, lead > bytes.count - 4, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
    guard lead >= start else { return bytes.count }
    return sequenceLength(bytes[lead]) > bytes.count - lead ? lead : bytes.count
  }

  /// Whether the record being read can be kept as a sample only: it is broken
  /// or is not an object, so it cannot be a review.
  var recordIsSampled: Bool {
    @inline(__always) get { recovery.problem != nil && !candidate.isOpen || !current.isObject }
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
  mutating func fail(_ message: String, at index: Int, in bytes: UnsafeBufferPointer<UInt8>) {
    let column = position.column(at: index, in: bytes)
    if current.isOpen {
      if recovery.problem == nil {
        recovery.problem = Problem(
          message: message, line: position.line, column: column, offset: current.offset(index))
        recovery.onlyNULsSinceProblem = index < bytes.count && bytes[index] == 0
        recovery.tokenAtProblem = lexer.token
      }
    } else {
      problemLog.add(Problem(message: message, line: position.line, column: column, offset: 0))
    }
  }

  /// The structure problems found since the last call, in input order.
  package mutating func takeStructureProblems() -> [Problem] {
    problemLog.take()
  }

  // MARK: - Scanning

  mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void)
    rethrows
  {
    var index = 0
    let count = bytes.count
    while index < count {
      if current.isOpen, recovery.problem != nil {
        try lenient(at: index, in: bytes, body)
        index = afterByte(index)
        continue
      }
      switch lexer.token {
      case .string:
        index = scanString(from: index, in: bytes)
        if lexer.pendingStringEnd >= 0 {
          let end = lexer.pendingStringEnd
          lexer.pendingStringEnd = -1
          if !valueEndedInsideRecord(at: end) { try valueEnded(at: end, in: bytes, body) }
        }
        continue
      case .number:
        if lexer.continueNumber(bytes[index]) {
          index += 1
          while index < count, lexer.continueNumber(bytes[index]) { index += 1 }
          continue
        }
        if !lexer.numberState.isComplete {
          fail("unexpected \(Self.describe(bytes, at: index)) in a number", at: index, in: bytes)
          lexer.token = .none
          continue
        }
        lexer.token = .none
        if !valueEndedInsideRecord(at: index) { try valueEnded(at: index, in: bytes, body) }
        continue
      case .literal:
        let expected = lexer.literal.withUTF8Buffer { $0[lexer.literalPosition] }
        if bytes[index] != expected {
          fail(
            "unexpected \(Self.describe(bytes, at: index)) in '\(lexer.literal)'", at: index,
            in: bytes)
          lexer.token = .none
          continue
        }
        lexer.literalPosition += 1
        index += 1
        if lexer.literalPosition == lexer.literal.utf8CodeUnitCount {
          lexer.token = .none
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
          position.newline(at: index)
        } else if byte == 0x20 || byte == 0x09 || byte == 0x0D {
          skippingText = false
        }
        index += 1
        continue
      }
      if bytes[index] == 0xEF, stack.isEmpty, !current.isOpen, index + 2 < count,
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
    if current.isOpen {
      current.buffer.append(
        UnsafeBufferPointer(rebasing: bytes[current.segmentStart..<count]),
        sampleOnly: recordIsSampled)
      current.segmentStart = 0
    }
    if name.start >= 0 {
      name.append(UnsafeBufferPointer(rebasing: bytes[name.start..<count]))
      name.start = 0
    }
    _ = position.column(at: count, in: bytes)
    position.chunkStart += count
    if candidate.isOpen, current.buffer.length > JSONEnvelopeCandidate.decisionLimit {
      // Too long to wait for, with no content string so far: an envelope (one after this is reported).
      try [UInt8]().withUnsafeBufferPointer {
        try readCandidateAsEnvelope(continuingAt: 0, in: $0, body)
      }
    }
  }

  /// The index the scan goes on from after the byte at `index`.
  @inline(__always)
  mutating func afterByte(_ index: Int) -> Int {
    guard restartIndex >= 0 else { return index + 1 }
    defer { restartIndex = -1 }
    return restartIndex
  }

  // MARK: - The end

  mutating func finish(_ body: (Record) throws -> Void) rethrows {
    if !input.started {
      input.started = true
      let buffered = input.startBytes
      input.startBytes = []
      try buffered.withUnsafeBufferPointer { try scanWholeCharacters($0, body) }
    }
    if !input.cutSequence.isEmpty {
      let rest = input.cutSequence
      input.cutSequence = []
      try rest.withUnsafeBufferPointer { try scan($0, body) }
    }
    try [UInt8]().withUnsafeBufferPointer { empty in
      if current.isOpen, candidate.isOpen, lookAtCandidate(upTo: 0, in: empty) != .record {
        try readCandidateAsEnvelope(continuingAt: 0, in: empty, body)
      }
      if lexer.token == .number, lexer.numberState.isComplete,
        !(current.isOpen && recovery.problem != nil)
      {
        lexer.token = .none
        try valueEnded(at: 0, in: empty, body)
      }
      if current.isOpen, recovery.pendingCloser >= 0 {
        try closeAroundRecord(at: 0, in: empty, body)
      }
      if current.isOpen {
        if recovery.problem == nil {
          recovery.problem = Problem(
            message: "unexpected end of input\(lexer.inside(lexer.token))", line: position.line,
            column: position.anchorColumn,
            offset: current.buffer.length)
        } else if recovery.onlyNULsSinceProblem, let found = recovery.problem {
          // A file cut short and padded with NUL bytes (as a crash or truncate(1) leaves it).
          let count = current.buffer.length - found.offset
          let message =
            "unexpected end of input\(lexer.inside(recovery.tokenAtProblem)) (the rest of the input is "
            + "\(count) NUL byte\(count == 1 ? "" : "s"), as in a truncated file)"
          recovery.problem?.message = message
        }
        try finishRecord(at: 0, in: empty, body)
      }
    }
    if let outer = stack.first {
      let what = outer.role == .envelope ? "envelope" : outer.isObject ? "object" : "array"
      problemLog.add(
        Problem(
          message:
            "unexpected end of input inside the \(what) that starts at \(outerStart.line):\(outerStart.column)",
          line: position.line, column: position.anchorColumn, offset: 0))
    }
    stack.removeAll()
    lexer.token = .none
  }
}
