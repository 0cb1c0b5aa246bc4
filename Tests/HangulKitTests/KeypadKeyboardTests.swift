import Foundation
import HangulKit
import Testing

/// The 나랏글 (naratgeul) and SKY-II (sky2) keypads: the examples of
/// hangul-keyboard(5), Backspace, round trips of every syllable, the corpus
/// and random text through `hangul-decompose`, and random presses.
@Suite("Phone keypads 나랏글 and SKY-II")
struct KeypadKeyboardTests {
  static let ids = ["naratgeul", "sky2"]

  static func keyboard(_ id: String) throws -> Keyboard { try Keyboard(id: id) }

  func composed(_ log: [UInt8], _ id: String, keys: KeyEncoding) throws -> [UInt8] {
    var filter = KeypadComposeFilter(keys: keys, keyboard: try Self.keyboard(id))
    return try filter.filtered(log)
  }

  func composed(_ log: String, _ id: String, keys: KeyEncoding = .jamo) throws -> String {
    String(decoding: try composed(Array(log.utf8), id, keys: keys), as: UTF8.self)
  }

  func decomposed(_ text: [UInt8], _ id: String, keys: KeyEncoding) throws -> [UInt8] {
    var filter = KeypadDecomposeFilter(keys: keys, keyboard: try Self.keyboard(id))
    return try filter.filtered(text)
  }

  @Test("the keyboard files are keypads with twelve keys; 나랏글 names its two label-less keys")
  func loads() throws {
    for id in Self.ids {
      let layout = try Self.keyboard(id).layout
      #expect(layout.type == .keypad)
      #expect(layout.mappedKeys.count == 12)
    }
    let naratgeul = try Self.keyboard("naratgeul").layout.keypad
    #expect(naratgeul.keyNames == [UInt8(ascii: "*"): "획추가", UInt8(ascii: "#"): "쌍자음"])
    #expect(try Self.keyboard("sky2").layout.keypad.keyNames.isEmpty)
  }

  @Test(
    "나랏글: 획추가 (*), 쌍자음 (#), the vowel keys ㅏㅓ and ㅗㅜ, compound vowels, syllables",
    arguments: [
      ("ㄱ*", "ㅋ"), ("ㄱ#", "ㄲ"), ("ㄱ##", "ㄱ"), ("ㄴ*", "ㄷ"), ("ㄴ**", "ㅌ"), ("ㄴ*#", "ㄸ"),
      ("ㅁ*", "ㅂ"), ("ㅁ**", "ㅍ"), ("ㅁ*#", "ㅃ"), ("ㅅ*", "ㅈ"), ("ㅅ**", "ㅊ"), ("ㅅ#", "ㅆ"),
      ("ㅅ*#", "ㅉ"), ("ㅇ*", "ㅎ"), ("ㅇ**", "ㅎ"), ("*", ""), ("ㄴㄴ", "ㄴㄴ"),
      ("ㅏ", "ㅏ"), ("ㅏㅏ", "ㅓ"), ("ㅏㅏㅏ", "ㅏ"), ("ㅏ*", "ㅑ"), ("ㅏㅏ*", "ㅕ"), ("ㅗㅗ", "ㅜ"),
      ("ㅗ*", "ㅛ"), ("ㅗㅗ*", "ㅠ"), ("ㅏㅣ", "ㅐ"), ("ㅏ*ㅣ", "ㅒ"), ("ㅏㅏㅣ", "ㅔ"), ("ㅏㅏ*ㅣ", "ㅖ"),
      ("ㅗㅏ", "ㅘ"), ("ㅗㅏㅣ", "ㅙ"), ("ㅗㅣ", "ㅚ"), ("ㅗㅗㅏ", "ㅝ"), ("ㅗㅗㅏㅣ", "ㅞ"),
      ("ㅗㅗㅣ", "ㅟ"), ("ㅡㅣ", "ㅢ"),
      ("ㅇㅏㄴ", "안"), ("ㅇ*ㅏㄴ", "한"), ("ㄴ*ㅏㄹㄱ", "닭"), ("ㅇㅏㄴㅅ*", "앉"), ("ㄱㅏ*", "갸"),
      ("ㄱㅏㄱ*", "갘"), ("ㄱ#ㅏㅅ**ㅣ", "까치"), ("ㅇㅏㄴㄴㅏ", "안나"), ("ㄱ\u{200C}*", "ㄱ"),
      ("ㄴ**\u{8}", "ㄷ"), ("ㄱㅏㅏ\u{8}", "가"), ("ㅇㅏㄴㅅ*\u{8}", "안ㅅ"),
    ])
  func naratgeul(log: String, text: String) throws {
    #expect(try composed(log, "naratgeul") == text)
  }

  @Test(
    "SKY-II: two jamo a key (a consonant's third press its double), compound vowels, syllables",
    arguments: [
      ("ㄱ", "ㄱ"), ("ㄱㄱ", "ㅋ"), ("ㄱㄱㄱ", "ㄲ"), ("ㄱㄱㄱㄱ", "ㄱ"), ("ㄴㄴ", "ㄹ"), ("ㅁㅁ", "ㅅ"),
      ("ㅁㅁㅁ", "ㅆ"), ("ㅈㅈ", "ㅊ"), ("ㅇㅇ", "ㅎ"), ("ㅇㅇㅇ", "ㅇ"), ("ㄱ\u{200C}ㄱ", "ㄱㄱ"),
      ("ㅣㅣ", "ㅡ"), ("ㅣㅣㅣ", "ㅢ"), ("ㅏㅏ", "ㅑ"), ("ㅓㅓ", "ㅕ"), ("ㅗㅗ", "ㅛ"), ("ㅜㅜ", "ㅠ"),
      ("ㅏㅣ", "ㅐ"), ("ㅏㅏㅣ", "ㅒ"), ("ㅓㅣ", "ㅔ"), ("ㅓㅓㅣ", "ㅖ"), ("ㅗㅏ", "ㅘ"), ("ㅗㅏㅣ", "ㅙ"),
      ("ㅗㅣ", "ㅚ"), ("ㅜㅓ", "ㅝ"), ("ㅜㅓㅣ", "ㅞ"), ("ㅜㅣ", "ㅟ"),
      ("ㄴㅏㅁㅜㅇㅜㅣㄱㄱㅣ", "나무위키"), ("ㅇㅏㄴ\u{200C}ㄴㅓㅓㅇ", "안녕"), ("ㄷㅏㄴㄴㄱ", "닭"),
      ("ㅇㅏㄴㅇㅇ", "않"), ("ㄱㄱ\u{8}", "ㄱ"), ("ㅇㅏㅏ\u{8}", "아"),
    ])
  func sky2(log: String, text: String) throws {
    #expect(try composed(log, "sky2") == text)
  }

  @Test(
    "E.161 keypad characters under --keys qwerty",
    arguments: [
      ("naratgeul", "832 2*341 1#37**9", "안 닭 까치"), ("sky2", "537#0#2112", "나무위키"),
      ("sky2", "035\u{200C}5660", "안녕"),
    ])
  func keypadCharacters(id: String, log: String, text: String) throws {
    #expect(try composed(log, id, keys: .qwerty) == text)
  }

  @Test("a jamo that no single key types counts as its presses")
  func jamoAsPresses() throws {
    #expect(try composed("ㅋㅏ", "naratgeul") == "카")
    #expect(try composed("ㄷㅏㄺ", "naratgeul") == "닭")
    #expect(try composed("ㅎㅘ", "sky2") == "화")
    #expect(try composed("ㅆㅑ", "sky2") == "쌰")
  }

  static let cases = ids.flatMap { id in [(id, KeyEncoding.jamo), (id, .qwerty)] }

  @Test("all 11,172 syllables round-trip, in a row and apart", arguments: cases)
  func allSyllables(id: String, keys: KeyEncoding) throws {
    let syllables = HangulSyllable.all.map(\.scalar)
    for text in [
      String(String.UnicodeScalarView(syllables)),
      syllables.map { String($0) }.joined(separator: "\n"),
    ] {
      let bytes = Array(text.utf8)
      let log = try decomposed(bytes, id, keys: keys)
      // Every syllable is typed as presses, none is copied as text.
      #expect(
        !String(decoding: log, as: UTF8.self).unicodeScalars.contains { HangulSyllable($0) != nil })
      expectSameBytes(try composed(log, id, keys: keys), bytes)
    }
  }

  @Test("prose and the shared corpus (when present) round-trip", arguments: ids)
  func corpus(id: String) throws {
    let keys = KeyEncoding.qwerty  // --keys jamo takes the same path (the syllables test both)
    var texts = [Array(try fixture("prose.txt"))]
    if let corpus = sharedCorpusText() { texts.append(corpus) }
    for text in texts {
      expectSameBytes(try composed(try decomposed(text, id, keys: keys), id, keys: keys), text)
    }
  }

  @Test("random text round-trips", arguments: cases)
  func randomRoundTrip(id: String, keys: KeyEncoding) throws {
    for seed in 1...20 {
      let input = LayoutDecomposeTests.randomText(seed: UInt64(seed), count: 300)
      expectSameBytes(try composed(try decomposed(input, id, keys: keys), id, keys: keys), input)
    }
  }

  @Test(
    "NFD text in a keypad log composes as on the other keyboards (NFC out), and round-trips",
    arguments: ["cheonjiin", "naratgeul", "sky2"])
  func conjoiningJamo(id: String) throws {
    let nfd = "\u{1100}\u{1161}\u{11A8} \u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}"
    #expect(try composed(nfd, id) == "각 한글")
    var twoSet = ComposeFilter(keyboard: .twoSet)
    #expect(
      try composed(nfd, id) == String(decoding: try twoSet.filtered(Array(nfd.utf8)), as: UTF8.self)
    )
    // A typed syllable takes a conjoining final after it, as on 2-set: 가 + ᆨ = 각.
    #expect(try composed("ㄱ" + (id == "cheonjiin" ? "ㅣㆍ" : "ㅏ") + "\u{11A8}", id) == "각")
    for text in [nfd, "가\u{11A8}\u{1100}", "\u{1100}\u{1161}\u{1100}\u{1161}\u{11A8}\n\u{1161}"] {
      for keys in [KeyEncoding.jamo, .qwerty] {
        let bytes = Array(text.utf8)
        expectSameBytes(try composed(try decomposed(bytes, id, keys: keys), id, keys: keys), bytes)
      }
    }
  }

  @Test(
    "a UTF-8 sequence cut off at the end stays after the syllable before it, in any chunking",
    arguments: ["cheonjiin", "naratgeul", "sky2"])
  func truncatedEnd(id: String) throws {
    let log = Array("ㄱ".utf8) + Array((id == "cheonjiin" ? "ㅣㆍ" : "ㅏ").utf8) + [0xEA, 0xB0]
    expectSameBytes(try composed(log, id, keys: .jamo), Array("가".utf8) + [0xEA, 0xB0])
    var filter = KeypadComposeFilter(keys: .jamo, keyboard: try Self.keyboard(id))
    var pieces: [UInt8] = []
    for byte in log { try filter.process([byte], into: &pieces) }
    filter.finish(into: &pieces)
    expectSameBytes(pieces, Array("가".utf8) + [0xEA, 0xB0])
    let text = Array("가".utf8) + [0xEA, 0xB0]
    expectSameBytes(try composed(try decomposed(text, id, keys: .qwerty), id, keys: .qwerty), text)
  }

  @Test(
    "Backspace after presses gives what the presses without the last one give",
    arguments: ["cheonjiin", "naratgeul", "sky2"])
  func backspaceUndoesThePress(id: String) throws {
    var random = SeededGenerator(seed: 7)
    let keys = Array("1234567890*#".utf8)
    for _ in 0..<500 {
      let presses = (0..<Int.random(in: 1...12, using: &random)).map { _ in
        keys[Int.random(in: 0..<keys.count, using: &random)]
      }
      let undone = try composed(presses + [0x08], id, keys: .qwerty)
      let shorter = try composed(Array(presses.dropLast()), id, keys: .qwerty)
      #expect(undone == shorter, "\(String(decoding: presses, as: UTF8.self))")
    }
  }

  @Test("random presses never crash and compose the same in any chunking", arguments: ids)
  func randomPresses(id: String) throws {
    for seed in 1...10 {
      var random = SeededGenerator(seed: UInt64(seed))
      let alphabet = "1234567890*#\u{8}\u{200C}\n aㅏ".unicodeScalars.map { Array(String($0).utf8) }
      let log = (0..<2000).flatMap { _ in
        alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
      }
      let whole = try composed(log, id, keys: .qwerty)
      #expect(try composed(log, id, keys: .qwerty) == whole)
      var filter = KeypadComposeFilter(keys: .qwerty, keyboard: try Self.keyboard(id))
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
}
