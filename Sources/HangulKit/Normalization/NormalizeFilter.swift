/// The `hangul-normalize` filter: text in, the same text in a Unicode
/// normalization form out (``UnicodeNormalizer``), streaming.
///
///     var filter = try NormalizeFilter(form: .nfc)
///     try filter.filtered(Array("\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}\n".utf8))  // "한글\n"
///
/// Only the last segment of each block is held back (it may join what the
/// next block starts with), up to ``longestHeldRun`` bytes: a segment up to
/// that long is normalized whole, as ICU does; a longer one (more than a
/// million bytes of combining marks on one letter) is normalized in pieces,
/// which is not the form, and counted in ``overlongRuns``. Time O(n).
public struct NormalizeFilter: ByteFilter, StreamingFilter {
  public let normalizer: UnicodeNormalizer
  private var carry: [UInt8] = []
  /// Room from the start for what is written between two flushes: growing
  /// it by doubling from a small size copied about 2 MB (3 % of the
  /// instructions of 4 MB of text → NFD). Pages not written to are never
  /// touched, so a short input costs no more memory.
  private var sink = ByteSink(capacity: flushSize + 3 * pieceSize + 64)

  /// The most input normalized into the sink at once: 128 KiB, a read
  /// block's worth. Each piece ends with a few bytes the pass takes the
  /// slow way (its last segment, held back); pieces of 32 KiB cost 1 %
  /// more time in text → NFD (75.9 against 76.6 ms), for no less memory.
  static let pieceSize = 1 << 17

  /// The sink is emptied within a chunk once it holds this much: more than
  /// the NFD of a 512 KiB piece of a mapped file (``FilterRunner``), which
  /// then leaves in one write(2).
  static let flushSize = 2 << 20

  /// The longest run held back waiting for a boundary.
  public static let longestHeldRun = UnicodeNormalizer.longestExactSegment

  /// How many segments were longer than ``longestHeldRun`` (normalized in
  /// pieces, so not in the form), and a message about the first.
  package private(set) var overlongRuns = 0
  package private(set) var firstOverlongRun: String?
  /// The name of the input, for that message.
  private var inputName = "(standard input)"
  /// Whether the carried segment is one already counted as too long.
  private var carriesOverlongRun = false

  public init(form: ICUNormalizer.Form) throws {
    normalizer = try UnicodeNormalizer(form)
  }

  /// The filter of `normalizer`'s form.
  public init(_ normalizer: UnicodeNormalizer) {
    self.normalizer = normalizer
  }

  /// Whether the last chunk was UTF-8 but perhaps for a sequence cut off at
  /// its end (every byte goes through the normalizer's exact decoding; a
  /// chunk that joined a long held run is not vouched for).
  package private(set) var lastChunkWasUTF8 = false

  package var takesLargeChunks: Bool { true }

  package mutating func beginInput(named name: String) {
    inputName = name
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    normalize(chunk) { sink in
      sink.drain(into: &output)
      return false
    }
  }

  /// Normalizes `chunk` as ``process(_:into:)`` does, but when `output` is
  /// empty hands the sink itself to `take` instead of copying its bytes into
  /// `output` (NFD of Korean text is twice as long as the text: the copy
  /// was an eighth of the work). When `take` keeps the sink (a parallel run
  /// keeps each piece's output in the sinks it was written into), a new
  /// one takes its place; else it is emptied and written on.
  package mutating func process(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    handingOver take: (ByteSink) throws -> Bool
  ) throws {
    try normalize(chunk) { sink in
      guard output.isEmpty else {
        sink.drain(into: &output)
        return false
      }
      guard sink.count > 0 else { return false }
      if try take(sink) { return true }
      sink.count = 0
      return false
    }
  }

  /// The normalization of one chunk into the sink; `flush` empties the sink
  /// at the end, and on the way when it holds ``flushSize`` bytes or more,
  /// or takes it (returns `true`: a new sink takes its place).
  private mutating func normalize(
    _ chunk: UnsafeBufferPointer<UInt8>, flush: (ByteSink) throws -> Bool
  ) rethrows {
    var start = 0
    var wasUTF8 = true
    if !carry.isEmpty {
      // The carried segment may continue in this chunk: normalize it with the
      // chunk up to the first ASCII byte, a boundary in every form.
      let limit = min(chunk.count, 4096)
      if let boundary = (0..<limit).first(where: { chunk[$0] < 0x80 }) {
        carry.append(contentsOf: chunk[..<boundary])
        wasUTF8 = carry.withUnsafeBufferPointer {
          normalizer.normalizeReportingUTF8($0, isLast: true, into: sink).wasUTF8
        }
        carry.removeAll(keepingCapacity: true)
        carriesOverlongRun = false
        start = boundary
      } else {
        lastChunkWasUTF8 = false
        carry.append(contentsOf: chunk)
        normalizeCarry()
        try emptySink(flush)
        return
      }
    }
    // In pieces, each leaving its last segment to the next one; the sink is
    // emptied when it has grown large (peak memory), else once at the end
    // (one write(2) per chunk).
    while chunk.count - start > Self.pieceSize {
      let piece = UnsafeBufferPointer(rebasing: chunk[start..<(start + Self.pieceSize)])
      let (consumed, pieceWasUTF8) = normalizer.normalizeReportingUTF8(
        piece, isLast: false, into: sink)
      if sink.count >= Self.flushSize { try emptySink(flush) }
      guard consumed > 0 else { break }
      // What was held back is decoded again with the next piece.
      wasUTF8 = wasUTF8 && pieceWasUTF8
      start += consumed
    }
    let rest = UnsafeBufferPointer(rebasing: chunk[start...])
    let (consumed, restWasUTF8) = normalizer.normalizeReportingUTF8(
      rest, isLast: false, into: sink)
    carry.append(contentsOf: rest[consumed...])
    lastChunkWasUTF8 = wasUTF8 && restWasUTF8
    if carry.count > Self.longestHeldRun {
      forceCarry()
      lastChunkWasUTF8 = false
    }
    try emptySink(flush)
  }

  /// Empties the sink by `flush`, or replaces it when `flush` took it (by
  /// one with room for as much again and a piece more: what the next chunk
  /// of the same size needs, and not the doubled capacity of the old one).
  private mutating func emptySink(_ flush: (ByteSink) throws -> Bool) rethrows {
    if try flush(sink) { sink = ByteSink(capacity: sink.count + 3 * Self.pieceSize + 64) }
  }

  public mutating func finish(into output: inout [UInt8]) {
    carry.withUnsafeBufferPointer { _ = normalizer.normalize($0, isLast: true, into: sink) }
    carry.removeAll()
    carriesOverlongRun = false
    sink.drain(into: &output)
  }

  private mutating func normalizeCarry() {
    let consumed = carry.withUnsafeBufferPointer {
      normalizer.normalize($0, isLast: false, into: sink)
    }
    carry.removeFirst(consumed)
    // A boundary came: the carry is a new segment.
    if consumed > 0 { carriesOverlongRun = false }
    if carry.count > Self.longestHeldRun { forceCarry() }
  }

  /// Normalizes a held run that has grown too long, up to its last scalar
  /// start, as if it ended there: the output is not the form (only the whole
  /// run in canonical order would be), and the run is counted.
  private mutating func forceCarry() {
    if !carriesOverlongRun {
      if overlongRuns == 0 {
        firstOverlongRun =
          "\(inputName): a run of more than \(Self.longestHeldRun >> 20) MiB with no "
          + "normalization boundary (combining marks on one character) was normalized in "
          + "pieces: it is not \(normalizer.form.name.uppercased()) as a whole"
      }
      overlongRuns += 1
      carriesOverlongRun = true
    }
    var cut = carry.count - 1
    while cut > 0, carry[cut] & 0xC0 == 0x80, carry.count - cut < 4 { cut -= 1 }
    carry.withUnsafeBufferPointer {
      _ = normalizer.normalize(UnsafeBufferPointer(rebasing: $0[..<cut]), isLast: true, into: sink)
    }
    carry.removeFirst(cut)
  }
}

/// A filter that may have had to normalize a segment in pieces because it
/// was longer than it holds (``NormalizeFilter/longestHeldRun``): its
/// output is not the form there, and the run exits 65.
package protocol OverlongRunReporting {
  /// How many such segments there were.
  var overlongRuns: Int { get }
  /// A message about the first, naming its input.
  var firstOverlongRun: String? { get }
}

extension NormalizeFilter: OverlongRunReporting {}
