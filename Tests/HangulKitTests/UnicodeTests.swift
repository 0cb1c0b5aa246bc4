import HangulKit
import Testing

@Suite("Unicode ground truth")
struct UnicodeTests {
  @Test("every syllable round-trips through its parts and the arithmetic")
  func syllableAlgebra() {
    for index in 0..<HangulSyllable.count {
      let syllable = HangulSyllable(index: index)
      #expect(syllable.scalar.value == 0xAC00 + UInt32(index))
      #expect(HangulSyllable(syllable.scalar) == syllable)
      let rebuilt = HangulSyllable(
        initial: syllable.initial, vowel: syllable.vowel, final: syllable.final)
      #expect(rebuilt == syllable)
      let nfd = syllable.conjoiningJamo
      #expect(nfd.count == (syllable.finalIndex == 0 ? 2 : 3))
      #expect(
        nfd.map { Jamo(conjoining: $0) } == [syllable.initial, syllable.vowel]
          + (syllable.final.map { [$0] } ?? []))
    }
  }

  @Test(
    "scalars outside U+AC00–U+D7A3 are not syllables",
    arguments: [0xABFF, 0xD7A4, 0x3131, 0x41, 0x1100])
  func notSyllables(value: UInt32) throws {
    let scalar = try #require(Unicode.Scalar(value))
    #expect(HangulSyllable(scalar) == nil)
  }

  @Test(
    "Unicode ground truth examples",
    arguments: [
      ("닭", "ㄷ", "ㅏ", "ㄺ"), ("과", "ㄱ", "ㅘ", ""), ("뷁", "ㅂ", "ㅞ", "ㄺ"), ("가", "ㄱ", "ㅏ", ""),
      ("힣", "ㅎ", "ㅣ", "ㅎ"), ("깎", "ㄲ", "ㅏ", "ㄲ"),
    ])
  func parts(text: String, initial: String, vowel: String, final: String) throws {
    let syllable = try #require(text.unicodeScalars.first.flatMap(HangulSyllable.init))
    #expect(syllable.initial.description == initial)
    #expect(syllable.vowel.description == vowel)
    #expect(syllable.final?.description ?? "" == final)
  }

  @Test(
    "compound jamo split into the keys that type them",
    arguments: [
      ("ㅘ", "ㅗㅏ"), ("ㅙ", "ㅗㅐ"), ("ㅚ", "ㅗㅣ"), ("ㅝ", "ㅜㅓ"), ("ㅞ", "ㅜㅔ"), ("ㅟ", "ㅜㅣ"), ("ㅢ", "ㅡㅣ"),
      ("ㄳ", "ㄱㅅ"), ("ㄵ", "ㄴㅈ"), ("ㄶ", "ㄴㅎ"), ("ㄺ", "ㄹㄱ"), ("ㄻ", "ㄹㅁ"), ("ㄼ", "ㄹㅂ"), ("ㄽ", "ㄹㅅ"),
      ("ㄾ", "ㄹㅌ"), ("ㄿ", "ㄹㅍ"), ("ㅀ", "ㄹㅎ"), ("ㅄ", "ㅂㅅ"), ("ㄲ", "ㄲ"), ("ㅐ", "ㅐ"), ("ㅒ", "ㅒ"),
      ("ㅆ", "ㅆ"),
    ])
  func compoundKeys(jamo: String, keys: String) throws {
    let value = try #require(jamo.unicodeScalars.first.flatMap { Jamo($0) })
    #expect(value.keys.map(\.description).joined() == keys)
  }

  @Test("positions each jamo can fill")
  func positions() {
    let jamo = Jamo.all
    #expect(jamo.count == 51)
    #expect(jamo.filter { $0.initialIndex != nil }.count == 19)
    #expect(jamo.filter { $0.vowelIndex != nil }.count == 21)
    #expect(jamo.filter { $0.finalIndex != nil }.count == 27)
    // ㄸ ㅃ ㅉ are never finals.
    #expect(
      jamo.filter { !$0.isVowel && $0.finalIndex == nil }.map(\.description) == ["ㄸ", "ㅃ", "ㅉ"])
    for item in jamo {
      if let index = item.initialIndex { #expect(Jamo(initialIndex: index) == item) }
      if let index = item.vowelIndex { #expect(Jamo(vowelIndex: index) == item) }
      if let index = item.finalIndex { #expect(Jamo(finalIndex: index) == item) }
      if let scalar = item.conjoiningInitial { #expect(Jamo(conjoining: scalar) == item) }
      if let scalar = item.conjoiningFinal { #expect(Jamo(conjoining: scalar) == item) }
    }
  }

  @Test(
    "2-set QWERTY map (ARCHITECTURE.md, Unicode ground truth)",
    arguments: Array(
      zip(
        "qwertyuiopasdfghjklzxcvbnmQWERTOPAYZ".map(String.init),
        "ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔㅁㄴㅇㄹㅎㅗㅓㅏㅣㅋㅌㅊㅍㅠㅜㅡㅃㅉㄸㄲㅆㅒㅖㅁㅛㅋ".map(String.init))))
  func twoSetMap(letter: String, jamo: String) throws {
    let code = try #require(letter.utf8.first)
    #expect(Keyboard.twoSet.jamo(forASCII: code)?.description == jamo)
  }

  @Test("keys that are not letters type nothing", arguments: Array("0129 .,;'[]-=\n".utf8))
  func nonLetters(code: UInt8) {
    #expect(Keyboard.twoSet.jamo(forASCII: code) == nil)
  }
}
