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
  /// Whether the last chunk was UTF-8 (the bytes held back for the next one
  /// too, but for a sequence cut off at its end).
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
    defer {
      if lastChunkWasUTF8 {
        lastChunkWasUTF8 = carry.withUnsafeBufferPointer { Self.isUTF8(allowingCutOffEnd: $0) }
      }
    }
    var start = 0
    if !carry.isEmpty {
      // The carried segment may continue in this chunk: normalize it with the
      // chunk up to the first ASCII byte, a boundary in every form.
      let limit = min(chunk.count, 4096)
      if let boundary = (0..<limit).first(where: { chunk[$0] < 0x80 }) {
        carry.append(contentsOf: chunk[..<boundary])
        _ = carry.withUnsafeBufferPointer {
          note(normalizer.normalizeNoting($0, isLast: true, into: sink))
        }
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
      let consumed = note(normalizer.normalizeNoting(piece, isLast: false, into: sink))
      sink.drain(into: &output)
      guard consumed > 0 else { break }
      start += consumed
    }
    let rest = UnsafeBufferPointer(rebasing: chunk[start...])
    let consumed = note(normalizer.normalizeNoting(rest, isLast: false, into: sink))
    carry.append(contentsOf: rest[consumed...])
    if carry.count > Self.longestHeldRun { forceCarry() }
    sink.drain(into: &output)
  }

  public mutating func finish(into output: inout [UInt8]) {
    carry.withUnsafeBufferPointer { _ = normalizer.normalize($0, isLast: true, into: sink) }
    carry.removeAll()
    sink.drain(into: &output)
  }

  private mutating func normalizeCarry() {
    let consumed = carry.withUnsafeBufferPointer {
      note(normalizer.normalizeNoting($0, isLast: false, into: sink))
    }
    carry.removeFirst(consumed)
    if carry.count > Self.longestHeldRun { forceCarry() }
  }

  /// Normalizes a held run that has grown too long, up to its last scalar start.
  private mutating func forceCarry() {
    var cut = carry.count - 1
    while cut > 0, carry[cut] & 0xC0 == 0x80, carry.count - cut < 4 { cut -= 1 }
    _ = carry.withUnsafeBufferPointer {
      note(
        normalizer.normalizeNoting(
          UnsafeBufferPointer(rebasing: $0[..<cut]), isLast: true, into: sink))
    }
    carry.removeFirst(cut)
  }

  /// Takes note of whether a normalization found its input UTF-8; returns what it consumed.
  @discardableResult
  private mutating func note(_ result: (consumed: Int, wasUTF8: Bool)) -> Int {
    if !result.wasUTF8 { lastChunkWasUTF8 = false }
    return result.consumed
  }

  /// Whether `bytes` is UTF-8 but for a sequence cut off at its end that is
  /// well-formed as far as it goes (a runner's ``UTF8Validator`` checks such
  /// an end itself).
  static func isUTF8(allowingCutOffEnd bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let end = UTF8Validator.wellFormedPrefix(base, from: 0, count: bytes.count)
    guard end < bytes.count else { return true }
    guard bytes.count - end < 4, case .incomplete = UTF8Stream.step(bytes, at: end) else {
      return false
    }
    return true
  }
}
