/// Checks text against ICU, span by span (SPEC §7 `--verify`).
///
/// A Hangul span is a run of syllables and jamo (``HangulNormalization/isHangul(_:)``).
/// For output that should be composed (``Expectation/composed``) every span
/// must be unchanged by ICU NFC, and the project's own decomposition of it
/// must equal ICU NFD. For output that should be decomposed
/// (``Expectation/decomposed``, `hangul-decompose --to nfd`) every span must
/// be unchanged by ICU NFD, and the project's own composition of it must equal
/// ICU NFC.
///
///     let verifier = try OutputVerifier(expecting: .composed)
///     verifier.check(Array("각".unicodeScalars))                   // nil: agrees
///     verifier.check(["\u{1100}", "\u{1161}"])?.problem          // "not NFC"
///
/// Checking is O(n) in the text.
public struct OutputVerifier: Sendable {
  /// What the checked text should be.
  public enum Expectation: Sendable {
    case composed
    case decomposed
  }

  /// A span that disagrees with ICU.
  public struct Disagreement: Equatable, Sendable {
    /// The 1-based column (in characters) where the span starts.
    public var column: Int
    /// What is wrong.
    public var problem: String
    /// The project's spelling.
    public var ours: [Unicode.Scalar]
    /// ICU's spelling.
    public var icu: [Unicode.Scalar]
    /// What ICU's spelling is called ("ICU NFC").
    public var reference: String
  }

  public typealias Transform = @Sendable ([Unicode.Scalar]) -> [Unicode.Scalar]

  public let expectation: Expectation
  private let nfc: ICUNormalizer
  private let nfd: ICUNormalizer
  private let ownComposition: Transform
  private let ownDecomposition: Transform

  /// A verifier; the project's own algorithms can be replaced (to test that
  /// the verifier catches a wrong one).
  public init(
    expecting expectation: Expectation,
    composition: @escaping Transform = { HangulNormalization.composed($0) },
    decomposition: @escaping Transform = { HangulNormalization.decomposed($0) }
  ) throws {
    self.expectation = expectation
    nfc = try ICUNormalizer(.nfc)
    nfd = try ICUNormalizer(.nfd)
    ownComposition = composition
    ownDecomposition = decomposition
  }

  /// Checks one Hangul span; `column` is where it starts.
  public func check(_ span: [Unicode.Scalar], column: Int = 1) -> Disagreement? {
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
  public var message: String {
    func spelling(_ scalars: [Unicode.Scalar]) -> String {
      let codes = scalars.map {
        "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4)
      }
      return "\"\(String(String.UnicodeScalarView(scalars)))\" (\(codes.joined(separator: " ")))"
    }
    return "\(problem): \(spelling(ours)), \(reference) \(spelling(icu))"
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
