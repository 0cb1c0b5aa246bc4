import Testing

@testable import HangulKit

/// The table of what ICU says about each code point, kept for the next
/// table of the same form when its owner is gone.
struct NormalizationPropertiesTests {
  @Test("a table kept for reuse answers for its own form only", arguments: 0..<3)
  func reusedTablesKeepTheirForm(round: Int) throws {
    // Alternating forms, so that each new table could be handed the other
    // form's: é (U+00E9) is in NFC alone but decomposes in NFD, and ﬁ
    // (U+FB01) is in NFD alone but changes in NFKD.
    for _ in 0..<4 {
      for form in ICUNormalizer.Form.allCases {
        let properties = try NormalizationProperties(form)
        let eAcute = properties.flags(of: 0xE9) & NormalizationProperties.stable != 0
        let ligature = properties.flags(of: 0xFB01) & NormalizationProperties.stable != 0
        #expect(eAcute == (form == .nfc || form == .nfkc), "é in \(form), round \(round)")
        #expect(ligature == (form == .nfc || form == .nfd), "ﬁ in \(form), round \(round)")
        #expect(properties.flags(of: 0x61) & NormalizationProperties.stable != 0, "a in \(form)")
      }
    }
  }
}
