/// What ICU says about each code point for one normalization form, in a
/// table built from ICU at start-up (about 200,000 look-ups, a few
/// milliseconds): whether normalization has a boundary before it, whether it
/// is already in the form on its own, and whether the project's own Hangul
/// arithmetic may handle it.
///
///     let properties = try NormalizationProperties.shared(.nfc)
///     properties.flags(of: 0x61) & NormalizationProperties.stable != 0    // true: "a"
///     properties.flags(of: 0x301) & NormalizationProperties.boundary != 0 // false
///
/// Code points from U+30000 on (rare) are asked of ICU each time. A look-up
/// is O(1).
public struct NormalizationProperties: Sendable {
  /// Normalization has a boundary before the code point: text may be cut
  /// there and the pieces normalized apart.
  public static let boundary: UInt8 = 1
  /// A boundary, and the code point alone is in the form: with a boundary
  /// after it too, it is written unchanged.
  public static let stable: UInt8 = 2
  /// A Hangul syllable or conjoining jamo: the project's arithmetic composes
  /// and decomposes it (SPEC §2) instead of ICU.
  public static let hangul: UInt8 = 4

  /// Code points below this are in the table.
  public static let tableLimit: UInt32 = 0x30000

  public let form: ICUNormalizer.Form
  public let normalizer: ICUNormalizer
  /// The flags of every code point below ``tableLimit``.
  let table: [UInt8]

  /// Builds the table for `form` from ICU.
  public init(_ form: ICUNormalizer.Form) throws {
    let normalizer = try ICUNormalizer(form)
    self.form = form
    self.normalizer = normalizer
    table = (0..<Self.tableLimit).map { Self.askICU($0, normalizer) }
  }

  private static let nfc = Result { try NormalizationProperties(.nfc) }
  private static let nfd = Result { try NormalizationProperties(.nfd) }
  private static let nfkc = Result { try NormalizationProperties(.nfkc) }
  private static let nfkd = Result { try NormalizationProperties(.nfkd) }

  /// The table of `form`, built once on first use.
  public static func shared(_ form: ICUNormalizer.Form) throws -> NormalizationProperties {
    switch form {
    case .nfc: try nfc.get()
    case .nfd: try nfd.get()
    case .nfkc: try nfkc.get()
    case .nfkd: try nfkd.get()
    }
  }

  /// The flags of the code point `value` (a scalar value).
  @inline(__always)
  public func flags(of value: UInt32) -> UInt8 {
    value < Self.tableLimit ? table[Int(value)] : Self.askICU(value, normalizer)
  }

  /// Whether the project's arithmetic handles `value`: syllables and
  /// conjoining jamo, none of which has a compatibility decomposition.
  public static func isConjoiningHangul(_ value: UInt32) -> Bool {
    switch value {
    case 0xAC00...0xD7A3, 0x1100...0x11FF, 0xA960...0xA97C, 0xD7B0...0xD7C6, 0xD7CB...0xD7FB: true
    default: false
    }
  }

  static func askICU(_ value: UInt32, _ normalizer: ICUNormalizer) -> UInt8 {
    guard let scalar = Unicode.Scalar(value) else { return boundary | stable }
    var flags: UInt8 = 0
    if normalizer.hasBoundary(before: scalar) {
      flags |= boundary
      if normalizer.isNormalized(scalar) { flags |= stable }
    }
    if isConjoiningHangul(value) { flags |= hangul }
    return flags
  }
}
