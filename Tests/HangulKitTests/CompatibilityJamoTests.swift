import Foundation
import HangulKit
import Testing

/// `--to jamo` and `--to initials` against Unicode's own table: every
/// compatibility jamo U+3131–U+318E has a `<compat>` decomposition to one
/// conjoining jamo in UnicodeData.txt (Debian `unicode-data`), and that
/// conjoining jamo must come out as the compatibility jamo, old Hangul
/// included (ᆞ U+119E → ㆍ U+318D).
@Suite("Conjoining jamo to compatibility jamo, against UnicodeData.txt")
struct CompatibilityJamoTests {
  static let unicodeData = "/usr/share/unicode/UnicodeData.txt"

  /// Each compatibility jamo's conjoining jamo, from UnicodeData.txt.
  static func compatibilityDecompositions() throws -> [(compatibility: UInt32, conjoining: UInt32)]
  {
    let text = try String(contentsOfFile: unicodeData, encoding: .utf8)
    var pairs: [(UInt32, UInt32)] = []
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: ";", omittingEmptySubsequences: false)
      guard fields.count > 5, let code = UInt32(fields[0], radix: 16),
        (0x3131...0x318E).contains(code)
      else { continue }
      let mapping = fields[5].split(separator: " ")
      guard mapping.count == 2, mapping[0] == "<compat>", let target = UInt32(mapping[1], radix: 16)
      else { continue }
      pairs.append((code, target))
    }
    return pairs
  }

  @Test(
    "every <compat> mapping of U+3131–U+318E, inverted, is what --to jamo and --to initials write",
    .enabled(if: FileManager.default.fileExists(atPath: unicodeData)))
  func agreesWithUnicodeData() throws {
    let pairs = try Self.compatibilityDecompositions()
    // 94 compatibility jamo: 51 modern and 43 old, the filler U+3164 included.
    #expect(pairs.count == 94)
    for (compatibility, conjoining) in pairs {
      let input = String(Unicode.Scalar(conjoining) ?? "?")
      let expected = String(Unicode.Scalar(compatibility) ?? "?")
      var filter = DecomposeFilter(form: .jamo)
      let jamo = String(decoding: try filter.filtered(Array(input.utf8)), as: UTF8.self)
      #expect(jamo == expected, "U+\(String(conjoining, radix: 16, uppercase: true)) --to jamo")
      guard (0x1100...0x115E).contains(conjoining) || (0xA960...0xA97C).contains(conjoining)
      else { continue }
      var initials = DecomposeFilter(form: .initials)
      let initial = String(decoding: try initials.filtered(Array(input.utf8)), as: UTF8.self)
      #expect(
        initial == expected, "U+\(String(conjoining, radix: 16, uppercase: true)) --to initials")
    }
  }

  @Test("old Hangul written as conjoining jamo: the issue's example")
  func oldHangul() throws {
    var filter = DecomposeFilter(form: .jamo)
    let output = try filter.filtered(Array("ᄒᆞᆫ글\n".utf8))
    #expect(String(decoding: output, as: UTF8.self) == "ㅎㆍㄴㄱㅡㄹ\n")
    var initials = DecomposeFilter(form: .initials)
    let first = try initials.filtered(Array("\u{1140}\u{119E}\u{11EB} ᄒᆞᆫ\n".utf8))
    #expect(String(decoding: first, as: UTF8.self) == "ㅿ ㅎ\n")
  }
}

/// `--plain` key forms read NFD syllables (macOS file names) as syllables.
@Suite("Plain keys of NFD text")
struct PlainNFDKeysTests {
  static func plainKeys(_ text: String, _ form: DecompositionForm, cuts: [Int] = []) throws
    -> String
  {
    let bytes = Array(text.utf8)
    var filter = DecomposeFilter(form: form, plain: true)
    var output: [UInt8] = []
    var start = 0
    for cut in cuts + [bytes.count] {
      Array(bytes[start..<cut]).withUnsafeBufferPointer { filter.process($0, into: &output) }
      start = cut
    }
    filter.finish(into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  @Test(
    "every syllable in NFD gets the keys of its NFC form, alone and on one line",
    arguments: [DecompositionForm.keys, .qwerty])
  func everySyllable(form: DecompositionForm) throws {
    let syllables = HangulSyllable.all.map { String($0.scalar) }
    let nfd = syllables.map { $0.decomposed(to: .nfd) }
    #expect(nfd[0].unicodeScalars.count == 2)
    for (nfc, decomposed) in zip(syllables, nfd) {
      #expect(try Self.plainKeys(decomposed, form) == Self.plainKeys(nfc, form), "\(nfc)")
    }
    let line = try Self.plainKeys(nfd.joined(separator: " "), form)
    #expect(line == (try Self.plainKeys(syllables.joined(separator: " "), form)))
  }

  @Test(
    "NFD next to other text, split anywhere; old Hangul and lone jamo as they are",
    arguments: [
      (
        "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}.txt", DecompositionForm.qwerty,
        "gksrmf.txt"
      ),
      ("\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}", .keys, "ㅎㅏㄴㄱㅡㄹ"),
      ("\u{1100}\u{1161}\u{1100}\u{1161}", .qwerty, "rkrk"), ("가\u{11A8}", .qwerty, "rkr"),
      ("\u{1100}\u{1161}\u{11A8}\u{11A8}", .keys, "ㄱㅏㄱ\u{11A8}"),
      ("ᄒᆞᆫ글", .qwerty, "ᄒᆞᆫrmf"), ("\u{1100}\u{1161}\u{11EB}", .qwerty, "\u{1100}\u{1161}\u{11EB}"),
      ("\u{1100}", .qwerty, "\u{1100}"), ("\u{1100} \u{1161}", .keys, "\u{1100} \u{1161}"),
      ("\u{1100}\u{1161}\n", .keys, "ㄱㅏ\n"), ("a\u{1100}\u{1161}", .qwerty, "ark"),
    ])
  func mixed(text: String, form: DecompositionForm, expected: String) throws {
    for cut in 0...text.utf8.count {
      #expect(try Self.plainKeys(text, form, cuts: [cut]) == expected, "cut at \(cut)")
    }
    #expect(text.decomposed(to: form, plain: true) == expected)
  }
}
