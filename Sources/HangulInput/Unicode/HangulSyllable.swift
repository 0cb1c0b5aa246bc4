/// A precomposed Hangul syllable (U+AC00–U+D7A3) and its parts.
///
/// The scalar is `0xAC00 + (initial * 21 + vowel) * 28 + final`, so a syllable
/// converts to and from its parts with arithmetic alone:
///
///     let syllable = HangulSyllable("닭")
///     syllable?.initial      // ㄷ
///     syllable?.vowel        // ㅏ
///     syllable?.final        // ㄺ
///     HangulSyllable(initial: Jamo("ㄱ")!, vowel: Jamo("ㅘ")!)?.scalar  // 과
///
/// Every operation is O(1).
public struct HangulSyllable: Hashable, Sendable, CustomStringConvertible {
  /// The first syllable, 가.
  public static let firstScalarValue: UInt32 = 0xAC00
  /// The number of syllables: 19 initials × 21 vowels × 28 finals.
  public static let count = 11_172

  /// Whether `value` is a precomposed syllable's scalar value.
  @inlinable public static func contains(_ value: UInt32) -> Bool {
    value &- firstScalarValue < UInt32(count)
  }

  /// The index (0 ..< 11,172) of the syllable of the modern conjoining jamo
  /// values `initial` (U+1100–U+1112), `vowel` (U+1161–U+1175) and `final`
  /// (U+11A8–U+11C2; 0: none), which the caller has checked: the one home of
  /// this arithmetic, for loops that hold scalar values, not jamo.
  @inlinable public static func index(initial: UInt32, vowel: UInt32, final: UInt32 = 0) -> Int {
    assert(initial &- 0x1100 < 19 && vowel &- 0x1161 < 21, "modern initial and vowel")
    assert(final == 0 || final &- 0x11A8 < 27, "no final, or a modern one")
    return Int(((initial &- 0x1100) &* 21 &+ vowel &- 0x1161) &* 28)
      &+ (final == 0 ? 0 : Int(final &- 0x11A7))
  }

  /// The conjoining jamo values of the syllable at `index` (0 ..< 11,172):
  /// initial, vowel, and final (0 when it has none).
  @inlinable public static func jamoValues(ofIndex index: Int) -> (
    initial: UInt32, vowel: UInt32, final: UInt32
  ) {
    assert((0..<count).contains(index), "a syllable's index")
    let finalIndex = UInt32(truncatingIfNeeded: index % 28)
    return (
      0x1100 + UInt32(truncatingIfNeeded: index / 588),
      0x1161 + UInt32(truncatingIfNeeded: index % 588 / 28),
      finalIndex == 0 ? 0 : 0x11A7 + finalIndex
    )
  }

  /// Initial index 0 ..< 19.
  public let initialIndex: Int
  /// Vowel index 0 ..< 21.
  public let vowelIndex: Int
  /// Final index 0 ..< 28, 0 when the syllable has no final.
  public let finalIndex: Int

  /// The syllable for a precomposed scalar, or `nil` for any other scalar.
  @inlinable public init?(_ scalar: Unicode.Scalar) {
    let index = scalar.value &- HangulSyllable.firstScalarValue
    guard index < UInt32(HangulSyllable.count) else { return nil }
    self.init(index: Int(index))
  }

  /// The syllable at `index` (0 ..< 11,172) in code point order.
  @inlinable public init(index: Int) {
    initialIndex = index / 588
    vowelIndex = index % 588 / 28
    finalIndex = index % 28
  }

  /// The syllable with the given part indices, or `nil` when one is out of range.
  public init?(initialIndex: Int, vowelIndex: Int, finalIndex: Int = 0) {
    guard (0..<19).contains(initialIndex), (0..<21).contains(vowelIndex),
      (0..<28).contains(finalIndex)
    else { return nil }
    self.initialIndex = initialIndex
    self.vowelIndex = vowelIndex
    self.finalIndex = finalIndex
  }

  /// The syllable made of these jamo, or `nil` when a jamo cannot fill its position
  /// (ㄳ as an initial, ㄸ as a final, a consonant as the vowel).
  public init?(initial: Jamo, vowel: Jamo, final: Jamo? = nil) {
    guard let initialIndex = initial.initialIndex, let vowelIndex = vowel.vowelIndex else {
      return nil
    }
    var finalIndex = 0
    if let final {
      guard let index = final.finalIndex else { return nil }
      finalIndex = index
    }
    self.init(initialIndex: initialIndex, vowelIndex: vowelIndex, finalIndex: finalIndex)
  }

  /// All 11,172 syllables in code point order.
  public static var all: [HangulSyllable] { (0..<count).map(HangulSyllable.init(index:)) }

  /// The position of the syllable in code point order.
  @inlinable public var index: Int { (initialIndex * 21 + vowelIndex) * 28 + finalIndex }

  /// The precomposed scalar.
  @inlinable public var scalar: Unicode.Scalar {
    Unicode.Scalar(HangulSyllable.firstScalarValue + UInt32(index)) ?? "\u{AC00}"
  }

  /// The initial consonant as a compatibility jamo.
  public var initial: Jamo { JamoTables.initials[initialIndex] }
  /// The vowel as a compatibility jamo.
  public var vowel: Jamo { Jamo(offset: UInt8(30 + vowelIndex)) }
  /// The final consonant as a compatibility jamo, or `nil`.
  public var final: Jamo? { finalIndex == 0 ? nil : JamoTables.finals[finalIndex - 1] }

  /// The canonical decomposition (NFD): two or three conjoining jamo.
  public var conjoiningJamo: [Unicode.Scalar] {
    var result = [
      Unicode.Scalar(0x1100 + UInt32(initialIndex)),
      Unicode.Scalar(0x1161 + UInt32(vowelIndex)),
    ]
    if finalIndex > 0 { result.append(Unicode.Scalar(0x11A7 + UInt32(finalIndex))) }
    return result.compactMap { $0 }
  }

  /// The same syllable with another final index (0 removes the final).
  public func withFinalIndex(_ index: Int) -> HangulSyllable? {
    HangulSyllable(initialIndex: initialIndex, vowelIndex: vowelIndex, finalIndex: index)
  }

  public var description: String { String(scalar) }
}
