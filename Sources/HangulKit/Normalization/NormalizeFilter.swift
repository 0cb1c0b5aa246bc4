/// The `hangul-normalize` filter: text in, the same text in a Unicode
/// normalization form out (``UnicodeNormalizer``), streaming.
///
///     var filter = try NormalizeFilter(form: .nfc)
///     try filter.filtered(Array("\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}\n".utf8))  // "한글\n"
///
/// Only the last segment of each block is held back (it may join what the
/// next block starts with); a run without a normalization boundary is
/// normalized in pieces of ``UnicodeNormalizer/longestSegment`` bytes. Time O(n).
public struct NormalizeFilter: ByteFilter {
  public let normalizer: UnicodeNormalizer
  private var carry: [UInt8] = []
  private let sink = ByteSink(capacity: 1 << 16)
  /// Whether every byte the last chunk passed was UTF-8 (then the runner
  /// need not check it again); bytes it held back are checked with the next.
  public private(set) var lastChunkWasUTF8 = false

  /// The most input normalized into the sink at once.
  static let pieceSize = 1 << 15

  /// The longest run held back waiting for a boundary.
  public static let longestHeldRun = 1 << 20

  public init(form: ICUNormalizer.Form) throws {
    normalizer = try UnicodeNormalizer(form)
  }

  /// The filter of `normalizer`'s form.
  public init(_ normalizer: UnicodeNormalizer) {
    self.normalizer = normalizer
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    lastChunkWasUTF8 = true
    var start = 0
    if !carry.isEmpty {
      // The carried segment may continue in this chunk: normalize it with the
      // chunk up to the first ASCII byte, a boundary in every form.
      let limit = min(chunk.count, 4096)
      if let boundary = (0..<limit).first(where: { chunk[$0] < 0x80 }) {
        carry.append(contentsOf: chunk[..<boundary])
        note(carry.withUnsafeBufferPointer { normalize($0, isLast: true) })
        carry.removeAll(keepingCapacity: true)
        start = boundary
      } else {
        carry.append(contentsOf: chunk)
        normalizeCarry()
        sink.drain(into: &output)
        return
      }
    }
    // In pieces, so that the sink stays small (peak memory): each piece
    // leaves its last segment to the next one.
    while chunk.count - start > Self.pieceSize {
      let piece = UnsafeBufferPointer(rebasing: chunk[start..<(start + Self.pieceSize)])
      let consumed = note(normalize(piece, isLast: false))
      sink.drain(into: &output)
      guard consumed > 0 else { break }
      start += consumed
    }
    let rest = UnsafeBufferPointer(rebasing: chunk[start...])
    let consumed = note(normalize(rest, isLast: false))
    carry.append(contentsOf: rest[consumed...])
    if carry.count > Self.longestHeldRun { forceCarry() }
    sink.drain(into: &output)
  }

  public mutating func finish(into output: inout [UInt8]) {
    carry.withUnsafeBufferPointer { _ = normalizer.normalize($0, isLast: true, into: sink) }
    carry.removeAll()
    sink.drain(into: &output)
  }

  /// Normalizes `bytes` into the sink: how many were consumed, and whether they were UTF-8.
  private func normalize(_ bytes: UnsafeBufferPointer<UInt8>, isLast: Bool)
    -> (consumed: Int, wasUTF8: Bool)
  {
    normalizer.normalizeChecking(bytes, isLast: isLast, into: sink)
  }

  /// Notes whether a normalization passed only UTF-8; returns how many bytes it consumed.
  @discardableResult
  private mutating func note(_ result: (consumed: Int, wasUTF8: Bool)) -> Int {
    if !result.wasUTF8 { lastChunkWasUTF8 = false }
    return result.consumed
  }

  private mutating func normalizeCarry() {
    let consumed = note(carry.withUnsafeBufferPointer { normalize($0, isLast: false) })
    carry.removeFirst(consumed)
    if carry.count > Self.longestHeldRun { forceCarry() }
  }

  /// Normalizes a held run that has grown too long, up to its last scalar start.
  private mutating func forceCarry() {
    var cut = carry.count - 1
    while cut > 0, carry[cut] & 0xC0 == 0x80, carry.count - cut < 4 { cut -= 1 }
    note(
      carry.withUnsafeBufferPointer {
        normalize(UnsafeBufferPointer(rebasing: $0[..<cut]), isLast: true)
      })
    carry.removeFirst(cut)
  }
}
