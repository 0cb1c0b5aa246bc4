import Foundation
import HangulKit
import Testing

/// The sixteen-bytes-a-step scans of `--verify` decide as the code point by
/// code point checks do, on random text that mixes what they pass (ASCII,
/// syllables, modern groups) with everything they must stop at (syllables
/// at the ends of the range, lone and old jamo, marks that join, other
/// scripts, compatibility characters, invalid bytes), cut at random places.
@Suite("Verification block scans")
struct BlockScanTests {
  /// Pieces of text: Hangul in every shape and the characters next to it.
  static let pieces: [String] = [
    "a", "the ", " ", "  ", ".", "12", "가", "힣", "\u{D77F}", "\u{D780}", "\u{D7A3}", "\u{AC01}",
    "\u{ABFF}", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{11C2}", "\u{1100}\u{1161}",
    "\u{1112}\u{1175}\u{11C2}",
    "\u{1113}\u{1161}", "\u{1100}\u{1176}", "\u{1100}\u{1161}\u{11C3}", "\u{A960}", "\u{D7B0}",
    "\u{11FF}", "e\u{301}", "\u{E9}", "\u{301}", "\u{308}", "“", "①", "ㄱ", "ㄳ", "漢", "👍🏽", "ﬁ",
    "Å", "\u{FF76}", "\u{2000}",
    // Two-byte code points, which the checker takes by its table: stable in
    // every form, changed by the compatibility forms, or by all of them.
    "ε", "Ωμέγα", "\u{3B5}\u{301}", "Я", "ß", "\u{A0}", "\u{B2}", "\u{133}", "\u{2B0}",
    "\u{344}", "\u{374}", "\u{C0}", "A\u{300}",
  ]

  /// A random line: Korean words (syllables, or their groups of conjoining
  /// jamo) with a few other pieces among them.
  static func line(_ random: inout SeededGenerator) -> String {
    var text = ""
    for _ in 0..<Int.random(in: 0...40, using: &random) {
      if Int.random(in: 0..<4, using: &random) == 0 {
        text += pieces[Int.random(in: 0..<pieces.count, using: &random)]
        continue
      }
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        // Half of them with no final, which a final after them joins.
        let final = Bool.random(using: &random) ? 0 : UInt32.random(in: 1..<28, using: &random)
        let value = 0xAC00 + UInt32.random(in: 0..<399, using: &random) * 28 + final
        if let scalar = Unicode.Scalar(value) {
          text.unicodeScalars.append(scalar)
        }
      }
      // Sometimes a piece right after the syllables (a final or a mark
      // that joins the syllable before it, for the composing forms).
      if Int.random(in: 0..<3, using: &random) == 0 {
        text += pieces[Int.random(in: 0..<pieces.count, using: &random)]
      }
      text += " "
    }
    return text
  }

  @Test(
    "the normal-form checker finds the lines ICU says are not in the form, whole and in pieces",
    arguments: [ICUNormalizer.Form.nfc, .nfd, .nfkc, .nfkd])
  func normalFormChecker(form: ICUNormalizer.Form) throws {
    var random = SeededGenerator(seed: 0x5EED_0000 &+ UInt64(form.name.utf8.count))
    let icu = try ICUNormalizer(form)
    var lines: [String] = []
    for _ in 0..<400 {
      // Lines in the form, so that the scans run long, a quarter of them
      // with one piece put in as it is (most often not in the form with
      // what is next to it: a final after a syllable, a mark after a jamo).
      var line = Array(icu.normalized(Self.line(&random)).unicodeScalars)
      if Int.random(in: 0..<4, using: &random) == 0 {
        let piece = Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &random)]
        line.insert(
          contentsOf: piece.unicodeScalars, at: Int.random(in: 0...line.count, using: &random))
      }
      lines.append(String(String.UnicodeScalarView(line)))
    }
    // Compared as bytes: Strings compare equal when canonically equivalent.
    let bad = lines.indices.filter { !icu.normalized(lines[$0]).utf8.elementsEqual(lines[$0].utf8) }
    // Each line alone.
    for (index, line) in lines.enumerated() {
      var checker = try NormalFormChecker(form: form)
      checker.check(Array((line + "\n").utf8)[...])
      #expect((checker.firstProblem == nil) == !bad.contains(index), "line \(index): \(line)")
    }
    // All of them, in groups of lines.
    var checker = try NormalFormChecker(form: form)
    checker.beginInput(named: "all.txt")
    var index = 0
    while index < lines.count {
      let end = min(lines.count, index + Int.random(in: 1...40, using: &random))
      checker.check(Array(lines[index..<end].map { $0 + "\n" }.joined().utf8)[...])
      index = end
    }
    #expect(checker.firstProblem?.line == bad.first.map { $0 + 1 })
    #expect(checker.problemCount >= bad.count)
    #expect((checker.problemCount == 0) == bad.isEmpty)
  }

  /// Writes its input unchanged.
  struct Unchanged: ByteFilter {
    mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
      output.append(contentsOf: chunk)
    }

    mutating func finish(into output: inout [UInt8]) {}
  }

  /// Random lines of words (what `word` writes) between spaces and full
  /// stops; one line in five holds one of `defects`, before a word, or with
  /// `defectAfterWord` right after one (where it can join the word's end).
  static func lines(
    _ count: Int, _ random: inout SeededGenerator, defects: [[UInt8]], defectAfterWord: Bool,
    word: (inout SeededGenerator) -> [UInt8]
  ) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<count {
      let defective = Int.random(in: 0..<5, using: &random) == 0
      let words = Int.random(in: 0...30, using: &random)
      let defectAt = Int.random(in: 0...max(0, words), using: &random)
      for index in 0...words {
        if defectAfterWord { bytes += word(&random) }
        if defective, index == defectAt {
          bytes += defects[Int.random(in: 0..<defects.count, using: &random)]
        }
        guard index < words else { break }
        if !defectAfterWord { bytes += word(&random) }
        bytes.append(Int.random(in: 0..<8, using: &random) == 0 ? 0x2E : 0x20)
      }
      bytes.append(0x0A)
    }
    return bytes
  }

  /// Decomposed output: modern groups and ASCII, with defects here and there.
  static func decomposedText(lines count: Int, _ random: inout SeededGenerator) -> [UInt8] {
    let defects: [[UInt8]] = [
      Array("가".utf8), Array("\u{1100}".utf8), Array("\u{1161}".utf8), Array("\u{11A8}".utf8),
      Array("\u{1100}\u{1100}\u{1161}".utf8), Array("\u{1100}\u{1176}".utf8),
      Array("\u{1100}\u{1161}\u{11C3}".utf8), Array("\u{1100}\u{1161}\u{11A8}\u{11A8}".utf8),
      Array("é".utf8), Array("ᄀ\u{301}".utf8), [0xFF], [0xE1, 0x84], [0x80], Array("“".utf8),
    ]
    return lines(count, &random, defects: defects, defectAfterWord: false) { random in
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let value = UInt32.random(in: 0xAC00...0xD7A3, using: &random)
        if let scalar = Unicode.Scalar(value) {
          for jamo in HangulNormalization.decomposed([scalar]) {
            bytes += Array(String(jamo).utf8)
          }
        }
      }
      return bytes
    }
  }

  /// Composed output: syllables, compatibility jamo and ASCII, with defects
  /// here and there (conjoining jamo, a final after a syllable, old jamo).
  static func composedText(lines count: Int, _ random: inout SeededGenerator) -> [UInt8] {
    let defects: [[UInt8]] = [
      Array("\u{1100}\u{1161}".utf8), Array("\u{11A8}".utf8), Array("\u{1161}".utf8),
      Array("\u{1100}\u{1161}\u{11EE}".utf8), Array("\u{1113}\u{1161}".utf8),
      Array("\u{3105}".utf8), Array("①".utf8), Array("é".utf8), Array("\u{301}".utf8), [0xFF],
      [0xEA, 0xB0], [0x80], Array("\u{D7B0}".utf8), Array("ㅤ".utf8),
    ]
    return lines(count, &random, defects: defects, defectAfterWord: true) { random in
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        let value =
          Int.random(in: 0..<4, using: &random) == 0
          ? UInt32.random(in: 0x3131...0x318E, using: &random)
          : UInt32.random(in: 0xAC00...0xD7A3, using: &random)
        if let scalar = Unicode.Scalar(value) { bytes += Array(String(scalar).utf8) }
      }
      return bytes
    }
  }

  @Test(
    "the block scans of composed and decomposed output report what the scan asking ICU of each unit reports",
    arguments: [OutputVerifier.Expectation.composed, .decomposed], [1, 7, 4096, 65536])
  func unitScans(expectation: OutputVerifier.Expectation, largestChunk: Int) throws {
    var random = SeededGenerator(seed: 0xB10C_0000 &+ UInt64(largestChunk))
    let text =
      expectation == .composed
      ? Self.composedText(lines: 1500, &random) : Self.decomposedText(lines: 1500, &random)
    var fast = VerifyingFilter(Unchanged(), verifier: try OutputVerifier(expecting: expectation))
    #expect(fast.verifier?.everyUnitAgrees == true)
    // A verifier with a replaced algorithm asks ICU of each unit instead.
    var asking = VerifyingFilter(
      Unchanged(),
      verifier: try OutputVerifier(
        expecting: expectation, composition: { HangulNormalization.composed($0) },
        decomposition: { HangulNormalization.decomposed($0) }))
    #expect(asking.verifier?.everyUnitAgrees == false)
    fast.beginInput(named: "out.txt")
    asking.beginInput(named: "out.txt")
    var fastOutput: [UInt8] = []
    var askingOutput: [UInt8] = []
    try text.withUnsafeBufferPointer { buffer in
      var start = 0
      while start < buffer.count {
        let end = min(buffer.count, start + Int.random(in: 1...largestChunk, using: &random))
        let chunk = UnsafeBufferPointer(rebasing: buffer[start..<end])
        try fast.process(chunk, into: &fastOutput)
        try asking.process(chunk, into: &askingOutput)
        start = end
      }
    }
    try fast.finish(into: &fastOutput)
    try asking.finish(into: &askingOutput)
    #expect(fastOutput == text)
    #expect(fast.firstDisagreement != nil)
    #expect(fast.firstDisagreement?.description == asking.firstDisagreement?.description)
    #expect(fast.disagreementCount == asking.disagreementCount)
  }
}
