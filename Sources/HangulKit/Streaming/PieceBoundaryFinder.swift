/// Finds where the pieces of a parallel run may begin in a file whose
/// records are not lines (JSON envelopes), reading the whole file in order,
/// and what a filter must know to start there. ``ParallelFilterRunner``
/// makes one per file (``ParallelFilterRunner/boundaryFinder``) and hands the
/// ``resumePoint`` to the filter of the piece that begins at the boundary
/// (``ByteFilter/beginPiece(named:resumingAt:)``).
///
///     var finder = JSONRecordBoundaryFinder()
///     let bytes = Array(#"{"data":[{"a":1},{"b":2}]}"#.utf8)
///     bytes.withUnsafeBufferPointer { finder.boundary(in: $0, notBefore: 1) }  // 17, after the comma
///
/// A finder may guess boundaries (``JSONRecordBoundaryFinder``'s guessing):
/// a filter that finds it does not stand where the guess said reads the
/// piece after it itself, and the runner then calls ``stopGuessing()``.
///
/// Time: O(n) over the whole file, on the thread that cuts the pieces.
package protocol PieceBoundaryFinder<ResumePoint> {
  /// What a filter needs to begin a piece at a boundary (its
  /// ``ByteFilter/ResumePoint``).
  associatedtype ResumePoint: Sendable

  /// Reads `bytes`, the next bytes of the file (from ``position``, in order,
  /// in blocks of any size but never empty: the runner reads no further
  /// than the file's size at open, and a file that ends before it is an
  /// error), up to the first boundary at or after the file offset `target`:
  /// returns that boundary's offset, having read exactly up to it, or `nil`
  /// when none came (having read up to ``position``, which it moves on by at
  /// least a byte, or back to 0 to read the file again from its start: the
  /// runner's reading relies on it to end).
  mutating func boundary(in bytes: UnsafeBufferPointer<UInt8>, notBefore target: Int) -> Int?
  /// What a filter needs to start at the boundary that ``boundary(in:notBefore:)`` returned last.
  var resumePoint: ResumePoint { get }
  /// The file offset of the next byte the finder reads.
  var position: Int { get }
  /// Stops guessing boundaries, after a guess was wrong (it may then read
  /// the file again from its start). Nothing unless a finder says otherwise.
  mutating func stopGuessing()
  /// Stops guessing boundaries, after a guess was wrong, and reads on from
  /// `point`, where a filter that read the input in order stands (its
  /// ``ByteFilter/resumePoint``), at or before ``position``: only what
  /// follows it is read again. ``stopGuessing()`` unless a finder says otherwise.
  mutating func stopGuessing(resumingFrom point: ResumePoint)
}

extension PieceBoundaryFinder {
  package mutating func stopGuessing() {}

  package mutating func stopGuessing(resumingFrom point: ResumePoint) {
    stopGuessing()
  }
}
