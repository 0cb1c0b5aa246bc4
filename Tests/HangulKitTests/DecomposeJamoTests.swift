@testable import HangulKit
import Testing

/// Standalone compatibility jamo in the key forms (ㅋㅋㅋ, ㅠㅠ): the
/// separator before a jamo's keys comes from ``SeparatorTable`` and the fast
/// loop of ``DecomposeFilter`` writes it; both against the way it was
/// decided before, a fresh composer typing the keys of the unit before and
/// of the jamo for every jamo.
@Suite("Standalone jamo: the separator table against a composer run per jamo")
struct DecomposeJamoTests {
  /// Whether `jamo`'s keys after those of `previous` would not give
  /// `previous` and then `jamo`: a composer built and run for the pair.
  static func needsSeparatorByComposing(after previous: Unicode.Scalar, before jamo: Jamo)
    -> Bool
  {
    var composer = SyllableComposer(keyboard: .twoSet)
    for key in Decomposer.keys(of: previous) { _ = composer.press(key) }
    var committed: [Unicode.Scalar] = []
    for key in jamo.keys {
      if let done = composer.press(key) { committed.append(done) }
    }
    return !(committed == [previous] && composer.composing == jamo.scalar)
  }

  static func scalar(ofUnit unit: Int) -> Unicode.Scalar {
    unit < HangulSyllable.count
      ? HangulSyllable(index: unit).scalar : Jamo.all[unit - HangulSyllable.count].scalar
  }

  @Test("every jamo after every jamo, and after a sample of syllables")
  func tableAgreesWithComposer() {
    var table = SeparatorTable(keyboard: .twoSet)
    var generator = SeededGenerator(seed: 35)
    let jamoUnits = Array(HangulSyllable.count..<SeparatorTable.unitCount)
    let syllableUnits = (0..<400).map { _ in
      Int.random(in: 0..<HangulSyllable.count, using: &generator)
    }
    var separated = 0
    for unit in jamoUnits + syllableUnits + [0, HangulSyllable.count - 1] {
      let previous = Self.scalar(ofUnit: unit)
      #expect(SeparatorTable.unit(of: previous) == unit)
      for jamo in Jamo.all {
        let expected = Self.needsSeparatorByComposing(after: previous, before: jamo)
        let found = table.needsSeparator(after: unit, before: jamo)
        #expect(found == expected, "\(previous) \(jamo)")
        if expected { separated += 1 }
      }
    }
    // ㄱ then ㅅ would be ㄳ.
    let cluster = table.needsSeparator(after: SeparatorTable.unit(of: "ㄱ") ?? 0, before: Jamo("ㅅ")!)
    #expect(cluster)
    #expect(separated > 1000)
  }

  /// Jamo-heavy text: runs of jamo, jamo after syllables, and what stops the loop.
  static let pieces: [[UInt8]] =
    [
      "ㅋㅋㅋ", "ㅠㅠ", "ㄱ", "ㅅ", "ㄳ", "ㅏ", "ㅘ", "ㅗ", "ㅢ", "ㅎㅎ", "ㄹㄱ", "ㅇㅏ", "ㆍ", "ㅤ", "ㆎ",
      "가", "각", "갃", "닭", "와", " ", "\n", "a", "!", "\u{200C}", "\u{2060}", "\u{1100}", "\u{1161}",
      "\u{11A8}", "é", "😀", "\u{8}",
    ].map { Array($0.utf8) } + [[0xFF], [0xE3, 0x84]]

  @Test(
    "jamo-heavy text split anywhere: the filter writes what the decomposer writes unit by unit",
    arguments: [(DecompositionForm.keys, false), (.keys, true), (.qwerty, false), (.jamo, false)])
  func filterAgreesWithDecomposer(form: DecompositionForm, plain: Bool) {
    var generator = SeededGenerator(seed: 16)
    for _ in 0..<1_500 {
      var bytes: [UInt8] = []
      // Conjoining jamo and bytes that are not UTF-8 do not come back as they were.
      var roundTrips = true
      for _ in 0..<Int.random(in: 0...60, using: &generator) {
        let piece = Self.pieces.randomElement(using: &generator) ?? []
        if piece.first == 0xE1 || piece.first == 0xFF || piece == [0xE3, 0x84] {
          roundTrips = false
        }
        bytes += piece
      }
      let cuts = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
        Int.random(in: 0...bytes.count, using: &generator)
      }
      let expected = DecomposeFastPathTests.reference(bytes, form, plain: plain)
      let filtered = DecomposeFastPathTests.filtered(bytes, form, plain: plain, cuts: cuts)
      #expect(filtered == expected, "\(form) plain \(plain) \(bytes) cut at \(cuts)")
      guard !plain, form != .jamo, roundTrips else { continue }
      // Keys compose back to the text (the separators are where they must be).
      var compose = ComposeFilter(keys: form == .qwerty ? .qwerty : .jamo)
      let composed = (try? compose.filtered(filtered)) ?? []
      #expect(composed == bytes, "\(String(decoding: bytes, as: UTF8.self))")
    }
  }
}
