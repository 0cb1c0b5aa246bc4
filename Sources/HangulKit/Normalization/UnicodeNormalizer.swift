/// Unicode normalization of UTF-8 text in any of the four forms, byte for
/// byte what ICU writes, through the project's own fast paths.
///
///     let nfc = try UnicodeNormalizer(.nfc)
///     nfc.normalized("\u{1112}\u{1161}\u{11AB} cafe\u{301}")   // "한 café"
///     try UnicodeNormalizer(.nfd).normalized("닭")               // U+1103 U+1161 U+11B0
///     nfc.normalized("ㄱㅅ")                                     // "ㄱㅅ": text, never keys
///
/// The text is cut into segments at normalization boundaries (from
/// ``NormalizationProperties``, built from ICU). A segment of one code point
/// that is already in the form is copied; a segment of Hangul syllables and
/// conjoining jamo is composed or decomposed by the arithmetic of Unicode (ARCHITECTURE.md);
/// every other segment (combining marks, compatibility characters, …) goes to
/// ICU, a run of such segments at a time. Bytes that are not UTF-8 are copied
/// unchanged and nothing composes across them. A segment longer than
/// ``longestSegment`` is put in canonical order before ICU sees it. Time
/// O(n) (O(n log n) in such a segment); memory O(longest segment).
public struct UnicodeNormalizer {
  public let form: ICUNormalizer.Form
  let properties: NormalizationProperties
  let workspace = ICUWorkspace()
  let decompositions = SyllableDecompositions.shared

  /// The longest segment, in bytes, that ICU gets as it is: a longer run
  /// with no boundary in it (hundreds of combining marks on one letter,
  /// where ICU's reordering takes time quadratic in the run) is put in
  /// canonical order first (``CanonicalOrdering``), then normalized whole.
  /// Stream-safe text (UAX #15: at most 30 marks in a row) never comes near.
  package static let longestSegment = 1024

  /// The longest segment, in bytes, that a streaming filter holds to
  /// normalize whole (``NormalizeFilter``): a longer one is normalized in
  /// pieces, which is not the form, and reported.
  package static let longestExactSegment = 1 << 20

  public init(_ form: ICUNormalizer.Form) throws {
    self.form = form
    properties = try NormalizationProperties(form)
  }

  /// The normalizer of `icu`'s form (its tables shared with every other one).
  public init(_ icu: ICUNormalizer) {
    form = icu.form
    properties = NormalizationProperties(normalizer: icu)
  }

  /// Normalizes `input`, writing to `sink`. With `isLast` false the last
  /// segment (which what follows may still change) is held back: returns how
  /// many bytes were consumed, always at a boundary.
  package func normalize(_ input: UnsafeBufferPointer<UInt8>, isLast: Bool, into sink: ByteSink)
    -> Int
  {
    normalizeReportingUTF8(input, isLast: isLast, into: sink).consumed
  }

  /// Normalizes as ``normalize(_:isLast:into:)`` does; `wasUTF8` tells
  /// whether every byte of `input` was UTF-8, but perhaps a sequence cut off
  /// by its end when `isLast` is false (the pass decodes every byte, the
  /// part held back too).
  func normalizeReportingUTF8(
    _ input: UnsafeBufferPointer<UInt8>, isLast: Bool, into sink: ByteSink
  ) -> (consumed: Int, wasUTF8: Bool) {
    decompositions.bytes.withUnsafeBufferPointer { syllables in
      var pass = NormalizationPass(
        input: input, table: properties.table, syllables: syllables, sink: sink, normalizer: self)
      let consumed = pass.run(isLast: isLast)
      return (consumed, !pass.sawInvalid)
    }
  }

  /// `bytes` normalized (bytes that are not UTF-8 copied).
  public func normalized(_ bytes: [UInt8]) -> [UInt8] {
    let sink = ByteSink(capacity: bytes.count * 3 + 64)
    _ = bytes.withUnsafeBufferPointer { normalize($0, isLast: true, into: sink) }
    return Array(sink.bytes)
  }

  /// `text` normalized.
  public func normalized(_ text: String) -> String {
    String(decoding: normalized(Array(text.utf8)), as: UTF8.self)
  }

  /// Normalizes the valid UTF-8 `input[..<count]`, which holds a segment
  /// longer than ``longestSegment``: in canonical order first, then by ICU.
  func normalizeLongSegment(_ input: UnsafePointer<UInt8>, count: Int, into sink: ByteSink) {
    CanonicalOrdering.normalize(input, count: count, with: properties.normalizer, into: sink)
  }

  /// Normalizes the valid UTF-8 in `start..<end` of `input` with ICU.
  func normalizeWithICU(_ input: UnsafePointer<UInt8>, count: Int, into sink: ByteSink) {
    let units = workspace.utf16(from: input, count: count)
    guard let result = workspace.normalize(units, with: properties.normalizer) else {
      sink.append(input, count: count)
      return
    }
    workspace.appendUTF8(result, to: sink)
  }
}
