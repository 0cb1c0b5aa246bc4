import HangulKit
import Testing

/// The fast paths of ``UnicodeNormalizer`` on text in many scripts against
/// ICU: the step map that copies stable code points without decoding them,
/// the cache of short segments, and the filter's report that a chunk was
/// UTF-8 (which spares the runner its own check).
@Suite("Mixed-script normalization")
struct MixedScriptNormalizationTests {
  /// What matters to the fast paths: starters that compose with the marks
  /// that follow, marks of many combining classes (to be reordered), marks
  /// and vowels that are NFC_QC=Maybe, Hangul, compatibility characters,
  /// decompositions that reorder (U+0344, U+0F73), precomposed letters that
  /// are stable, four-byte code points, and bytes that are not UTF-8.
  static let starters: [String] = [
    "a", "e", "o", "u", "A", "O", "n", "c", "s", "i", "ω", "α", "ι", "е", "и", "ア", "か", "ᄀ",
    "가", "각", "\u{0B47}", "\u{0DD9}", "\u{1025}", "é", "ệ", "ǘ", "ἀ", "ῷ", "Å", "ﬁ", "①", "㈜",
    "㎏", "Ⅻ", "ｶ", "Ａ", "ㄱ", "ㄳ", "\u{FDFA}", "\u{A0}", "½", "\u{0344}", "\u{0F73}",
    "\u{0F75}", "\u{0F81}", "😀", "\u{1D15E}", "\u{2F800}", "\u{212B}", "\u{1E0A}", " ", "\n",
  ]
  static let marks: [String] = [
    "\u{301}", "\u{300}", "\u{323}", "\u{308}", "\u{345}", "\u{31B}", "\u{327}", "\u{334}",
    "\u{5B0}", "\u{F71}", "\u{F72}", "\u{F80}", "\u{93C}", "\u{3099}", "\u{309A}", "\u{CD5}",
    "\u{CC2}", "\u{DCA}", "\u{DCF}", "\u{102E}", "\u{B3E}", "\u{1161}", "\u{11A8}", "\u{FF9E}",
    "\u{653}", "\u{654}", "\u{302}", "\u{306}",
  ]

  /// Random text: starters, each followed by up to four random marks.
  static func randomText(_ generator: inout SeededGenerator, segments: Int) -> [UInt8] {
    var text: [UInt8] = []
    for _ in 0..<segments {
      if Int.random(in: 0..<40, using: &generator) == 0 {
        text +=
          [[0xFF], [0xE1, 0x84], [0xCC], [0x80], [0xED, 0xA0, 0x80]][
            Int.random(in: 0..<5, using: &generator)]
      }
      text += Array(starters[Int.random(in: 0..<starters.count, using: &generator)].utf8)
      for _ in 0..<Int.random(in: 0...4, using: &generator) where Bool.random(using: &generator) {
        text += Array(marks[Int.random(in: 0..<marks.count, using: &generator)].utf8)
      }
    }
    return text
  }

  /// Whether `scalar` alone is in `icu`'s form with a boundary before it, asked of ICU.
  static func isStable(_ value: UInt32, _ icu: ICUNormalizer) -> Bool {
    guard let scalar = Unicode.Scalar(value) else { return false }
    return icu.hasBoundary(before: scalar) && icu.isNormalized(scalar)
  }

  @Test(
    "every code point's flags are what ICU says of it alone", arguments: ICUNormalizer.Form.allCases
  )
  func flagsAgreeWithICU(form: ICUNormalizer.Form) throws {
    let icu = try ICUNormalizer(form)
    let properties = NormalizationProperties(normalizer: icu)
    for value in UInt32(0)..<NormalizationProperties.tableLimit {
      guard let scalar = Unicode.Scalar(value) else { continue }
      var expected: UInt8 = 0
      if icu.hasBoundary(before: scalar) {
        expected |= NormalizationProperties.boundary
        if icu.isNormalized(scalar) { expected |= NormalizationProperties.stable }
      }
      if NormalizationProperties.isConjoiningHangul(value) {
        expected |= NormalizationProperties.hangul
      }
      let found = properties.flags(of: value)
      #expect(found == expected, "U+\(String(value, radix: 16))")
      if found != expected { return }
    }
  }

  @Test(
    "the step map says what ICU says for every pair of first bytes, once its blocks are asked",
    arguments: ICUNormalizer.Form.allCases)
  func stepMapAgreesWithICU(form: ICUNormalizer.Form) throws {
    let icu = try ICUNormalizer(form)
    let properties = NormalizationProperties(normalizer: icu)
    // Not asked yet: CJK (U+4E00…) is not copied blindly.
    #expect(properties.stepLength(lead: 0xE4, second: 0xB8) == 0)
    // Syllables are filled at once in the composing forms, and are never stable in the others.
    #expect(properties.stepLength(lead: 0xEA, second: 0xB0) == (form.composes ? 3 : 0))
    for value in UInt32(0)..<0x10000 { _ = properties.flags(of: value) }
    var stable = [Bool](repeating: false, count: 0x10000)
    for value in 0..<0x10000 { stable[value] = Self.isStable(UInt32(value), icu) }
    for lead in 0..<0x100 {
      for second in 0..<0x100 {
        var expected = 0
        let isContinuation = second & 0xC0 == 0x80
        if lead < 0x80 {
          expected = stable[lead] ? 1 : 0
        } else if (0xC2...0xDF).contains(lead), isContinuation {
          expected = stable[(lead & 0x1F) << 6 | second & 0x3F] ? 2 : 0
        } else if lead & 0xF0 == 0xE0, isContinuation {
          let block = (lead & 0x0F) << 12 | (second & 0x3F) << 6
          let wellFormed = block >= 0x800 && !(0xD800..<0xE000).contains(block)
          let jamo = (0x1100..<0x1200).contains(block)
          if wellFormed, !jamo, stable[block..<(block + 0x40)].allSatisfy({ $0 }) { expected = 3 }
        }
        let found = properties.stepLength(lead: UInt8(lead), second: UInt8(second))
        #expect(found == expected, "bytes \(lead) \(second)")
        if found != expected { return }
      }
    }
  }

  @Test(
    "random letters with marks in every order, Hangul and compatibility characters equal ICU, whole and cut at every offset",
    arguments: ICUNormalizer.Form.allCases)
  func randomTextAgrees(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 1_500 + UInt64(form.rawValue))
    let normalizer = try UnicodeNormalizer(form)
    // Many distinct segments: the cache of short segments overflows and evicts.
    let long = Self.randomText(&generator, segments: 20_000)
    expectSameBytes(normalizer.normalized(long), try UnicodeNormalizerTests.icu(form, long))
    for _ in 0..<12 {
      let text = Self.randomText(&generator, segments: 40)
      let expected = try UnicodeNormalizerTests.icu(form, text)
      expectSameBytes(normalizer.normalized(text), expected)
      for cut in 0...text.count {
        var filter = NormalizeFilter(normalizer)
        var output: [UInt8] = []
        try filter.process(Array(text[..<cut]), into: &output)
        try filter.process(Array(text[cut...]), into: &output)
        filter.finish(into: &output)
        expectSameBytes(output, expected)
        if output != expected {
          Issue.record("cut at \(cut)")
          return
        }
      }
    }
  }

  @Test(
    "a chunk the filter calls UTF-8 has no byte that is not: the runner's report is the same as a full check",
    arguments: ICUNormalizer.Form.allCases)
  func utf8ReportIsExact(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 77 + UInt64(form.rawValue))
    for _ in 0..<200 {
      var text = Self.randomText(&generator, segments: Int.random(in: 1...60, using: &generator))
      if Bool.random(using: &generator) {
        // A sequence cut off at the very end, or none.
        text +=
          [[0xE1], [0xE1, 0x84], [0xF0, 0x9F], []][Int.random(in: 0..<4, using: &generator)]
      }
      var whole = UTF8Validator()
      text.withUnsafeBufferPointer { whole.scan($0) }
      whole.finish()
      // As FilterRunner does: skip the check of a chunk the filter found to be UTF-8.
      var filter = try NormalizeFilter(form: form)
      var validator = UTF8Validator()
      var output: [UInt8] = []
      var start = 0
      while start < text.count {
        let end = min(text.count, start + Int.random(in: 1...12, using: &generator))
        let chunk = Array(text[start..<end])
        try filter.process(chunk, into: &output)
        chunk.withUnsafeBufferPointer {
          if filter.lastChunkWasUTF8 { validator.skipValid($0) } else { validator.scan($0) }
        }
        start = end
      }
      validator.finish()
      filter.finish(into: &output)
      // The same place and byte (the sample is cut from the chunk it was found in).
      #expect(validator.firstInvalid?.line == whole.firstInvalid?.line)
      #expect(validator.firstInvalid?.column == whole.firstInvalid?.column)
      #expect(validator.firstInvalid?.byte == whole.firstInvalid?.byte)
      expectSameBytes(output, try UnicodeNormalizerTests.icu(form, text))
    }
  }
}
