/// A Hangul compatibility jamo (U+3131–U+3163): one of the letters a Korean
/// keyboard shows, such as ㄱ, ㄳ or ㅘ.
///
/// A jamo knows which syllable positions it can fill and which keys type it:
///
///     let jamo = Jamo("ㄳ")
///     jamo?.finalIndex      // 3
///     jamo?.initialIndex    // nil
///     jamo?.keys            // [ㄱ, ㅅ]
public struct Jamo: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The distance from U+3131 (ㄱ): 0 ... 50.
  @usableFromInline package let offset: UInt8

  /// The number of compatibility jamo in U+3131–U+3163.
  public static let count = 51

  /// The first compatibility jamo, U+3131.
  @usableFromInline package static let firstScalarValue: UInt32 = 0x3131

  @inlinable package init(offset: UInt8) {
    self.offset = offset
  }

  /// Creates the jamo for a compatibility jamo scalar, or `nil` for any other scalar.
  @inlinable public init?(_ scalar: Unicode.Scalar) {
    let distance = scalar.value &- Jamo.firstScalarValue
    guard distance < UInt32(Jamo.count) else { return nil }
    self.offset = UInt8(distance)
  }

  /// All 51 compatibility jamo in code point order.
  public static var all: [Jamo] { (0..<UInt8(count)).map(Jamo.init(offset:)) }

  /// The compatibility jamo scalar.
  @inlinable public var scalar: Unicode.Scalar {
    // U+3131...U+3163 are all valid scalars.
    Unicode.Scalar(Jamo.firstScalarValue + UInt32(offset)) ?? "\u{3131}"
  }

  /// Whether the jamo is a vowel (ㅏ … ㅣ); otherwise it is a consonant.
  @inlinable public var isVowel: Bool { offset >= 30 }

  /// The index of this consonant among the 19 syllable initials, if it can be one.
  public var initialIndex: Int? { JamoTables.initialIndexOfJamo[Int(offset)].index }

  /// The index of this vowel among the 21 syllable vowels, if it is a vowel.
  public var vowelIndex: Int? { isVowel ? Int(offset) - 30 : nil }

  /// The index (1 ... 27) of this consonant among the syllable finals, if it can be one.
  public var finalIndex: Int? { JamoTables.finalIndexOfJamo[Int(offset)].index }

  /// The jamo that is initial number `index` (0 ..< 19).
  public init?(initialIndex index: Int) {
    guard JamoTables.initials.indices.contains(index) else { return nil }
    self = JamoTables.initials[index]
  }

  /// The jamo that is vowel number `index` (0 ..< 21).
  public init?(vowelIndex index: Int) {
    guard (0..<21).contains(index) else { return nil }
    self.init(offset: UInt8(30 + index))
  }

  /// The jamo that is final number `index` (1 ..< 28).
  public init?(finalIndex index: Int) {
    guard (1..<28).contains(index) else { return nil }
    self = JamoTables.finals[index - 1]
  }

  /// The single-key jamo that type this one on a 2-set keyboard: two for a
  /// compound (ㅘ → ㅗ ㅏ, ㄳ → ㄱ ㅅ), otherwise the jamo itself.
  public var keys: [Jamo] {
    if let parts = JamoTables.compoundParts[Int(offset)] { return [parts.0, parts.1] }
    return [self]
  }

  /// The conjoining jamo (U+1100 block) for this jamo as an initial, if it can be one.
  public var conjoiningInitial: Unicode.Scalar? {
    initialIndex.flatMap { Unicode.Scalar(0x1100 + UInt32($0)) }
  }

  /// The conjoining jamo for this vowel, if it is a vowel.
  public var conjoiningVowel: Unicode.Scalar? {
    vowelIndex.flatMap { Unicode.Scalar(0x1161 + UInt32($0)) }
  }

  /// The conjoining jamo for this consonant as a final, if it can be one.
  public var conjoiningFinal: Unicode.Scalar? {
    finalIndex.flatMap { Unicode.Scalar(0x11A7 + UInt32($0)) }
  }

  /// The compatibility jamo for a conjoining jamo (U+1100–U+1112, U+1161–U+1175,
  /// U+11A8–U+11C2), or `nil` for any other scalar.
  public init?(conjoining scalar: Unicode.Scalar) {
    switch scalar.value {
    case 0x1100...0x1112: self.init(initialIndex: Int(scalar.value - 0x1100))
    case 0x1161...0x1175: self.init(vowelIndex: Int(scalar.value - 0x1161))
    case 0x11A8...0x11C2: self.init(finalIndex: Int(scalar.value - 0x11A7))
    default: return nil
    }
  }

  public static func < (lhs: Jamo, rhs: Jamo) -> Bool { lhs.offset < rhs.offset }

  public var description: String { String(scalar) }
}
