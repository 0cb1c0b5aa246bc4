import Foundation
import HangulKit
import Testing

/// hangul-decompose(1): decomposition, and the exact round trips of the key forms.
@Suite("Decomposition")
struct DecomposeTests {
  @Test(
    "hangul-decompose(1) table",
    arguments: [
      ("닭", DecompositionForm.keys, "ㄷㅏㄹㄱ"), ("과", .keys, "ㄱㅗㅏ"),
      ("닭", .jamo, "ㄷㅏㄺ"), ("과", .jamo, "ㄱㅘ"),
      ("닭", .nfd, "\u{1103}\u{1161}\u{11B0}"), ("과", .nfd, "\u{1100}\u{116A}"),
      ("닭", .qwerty, "ekfr"), ("과", .qwerty, "rhk"),
      ("뷁", .keys, "ㅂㅜㅔㄹㄱ"), ("뷁", .jamo, "ㅂㅞㄺ"), ("뷁", .qwerty, "qnpfr"),
      ("깎", .keys, "ㄲㅏㄲ"), ("깎", .jamo, "ㄲㅏㄲ"), ("깎", .qwerty, "RkR"),
      ("값이 비싸다", .keys, "ㄱㅏㅂㅅㅇㅣ ㅂㅣㅆㅏㄷㅏ"), ("값이 비싸다", .jamo, "ㄱㅏㅄㅇㅣ ㅂㅣㅆㅏㄷㅏ"),
      ("값이 비싸다", .qwerty, "rkqtdl qlTkek"),
      ("안녕하세요", .qwerty, "dkssudgktpdy"), ("한글 2.0!", .keys, "ㅎㅏㄴㄱㅡㄹ 2.0!"),
      ("한글 2.0!", .nfd, "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF} 2.0!"),
      ("ㅋㅋ ok", .jamo, "ㅋㅋ ok"), ("ㅋㅋ ok", .qwerty, "zz \u{2060}o\u{2060}k"),
      ("\u{1100}\u{1161}", .jamo, "ㄱㅏ"), ("ㄳ", .nfd, "ㄳ"), ("😀é", .keys, "😀é"),
    ])
  func table(text: String, form: DecompositionForm, expected: String) {
    let output = text.decomposed(to: form)
    #expect(Array(output.unicodeScalars) == Array(expected.unicodeScalars))
  }

  @Test(
    "separators go exactly where keys would compose into something else",
    arguments: [
      ("각ㅏ", DecompositionForm.keys, "ㄱㅏㄱ\u{200C}ㅏ"), ("각ㅏ", .qwerty, "rkr\u{200C}k"),
      ("ㄱㅅ", .keys, "ㄱ\u{200C}ㅅ"), ("ㄳ", .keys, "ㄱㅅ"), ("가ㄴ", .keys, "ㄱㅏ\u{200C}ㄴ"),
      ("ㄱㅏ", .keys, "ㄱ\u{200C}ㅏ"), ("ㅗㅏ", .keys, "ㅗ\u{200C}ㅏ"), ("가나", .keys, "ㄱㅏㄴㅏ"),
      ("각사", .keys, "ㄱㅏㄱㅅㅏ"), ("ㄱ사", .keys, "ㄱㅅㅏ"), ("가ㅏ", .keys, "ㄱㅏㅏ"),
    ])
  func separators(text: String, form: DecompositionForm, expected: String) {
    let output = text.decomposed(to: form)
    #expect(Array(output.unicodeScalars) == Array(expected.unicodeScalars))
  }

  @Test(
    "initials: the initial of each syllable, NFD text as NFC text, other text unchanged",
    arguments: [
      ("사과", "ㅅㄱ"), ("닭", "ㄷ"), ("과", "ㄱ"), ("깎았다", "ㄲㅇㄷ"), ("한글 2.0!", "ㅎㄱ 2.0!"),
      ("ㄱㅅ ㅏ", "ㄱㅅ ㅏ"), ("\u{1103}\u{1161}\u{11B0}", "ㄷ"), ("가\u{11A8}나", "ㄱㄴ"),
      ("\u{1100}\u{1161}\u{1102}\u{1161}", "ㄱㄴ"), ("\u{1161}", "\u{1161}"), ("😀é", "😀é"),
    ])
  func initials(text: String, expected: String) {
    let output = text.decomposed(to: .initials)
    #expect(Array(output.unicodeScalars) == Array(expected.unicodeScalars))
  }

  @Test("initials of every syllable are its initial consonant")
  func initialsOfEverySyllable() throws {
    var filter = DecomposeFilter(form: .initials)
    let text = HangulSyllable.all.map { String($0.scalar) }.joined()
    let output = try filter.filtered(Array(text.utf8))
    let expected = HangulSyllable.all.map { String($0.initial.scalar) }.joined()
    #expect(output == Array(expected.utf8))
  }

  @Test(
    "plain keys: no separator and no literal prefix",
    arguments: [
      ("각ㅏ", DecompositionForm.keys, "ㄱㅏㄱㅏ"), ("각ㅏ", .qwerty, "rkrk"), ("ㄱㅅ", .keys, "ㄱㅅ"),
      ("Rating: 좋아요", .qwerty, "Rating: whgdkdy"), ("ㅋㅋ ok", .qwerty, "zz ok"),
      ("\u{200C}\u{2060}", .keys, "\u{200C}\u{2060}"),
    ])
  func plain(text: String, form: DecompositionForm, expected: String) throws {
    var filter = DecomposeFilter(form: form, plain: true)
    let output = try filter.filtered(Array(text.utf8))
    #expect(String(decoding: output, as: UTF8.self) == expected)
    #expect(text.decomposed(to: form, plain: true) == expected)
    // Without --plain the same text carries the invisible marks.
    #expect(text.decomposed(to: form) != expected)
  }

  @Test("--to nfd is the canonical decomposition of all 11,172 syllables")
  func nfdOfEverySyllable() {
    for syllable in HangulSyllable.all {
      let scalar = syllable.scalar.value
      let index = scalar - 0xAC00
      var expected: [UInt32] = [0x1100 + index / 588, 0x1161 + (index % 588) / 28]
      if index % 28 != 0 { expected.append(0x11A7 + index % 28) }
      let output = String(syllable.scalar).decomposed(to: .nfd)
      #expect(output.unicodeScalars.map(\.value) == expected)
      // Foundation's own normalization agrees as well.
      #expect(
        Array(output.unicodeScalars)
          == Array(String(syllable.scalar).decomposedStringWithCanonicalMapping.unicodeScalars))
    }
  }

  @Test("every syllable round-trips through keys and qwerty, alone and all on one line")
  func everySyllableRoundTrips() {
    let allOnOneLine = String(String.UnicodeScalarView(HangulSyllable.all.map(\.scalar)))
    let eachOnALine = HangulSyllable.all.map { "\($0)\n" }.joined()
    for text in [allOnOneLine, eachOnALine] {
      expectSameBytes(roundTrip(Array(text.utf8), .keys), Array(text.utf8))
      expectSameBytes(roundTrip(Array(text.utf8), .qwerty), Array(text.utf8))
    }
  }

  /// Syllables of every final shape (each final, after a vowel that combines
  /// and one that does not), every compatibility jamo, ASCII letters, the
  /// control characters, Backspace bytes, conjoining jamo and space.
  static let pairElements: [String] = {
    var elements: [String] = []
    for initial in ["ㄱ", "ㅇ"] {
      for vowel in ["ㅏ", "ㅗ", "ㅘ", "ㅢ", "ㅜ"] {
        for finalIndex in 0..<28 {
          guard let initialJamo = Jamo(initial.unicodeScalars.first ?? " "),
            let vowelJamo = Jamo(vowel.unicodeScalars.first ?? " "),
            let syllable = HangulSyllable(
              initial: initialJamo, vowel: vowelJamo, final: Jamo(finalIndex: finalIndex))
          else { continue }
          elements.append(String(syllable.scalar))
        }
      }
    }
    elements += Jamo.all.map(\.description)
    elements += (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
    elements += (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
    elements += [
      "\u{200C}", "\u{2060}", " ", "\u{8}", "\u{7F}", "\u{1100}", "\u{1161}", "\u{11A8}", "1", "\n",
    ]
    return elements
  }()

  @Test("all ordered pairs of syllable shapes, jamo, letters, controls and space round-trip")
  func pairsRoundTrip() {
    var text = ""
    var count = 0
    for first in Self.pairElements {
      for second in Self.pairElements {
        text += first + second + "\n"
        count += 1
      }
    }
    #expect(count > 100_000)
    expectSameBytes(roundTrip(Array(text.utf8), .keys), Array(text.utf8))
    expectSameBytes(roundTrip(Array(text.utf8), .qwerty), Array(text.utf8))
  }

  @Test(
    "random strings of Hangul, jamo, Latin, emoji, conjoining jamo and invalid bytes round-trip")
  func randomStringsRoundTrip() {
    var generator = SeededGenerator(seed: 42)
    let pieces: [[UInt8]] =
      Self.pairElements.map { Array($0.utf8) }
      + [[0xFF], [0x80], [0xEA, 0xB0], [0xED, 0xA0, 0x80], [0xF0, 0x9F]]
      + [
        "😀", "👨‍👩‍👧", "é", "e\u{301}", "\u{115F}", "\u{1160}", "\u{A960}", "\u{D7B0}", "\u{11FF}", "\r",
        "\0", "\u{FEFF}",
      ]
      .map { Array($0.utf8) }
    for _ in 0..<(longRuns ? 5_000 : 1_500) {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 1...30, using: &generator) {
        bytes += pieces.randomElement(using: &generator) ?? []
      }
      #expect(roundTrip(bytes, .keys) == bytes)
      #expect(roundTrip(bytes, .qwerty) == bytes)
    }
  }

  @Test("a realistic Korean text round-trips, and so does the shared corpus when present")
  func realisticText() throws {
    var texts = [Array(try fixture("prose.txt"))]
    let corpus = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("../shared/corpus/ko-prose.txt")
    if let data = try? Data(contentsOf: corpus) { texts.append(Array(data)) }
    for text in texts {
      expectSameBytes(roundTrip(text, .keys), text)
      expectSameBytes(roundTrip(text, .qwerty), text)
    }
  }

  @Test("decomposition does not depend on where the input is split into blocks")
  func splitAnywhere() throws {
    let text = Array(try fixture("prose.txt").prefix(400)) + [0xEA, 0xB0]
    for form in DecompositionForm.allCases {
      var whole = DecomposeFilter(form: form)
      // (initials included: it keeps state across a syllable's conjoining jamo)
      let expected = (try? whole.filtered(text)) ?? []
      for cut in 0...text.count {
        var filter = DecomposeFilter(form: form)
        var output: [UInt8] = []
        Array(text[..<cut]).withUnsafeBufferPointer { filter.process($0, into: &output) }
        Array(text[cut...]).withUnsafeBufferPointer { filter.process($0, into: &output) }
        filter.finish(into: &output)
        #expect(output == expected)
      }
    }
  }

  @Test("the lazy adaptor produces elements on demand")
  func laziness() {
    var iterator = "닭과".unicodeScalars.decomposed(to: .keys).makeIterator()
    #expect(iterator.next() == "ㄷ")
    #expect(iterator.next() == "ㅏ")
    let infinite = repeatElement(Unicode.Scalar("가"), count: Int.max).decomposed(to: .qwerty)
    #expect(Array(infinite.prefix(4)) == ["r", "k", "r", "k"])
  }

  /// Decomposes `bytes` to `form` and composes the result back.
  func roundTrip(_ bytes: [UInt8], _ form: DecompositionForm) -> [UInt8] {
    var decompose = DecomposeFilter(form: form)
    let keys = (try? decompose.filtered(bytes)) ?? []
    return composedBytes(keys, keys: form == .qwerty ? .qwerty : .jamo)
  }
}
