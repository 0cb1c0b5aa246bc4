/// What ICU says about each code point for one normalization form, in a
/// table filled from ICU as text needs it, 256 code points at a time (a
/// block costs about 512 ICU look-ups, some 30 µs; Korean text needs about
/// 50 blocks): whether normalization has a boundary before the code point,
/// whether it is already in the form on its own, and whether the project's
/// own Hangul arithmetic may handle it; and a step map that tells a copy
/// loop from the first two bytes of a sequence that it is stable.
///
///     let properties = try NormalizationProperties(.nfc)
///     properties.flags(of: 0x61) & NormalizationProperties.stable != 0    // true: "a"
///     properties.flags(of: 0x301) & NormalizationProperties.boundary != 0 // false
///
/// Code points from U+30000 on (rare) are asked of ICU each time. A look-up
/// is O(1). Not for sharing between threads (it fills itself).
public final class NormalizationProperties {
  /// Normalization has a boundary before the code point: text may be cut
  /// there and the pieces normalized apart.
  public static let boundary: UInt8 = 1
  /// A boundary, and the code point alone is in the form: with a boundary
  /// after it too, it is written unchanged.
  public static let stable: UInt8 = 2
  /// A Hangul syllable or conjoining jamo: the project's arithmetic composes
  /// and decomposes it (SPEC §2) instead of ICU.
  public static let hangul: UInt8 = 4
  /// Not asked of ICU yet (no other flag is set with it).
  public static let unknown: UInt8 = 0x80

  /// Code points below this are in the table.
  public static let tableLimit: UInt32 = 0x30000

  /// Where the step map starts in ``table``, after the flags of every code
  /// point: for each pair of bytes that may start a sequence (indexed by
  /// the first byte plus 256 times the second, as a little-endian 16-bit
  /// load reads them), how many bytes a loop may copy as they are without
  /// decoding them: 1 for ASCII, 2 for a two-byte code point that is
  /// ``stable``, 3 when every sequence with these two bytes and a
  /// continuation byte after them is a code point that is ``stable`` (a
  /// block of 64), else 0: for four-byte sequences, for the conjoining jamo
  /// U+1100–U+11FF (the Hangul paths take them), for what is not UTF-8 and
  /// for blocks not asked of ICU yet.
  static let stepMapOffset = Int(tableLimit)

  public let form: ICUNormalizer.Form
  public let normalizer: ICUNormalizer
  /// The flags of every code point below ``tableLimit``, ``unknown`` until asked.
  let table: UnsafeMutablePointer<UInt8>

  /// A table for `form`: ASCII (and in a composing form the syllables) filled, the rest as used.
  public convenience init(_ form: ICUNormalizer.Form) throws {
    self.init(normalizer: try ICUNormalizer(form))
  }

  /// A table for `normalizer`'s form: ASCII (and in a composing form the
  /// syllables) filled, the rest as used.
  public init(normalizer: ICUNormalizer) {
    form = normalizer.form
    self.normalizer = normalizer
    table = .allocate(capacity: Self.stepMapOffset + 0x1_0000)
    table.initialize(repeating: Self.unknown, count: Int(Self.tableLimit))
    (table + Self.stepMapOffset).initialize(repeating: 0, count: 0x1_0000)
    _ = fill(0)
    // The composing forms' copy loop takes syllables without asking the
    // table, so nothing else would fill their blocks (44 of 256, some 1.5 ms).
    if form.composes {
      for start in stride(from: HangulSyllable.firstScalarValue, to: 0xD7A4, by: 0x100) {
        _ = fill(start)
      }
    }
  }

  deinit { table.deallocate() }

  /// The flags of the code point `value` (a scalar value).
  @inline(__always)
  public func flags(of value: UInt32) -> UInt8 {
    guard value < Self.tableLimit else { return Self.askICU(value, normalizer) }
    let flags = table[Int(value)]
    return flags == Self.unknown ? fill(value) : flags
  }

  /// Asks ICU about the block of `value`; returns the flags of `value`.
  @inline(never)
  func fill(_ value: UInt32) -> UInt8 {
    let start = value & ~0xFF
    // The code points with a boundary before them are stable if they are
    // normalized alone; asked of ICU as one string first: when the string is
    // normalized, so is each of them (each is a segment of its own, and
    // none of them normalizes to nothing), and one call does for them all.
    var units: [UInt16] = []
    for code in start..<(start + 0x100) {
      guard let scalar = Unicode.Scalar(code) else {
        table[Int(code)] = Self.boundary | Self.stable
        continue
      }
      var flags = Self.isConjoiningHangul(code) ? Self.hangul : 0
      if normalizer.hasBoundary(before: scalar) {
        flags |= Self.boundary
        UTF16.encode(scalar) { units.append($0) }
      }
      table[Int(code)] = flags
    }
    let allNormalized = units.withUnsafeBufferPointer {
      guard let base = $0.baseAddress else { return true }
      return normalizer.isNormalized(units: base, count: $0.count)
    }
    for code in start..<(start + 0x100) where table[Int(code)] & Self.boundary != 0 {
      guard let scalar = Unicode.Scalar(code), table[Int(code)] & Self.stable == 0 else { continue }
      if allNormalized || normalizer.isNormalized(scalar) { table[Int(code)] |= Self.stable }
    }
    fillStepMap(start)
    return table[Int(value)]
  }

  /// Fills the step map for the 256 code points from `start`.
  private func fillStepMap(_ start: UInt32) {
    let map = table + Self.stepMapOffset
    if start == 0 {
      for lead in 0..<0x80 where table[lead] & Self.stable != 0 {
        for second in 0..<0x100 { map[lead | second << 8] = 1 }
      }
    }
    if start < 0x800 {
      for code in max(start, 0x80)..<(start + 0x100) where table[Int(code)] & Self.stable != 0 {
        map[Int(0xC0 | code >> 6) | Int(0x80 | code & 0x3F) << 8] = 2
      }
    } else if start < 0x10000, start & 0xFF00 != 0x1100, start & 0xF800 != 0xD800 {
      for block in stride(from: start, to: start + 0x100, by: 0x40) {
        guard (block..<(block + 0x40)).allSatisfy({ table[Int($0)] & Self.stable != 0 }) else {
          continue
        }
        map[Int(0xE0 | block >> 12) | Int(0x80 | block >> 6 & 0x3F) << 8] = 3
      }
    }
  }

  /// How many bytes a sequence that starts with `lead` and `second` may be
  /// copied over without decoding it, by the step map (see
  /// ``stepMapOffset``): 0 until its code points have been asked of ICU
  /// (``flags(of:)`` of one of the block of 256), and for what is not stable.
  ///
  ///     _ = properties.flags(of: 0xAC00)
  ///     properties.stepLength(lead: 0xEA, second: 0xB0)   // 3: 가 to 갿
  ///
  /// O(1).
  public func stepLength(lead: UInt8, second: UInt8) -> Int {
    Int(table[Self.stepMapOffset + Int(lead) + Int(second) << 8])
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
