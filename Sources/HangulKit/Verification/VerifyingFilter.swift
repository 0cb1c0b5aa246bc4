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
/// Memory is bounded: spans longer than 4,096 characters are checked in
/// pieces cut where nothing composes across.
public struct VerifyingFilter<Inner: ByteFilter>: ByteFilter {
  public private(set) var inner: Inner
  public let verifier: OutputVerifier?
  /// The first disagreement, with its place.
  public private(set) var firstDisagreement: PositionedError?
  /// How many spans disagreed.
  public private(set) var disagreementCount = 0

  private var decoder = UTF8Stream()
  private var span: [Unicode.Scalar] = []
  private var spanColumn = 1
  private var column = 1
  private var outputLine = 0
  private var inputLines = 0
  private var inputs: [(firstLine: Int, name: String)] = []

  private static var longestSpan: Int { 4096 }

  public init(_ inner: Inner, verifier: OutputVerifier?) {
    self.inner = inner
    self.verifier = verifier
  }

  public mutating func beginInput(named name: String) {
    inputs.append((inputLines, name))
    inner.beginInput(named: name)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8])
    throws
  {
    guard verifier != nil else { return try inner.process(chunk, into: &output) }
    for byte in chunk where byte == 0x0A { inputLines += 1 }
    let start = output.count
    try inner.process(chunk, into: &output)
    verify(output, from: start, isLast: false)
  }

  public mutating func finish(into output: inout [UInt8]) throws {
    guard verifier != nil else { return try inner.finish(into: &output) }
    let start = output.count
    try inner.finish(into: &output)
    verify(output, from: start, isLast: true)
    checkSpan()
  }

  private mutating func verify(_ output: [UInt8], from start: Int, isLast: Bool) {
    output.withUnsafeBufferPointer { buffer in
      var decoder = self.decoder
      decoder.decode(UnsafeBufferPointer(rebasing: buffer[start...]), isLast: isLast) { unit in
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
    let input = inputs.last { $0.firstLine <= outputLine }
    firstDisagreement = PositionedError(
      file: input?.name ?? "(standard input)", line: outputLine - (input?.firstLine ?? 0) + 1,
      column: disagreement.column, message: disagreement.message)
  }
}

/// Reports the outcome of `--verify` after a run: the first disagreement with
/// its place and how many more there were. Returns the exit status: 65 when
/// something disagreed and the run had no worse error.
public func verificationStatus<Inner>(
  of filter: VerifyingFilter<Inner>, after status: Int32, report: (String) -> Void
) -> Int32 {
  guard let first = filter.firstDisagreement else { return status }
  report(first.description)
  if filter.disagreementCount > 1 {
    report("\(filter.disagreementCount - 1) more spans disagree with ICU")
  }
  return status == 0 ? 65 : status
}
