/// The bytes of the record a ``JSONRecordSplitter`` is reading: every byte
/// of a record that may be a review, and only the first ``sampleLimit``
/// bytes (cut at a character boundary) of one that cannot be, because it is
/// broken or is not an object. Garbage (40 MB of NUL bytes, a line of binary)
/// so costs bounded memory whatever its size, and a reject still shows how
/// the record began.
///
///     var buffer = JSONRecordBuffer()
///     buffer.append(bytes, sampleOnly: true)   // 100,000 bytes: 65,536 kept
///     buffer.length                             // 100,000
///
/// O(1) per byte kept or dropped; memory is the record, or the sample.
struct JSONRecordBuffer: Sendable {
  /// How many bytes of a record that cannot be a review are kept.
  static let sampleLimit = 64 * 1024

  /// The bytes kept: the whole record, or its first bytes.
  private(set) var bytes: [UInt8] = []
  /// The record's length in the input: ``bytes`` and those read but not kept
  /// (stored, not computed: the splitter reads it at every member).
  private(set) var length = 0

  /// Whether ``bytes`` holds only the start of the record.
  var isTruncated: Bool { length > bytes.count }

  /// Starts the next record (a large buffer is let go rather than kept).
  mutating func reset() {
    bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
    length = 0
  }

  /// Adds the next bytes of the record; with `sampleOnly`, only as many as
  /// the sample has room for (none once any was dropped: the sample has no gaps).
  mutating func append(_ part: UnsafeBufferPointer<UInt8>, sampleOnly: Bool) {
    let room = isTruncated ? 0 : max(0, Self.sampleLimit - bytes.count)
    length += part.count
    guard sampleOnly else {
      bytes.append(contentsOf: part)
      return
    }
    if part.count <= room {
      bytes.append(contentsOf: part)
      return
    }
    let kept = JSONRecordSplitter.endOfWholeCharacters(
      UnsafeBufferPointer(rebasing: part[..<room]), from: 0)
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: part[..<kept]))
  }

  /// Keeps only the sample, in a buffer of its own size (the record was kept
  /// whole while it could still be a review).
  mutating func keepSampleOnly() {
    guard bytes.count > Self.sampleLimit else { return }
    let kept = bytes.withUnsafeBufferPointer {
      JSONRecordSplitter.endOfWholeCharacters(
        UnsafeBufferPointer(rebasing: $0[..<Self.sampleLimit]), from: 0)
    }
    bytes = Array(bytes[..<kept])
  }

  /// Ends the record at `length` bytes from its start.
  mutating func cut(at length: Int) {
    if length < bytes.count { bytes.removeSubrange(length...) }
    self.length = min(self.length, length)
  }

  /// Drops the whitespace that ends the record (when it was kept whole: the
  /// end of a sample is not the record's).
  mutating func trimTrailingWhitespace() {
    guard !isTruncated else { return }
    while let last = bytes.last, last == 0x20 || last == 0x0A || last == 0x0D || last == 0x09 {
      bytes.removeLast()
    }
    length = bytes.count
  }

  /// Stops keeping the bytes read so far (a top-level object turned out to be
  /// an envelope, whose other members are read past).
  mutating func discard() {
    reset()
  }
}
