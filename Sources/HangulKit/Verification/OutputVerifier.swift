/// Checks text against ICU, span by span (`--verify`, in every program's man page).
///
/// A Hangul span is a run of syllables and jamo (``HangulNormalization/isHangul(_:)``).
/// For output that should be composed (``Expectation/composed``) every span
/// must be unchanged by ICU NFC, and the project's own decomposition of it
/// must equal ICU NFD. For output that should be decomposed
/// (``Expectation/decomposed``, `hangul-decompose --to nfd`) every span must
/// be unchanged by ICU NFD, and the project's own composition of it must equal
/// ICU NFC. A syllable of composed output that holds an old jamo (ᄀ ᅡ ᇮ)
/// is checked to be a well-formed conjoining sequence instead.
///
///     let verifier = try OutputVerifier(expecting: .composed)
///     verifier.check(Array("각".unicodeScalars))                   // nil: agrees
///     verifier.check(["\u{1100}", "\u{1161}"])?.problem          // "not NFC"
///
/// Checking is O(n) in the text.
package struct OutputVerifier: Sendable {
  /// What the checked text should be.
  package enum Expectation: Sendable {
    case composed
    case decomposed
  }

  /// A span that disagrees with ICU.
  package struct Disagreement: Equatable, Sendable {
    /// The 1-based column (in characters) where the span starts.
    package var column: Int
    /// What is wrong.
    package var problem: String
    /// The project's spelling.
    package var ours: [Unicode.Scalar]
    /// ICU's spelling.
    package var icu: [Unicode.Scalar]
    /// What ICU's spelling is called ("ICU NFC").
    package var reference: String
  }

  package typealias Transform = @Sendable ([Unicode.Scalar]) -> [Unicode.Scalar]

  package let expectation: Expectation
  private let nfc: ICUNormalizer
  private let nfd: ICUNormalizer
  private let ownComposition: Transform
  private let ownDecomposition: Transform
  /// Whether ICU has agreed with every unit of the expected output, each
  /// alone: for composed output every precomposed syllable and every
  /// compatibility jamo, for decomposed output every modern initial–vowel
  /// and initial–vowel–final group (see ``provesEveryUnit()``).
  package let everyUnitAgrees: Bool

  /// A verifier; the project's own algorithms can be replaced (to test that
  /// the verifier catches a wrong one: such a verifier asks ICU about each
  /// unit as it comes).
  package init(
    expecting expectation: Expectation, composition: Transform? = nil,
    decomposition: Transform? = nil
  ) throws {
    self.expectation = expectation
    nfc = try ICUNormalizer(.nfc)
    nfd = try ICUNormalizer(.nfd)
    ownComposition = composition ?? { HangulNormalization.composed($0) }
    ownDecomposition = decomposition ?? { HangulNormalization.decomposed($0) }
    everyUnitAgrees =
      composition == nil && decomposition == nil
      && (expectation == .composed ? Self.composedUnitsAgree : Self.decomposedUnitsAgree)
  }

  /// The proof for the project's own algorithms, once per process.
  private static let composedUnitsAgree =
    (try? OutputVerifier(expecting: .composed, composition: nil, decomposition: nil, proving: false))?
    .provesEveryUnit() ?? false
  private static let decomposedUnitsAgree =
    (try? OutputVerifier(
      expecting: .decomposed, composition: nil, decomposition: nil, proving: false))?
    .provesEveryUnit() ?? false

  private init(
    expecting expectation: Expectation, composition: Transform?, decomposition: Transform?,
    proving: Bool
  ) throws {
    self.expectation = expectation
    nfc = try ICUNormalizer(.nfc)
    nfd = try ICUNormalizer(.nfd)
    ownComposition = composition ?? { HangulNormalization.composed($0) }
    ownDecomposition = decomposition ?? { HangulNormalization.decomposed($0) }
    everyUnitAgrees = false
  }

  /// Checks every unit of the expected output at once, as one span for each
  /// kind: composed, the 11,172 syllables and the 94 compatibility jamo;
  /// decomposed, the NFD of the 11,172 syllables. Each unit is a starter that
  /// nothing before or after it joins, so a span of them agrees with ICU
  /// exactly when each unit does: the checks of ``VerifyingFilter``'s fast
  /// scan, a unit at a time, are then all known to pass. About a millisecond.
  func provesEveryUnit() -> Bool {
    let syllables = (0..<UInt32(HangulSyllable.count)).compactMap {
      Unicode.Scalar(HangulSyllable.firstScalarValue + $0)
    }
    switch expectation {
    case .composed:
      let jamo = (UInt32(0x3131)...0x318E).compactMap(Unicode.Scalar.init)
      return check(syllables) == nil && check(jamo) == nil
    case .decomposed:
      return check(HangulNormalization.decomposed(syllables)) == nil
    }
  }

  /// Checks one Hangul span; `column` is where it starts. In composed
  /// output a syllable that holds an old jamo or a filler is written as
  /// conjoining jamo (as libhangul writes it): such a block must be a
  /// well-formed initial, vowel and optional final, and is not put through NFC.
  package func check(_ span: [Unicode.Scalar], column: Int = 1) -> Disagreement? {
    guard expectation == .composed else { return checkNormalized(span, column: column) }
    var runStart = 0
    var index = 0
    while index < span.count {
      guard let length = Self.oldSyllableLength(span, at: index) else {
        index += 1
        continue
      }
      if runStart < index,
        let disagreement = checkNormalized(Array(span[runStart..<index]), column: column + runStart)
      {
        return disagreement
      }
      index += length
      runStart = index
    }
    guard runStart < span.count else { return nil }
    return checkNormalized(Array(span[runStart...]), column: column + runStart)
  }

  /// The length of a syllable of conjoining jamo at `index` that holds an old
  /// jamo or a filler (initial, vowel, optional final), or `nil`.
  static func oldSyllableLength(_ span: [Unicode.Scalar], at index: Int) -> Int? {
    guard index + 1 < span.count, ConjoiningJamo.isInitial(span[index].value),
      ConjoiningJamo.isVowel(span[index + 1].value)
    else { return nil }
    var length = 2
    if index + 2 < span.count, ConjoiningJamo.isFinal(span[index + 2].value) { length = 3 }
    let parts = span[index..<(index + length)].map(\.value)
    let isModern =
      parts[0] &- 0x1100 < 19 && parts[1] &- 0x1161 < 21
      && (length == 2 || parts[2] &- 0x11A8 < 27)
    return isModern ? nil : length
  }

  /// Checks a span against ICU: unchanged by its normal form, and our own
  /// transform equal to ICU's.
  private func checkNormalized(_ span: [Unicode.Scalar], column: Int) -> Disagreement? {
    // Composed output must be stable under NFC and decompose as ICU does;
    // decomposed output the other way round.
    let (stable, stableName, other, otherName, own, ownName) =
      expectation == .composed
      ? (nfc, "NFC", nfd, "NFD", ownDecomposition, "NFD")
      : (nfd, "NFD", nfc, "NFC", ownComposition, "NFC")
    let normalized = stable.normalized(span)
    if normalized != span {
      return Disagreement(
        column: column, problem: "not \(stableName)", ours: span, icu: normalized,
        reference: "ICU \(stableName)")
    }
    let ours = own(span)
    let icu = other.normalized(span)
    if ours != icu {
      return Disagreement(
        column: column, problem: "our \(ownName) differs from ICU's", ours: ours, icu: icu,
        reference: "ICU \(otherName)")
    }
    return nil
  }
}

extension OutputVerifier.Disagreement {
  /// `not NFC: "ᄀ ᅡ" (U+1100 U+1161), ICU NFC "가" (U+AC00)`
  package var message: String {
    func spelling(_ scalars: [Unicode.Scalar]) -> String {
      "\"\(String(String.UnicodeScalarView(scalars)))\" (\(CodePointNotation.string(scalars)))"
    }
    return "\(problem): \(spelling(ours)), \(reference) \(spelling(icu))"
  }
}
