/// Wraps a filter and puts everything it writes through ICU normalization
/// (`hangul-compose --nfc`: e + U+0301 → é). Without a normalizer it only
/// passes the output on.
///
///     var filter = NormalizingFilter(ComposeFilter(), normalizer: try ICUNormalizer(.nfc))
///     try filter.filtered(Array("e\u{301}ㄱㅏ".utf8))   // "é가"
///
/// Output is held back only to the last newline (normalization never crosses
/// one), or, in a line longer than 1 MiB, to the last normalization boundary.
public struct NormalizingFilter<Inner: ByteFilter>: ByteFilter {
  public private(set) var inner: Inner
  public let normalizer: ICUNormalizer?
  private var held: [UInt8] = []

  public init(_ inner: Inner, normalizer: ICUNormalizer?) {
    self.inner = inner
    self.normalizer = normalizer
  }

  public mutating func beginInput(named name: String) {
    inner.beginInput(named: name)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8])
    throws
  {
    guard let normalizer else { return try inner.process(chunk, into: &output) }
    try inner.process(chunk, into: &held)
    let cut = cutPoint(normalizer)
    guard cut > 0 else { return }
    held.withUnsafeBufferPointer {
      normalizer.normalize(utf8: UnsafeBufferPointer(rebasing: $0[..<cut]), into: &output)
    }
    held.removeFirst(cut)
  }

  public mutating func finish(into output: inout [UInt8]) throws {
    guard let normalizer else { return try inner.finish(into: &output) }
    try inner.finish(into: &held)
    held.withUnsafeBufferPointer { normalizer.normalize(utf8: $0, into: &output) }
    held.removeAll()
  }

  /// How much of `held` can be normalized now.
  private func cutPoint(_ normalizer: ICUNormalizer) -> Int {
    if let newline = held.lastIndex(of: 0x0A) { return newline + 1 }
    guard held.count > 1 << 20 else { return 0 }
    // A scalar start with a boundary before it, in the last few characters.
    var index = held.count - 1
    var looked = 0
    while index > 0, looked < 64 {
      if held[index] & 0xC0 != 0x80 {
        looked += 1
        var decoder = UTF8Stream()
        var first: DecodedUnit?
        decoder.decode(Array(held[index..<min(held.count, index + 4)]), isLast: true) { unit in
          if first == nil { first = unit }
        }
        if case .scalar(let scalar) = first, normalizer.hasBoundary(before: scalar) { return index }
      }
      index -= 1
    }
    return held.count
  }
}
