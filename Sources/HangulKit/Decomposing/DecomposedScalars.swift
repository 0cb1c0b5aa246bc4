/// A lazy sequence of the decomposition of a sequence of scalars.
///
///     let keys = "값이 비싸다".unicodeScalars.decomposed(to: .keys)
///     String(String.UnicodeScalarView(keys))   // "ㄱㅏㅂㅅㅇㅣ ㅂㅣㅆㅏㄷㅏ"
///
/// Each element is produced on demand in amortized O(1); nothing is buffered
/// beyond the decomposition of one input scalar.
public struct DecomposedScalars<Base: Sequence>: Sequence where Base.Element == Unicode.Scalar {
  let base: Base
  let form: DecompositionForm
  let plain: Bool
  var splitClusters = false

  public struct Iterator: IteratorProtocol {
    var base: Base.Iterator
    var decomposer: Decomposer
    var pending: [Unicode.Scalar] = []
    var position = 0
    var ended = false

    public mutating func next() -> Unicode.Scalar? {
      while position == pending.count {
        pending.removeAll(keepingCapacity: true)
        position = 0
        guard !ended else { return nil }
        var bytes: [UInt8] = []
        if let scalar = base.next() {
          decomposer.decompose(.scalar(scalar), into: &bytes)
        } else {
          decomposer.finish(into: &bytes)  // what a plain decomposer holds
          ended = true
        }
        for piece in String(decoding: bytes, as: UTF8.self).unicodeScalars { pending.append(piece) }
      }
      defer { position += 1 }
      return pending[position]
    }
  }

  public func makeIterator() -> Iterator {
    Iterator(
      base: base.makeIterator(),
      decomposer: Decomposer(form: form, plain: plain, splitClusters: splitClusters))
  }
}

extension Sequence where Element == Unicode.Scalar {
  /// The scalars decomposed to `form`, lazily; `plain` leaves out the
  /// separators and literal prefixes of the key forms; `splitClusters`
  /// writes a consonant cluster as its consonants in the initials form.
  public func decomposed(
    to form: DecompositionForm, plain: Bool = false, splitClusters: Bool = false
  ) -> DecomposedScalars<Self> {
    DecomposedScalars(base: self, form: form, plain: plain, splitClusters: splitClusters)
  }
}

extension StringProtocol {
  /// The string decomposed to `form`: `"닭".decomposed(to: .keys) == "ㄷㅏㄹㄱ"`,
  /// `"ㅇㄴ 닭 ㄻ".decomposed(to: .initials, splitClusters: true) == "ㅇㄴ ㄷ ㄹㅁ"`.
  public func decomposed(
    to form: DecompositionForm, plain: Bool = false, splitClusters: Bool = false
  ) -> String {
    String(
      String.UnicodeScalarView(
        unicodeScalars.decomposed(to: form, plain: plain, splitClusters: splitClusters)))
  }
}
