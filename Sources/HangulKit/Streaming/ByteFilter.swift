/// A streaming transformation of bytes: each chunk's result is appended to
/// `output` before the next chunk is read. The public part, what a library
/// user calls, is ``StreamingFilter``; the rest is what this package's
/// runners ask.
///
/// A filter that wraps another and changes only part of what it does
/// conforms to ``ByteFilterWrapper``, which forwards every requirement to
/// its ``ByteFilterWrapper/inner`` filter.
package protocol ByteFilter: StreamingFilter {
  /// What a filter needs to begin a piece of a parallel run in the middle
  /// of an input (``beginPiece(named:resumingAt:)``), as the runner's
  /// ``PieceBoundaryFinder`` finds it. `Never` for filters whose pieces
  /// begin at line starts only.
  associatedtype ResumePoint: Sendable = Never
  /// Called before the first chunk of each input, with its name as errors show it.
  mutating func beginInput(named name: String)
  /// Called before the first chunk of a piece of an input that
  /// ``ParallelFilterRunner`` cut out: `atInputStart` is false when the piece
  /// begins after a line of the input (a byte order mark there is text).
  mutating func beginPiece(named name: String, atInputStart: Bool)
  /// Called instead of ``beginPiece(named:atInputStart:)`` before a piece
  /// that begins where the runner's ``PieceBoundaryFinder`` found a boundary,
  /// with what the finder found there (its ``PieceBoundaryFinder/resumePoint``).
  mutating func beginPiece(named name: String, resumingAt point: ResumePoint)
  /// Transforms one chunk of input.
  mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) throws
  /// Transforms one chunk as ``process(_:into:)`` does, but may hand the
  /// storage its result is in to `take` instead of copying it into
  /// `output`, when `output` is empty (so the order stays). A filter that
  /// writes into storage of its own (``NormalizeFilter``) so saves a copy of
  /// all it writes. `take` returns whether it keeps the storage:
  /// ``FilterRunner`` writes the bytes out and returns `false` (the filter
  /// empties the storage and writes on into it); ``ParallelFilterRunner``
  /// keeps them until their piece's turn and returns `true` (the filter
  /// goes on in new storage). A runner then writes what is left in
  /// `output`. ``process(_:into:)`` unless a filter says otherwise; O(chunk)
  /// besides `take`.
  mutating func process(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    handingOver take: (ByteSink) throws -> Bool
  ) throws
  /// Ends the input: writes whatever the filter still holds.
  mutating func finish(into output: inout [UInt8]) throws
  /// Ends the input as ``finish(into:)`` does, but may hand storage to
  /// `take` as ``process(_:into:handingOver:)`` does, when `output` is
  /// empty: a filter that ends holding much (an event log's document, its
  /// whole text) so writes it a part at a time. ``finish(into:)`` unless a
  /// filter says otherwise (a wrapper forwards it only where it says so).
  mutating func finish(
    into output: inout [UInt8], handingOver take: (ByteSink) throws -> Bool
  ) throws
  /// Called instead of ``finish(into:)`` when the input goes on in a piece
  /// that another filter, begun with ``beginPiece(named:resumingAt:)``,
  /// read (and ``ParallelFilterRunner``'s `continues` check accepted): the
  /// input does not end here. ``finish(into:)`` unless a filter says otherwise.
  mutating func endPiece(into output: inout [UInt8]) throws
  /// Whether the filter found the whole of the last chunk it processed to be
  /// UTF-8, starting and ending at character boundaries, so that a runner
  /// need not check it again (``UTF8Validator/skipValid(_:)``). `false` unless a
  /// filter says otherwise.
  var lastChunkWasUTF8: Bool { get }
  /// Whether ``FilterRunner`` should give the filter a mapped file in
  /// pieces of several blocks: a filter whose output, several times its
  /// input, leaves in one write per chunk (NFD) then makes fewer, larger
  /// writes, which cost the kernel less per byte; other filters get a
  /// block at a time, which keeps what they hold at once small (peak
  /// memory). `false` unless a filter says otherwise.
  var takesLargeChunks: Bool { get }
  /// Takes over what `earlier` learned that only saves work (caches such as
  /// ``ComposeFilter``'s key transition tables), before the first chunk:
  /// ``ParallelFilterRunner`` hands each new piece's filter the one of the
  /// piece its thread read last, made by the same factory, so that a piece
  /// does not learn again what the one before it learned. What the filter
  /// writes and reports must not change. Nothing unless a filter says otherwise.
  mutating func reuseCaches(of earlier: Self)
  /// Whether `next`, a fresh filter that ran the piece after the one this
  /// filter ran (neither finished yet), wrote and found what this one would
  /// have going on: ``ParallelFilterRunner`` otherwise runs that piece
  /// again, in order, through this filter. `true` unless a filter says
  /// otherwise (its state at the start of a line is its initial state).
  func isContinued(by next: Self) -> Bool
  /// Where the filter stands, when a filter begun there with
  /// ``beginPiece(named:resumingAt:)`` would go on exactly as it does:
  /// after a wrong guess of the runner's ``PieceBoundaryFinder``, the finder
  /// goes on from there, not from the input's start. `nil` unless a filter
  /// says otherwise.
  var resumePoint: ResumePoint? { get }
}

extension ByteFilter {
  package mutating func beginInput(named name: String) {}

  package mutating func beginPiece(named name: String, atInputStart: Bool) {
    beginInput(named: name)
  }

  package mutating func beginPiece(named name: String, resumingAt point: ResumePoint) {
    beginPiece(named: name, atInputStart: false)
  }

  package func isContinued(by next: Self) -> Bool { true }

  package var resumePoint: ResumePoint? { nil }

  package mutating func endPiece(into output: inout [UInt8]) throws {
    try finish(into: &output)
  }

  package mutating func finish(
    into output: inout [UInt8], handingOver take: (ByteSink) throws -> Bool
  ) throws {
    try finish(into: &output)
  }

  package var lastChunkWasUTF8: Bool { false }

  package var takesLargeChunks: Bool { false }

  package mutating func reuseCaches(of earlier: Self) {}

  package mutating func process(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    handingOver take: (ByteSink) throws -> Bool
  ) throws {
    try process(chunk, into: &output)
  }
}
