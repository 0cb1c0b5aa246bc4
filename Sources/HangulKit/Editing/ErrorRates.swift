/// Error rates of a transcribed text against its target (hangul-keylog(5),
/// MEASURES): the minimum string distance (MSD) on characters and on jamo,
/// and the counts of Soukoreff and MacKenzie (2003) — C correct, INF
/// incorrect and not fixed, IF incorrect but fixed, F fixes — with the
/// corrected, uncorrected and total error rates.
///
///     let rates = ErrorRates(transcribed: "가다", target: "가나", fixed: 1, fixes: 1)
///     rates.msdCharacters   // 1: 다 for 나
///     rates.msdJamo         // 1: ㄷ for ㄴ
///
/// The distances take O(|transcribed| × |target|) time and O(|target|) memory.
package struct ErrorRates: Sendable, Equatable {
  /// The MSD on characters (Unicode scalars, as composed) and the longer length.
  package var msdCharacters = 0
  package var longerCharacters = 0
  /// The MSD on jamo (each syllable as its initial, vowel and final) and the longer length.
  package var msdJamo = 0
  package var longerJamo = 0
  /// Soukoreff and MacKenzie's counts.
  package var correct = 0
  package var incorrectNotFixed = 0
  package var incorrectFixed = 0
  package var fixes = 0

  package init() {}

  /// `fixed`: the characters typed and deleted again (IF); `fixes`: the
  /// keys that deleted (Backspace, Delete that took effect: F).
  package init(transcribed: String, target: String, fixed: Int, fixes: Int) {
    let typed = Array(transcribed.unicodeScalars)
    let wanted = Array(target.unicodeScalars)
    msdCharacters = Self.distance(typed, wanted)
    longerCharacters = max(typed.count, wanted.count)
    let typedJamo = Self.jamo(typed)
    let wantedJamo = Self.jamo(wanted)
    msdJamo = Self.distance(typedJamo, wantedJamo)
    longerJamo = max(typedJamo.count, wantedJamo.count)
    correct = longerCharacters - msdCharacters
    incorrectNotFixed = msdCharacters
    incorrectFixed = fixed
    self.fixes = fixes
  }

  /// MSD error rate in percent: MSD over the longer length.
  package var characterErrorRate: Double? { Self.percent(msdCharacters, of: longerCharacters) }
  package var jamoErrorRate: Double? { Self.percent(msdJamo, of: longerJamo) }
  /// INF / (C + INF + IF), IF / (…), (INF + IF) / (…), in percent.
  package var uncorrectedErrorRate: Double? { Self.percent(incorrectNotFixed, of: entered) }
  package var correctedErrorRate: Double? { Self.percent(incorrectFixed, of: entered) }
  package var totalErrorRate: Double? {
    Self.percent(incorrectNotFixed + incorrectFixed, of: entered)
  }

  private var entered: Int { correct + incorrectNotFixed + incorrectFixed }

  /// The counts of both added: the rates of a total.
  package func adding(_ other: ErrorRates) -> ErrorRates {
    var sum = self
    sum.msdCharacters += other.msdCharacters
    sum.longerCharacters += other.longerCharacters
    sum.msdJamo += other.msdJamo
    sum.longerJamo += other.longerJamo
    sum.correct += other.correct
    sum.incorrectNotFixed += other.incorrectNotFixed
    sum.incorrectFixed += other.incorrectFixed
    sum.fixes += other.fixes
    return sum
  }

  private static func percent(_ part: Int, of whole: Int) -> Double? {
    whole > 0 ? 100 * Double(part) / Double(whole) : nil
  }

  /// Each syllable as the compatibility jamo of its parts (닭 → ㄷㅏㄺ), the
  /// rest as it is.
  static func jamo(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var decomposer = Decomposer(form: .jamo, plain: true)
    var result: [Unicode.Scalar] = []
    for scalar in scalars {
      decomposer.decompose(.scalar(scalar)) { unit in
        if case .scalar(let part) = unit { result.append(part) }
      }
    }
    return result
  }

  /// The Levenshtein distance (insertions, deletions, substitutions of one each).
  static func distance(_ first: [Unicode.Scalar], _ second: [Unicode.Scalar]) -> Int {
    guard !first.isEmpty else { return second.count }
    var row = Array(0...second.count)
    for (index, scalar) in first.enumerated() {
      var diagonal = row[0]
      row[0] = index + 1
      for column in 1...max(1, second.count) where column <= second.count {
        let above = row[column]
        let substitution = diagonal + (second[column - 1] == scalar ? 0 : 1)
        row[column] = min(substitution, above + 1, row[column - 1] + 1)
        diagonal = above
      }
    }
    return row[second.count]
  }
}
