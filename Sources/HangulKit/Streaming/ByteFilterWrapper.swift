/// A ``ByteFilter`` that wraps another one, ``inner``, and changes part of
/// what it does: every requirement of ``ByteFilter`` is forwarded to
/// ``inner`` unless the wrapper implements it, so a wrapper writes only
/// what it changes, and whatever a runner asks of the wrapper (a resume
/// point, whether a piece continues another, caches to take over) reaches
/// the filter that knows.
///
///     struct Counting<Inner: ByteFilter>: ByteFilterWrapper {
///       var inner: Inner
///       var bytes = 0
///       mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) throws {
///         bytes += chunk.count
///         try inner.process(chunk, into: &output)
///       }
///     }
///
/// A wrapper that changes what is written must implement each requirement
/// that writes (both `process` requirements, ``ByteFilter/finish(into:)``
/// and ``ByteFilter/endPiece(into:)``): the forwarded ones write what
/// ``inner`` writes, unchanged. O(1) on top of the inner filter.
package protocol ByteFilterWrapper: ByteFilter where ResumePoint == Inner.ResumePoint {
  associatedtype Inner: ByteFilter
  /// The wrapped filter.
  var inner: Inner { get set }
}

extension ByteFilterWrapper {
  package mutating func beginInput(named name: String) {
    inner.beginInput(named: name)
  }

  package mutating func beginPiece(named name: String, atInputStart: Bool) {
    inner.beginPiece(named: name, atInputStart: atInputStart)
  }

  package mutating func beginPiece(named name: String, resumingAt point: ResumePoint) {
    inner.beginPiece(named: name, resumingAt: point)
  }

  package mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8])
    throws
  {
    try inner.process(chunk, into: &output)
  }

  package mutating func process(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    handingOver take: (ByteSink) throws -> Bool
  ) throws {
    try inner.process(chunk, into: &output, handingOver: take)
  }

  package mutating func finish(into output: inout [UInt8]) throws {
    try inner.finish(into: &output)
  }

  package mutating func endPiece(into output: inout [UInt8]) throws {
    try inner.endPiece(into: &output)
  }

  package var lastChunkWasUTF8: Bool { inner.lastChunkWasUTF8 }

  package var takesLargeChunks: Bool { inner.takesLargeChunks }

  package mutating func reuseCaches(of earlier: Self) {
    inner.reuseCaches(of: earlier.inner)
  }

  package func isContinued(by next: Self) -> Bool {
    inner.isContinued(by: next.inner)
  }

  package var resumePoint: ResumePoint? { inner.resumePoint }
}
