/// The Unicode ground truth about jamo, written as data (ARCHITECTURE.md, Unicode ground truth).
package enum JamoTables {
  /// A small index stored without optionals so that lookups stay cheap.
  package struct OptionalIndex: Sendable {
    package let raw: Int8
    package var index: Int? { raw < 0 ? nil : Int(raw) }
  }

  /// The 19 initials in syllable order.
  package static let initials: [Jamo] = jamo("ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ")

  /// The 27 finals in syllable order (final index 1 is ㄱ).
  package static let finals: [Jamo] = jamo("ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ")

  /// Compound vowels and the two keys that type them.
  package static let compoundVowels: [(whole: Jamo, first: Jamo, second: Jamo)] = triples(
    "ㅘㅗㅏ ㅙㅗㅐ ㅚㅗㅣ ㅝㅜㅓ ㅞㅜㅔ ㅟㅜㅣ ㅢㅡㅣ"
  ).map { (whole: $0.0, first: $0.1, second: $0.2) }

  /// Compound finals and the two keys that type them.
  package static let compoundFinals: [(whole: Jamo, first: Jamo, second: Jamo)] = triples(
    "ㄳㄱㅅ ㄵㄴㅈ ㄶㄴㅎ ㄺㄹㄱ ㄻㄹㅁ ㄼㄹㅂ ㄽㄹㅅ ㄾㄹㅌ ㄿㄹㅍ ㅀㄹㅎ ㅄㅂㅅ"
  ).map { (whole: $0.0, first: $0.1, second: $0.2) }

  package static let initialIndexOfJamo: [OptionalIndex] = indexTable(initials, base: 0)
  package static let finalIndexOfJamo: [OptionalIndex] = indexTable(finals, base: 1)

  /// For each jamo offset, the two keys of a compound, or `nil`.
  package static let compoundParts: [(Jamo, Jamo)?] = {
    var table = [(Jamo, Jamo)?](repeating: nil, count: Jamo.count)
    for rule in compoundVowels + compoundFinals {
      table[Int(rule.whole.offset)] = (rule.first, rule.second)
    }
    return table
  }()

  /// Parses a string of compatibility jamo; other characters are skipped.
  package static func jamo(_ letters: String) -> [Jamo] {
    letters.unicodeScalars.compactMap { Jamo($0) }
  }

  /// Parses space-separated groups of three jamo (by scalars: no grapheme
  /// breaking, which Embedded Swift would need Unicode data tables for).
  package static func triples(_ groups: String) -> [(Jamo, Jamo, Jamo)] {
    var result: [(Jamo, Jamo, Jamo)] = []
    var letters: [Jamo] = []
    for scalar in groups.unicodeScalars + [" "] {
      if let jamo = Jamo(scalar) {
        letters.append(jamo)
      } else if scalar == " " {
        if letters.count == 3 { result.append((letters[0], letters[1], letters[2])) }
        letters.removeAll()
      }
    }
    return result
  }

  private static func indexTable(_ list: [Jamo], base: Int) -> [OptionalIndex] {
    var table = [OptionalIndex](repeating: OptionalIndex(raw: -1), count: Jamo.count)
    for (position, jamo) in list.enumerated() {
      table[Int(jamo.offset)] = OptionalIndex(raw: Int8(position + base))
    }
    return table
  }
}
