import Testing

@testable import HangulKit

@Suite("U+XXXX notation")
struct CodePointNotationTests {
  /// The notation as the standard library spells the number, padded to four digits.
  static func expected(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  @Test(
    "every digit count, and a spread of values up to U+10FFFF",
    arguments: [
      0, 0x9, 0xA, 0xF, 0x10, 0xFF, 0x1100, 0xAC00, 0xFFFF, 0x1_0000, 0xF_FFFF, 0x10_0000,
    ]
      + Array(stride(from: UInt32(0), through: 0x10_FFFF, by: 4093)) + [0x10_FFFF])
  func matchesTheRadixSpelling(value: UInt32) {
    var bytes: [UInt8] = [UInt8(ascii: "x")]
    CodePointNotation.append(value, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "x" + Self.expected(value))
    #expect(CodePointNotation.string(value) == Self.expected(value))
  }

  @Test("a list of scalars is separated by single spaces")
  func list() {
    #expect(CodePointNotation.string("한😀\n".unicodeScalars) == "U+D55C U+1F600 U+000A")
    #expect(CodePointNotation.string("".unicodeScalars) == "")
  }
}
