import HangulKit
import Testing

/// hangul-compose(1): the automaton's rules, its options and Backspace.
@Suite("2-set automaton")
struct AutomatonTests {
  @Test(
    "hangul-compose(1) rule table",
    arguments: [
      ("ㄱㅏ", "가"), ("ㄱㅏㄱ", "각"), ("ㄷㅏㄹㄱ", "닭"), ("ㄷㅏㄹㄱㅏ", "달가"), ("ㄱㅏㄲㅏ", "가까"),
      ("ㅎㅗㅏ", "화"), ("ㅗㅏ", "ㅘ"), ("ㄱㅅ", "ㄳ"), ("ㄱㄱ", "ㄱㄱ"), ("ㅏㄱ", "ㅏㄱ"), ("ㄱㅏㄸ", "가ㄸ"),
    ])
  func ruleTable(keys: String, expected: String) {
    #expect(composed(keys) == expected)
  }

  @Test("hangul-compose(1) QWERTY row")
  func qwertyRow() {
    #expect(composed("dkssudgktpdy", keys: .qwerty) == "안녕하세요")
  }

  @Test(
    "--double-stroke",
    arguments: [
      ("ㄱㄱ", "ㄲ"), ("ㄱㅏㅅㅅ", "갔"), ("ㄷㄷㅏ", "따"), ("ㅂㅂㅗ", "뽀"), ("ㅈㅈㅣ", "찌"), ("ㄱㅏㄱㄱ", "갂"),
    ])
  func doubleStroke(keys: String, expected: String) {
    #expect(composed(keys, options: ComposerOptions(doubleStroke: true)) == expected)
    #expect(composed(keys) != expected)
  }

  @Test(
    "--double-stroke leaves these as without it",
    arguments: [("ㄱㅏㄱㄱㅏ", "각가"), ("ㄴㄴ", "ㄴㄴ"), ("ㄱㅏㄲㅏ", "가까")])
  func doubleStrokeUnchanged(keys: String, expected: String) {
    #expect(composed(keys, options: ComposerOptions(doubleStroke: true)) == expected)
    #expect(composed(keys) == expected)
  }

  @Test(
    "--no-bare-clusters", arguments: [("ㄱㅅ", "ㄱㅅ"), ("ㄱㅅㅏ", "ㄱ사"), ("ㄹㄱ", "ㄹㄱ"), ("ㄱㅏㄱㅅ", "갃")])
  func noBareClusters(keys: String, expected: String) {
    #expect(composed(keys, options: ComposerOptions(bareClusters: false)) == expected)
  }

  @Test(
    "--extended-vowels",
    arguments: [
      ("ㅏㅣ", "ㅐ"), ("ㅑㅣ", "ㅒ"), ("ㅓㅣ", "ㅔ"), ("ㅕㅣ", "ㅖ"), ("ㅗㅏㅣ", "ㅙ"), ("ㅜㅓㅣ", "ㅞ"),
      ("ㄱㅏㅣ", "개"), ("ㄱㅗㅏㅣㄱ", "괙"), ("ㅎㅜㅓㅣ", "훼"),
    ])
  func extendedVowels(keys: String, expected: String) {
    #expect(composed(keys, options: ComposerOptions(extendedVowels: true)) == expected)
    #expect(composed(keys) != expected)
  }

  @Test("--backspace jamo undoes one composition step at a time")
  func backspaceJamo() {
    let steps = ["뷁", "뷀", "붸", "부", "ㅂ", ""]
    for (count, expected) in steps.enumerated() {
      let input = "ㅂㅜㅔㄹㄱ" + String(repeating: "\u{8}", count: count)
      #expect(composed(input) == expected, "after \(count) Backspaces")
    }
  }

  @Test(
    "Backspace with nothing being composed deletes one whole character",
    arguments: ComposerOptions.Backspace.allCases)
  func backspaceDeletesCharacters(mode: ComposerOptions.Backspace) {
    let options = ComposerOptions(backspace: mode)
    #expect(composed("ㅎㅏ ㄴㅏ\u{8}\u{8}\u{8}\u{8}", options: options) == "")
    #expect(composed("ab\u{8}", options: options) == "a")
    #expect(composed("ㄱㅏ 1\u{7F}\u{7F}", options: options) == "가")
    #expect(composed("é\u{8}x", options: options) == "x")
  }

  @Test(
    "--backspace keystroke undoes the last key as if never typed",
    arguments: [
      ("ㅇㅏㄴㅣ\u{8}", "안"), ("ㅇㅣㄹㄱㅏ\u{8}", "읽"), ("ㄷㅏㄹㄱㅏ\u{8}\u{8}", "달"),
      ("ㅎㅏㄴㄱㅡㄹ\u{8}\u{8}\u{8}", "한"), ("ㄱㅏ ㄴㅏ\u{8}\u{8}\u{8}", "가"), ("ㄱㅅ\u{8}ㅏ", "가"),
    ])
  func backspaceKeystroke(keys: String, expected: String) {
    #expect(composed(keys, options: ComposerOptions(backspace: .keystroke)) == expected)
  }

  @Test("the two Backspace modes differ where hangul-compose(1) says")
  func backspaceModesDiffer() {
    #expect(composed("ㅇㅏㄴㅣ\u{8}") == "아ㄴ")
    #expect(composed("ㅇㅣㄹㄱㅏ\u{8}") == "일ㄱ")
    #expect(composed("ㅎㅏㄴㄱㅡㄹ\u{8}\u{8}\u{8}\u{8}") == "")
    #expect(
      composed("ㅎㅏㄴㄱㅡㄹ\u{8}\u{8}\u{8}\u{8}", options: ComposerOptions(backspace: .keystroke)) == "하"
    )
  }

  @Test("a Backspace at the start of a line deletes nothing and never crosses a newline")
  func backspaceAtLineStart() {
    for mode in ComposerOptions.Backspace.allCases {
      let options = ComposerOptions(backspace: mode)
      #expect(composed("가\n\u{8}ㄴ", options: options) == "가\nㄴ")
      #expect(composed("ㄱㅏ\n\u{8}\u{8}", options: options) == "가\n")
      #expect(composed("\u{8}", options: options) == "")
    }
  }

  @Test("typing the keys of each of the 11,172 syllables composes that syllable")
  func everySyllable() {
    var input = ""
    var expected = ""
    for syllable in HangulSyllable.all {
      input.unicodeScalars.append(contentsOf: keys(of: syllable).map(\.scalar))
      input += "\n"
      expected += "\(syllable)\n"
    }
    #expect(composed(input) == expected)
    for options in [
      ComposerOptions(doubleStroke: true), ComposerOptions(bareClusters: false),
      ComposerOptions(backspace: .keystroke),
    ] {
      #expect(composed(input, options: options) == expected)
    }
  }

  @Test("syllables typed two and three in a row compose to the same syllables")
  func syllablesInARow() {
    var generator = SeededGenerator(seed: 2024)
    let all = HangulSyllable.all
    // Every syllable followed by one whose initial meets its final in every way,
    // plus random pairs and triples.
    var words: [[HangulSyllable]] = []
    for (position, first) in all.enumerated() {
      let initialIndex = position % 19
      words.append([first, HangulSyllable(index: initialIndex * 21 * 28 + position % (21 * 28))])
      words.append([first, all.randomElement(using: &generator) ?? first])
    }
    for _ in 0..<30_000 {
      words.append((0..<3).map { _ in all.randomElement(using: &generator) ?? all[0] })
    }
    var input = ""
    var expected = ""
    for word in words {
      for syllable in word {
        input.unicodeScalars.append(contentsOf: keys(of: syllable).map(\.scalar))
      }
      input += "\n"
      expected += word.map(\.description).joined() + "\n"
    }
    #expect(composed(input) == expected)
    #expect(composed(input, options: ComposerOptions(doubleStroke: true)) == expected)
  }

  @Test("the library composer: press, composing, undoStep, commit")
  func composerAPI() {
    var composer = SyllableComposer()
    var committed: [Unicode.Scalar] = []
    for key in "ㄷㅏㄹㄱ".unicodeScalars.compactMap({ Jamo($0) }) {
      if let done = composer.press(key) { committed.append(done) }
    }
    #expect(committed.isEmpty)
    #expect(composer.composing == "닭")
    let undid = composer.undoStep()
    #expect(undid)
    #expect(composer.composing == "달")
    let typed = composer.type(Jamo("ㅘ") ?? Jamo.all[0])
    #expect(typed == ["다"])
    let rest = composer.commit()
    #expect(rest == "롸")
    #expect(composer.composing == nil)
    let undidNothing = composer.undoStep()
    #expect(!undidNothing)
  }
}

@Suite("Composing lazily")
struct ComposedScalarsTests {
  @Test("the lazy adaptor composes as the filter does, a line at a time")
  func adaptor() {
    let text = "ㄷㅏㄹㄱㅏ\nㅎㅘ ㄱㅏㄱ\u{8}".unicodeScalars.composed()
    #expect(String(String.UnicodeScalarView(text)) == "달가\n화 가")
    var iterator = "dkssud".unicodeScalars.composed(keys: .qwerty).makeIterator()
    #expect(iterator.next() == "안")
    let doubled = "ㄱㄱ".unicodeScalars.composed(options: ComposerOptions(doubleStroke: true))
    #expect(Array(doubled) == ["ㄲ"])
    // Lines come out as their newlines arrive, from an endless log.
    let endless = repeatElement(Unicode.Scalar("\n"), count: Int.max).composed()
    #expect(Array(endless.prefix(3)) == ["\n", "\n", "\n"])
  }
}
