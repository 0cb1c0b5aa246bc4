/// Wraps a filter and puts everything it writes through a normalization form
/// (`hangul-compose --nfc`: e + U+0301 → é), by ``NormalizeFilter``: the
/// same fast path as `hangul-normalize`. Without a normalizer it only passes
/// the output on.
///
///     var filter = NormalizingFilter(ComposeFilter(), normalizer: try ICUNormalizer(.nfc))
///     try filter.filtered(Array("e\u{301}ㄱㅏ".utf8))   // "é가"
///
/// Only the last normalization segment of each block is held back. Time O(n).
package struct NormalizingFilter<Inner: ByteFilter>: ByteFilterWrapper {
  package var inner: Inner
  package let normalizer: ICUNormalizer?
  private var normalize: NormalizeFilter?
  private var composed: [UInt8] = []

  package init(_ inner: Inner, normalizer: ICUNormalizer?) {
    self.inner = inner
    self.normalizer = normalizer
    normalize = normalizer.map { NormalizeFilter(UnicodeNormalizer($0)) }
  }

  package mutating func beginInput(named name: String) {
    inner.beginInput(named: name)
    normalize?.beginInput(named: name)
  }

  package mutating func beginPiece(named name: String, atInputStart: Bool) {
    inner.beginPiece(named: name, atInputStart: atInputStart)
    normalize?.beginInput(named: name)
  }

  package mutating func beginPiece(named name: String, resumingAt point: Inner.ResumePoint) {
    inner.beginPiece(named: name, resumingAt: point)
    normalize?.beginInput(named: name)
  }

  package mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8])
    throws
  {
    guard normalize != nil else { return try inner.process(chunk, into: &output) }
    try inner.process(chunk, into: &composed)
    composed.withUnsafeBufferPointer { normalize?.process($0, into: &output) }
    composed.removeAll(keepingCapacity: true)
  }

  /// Through `output`, as ``process(_:into:)`` does (the normalizer reads
  /// what the inner filter wrote).
  package mutating func process(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    handingOver take: (ByteSink) throws -> Bool
  ) throws {
    try process(chunk, into: &output)
  }

  package mutating func finish(into output: inout [UInt8]) throws {
    try finish(into: &output) { inner, composed in try inner.finish(into: &composed) }
  }

  /// Without a normalizer, the inner filter's own handing over; with one,
  /// through `output`, as ``finish(into:)`` does.
  package mutating func finish(
    into output: inout [UInt8], handingOver take: (ByteSink) throws -> Bool
  ) throws {
    guard normalize != nil else { return try inner.finish(into: &output, handingOver: take) }
    try finish(into: &output)
  }

  package mutating func endPiece(into output: inout [UInt8]) throws {
    try finish(into: &output) { inner, composed in try inner.endPiece(into: &composed) }
  }

  /// Ends the inner filter with `end` and normalizes what it wrote to the end.
  private mutating func finish(
    into output: inout [UInt8], by end: (inout Inner, inout [UInt8]) throws -> Void
  ) throws {
    guard normalize != nil else { return try end(&inner, &output) }
    try end(&inner, &composed)
    composed.withUnsafeBufferPointer { normalize?.process($0, into: &output) }
    composed.removeAll()
    normalize?.finish(into: &output)
  }
}

extension NormalizingFilter: OverlongRunReporting {
  package var overlongRuns: Int { normalize?.overlongRuns ?? 0 }
  package var firstOverlongRun: String? { normalize?.firstOverlongRun }
}
