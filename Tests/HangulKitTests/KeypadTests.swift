import Foundation
import HangulKit
import Testing

/// The 천지인 keypad: hangul-compose(1)'s rules and examples, its keypad characters,
/// Backspace, and round trips through `hangul-decompose`.
@Suite("Phone keypad 천지인")
struct KeypadTests {
  static let keyboard = (try? Keyboard(id: "cheonjiin")) ?? .twoSet

  func composed(_ log: String, keys: KeyEncoding = .jamo) throws -> String {
    var filter = KeypadComposeFilter(keys: keys, keyboard: Self.keyboard)
    return String(decoding: try filter.filtered(Array(log.utf8)), as: UTF8.self)
  }

  func decomposed(_ text: [UInt8], keys: KeyEncoding) throws -> [UInt8] {
    var filter = KeypadDecomposeFilter(keys: keys, keyboard: Self.keyboard)
    return try filter.filtered(text)
  }

  func composedBytes(_ log: [UInt8], keys: KeyEncoding) throws -> [UInt8] {
    var filter = KeypadComposeFilter(keys: keys, keyboard: Self.keyboard)
    return try filter.filtered(log)
  }

  /// `--jobs` starts a piece at any line start: a newline, literal or not,
  /// must leave nothing that reaches into the next line.
  @Test(
    "a log composes as its lines do, each from a fresh filter: no press or Backspace crosses a newline",
    arguments: [
      "ㅇㅣㆍㄴ\n\u{8}ㄱㅣ", "ㅇㅣㆍㄴ\u{2060}\n\u{8}ㄱㅣ", "ㄱ\u{2060}\nㄱ\u{8}\u{8}ㅣ", "ㄱㆍ\n\u{8}\u{8}ㆍ",
    ])
  func linesAreIndependent(log: String) throws {
    let end = try #require(log.firstIndex(of: "\n"))
    let first = String(log[...end])
    let rest = String(log[log.index(after: end)...])
    #expect(try composed(log) == (try composed(first)) + (try composed(rest)))
  }

  @Test("the keyboard file is a keypad with ten keys")
  func loads() {
    #expect(Self.keyboard.layout.type == .keypad)
    #expect(Self.keyboard.layout.mappedKeys.count == 10)
    #expect(Self.keyboard.layout.keypad.cycles.count == 7)
  }

  @Test(
    "hangul-keyboard(5) keypad examples",
    arguments: [
      ("ㄱㄱㅣㆍ", "카"), ("ㅇㅣㆍㄴㄴ", "알"), ("ㄷㅣㆍㄴㄴㄱ", "닭"), ("ㄱ\u{200C}ㄱ", "ㄱㄱ"),
      ("ㅇㅣㆍㄴ", "안"), ("ㅇㅣㆍㄴㅣ", "아니"), ("ㄱㅡㆍㄴㄴ", "굴"), ("ㅇㅣㆍㄴㅅㅅ", "않"),
      ("ㅅㅣㆍㄴㆍ", "산ㆍ"), ("ㅅㅣㆍㄴㆍㅣ", "사너"), ("ㄱㄱㄱ", "ㄲ"), ("ㄱㄱㄱㄱ", "ㄱ"),
      ("ㄴㄴㄴ", "ㄴ"), ("ㅇㅇ", "ㅁ"), ("ㅇㅇㅇ", "ㅇ"),
      // A retyped jamo joins the syllable before, as if typed at once.
      ("ㄱㅣㆍㄴㄴㅇㅇ", "갊"), ("ㄱㅣㆍㅂ\u{200C}ㄱ", "갑ㄱ"),
    ])
  func specExamples(log: String, text: String) throws {
    #expect(try composed(log) == text)
  }

  @Test(
    "vowel stroke sequences",
    arguments: [
      ("ㅣ", "ㅣ"), ("ㅣㆍ", "ㅏ"), ("ㅣㆍㆍ", "ㅑ"), ("ㆍㅣ", "ㅓ"), ("ㆍㆍㅣ", "ㅕ"), ("ㆍㅡ", "ㅗ"),
      ("ㆍㆍㅡ", "ㅛ"), ("ㅡㆍ", "ㅜ"), ("ㅡㆍㆍ", "ㅠ"), ("ㅡ", "ㅡ"), ("ㅡㅣ", "ㅢ"), ("ㅣㆍㅣ", "ㅐ"),
      ("ㅣㆍㆍㅣ", "ㅒ"), ("ㆍㅣㅣ", "ㅔ"), ("ㆍㆍㅣㅣ", "ㅖ"), ("ㆍㅡㅣ", "ㅚ"), ("ㆍㅡㅣㆍ", "ㅘ"),
      ("ㆍㅡㅣㆍㅣ", "ㅙ"), ("ㅡㆍㅣ", "ㅟ"), ("ㅡㆍㆍㅣ", "ㅝ"), ("ㅡㆍㆍㅣㅣ", "ㅞ"), ("ㆍ", "ㆍ"),
      ("ㆍㆍ", "ㆍㆍ"),
    ])
  func vowelStrokes(strokes: String, vowel: String) throws {
    #expect(try composed(strokes) == vowel)
    // After an initial the vowel makes a syllable: ㅇ + ㅏ = 아.
    let syllable = try composed("ㅇ" + strokes)
    if vowel.unicodeScalars.first?.value == 0x318D {
      #expect(syllable == "ㅇ" + vowel)
    } else {
      #expect(HangulSyllable(syllable.unicodeScalars.first ?? " ")?.vowel.description == vowel)
    }
  }

  @Test(
    "E.161 keypad characters under --keys qwerty",
    arguments: [("0125", "안"), ("612554", "닭"), ("8125\u{200C}5210032", "산너무"), ("*#", "*#")])
  func keypadCharacters(log: String, text: String) throws {
    #expect(try composed(log, keys: .qwerty) == text)
  }

  @Test("a jamo that no single key types counts as its presses")
  func jamoAsPresses() throws {
    #expect(try composed("ㅋㅏ") == "카")
    #expect(try composed("ㄷㅏㄺ") == "닭")
    #expect(try composed("ㅎㅘ") == "화")
  }

  @Test(
    "Backspace undoes one press: a tap of the cycle or a stroke",
    arguments: [
      ("ㄱㄱ\u{8}", "ㄱ"), ("ㄱㅣㆍ\u{8}", "기"), ("ㅇㅣㆍㄴㄴ\u{8}", "안"), ("ㅇㅣㆍㄴㄴ\u{8}\u{8}", "아"),
      ("ㄱㅡㆍㆍ\u{8}", "구"), ("ㅅㅣㆍㄴㆍ\u{8}", "산"), ("가나\u{200C}\u{8}", "가"), ("\u{8}ㄱ", "ㄱ"),
      ("ㄱㄱ\u{8}ㄱ", "ㅋ"),
      // The retyped ㅎ took 안 back into its syllable (않); undoing it gives 안 back.
      ("ㅇㅣㆍㄴㅅㅅ\u{8}", "안ㅅ"), ("ㅅㅣㆍㄴㆍㅣ\u{8}", "산ㆍ"),
    ])
  func backspace(log: String, text: String) throws {
    #expect(try composed(log) == text)
  }

  @Test(
    "all 11,172 syllables round-trip, in a row and apart", arguments: [KeyEncoding.jamo, .qwerty])
  func allSyllables(keys: KeyEncoding) throws {
    let syllables = HangulSyllable.all.map(\.scalar)
    for text in [
      String(String.UnicodeScalarView(syllables)),
      syllables.map { String($0) }.joined(separator: "\n"),
    ] {
      let bytes = Array(text.utf8)
      expectSameBytes(try composedBytes(try decomposed(bytes, keys: keys), keys: keys), bytes)
    }
  }

  @Test(
    "prose and the shared corpus (when present) round-trip", arguments: [KeyEncoding.jamo, .qwerty])
  func corpus(keys: KeyEncoding) throws {
    var texts = [Array(try fixture("prose.txt"))]
    if let corpus = sharedCorpusText() { texts.append(corpus) }
    for text in texts {
      expectSameBytes(try composedBytes(try decomposed(text, keys: keys), keys: keys), text)
    }
  }

  /// Presses per jamo on 천지인, written out by hand from the keypad rules (hangul-keyboard(5)), with the
  /// key each starts and ends on (for when the next key U+200C is needed).
  static let pressCounts: [String: Int] = [
    "ㄱ": 1, "ㅋ": 2, "ㄲ": 3, "ㄴ": 1, "ㄹ": 2, "ㄷ": 1, "ㅌ": 2, "ㄸ": 3, "ㅂ": 1, "ㅍ": 2, "ㅃ": 3,
    "ㅅ": 1, "ㅎ": 2, "ㅆ": 3, "ㅈ": 1, "ㅊ": 2, "ㅉ": 3, "ㅇ": 1, "ㅁ": 2, "ㅏ": 2, "ㅐ": 3, "ㅑ": 3,
    "ㅒ": 4, "ㅓ": 2, "ㅔ": 3, "ㅕ": 3, "ㅖ": 4, "ㅗ": 2, "ㅘ": 4, "ㅙ": 5, "ㅚ": 3, "ㅛ": 3, "ㅜ": 2,
    "ㅝ": 4, "ㅞ": 5, "ㅟ": 3, "ㅠ": 3, "ㅡ": 1, "ㅢ": 2, "ㅣ": 1,
  ]
  static let consonantKeys = ["ㄱㅋㄲ", "ㄴㄹ", "ㄷㅌㄸ", "ㅂㅍㅃ", "ㅅㅎㅆ", "ㅈㅊㅉ", "ㅇㅁ"]

  /// An independent count of the keystrokes of Hangul text on 천지인: each
  /// syllable's jamo presses, one next key where a syllable starts on the
  /// consonant key the one before ended on, one keystroke per other character
  /// (a newline too).
  static func independentCount(_ text: String) -> (keystrokes: Int, characters: Int) {
    func key(_ jamo: Jamo?) -> Int? {
      guard let jamo else { return nil }
      return consonantKeys.firstIndex { $0.unicodeScalars.contains(jamo.scalar) }
    }
    var keystrokes = 0
    var characters = 0
    var lastKey: Int?
    for scalar in text.unicodeScalars {
      characters += 1
      guard let syllable = HangulSyllable(scalar) else {
        keystrokes += 1
        lastKey = nil
        continue
      }
      if lastKey != nil, lastKey == key(syllable.initial) { keystrokes += 1 }
      for jamo in [syllable.initial, syllable.vowel] + (syllable.final?.keys ?? []) {
        keystrokes += pressCounts[jamo.description] ?? 0
      }
      lastKey = key(syllable.final?.keys.last)
    }
    return (keystrokes, characters)
  }

  @Test("--stats counts the keystrokes of prose and the corpus as an independent count does")
  func keystrokeCount() throws {
    var texts = [Array(try fixture("prose.txt"))]
    if let corpus = sharedCorpusText() { texts.append(corpus) }
    for text in texts {
      // The lines without standalone compatibility jamo (their presses are
      // checked by the tables above): syllables, other text, newlines.
      let lines = String(decoding: text, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false
      ).filter { !$0.unicodeScalars.contains { (0x3131...0x318E).contains($0.value) } }
      let kept = lines.joined(separator: "\n")
      var filter = KeystrokeCountingFilter(DecomposeFilter(form: .nfd), keyboard: Self.keyboard)
      _ = try filter.filtered(Array(kept.utf8))
      let expected = Self.independentCount(kept)
      #expect(filter.statistics.keystrokes == expected.keystrokes)
      #expect(filter.statistics.characters == expected.characters)
    }
  }

  @Test("random text round-trips", arguments: [KeyEncoding.jamo, .qwerty])
  func randomRoundTrip(keys: KeyEncoding) throws {
    for seed in 1...20 {
      let input = LayoutDecomposeTests.randomText(seed: UInt64(seed), count: 300)
      expectSameBytes(try composedBytes(try decomposed(input, keys: keys), keys: keys), input)
    }
  }

  @Test("decomposition writes the next key only where a press would cycle")
  func separators() throws {
    let keys = String(decoding: try decomposed(Array("안녕 닭".utf8), keys: .jamo), as: UTF8.self)
    #expect(keys == "ㅇㅣㆍㄴ\u{200C}ㄴㆍㆍㅣㅇ ㄷㅣㆍㄴㄴㄱ")
  }

  @Test("random presses compose the same in any chunking", arguments: 1...10)
  func randomPresses(seed: Int) throws {
    var random = SeededGenerator(seed: UInt64(seed))
    let alphabet = "1234567890*#\u{8}\u{200C}\n a".unicodeScalars.map { Array(String($0).utf8) }
    let log = (0..<2000).flatMap { _ in
      alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
    }
    let whole = try composedBytes(log, keys: .qwerty)
    var filter = KeypadComposeFilter(keys: .qwerty, keyboard: Self.keyboard)
    var pieces: [UInt8] = []
    var start = 0
    while start < log.count {
      let end = min(log.count, start + Int.random(in: 1...7, using: &random))
      try filter.process(Array(log[start..<end]), into: &pieces)
      start = end
    }
    filter.finish(into: &pieces)
    expectSameBytes(pieces, whole)
    #expect(String(validating: whole, as: UTF8.self) != nil)
  }
}
