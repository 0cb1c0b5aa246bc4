extension JSONRecordSplitter {
  // MARK: - Records

  mutating func startRecord(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) {
    current.isOpen = true
    current.base = stack.count
    current.segmentStart = index
    current.buffer.reset()
    current.members.removeAll(keepingCapacity: true)
    recovery.reset()
    current.hasWhitespace = false
    current.isObject = bytes[index] == UInt8(ascii: "{")
    current.line = position.line
    current.column = position.column(at: index, in: bytes)
    current.firstOnLine = !position.lineHasContent
    current.startOffset = position.chunkStart + index
    // A candidate is decided (and set afresh) before its record ends.
    assert(!candidate.isOpen, "no envelope candidate left open")
  }

  /// Ends the record just before `end` and hands it to `body`.
  mutating func finishRecord(
    at end: Int, in bytes: UnsafeBufferPointer<UInt8>, cutAt cut: Int? = nil,
    _ body: (Record) throws -> Void
  ) rethrows {
    if candidate.isOpen, lookAtCandidate(upTo: end, in: bytes) != .record {
      // A record in its records member, or no content string to its end: an envelope, read again as one.
      try readCandidateAsEnvelope(continuingAt: end, in: bytes, body)
      restartIndex = end
      return
    }
    current.buffer.append(
      UnsafeBufferPointer(rebasing: bytes[current.segmentStart..<end]), sampleOnly: recordIsSampled)
    if let cut { current.buffer.cut(at: cut) }
    if recovery.problem != nil {
      // A broken record ends where its text does, not with the line break after it.
      current.buffer.trimTrailingWhitespace()
    }
    if recordIsSampled { current.buffer.keepSampleOnly() }
    current.isOpen = false
    if stack.count > current.base { stack.removeLast(stack.count - current.base) }
    lexer.token = .none
    var found = Record(
      bytes: current.buffer.bytes, index: recordCount, line: current.line, column: current.column,
      problem: recovery.problem, isObject: current.isObject,
      members: recovery.problem == nil ? current.members : [],
      hasWhitespace: current.hasWhitespace, isTruncated: current.buffer.isTruncated)
    found.structureProblemsBefore = problemLog.handOut()
    recordCount += 1
    try body(found)
  }

  // MARK: - Envelope candidates (see JSONEnvelopeCandidate)

  /// Keeps the record's bytes up to `index` of the chunk, so that its members can be looked at.
  mutating func keepRecord(upTo index: Int, in bytes: UnsafeBufferPointer<UInt8>) {
    current.buffer.append(
      UnsafeBufferPointer(rebasing: bytes[current.segmentStart..<index]),
      sampleOnly: recordIsSampled)
    current.segmentStart = index
  }

  /// Whether a top-level member of the record read so far is a content string
  /// (its bytes kept up to the last member's end).
  var hasContentString: Bool {
    current.members.contains {
      JSONEnvelopeCandidate.isContentString(
        name: $0.name, value: $0.value, in: current.buffer.bytes, contentField: fields.contentBytes)
    }
  }

  /// Looks at what ended in the candidate since the last look, up to
  /// `index` of the chunk (see ``JSONEnvelopeCandidate/look(members:in:contentField:)``).
  mutating func lookAtCandidate(
    upTo index: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> JSONEnvelopeCandidate.Decision? {
    keepRecord(upTo: index, in: bytes)
    let decision = candidate.look(
      members: current.members, in: current.buffer.bytes, contentField: fields.contentBytes)
    if decision == .record { candidate = JSONEnvelopeCandidate() }
    return decision
  }

  /// Reads the candidate again as an envelope, from its first byte to `index`
  /// of the chunk, and goes on from there as that reading stands: its
  /// records, problems, nesting and positions are those of an envelope read
  /// from the start.
  mutating func readCandidateAsEnvelope(
    continuingAt index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    current.buffer.append(
      UnsafeBufferPointer(rebasing: bytes[current.segmentStart..<index]), sampleOnly: false)
    let point = ResumePoint(
      offset: current.startOffset, line: current.line, column: current.column,
      lineHasContent: !current.firstOnLine, container: .none)
    var envelope = JSONRecordSplitter(
      recordsField: recordsField, contentField: contentField, resumingAt: point)
    envelope.decidesEnvelopesAtOnce = true
    envelope.recordCount = recordCount
    envelope.problemLog = problemLog
    let text = current.buffer.bytes
    current.buffer.discard()
    try text.withUnsafeBufferPointer { try envelope.scan($0, body) }
    assert(
      envelope.position.chunkStart == position.chunkStart + index,
      "read again up to where this reading stands")
    envelope.decidesEnvelopesAtOnce = false
    envelope.position.chunkStart = position.chunkStart
    envelope.input.cutSequence = input.cutSequence
    // What that reading left to the next chunk starts at `index` of this one.
    if envelope.current.isOpen { envelope.current.segmentStart = index }
    if envelope.name.start >= 0 { envelope.name.start = index }
    self = envelope
  }
}
