/// ``NormalizeFilter`` with an optional ``NormalFormChecker`` over what it
/// writes: `hangul-normalize [--verify]`.
///
///     var filter = try CheckedNormalizeFilter(form: .nfc, verify: true)
///     _ = try filter.filtered(Array("e\u{301}\n".utf8))   // "é\n"
///     filter.checker?.firstProblem                        // nil
///
/// Time O(n).
package struct CheckedNormalizeFilter: ByteFilterWrapper {
  package var inner: NormalizeFilter
  package private(set) var checker: NormalFormChecker?

  package init(form: ICUNormalizer.Form, verify: Bool, separator: UInt8 = 0x0A) throws {
    inner = try NormalizeFilter(form: form)
    checker = verify ? try NormalFormChecker(form: form, separator: separator) : nil
  }

  package mutating func beginInput(named name: String) {
    inner.beginInput(named: name)
    checker?.beginInput(named: name)
  }

  package mutating func beginPiece(named name: String, atInputStart: Bool) {
    inner.beginPiece(named: name, atInputStart: atInputStart)
    checker?.beginInput(named: name)
  }

  package mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    let start = output.count
    inner.process(chunk, into: &output)
    checker?.check(output[start...])
  }

  /// The normalizer's own handing over, each sink checked before `take`
  /// gets it: drained into `output` instead, the output of a mapped file
  /// was copied once more and was cold by the time it was written (mixed
  /// text already NFC took 1.58 times as long with `--verify`).
  package mutating func process(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    handingOver take: (ByteSink) throws -> Bool
  ) throws {
    // Out of `self` while `inner` works: the closure may not reach into it.
    guard var checker = checker.take() else {
      return try inner.process(chunk, into: &output, handingOver: take)
    }
    defer { self.checker = checker }
    let start = output.count
    try inner.process(chunk, into: &output) { sink in
      checker.check(sink.bytes)
      return try take(sink)
    }
    // What went into `output` instead (it was not empty) was not handed over.
    checker.check(output[start...])
  }

  package mutating func finish(into output: inout [UInt8]) {
    let start = output.count
    inner.finish(into: &output)
    checker?.check(output[start...])
  }

  package mutating func endPiece(into output: inout [UInt8]) throws {
    let start = output.count
    try inner.endPiece(into: &output)
    checker?.check(output[start...])
  }
}

extension VerificationTally {
  /// Adds what the checker of a piece's filter found, its first piece at
  /// `place`, and the segments it normalized in pieces.
  package mutating func add(_ filter: CheckedNormalizeFilter, at place: PiecePlace) {
    addOverlongRuns(of: filter.inner)
    guard let checker = filter.checker else { return }
    add(checker.firstProblem, count: checker.problemCount, shift: checker.problemShift(at: place))
  }

  /// Reports the `--verify` outcome of hangul-normalize (the form names
  /// the problems); returns whether any place was not in the form.
  package func reportProblems(form: ICUNormalizer.Form, report: (String) -> Void) -> Bool {
    reportProblems(more: "more places are not \(form.name.uppercased())", report: report)
  }
}
