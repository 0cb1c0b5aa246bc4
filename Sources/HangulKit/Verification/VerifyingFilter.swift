/// Wraps a filter and checks everything it writes against ICU
/// (``OutputVerifier``), remembering the first disagreement with its place.
///
/// Output lines are matched to input lines (the filters keep newlines one for
/// one), so a disagreement is reported as `FILE:LINE:COLUMN` of the input.
/// The output itself is written unchanged. Without a verifier the wrapper
/// only passes the output on.
///
///     var filter = VerifyingFilter(ComposeFilter(), verifier: try OutputVerifier(expecting: .composed))
///     _ = try filter.filtered(Array("ㄱㅏ\n".utf8))
///     filter.firstDisagreement   // nil
///
/// Most lines are decided by a fast scan over the bytes: a line whose Hangul
/// is precomposed syllables and compatibility jamo (composed output), or
/// modern initial–vowel–final groups and compatibility jamo (decomposed
/// output), is proven by checking each distinct syllable, group or jamo once
/// with ``OutputVerifier`` (ICU) and remembering the answer: every such unit
/// is a starter that nothing joins, so a span agrees with ICU when each of
/// its units does. Every other line goes through the span-by-span check.
///
/// Memory is bounded: a line is held until it ends, up to 1 MiB; spans
/// longer than 4,096 characters are checked in pieces cut where nothing
/// composes across.
package struct VerifyingFilter<Inner: ByteFilter>: ByteFilterWrapper {
  package var inner: Inner
  package let verifier: OutputVerifier?
  /// The first disagreement, with its place.
  package private(set) var firstDisagreement: PositionedError?
  /// How many spans disagreed.
  package private(set) var disagreementCount = 0

  private var decoder = UTF8Stream()
  private var span: [Unicode.Scalar] = []
  private var spanColumn = 1
  private var column = 1
  private var outputLine = 0
  private var inputLines = 0
  private var inputs: [(firstLine: Int, name: String)] = []
  /// The index in `inputs` of the input of the first disagreement.
  private var firstDisagreementInput = 0

  /// Output after the last newline, not checked yet.
  private var partialLine: [UInt8] = []
  /// Whether the line being written has gone to the span-by-span check.
  private var lineInSlowPath = false
  /// What ICU said of each syllable (or decomposed group) and compatibility
  /// jamo: 0 not asked yet, 1 agrees, 2 disagrees.
  private var unitStates = [UInt8](repeating: 0, count: HangulSyllable.count + 0x60)

  private static var longestSpan: Int { 4096 }
  private static var longestHeldLine: Int { 1 << 20 }

  package init(_ inner: Inner, verifier: OutputVerifier?) {
    self.inner = inner
    self.verifier = verifier
    if let verifier, verifier.everyUnitAgrees {
      // What the proof covers: every syllable (composed) or group
      // (decomposed), and the compatibility jamo of composed output.
      let proven = verifier.expectation == .composed ? unitStates.count : HangulSyllable.count
      for index in 0..<proven { unitStates[index] = 1 }
    }
  }

  package mutating func beginInput(named name: String) {
    inputs.append((inputLines, name))
    inner.beginInput(named: name)
  }

  package mutating func beginPiece(named name: String, atInputStart: Bool) {
    inputs.append((inputLines, name))
    inner.beginPiece(named: name, atInputStart: atInputStart)
  }

  package mutating func beginPiece(named name: String, resumingAt point: Inner.ResumePoint) {
    inputs.append((inputLines, name))
    inner.beginPiece(named: name, resumingAt: point)
  }

  /// What the line of ``firstDisagreement`` moves by when this filter's
  /// first piece stands at `place` in a parallel run (whose runner counts
  /// output lines).
  package func disagreementShift(at place: PiecePlace) -> Int {
    firstDisagreementInput == 0
      ? place.outputLinesBefore - place.inputStartRecord
      : place.outputLinesBefore - place.recordsBefore
  }

  package mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8])
    throws
  {
    guard verifier != nil else { return try inner.process(chunk, into: &output) }
    inputLines += ByteCounting.count(0x0A, in: chunk)
    let start = output.count
    try inner.process(chunk, into: &output)
    output.withUnsafeBufferPointer { verifyBlock(UnsafeBufferPointer(rebasing: $0[start...])) }
  }

  /// Without a verifier, the inner filter's own handing over; with one,
  /// through `output` (the check reads it).
  package mutating func process(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    handingOver take: (ByteSink) throws -> Bool
  ) throws {
    guard verifier != nil else { return try inner.process(chunk, into: &output, handingOver: take) }
    try process(chunk, into: &output)
  }

  /// Without a verifier, the inner filter's own handing over; with one,
  /// through `output` (the check reads it).
  package mutating func finish(
    into output: inout [UInt8], handingOver take: (ByteSink) throws -> Bool
  ) throws {
    guard verifier != nil else { return try inner.finish(into: &output, handingOver: take) }
    try finish(into: &output)
  }

  package mutating func finish(into output: inout [UInt8]) throws {
    guard verifier != nil else { return try inner.finish(into: &output) }
    let start = output.count
    try inner.finish(into: &output)
    verifyEnd(of: output, from: start)
  }

  /// Verifies what the inner filter wrote at the end of its piece, then
  /// what it still held, as at the end of the input: the filter of the
  /// next piece verifies from a line start.
  package mutating func endPiece(into output: inout [UInt8]) throws {
    guard verifier != nil else { return try inner.endPiece(into: &output) }
    let start = output.count
    try inner.endPiece(into: &output)
    verifyEnd(of: output, from: start)
  }

  /// Verifies `output` from `start` on, and the line held back: the end.
  private mutating func verifyEnd(of output: [UInt8], from start: Int) {
    output.withUnsafeBufferPointer { verifyBlock(UnsafeBufferPointer(rebasing: $0[start...])) }
    let rest = partialLine
    partialLine = []
    rest.withUnsafeBufferPointer { verify($0, isLast: true) }
    checkSpan()
  }

  /// Checks a block of output: whole lines by the fast scan where it can
  /// decide, the rest span by span; holds the unfinished last line.
  private mutating func verifyBlock(_ block: UnsafeBufferPointer<UInt8>) {
    guard let lastNewline = block.lastIndex(of: 0x0A) else {
      if lineInSlowPath { return verify(block, isLast: false) }
      partialLine.append(contentsOf: block)
      if partialLine.count > Self.longestHeldLine {
        lineInSlowPath = true
        let held = partialLine
        partialLine = []
        held.withUnsafeBufferPointer { verify($0, isLast: false) }
      }
      return
    }
    var start = 0
    if lineInSlowPath || !partialLine.isEmpty {
      // Finish the line begun in an earlier block.
      let firstNewline = block.firstIndex(of: 0x0A) ?? lastNewline
      let head = UnsafeBufferPointer(rebasing: block[...firstNewline])
      if lineInSlowPath {
        verify(head, isLast: false)
        lineInSlowPath = false
      } else {
        partialLine.append(contentsOf: head)
        let line = partialLine
        partialLine = []
        line.withUnsafeBufferPointer { checkLines($0) }
      }
      start = firstNewline + 1
    }
    if start <= lastNewline {
      checkLines(UnsafeBufferPointer(rebasing: block[start...lastNewline]))
    }
    partialLine.append(contentsOf: block[(lastNewline + 1)...])
  }

  /// Checks whole lines: the fast scan, and span by span each line where it
  /// cannot decide.
  private mutating func checkLines(_ lines: UnsafeBufferPointer<UInt8>) {
    guard let verifier else { return }
    var rest = lines
    while !rest.isEmpty {
      switch fastScan(rest, verifier) {
      case .agrees:
        outputLine += ByteCounting.count(0x0A, in: rest)
        return
      case .failed(let position):
        let lineStart = rest[..<position].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        outputLine += ByteCounting.count(
          0x0A, in: UnsafeBufferPointer(rebasing: rest[..<lineStart]))
        let lineEnd = rest[position...].firstIndex(of: 0x0A) ?? (rest.count - 1)
        verify(UnsafeBufferPointer(rebasing: rest[lineStart...lineEnd]), isLast: false)
        rest = UnsafeBufferPointer(rebasing: rest[(lineEnd + 1)...])
      }
    }
  }

  /// The outcome of the fast scan.
  private enum ScanResult {
    /// Every line agrees.
    case agrees
    /// The scan cannot decide the unit at `position`.
    case failed(at: Int)
  }

  /// Scans whole lines: they agree when every Hangul unit in them is one the
  /// scan knows and ICU agrees with.
  private mutating func fastScan(_ bytes: UnsafeBufferPointer<UInt8>, _ verifier: OutputVerifier)
    -> ScanResult
  {
    // Decomposed output whose every group agrees: the two halves of the
    // lines at once (two independent scans in one loop), then unit by unit
    // where either stopped.
    if verifier.expectation == .decomposed, verifier.everyUnitAgrees, bytes.count >= 4096,
      let base = bytes.baseAddress,
      let newline = bytes[(bytes.count / 2)...].firstIndex(of: 0x0A), newline + 1 < bytes.count
    {
      let middle = newline + 1
      let (firstStop, secondStop) = AgreedUnitScan.passDecomposedInTwo(
        base, middle: middle, bytes.count, 0, middle)
      let firstHalf = UnsafeBufferPointer(rebasing: bytes[..<middle])
      if case .failed(let position) = scanUnits(firstHalf, from: firstStop, verifier) {
        return .failed(at: position)
      }
      let secondHalf = UnsafeBufferPointer(rebasing: bytes[middle...])
      if case .failed(let position) = scanUnits(secondHalf, from: secondStop - middle, verifier) {
        return .failed(at: middle + position)
      }
      return .agrees
    }
    return scanUnits(bytes, from: 0, verifier)
  }

  /// The scan of whole lines from `start`: the bulk by ``AgreedUnitScan``,
  /// what it stops at unit by unit, asking ICU about a unit not seen before.
  private mutating func scanUnits(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ verifier: OutputVerifier
  ) -> ScanResult {
    let decomposed = verifier.expectation == .decomposed
    return unitStates.withUnsafeMutableBufferPointer { states in
      let count = bytes.count
      var position = start
      let everyJamoAgrees = verifier.everyUnitAgrees && !decomposed
      let everyGroupAgrees = verifier.everyUnitAgrees && decomposed
      while position < count {
        // The bulk: ASCII and the units ICU has agreed with, through pointers.
        if let base = bytes.baseAddress, let stateBase = states.baseAddress {
          if decomposed {
            AgreedUnitScan.passDecomposed(
              base, count, &position, everyGroupAgrees ? nil : UnsafePointer(stateBase))
          } else {
            AgreedUnitScan.passComposed(
              base, count, &position, stateBase, everyJamoAgrees: everyJamoAgrees)
          }
          guard position < count else { break }
        }
        // Decomposed output: an initial–vowel–final group read as one word,
        // when ICU has agreed with it before.
        if decomposed, position + 12 <= count, let base = bytes.baseAddress,
          let group = ConjoiningJamoBytes.syllable(base + position),
          states[Int(group.value &- HangulSyllable.firstScalarValue)] == 1
        {
          position &+= group.length
          continue
        }
        let lead = bytes[position]
        if lead < 0x80 {
          position &+= 1
          continue
        }
        // Hangul is all three-byte sequences led by E1, E3 or EA–ED.
        guard lead == 0xE1 || lead == 0xE3 || lead >= 0xEA && lead <= 0xED, position + 2 < count
        else {
          position &+= 1
          continue
        }
        let second = bytes[position &+ 1]
        let third = bytes[position &+ 2]
        guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else {
          position &+= 1
          continue
        }
        let value = UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
        let start = position
        var index: Int
        var vowelValue: UInt32 = 0
        var finalValue: UInt32 = 0
        if value &- 0x3131 < 0x5E {
          index = HangulSyllable.count &+ Int(value &- 0x3131)
          position &+= 3
        } else if !decomposed,
          value &- HangulSyllable.firstScalarValue < UInt32(HangulSyllable.count)
        {
          index = Int(value &- HangulSyllable.firstScalarValue)
          position &+= 3
        } else if decomposed, value &- 0x1100 < 19, position + 5 < count,
          bytes[position &+ 3] == 0xE1,
          bytes[position &+ 4] == 0x85, bytes[position &+ 5] & 0xC0 == 0x80,
          UInt32(bytes[position &+ 5] & 0x3F) | 0x1140 &- 0x1161 < 21
        {
          vowelValue = UInt32(bytes[position &+ 5] & 0x3F) | 0x1140
          index = HangulSyllable.index(initial: value, vowel: vowelValue)
          position &+= 6
          if position + 2 < count, bytes[position] == 0xE1, bytes[position &+ 1] & 0xFE == 0x86,
            bytes[position &+ 2] & 0xC0 == 0x80
          {
            let final =
              UInt32(bytes[position &+ 1] & 0x3F) << 6 | UInt32(bytes[position &+ 2] & 0x3F)
              | 0x1000
            if final &- 0x11A8 < 27 {
              finalValue = final
              index &+= Int(final &- 0x11A7)
              position &+= 3
            }
          }
        } else if let scalar = Unicode.Scalar(value), HangulNormalization.isHangul(scalar) {
          return .failed(at: start)
        } else {
          position &+= 1
          continue
        }
        if states[index] == 1 { continue }
        if states[index] == 0 {
          let units = [value, vowelValue, finalValue].filter { $0 != 0 }.compactMap(
            Unicode.Scalar.init)
          states[index] = verifier.check(units) == nil ? 1 : 2
        }
        guard states[index] == 1 else { return .failed(at: start) }
      }
      return .agrees
    }
  }

  private mutating func verify(_ bytes: UnsafeBufferPointer<UInt8>, isLast: Bool) {
    do {
      var decoder = self.decoder
      decoder.decode(bytes, isLast: isLast) { unit in
        guard case .scalar(let scalar) = unit, HangulNormalization.isHangul(scalar) else {
          checkSpan()
          if case .scalar("\n") = unit {
            outputLine += 1
            column = 1
          } else {
            column += 1
          }
          return
        }
        if span.count >= Self.longestSpan, !Self.composesBackward(scalar) { checkSpan() }
        if span.isEmpty { spanColumn = column }
        span.append(scalar)
        column += 1
      }
      self.decoder = decoder
    }
  }

  /// Whether `scalar` can join the scalar before it (a conjoining vowel or final).
  private static func composesBackward(_ scalar: Unicode.Scalar) -> Bool {
    (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value)
  }

  private mutating func checkSpan() {
    guard !span.isEmpty else { return }
    defer { span.removeAll(keepingCapacity: true) }
    guard let verifier, let disagreement = verifier.check(span, column: spanColumn) else { return }
    disagreementCount += 1
    guard firstDisagreement == nil else { return }
    let inputIndex = inputs.lastIndex { $0.firstLine <= outputLine }
    let input = inputIndex.map { inputs[$0] }
    firstDisagreementInput = inputIndex ?? 0
    firstDisagreement = PositionedError(
      file: input?.name ?? "(standard input)", line: outputLine - (input?.firstLine ?? 0) + 1,
      column: disagreement.column, message: disagreement.message)
  }
}

/// What `--verify` found in a parallel run, gathered from the filters of its
/// pieces in input order: the first problem, its line moved to where it
/// stands in its input, and how many there were.
///
///     var tally = VerificationTally()
///     tally.add(filter.firstDisagreement, count: filter.disagreementCount,
///               shift: filter.disagreementShift(at: place))
///
/// O(1) per filter.
package struct VerificationTally: Sendable {
  package private(set) var first: PositionedError?
  package private(set) var count = 0
  /// Segments normalized in pieces because they were too long to hold
  /// (``OverlongRunReporting``), and the message about the first.
  package private(set) var overlongRuns = 0
  package private(set) var firstOverlongRun: String?

  package init() {}

  /// Adds the segments that `filter` (a piece's, in input order) normalized in pieces.
  package mutating func addOverlongRuns(of filter: some OverlongRunReporting) {
    if firstOverlongRun == nil { firstOverlongRun = filter.firstOverlongRun }
    overlongRuns += filter.overlongRuns
  }

  /// Adds a filter's first problem (its line moved by `shift`) and its count.
  package mutating func add(_ problem: PositionedError?, count: Int, shift: Int) {
    self.count += count
    guard first == nil, var problem else { return }
    problem.line += shift
    first = problem
  }

  /// Reports the first problem and how many more there were (`more` names
  /// them); returns whether there was any. What that means to a program
  /// (its exit status) is the program's to say.
  package func reportProblems(more: String, report: (String) -> Void) -> Bool {
    var found = false
    if let firstOverlongRun {
      report(
        firstOverlongRun + (overlongRuns > 1 ? " (and \(overlongRuns - 1) more such runs)" : ""))
      found = true
    }
    if let first {
      report(first.description)
      if count > 1 { report("\(count - 1) \(more)") }
      found = true
    }
    return found
  }
}

extension VerificationTally {
  /// Adds what a piece's verifying filter found, its first piece at `place`.
  package mutating func add<Inner>(_ filter: VerifyingFilter<Inner>, at place: PiecePlace) {
    if let normalizing = filter.inner as? any OverlongRunReporting {
      addOverlongRuns(of: normalizing)
    }
    add(
      filter.firstDisagreement, count: filter.disagreementCount,
      shift: filter.disagreementShift(at: place))
  }

  /// Reports the `--verify` outcome of the composing and decomposing
  /// programs; returns whether any span disagreed with ICU.
  package func reportDisagreements(report: (String) -> Void) -> Bool {
    reportProblems(more: "more spans disagree with ICU", report: report)
  }
}
