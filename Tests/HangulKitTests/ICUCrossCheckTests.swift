import Foundation
import HangulKit
import Testing

/// The cross-checks the product promises: the project's own Hangul algebra
/// agrees with ICU's NFC and NFD everywhere.
@Suite("ICU cross-checks")
struct ICUCrossCheckTests {
  let nfc: ICUNormalizer
  let nfd: ICUNormalizer

  init() throws {
    nfc = try ICUNormalizer(.nfc)
    nfd = try ICUNormalizer(.nfd)
  }

  @Test("all 11,172 syllables: our NFD is ICU's, and our composition of ICU's NFD is the syllable")
  func everySyllable() {
    var text = ""
    for syllable in HangulSyllable.all {
      let icuNFD = nfd.normalized([syllable.scalar])
      #expect(syllable.conjoiningJamo == icuNFD)
      #expect(String(syllable.scalar).decomposed(to: .nfd).unicodeScalars.elementsEqual(icuNFD))
      #expect(HangulNormalization.composed(icuNFD) == [syllable.scalar])
      text.unicodeScalars.append(contentsOf: icuNFD)
      text += "\n"
    }
    // The composer reads ICU's NFD of every syllable back into the syllables.
    let expected = HangulSyllable.all.map { "\($0)\n" }.joined()
    #expect(composed(text) == expected)
  }

  @Test("every L V (19×21) and L V T (19×21×27) sequence composes exactly as ICU NFC")
  func everyConjoiningSequence() {
    var sequences: [[Unicode.Scalar]] = []
    for initial in 0x1100...0x1112 {
      for vowel in 0x1161...0x1175 {
        let pair = [initial, vowel].compactMap { Unicode.Scalar(UInt32($0)) }
        sequences.append(pair)
        for final in 0x11A8...0x11C2 {
          sequences.append(pair + [Unicode.Scalar(UInt32(final))].compactMap { $0 })
        }
      }
    }
    #expect(sequences.count == 19 * 21 + 19 * 21 * 27)
    let input = sequences.map { String(String.UnicodeScalarView($0)) + "\n" }.joined()
    let ours = composed(input).split(separator: "\n", omittingEmptySubsequences: false)
    for (index, sequence) in sequences.enumerated() {
      let icu = nfc.normalized(sequence)
      #expect(Array(ours[index].unicodeScalars) == icu)
      #expect(HangulNormalization.composed(sequence) == icu)
    }
  }

  /// Conjoining jamo of every kind, fillers, old jamo and combining marks.
  static let randomPool: [UInt32] =
    Array(0x1100...0x1112) + Array(0x1161...0x1175) + Array(0x11A8...0x11C2)  // modern L V T
    + [
      0x1113, 0x1140, 0x1159, 0x115E, 0x1176, 0x119E, 0x11A2, 0x11A3, 0x11A7, 0x11C3, 0x11F9,
      0x11FF,
    ]  // old
    + [0xA960, 0xA970, 0xA97C, 0xD7B0, 0xD7C6, 0xD7CB, 0xD7FB]  // extended A and B
    + [0x115F, 0x1160]  // fillers
    + [0x0300, 0x0301, 0x0323, 0x302E, 0x302F, 0x3099]  // combining marks
    + [0xAC00, 0xAC01, 0xD7A3, 0xB2E4]  // precomposed LV and LVT

  @Test(
    "random conjoining sequences with old jamo, fillers and combining marks compose as ICU does")
  func randomSequences() {
    var generator = SeededGenerator(seed: 4)
    var inputs: [[Unicode.Scalar]] = []
    for _ in 0..<20_000 {
      inputs.append(
        (0..<Int.random(in: 1...12, using: &generator)).compactMap { _ in
          Self.randomPool.randomElement(using: &generator).flatMap(Unicode.Scalar.init)
        })
    }
    let text = inputs.map { String(String.UnicodeScalarView($0)) + "\n" }.joined()
    let ours = composed(text).split(separator: "\n", omittingEmptySubsequences: false)
    var disagreements = 0
    for (index, input) in inputs.enumerated() {
      // ICU also reorders combining marks, which the composer leaves alone:
      // compare the Hangul, with every other character as a placeholder.
      let icu = Self.hangulShape(nfc.normalized(input))
      let mine = Self.hangulShape(Array(ours[index].unicodeScalars))
      if icu != mine {
        disagreements += 1
        if disagreements < 5 { Issue.record("\(input.map(\.value)): ours \(mine), ICU \(icu)") }
      }
      #expect(Self.hangulShape(HangulNormalization.composed(input)) == icu)
    }
    #expect(disagreements == 0)
  }

  static func hangulShape(_ scalars: [Unicode.Scalar]) -> [UInt32] {
    scalars.map { HangulNormalization.isHangul($0) ? $0.value : 0 }
  }

  @Test("a realistic text in NFD composes to ICU's NFC of it, and --verify passes on it")
  func realisticText() throws {
    // The one line that spells a word in compatibility jamo (ㅎㅏㄴㄱㅡㄹ) is left
    // out: those are keys to the composer, not text.
    let text = String(decoding: try fixture("prose.txt"), as: UTF8.self)
      .split(separator: "\n").filter { !$0.contains("ㅎㅏㄴ") }.map { $0 + "\n" }.joined()
    let textNFD = nfd.normalized(text)
    #expect(!textNFD.unicodeScalars.elementsEqual(text.unicodeScalars))
    let output = composed(textNFD)
    expectSameBytes(Array(output.utf8), Array(nfc.normalized(textNFD).utf8))
    expectSameBytes(Array(output.utf8), Array(text.utf8))
    var filter = VerifyingFilter(
      ComposeFilter(), verifier: try OutputVerifier(expecting: .composed))
    _ = try filter.filtered(Array(textNFD.utf8))
    #expect(filter.firstDisagreement == nil)
    var decompose = VerifyingFilter(
      DecomposeFilter(form: .nfd), verifier: try OutputVerifier(expecting: .decomposed))
    let decomposed = try decompose.filtered(Array(text.utf8))
    #expect(decompose.firstDisagreement == nil)
    #expect(decomposed == Array(nfd.normalized(text).utf8))
  }

  @Test("a deliberately wrong composer is caught with the right position")
  func wrongComposerIsCaught() throws {
    // Composes correctly, except that 닭 comes out as conjoining jamo.
    struct WrongComposer: ByteFilter {
      var inner = ComposeFilter()
      mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var piece: [UInt8] = []
        inner.process(chunk, into: &piece)
        output += Array(
          String(decoding: piece, as: UTF8.self).replacingOccurrences(
            of: "닭", with: "\u{1103}\u{1161}\u{11B0}"
          ).utf8)
      }
      mutating func finish(into output: inout [UInt8]) { inner.finish(into: &output) }
    }
    var filter = VerifyingFilter(
      WrongComposer(), verifier: try OutputVerifier(expecting: .composed))
    filter.beginInput(named: "log.txt")
    _ = try filter.filtered(Array("ㄱㅏ\nㅇㅗㄴㅡㄹ ㄷㅏㄹㄱ ㄱㅗㄱㅣ\nㄷㅏㄹㄱ\n".utf8))
    let first = try #require(filter.firstDisagreement)
    #expect(first.file == "log.txt")
    #expect(first.line == 2)
    #expect(first.column == 4)
    #expect(first.message.contains("not NFC"))
    #expect(first.message.contains("U+1103 U+1161 U+11B0"))
    #expect(first.message.contains("ICU NFC \"닭\" (U+B2ED)"))
    #expect(filter.disagreementCount == 2)
  }

  @Test("a wrong decomposition of our own is caught too")
  func wrongDecompositionIsCaught() throws {
    let verifier = try OutputVerifier(
      expecting: .composed,
      decomposition: { scalars in
        // Writes ㄺ as ㄹ followed by ㄱ: a plausible mistake.
        HangulNormalization.decomposed(scalars).flatMap {
          $0 == "\u{11B0}" ? ["\u{11AF}", "\u{11A8}"] : [$0]
        }
      })
    #expect(verifier.check(["가"]) == nil)
    let disagreement = try #require(verifier.check(["닭"], column: 7))
    #expect(disagreement.column == 7)
    #expect(disagreement.problem == "our NFD differs from ICU's")
    #expect(disagreement.icu == ["\u{1103}", "\u{1161}", "\u{11B0}"])
  }

  @Test(
    "the fast scan of --verify asks ICU about each unit and catches a wrong one, with its place")
  func fastScanCatchesWrongUnits() throws {
    // A decomposition that is wrong for ㄺ only: composed output with 닭 in it.
    let wrongDecomposition = try OutputVerifier(
      expecting: .composed,
      decomposition: { scalars in
        HangulNormalization.decomposed(scalars).flatMap {
          $0 == "\u{11B0}" ? ["\u{11AF}", "\u{11A8}"] : [$0]
        }
      })
    var composed = VerifyingFilter(ComposeFilter(), verifier: wrongDecomposition)
    composed.beginInput(named: "keys.txt")
    _ = try composed.filtered(Array("ㄱㅏ ㄴㅏ\nㅎㅏㄴ ㄷㅏㄹㄱ\nㄱㅏ\n".utf8))
    #expect(composed.firstDisagreement?.line == 2)
    #expect(composed.firstDisagreement?.column == 3)
    // A composition that is wrong for 닭's jamo: decomposed output.
    let wrongComposition = try OutputVerifier(
      expecting: .decomposed,
      composition: { scalars in
        scalars == ["\u{1103}", "\u{1161}", "\u{11B0}"]
          ? ["달"] : HangulNormalization.composed(scalars)
      })
    var decomposed = VerifyingFilter(try NormalizeFilter(form: .nfd), verifier: wrongComposition)
    _ = try decomposed.filtered(Array("한글\n가 닭\n".utf8))
    #expect(decomposed.firstDisagreement?.line == 2)
    // Columns count output characters: ᄀ ᅡ and a space come first.
    #expect(decomposed.firstDisagreement?.column == 4)
    // The right ones pass the same text.
    var right = VerifyingFilter(
      try NormalizeFilter(form: .nfd), verifier: try OutputVerifier(expecting: .decomposed))
    _ = try right.filtered(Array("한글\n가 닭\n".utf8))
    #expect(right.firstDisagreement == nil)
  }

  @Test(
    "the normalizer API: all four forms on strings",
    arguments: [
      (ICUNormalizer.Form.nfc, "e\u{301}", "é"), (.nfd, "é", "e\u{301}"), (.nfkc, "ﾊﾝ ㄱ", "ハン ᄀ"),
      (.nfkd, "ﬁ", "fi"), (.nfd, "닭", "\u{1103}\u{1161}\u{11B0}"),
      (.nfc, "\u{1103}\u{1161}\u{11B0}", "닭"),
    ])
  func normalizerForms(form: ICUNormalizer.Form, input: String, expected: String) throws {
    let normalizer = try ICUNormalizer(form)
    #expect(Array(normalizer.normalized(input).unicodeScalars) == Array(expected.unicodeScalars))
  }

  @Test("the normalizer over UTF-8 buffers copies bytes that are not UTF-8")
  func normalizerBytes() {
    var output: [UInt8] = []
    let input: [UInt8] = Array("e\u{301}".utf8) + [0xFF] + Array("\u{1100}\u{1161}".utf8) + [0xC0]
    input.withUnsafeBufferPointer { nfc.normalize(utf8: $0, into: &output) }
    #expect(output == Array("é".utf8) + [0xFF] + Array("가".utf8) + [0xC0])
  }

  @Test("--nfc puts all output through ICU NFC, a block at a time")
  func nfcFilter() throws {
    var filter = NormalizingFilter(ComposeFilter(), normalizer: try ICUNormalizer(.nfc))
    var output: [UInt8] = []
    try filter.process(Array("e\u{301} ㄱㅏ\nA\u{30A}".utf8), into: &output)
    #expect(String(decoding: output, as: UTF8.self) == "é 가\n")
    try filter.finish(into: &output)
    #expect(String(decoding: output, as: UTF8.self) == "é 가\nÅ")
    var plain = NormalizingFilter(ComposeFilter(), normalizer: nil)
    #expect(
      String(decoding: try plain.filtered(Array("e\u{301}".utf8)), as: UTF8.self) == "e\u{301}")
  }
}
