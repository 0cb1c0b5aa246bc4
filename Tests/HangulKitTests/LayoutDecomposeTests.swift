import Foundation
import HangulKit
import Testing

/// `hangul-decompose --to qwerty --keyboard K` and back through
/// `hangul-compose --keys qwerty --keyboard K`: byte for byte, for every
/// keyboard, on the sample texts and on random strings.
@Suite("Decomposition to the keys of every keyboard")
struct LayoutDecomposeTests {
  static let keyboards = ["2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn"]

  func decomposed(_ input: [UInt8], on keyboard: Keyboard) throws -> [UInt8] {
    if keyboard.hasJamoLabels {
      var filter = DecomposeFilter(form: .qwerty, keyboard: keyboard)
      return try filter.filtered(input)
    }
    var filter = LayoutDecomposeFilter(keyboard: keyboard)
    return try filter.filtered(input)
  }

  func composed(_ keys: [UInt8], on keyboard: Keyboard) throws -> [UInt8] {
    var filter = ComposeFilter(keys: .qwerty, keyboard: keyboard)
    return try filter.filtered(keys)
  }

  /// Random text: syllables, compatibility and conjoining jamo (modern and
  /// old), ASCII, control characters, the key-log controls, invalid bytes.
  static func randomText(seed: UInt64, count: Int) -> [UInt8] {
    var random = SeededGenerator(seed: seed)
    var bytes: [UInt8] = []
    let pieces: [[UInt8]] = [
      [0x08], [0x7F], [0x0A], [0x20], [0xFF], [0xE3, 0x84], Array("\u{200C}".utf8),
      Array("\u{2060}".utf8), Array("ᄀ".utf8), Array("ᅡ".utf8), Array("ᆨ".utf8),
      Array("ᄀᆞᇰ".utf8), Array("\u{115F}\u{1160}ᇮ".utf8), Array("é".utf8), Array("😀".utf8),
    ]
    for _ in 0..<count {
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5:
        bytes += Array(
          String(Unicode.Scalar(UInt32.random(in: 0xAC00...0xD7A3, using: &random)) ?? "가").utf8)
      case 5:
        bytes += Array(
          String(Unicode.Scalar(UInt32.random(in: 0x3131...0x3163, using: &random)) ?? "ㄱ").utf8)
      case 6, 7:
        bytes.append(UInt8.random(in: 0x20...0x7E, using: &random))
      default:
        bytes += pieces[Int.random(in: 0..<pieces.count, using: &random)]
      }
    }
    return bytes
  }

  @Test("random text round-trips", arguments: keyboards)
  func randomRoundTrip(id: String) throws {
    let keyboard = try Keyboard(id: id)
    for seed in 1...15 {
      let input = Self.randomText(seed: UInt64(seed), count: 200)
      let keys = try decomposed(input, on: keyboard)
      expectSameBytes(try composed(keys, on: keyboard), input)
    }
  }

  @Test("the sample texts round-trip", arguments: keyboards)
  func samplesRoundTrip(id: String) throws {
    let keyboard = try Keyboard(id: id)
    let samples = repositoryRoot.appendingPathComponent("samples")
    for name in ["qwerty-keys.expected.txt", "phone-review.expected.txt", "macos-nfd-names.txt"] {
      let input = Array(try Data(contentsOf: samples.appendingPathComponent(name)))
      let keys = try decomposed(input, on: keyboard)
      expectSameBytes(try composed(keys, on: keyboard), input)
    }
  }

  @Test("every syllable has keys on every keyboard", arguments: keyboards)
  func everySyllableTyped(id: String) throws {
    var decomposer = LayoutDecomposer(keyboard: try Keyboard(id: id))
    var untyped: [Unicode.Scalar] = []
    for value in UInt32(0xAC00)...0xD7A3 {
      let scalar = Unicode.Scalar(value) ?? "가"
      var out: [UInt8] = []
      decomposer.decompose(.scalar(scalar), into: &out)
      decomposer.finish()
      // Keys are ASCII; a syllable the keyboard cannot type is written as itself.
      if out.isEmpty || !out.allSatisfy({ $0 < 0x80 }) { untyped.append(scalar) }
    }
    #expect(
      untyped.isEmpty, "\(untyped.count) syllables typed as literal text: \(untyped.prefix(5))")
  }

  @Test("every syllable alone composes back from its romaja keys")
  func everySyllableRoundTripsOnRomaja() throws {
    let keyboard = try Keyboard(id: "ro")
    var decomposer = LayoutDecomposer(keyboard: keyboard)
    var failures: [String] = []
    for value in UInt32(0xAC00)...0xD7A3 {
      let scalar = Unicode.Scalar(value) ?? "가"
      var keys: [UInt8] = []
      decomposer.decompose(.scalar(scalar), into: &keys)
      decomposer.finish()
      let text = try composed(keys, on: keyboard)
      if !keys.allSatisfy({ $0 < 0x80 }) || text != Array(String(scalar).utf8) {
        failures.append("\(scalar) \(String(decoding: keys, as: UTF8.self))")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) syllables: \(failures.prefix(8))")
  }

  @Test(
    "romaja spells ㅒ ㅙ ㅢ as libhangul's romaja keyboard types them",
    arguments: [
      ("걔", "gyae"), ("괘", "gwae"), ("꽤", "ggwae"), ("쇄", "swae"), ("희", "heui"),
      ("쾌", "kwae"), ("과", "gwa"), ("괴", "goi"),
    ])
  func romajaSpelling(text: String, keys: String) throws {
    #expect(
      try decomposed(Array("\(text)\n".utf8), on: Keyboard(id: "ro")) == Array("\(keys)\n".utf8))
  }

  @Test("keys as a person types them on 3f and romaja")
  func readableKeys() throws {
    #expect(
      try decomposed(Array("안녕하세요\n".utf8), on: Keyboard(id: "3f")) == Array("jfsheamfncj4\n".utf8))
    // On romaja n g would make ㅇ (ng): the separator keeps them apart.
    #expect(
      try decomposed(Array("한글\n".utf8), on: Keyboard(id: "ro")) == Array("han\u{200C}geul\n".utf8))
  }
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()
