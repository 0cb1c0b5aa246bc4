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
public protocol ByteFilterWrapper: ByteFilter where ResumePoint == Inner.ResumePoint {
  associatedtype Inner: ByteFilter
  /// The wrapped filter.
  var inner: Inner { get set }
}

extension ByteFilterWrapper {
  public mutating func beginInput(named name: String) {
    inner.beginInput(named: name)
  }

  public mutating func beginPiece(named name: String, atInputStart: Bool) {
    inner.beginPiece(named: name, atInputStart: atInputStart)
  }

  public mutating func beginPiece(named name: String, resumingAt point: ResumePoint) {
    inner.beginPiece(named: name, resumingAt: point)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8])
    throws
  {
    try inner.process(chunk, into: &output)
  }

  public mutating func process(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    handingOver take: (ByteSink) throws -> Bool
  ) throws {
    try inner.process(chunk, into: &output, handingOver: take)
  }

  public mutating func finish(into output: inout [UInt8]) throws {
    try inner.finish(into: &output)
  }

  public mutating func endPiece(into output: inout [UInt8]) throws {
    try inner.endPiece(into: &output)
  }

  public var lastChunkWasUTF8: Bool { inner.lastChunkWasUTF8 }

  public var takesLargeChunks: Bool { inner.takesLargeChunks }

  public mutating func reuseCaches(of earlier: Self) {
    inner.reuseCaches(of: earlier.inner)
  }

  public func isContinued(by next: Self) -> Bool {
    inner.isContinued(by: next.inner)
  }

  public var resumePoint: ResumePoint? { inner.resumePoint }
}
