/// How messages name a code point: `U+` and its value in upper-case hex,
/// at least four digits (`U+000A`, `U+AC00`, `U+1F600`, `U+10FFFF`), as the
/// Unicode Standard writes them.
///
///     var text: [UInt8] = []
///     CodePointNotation.append(0xAC00, to: &text)  // text == Array("U+AC00".utf8)
///     CodePointNotation.string(0x1F600)  // "U+1F600"
///
/// Written byte by byte: one `String(_:radix:)` per code point was a tenth of
/// `--rename`'s time. O(1) per code point.
enum CodePointNotation {
  /// Appends `U+` and the 4 to 6 upper-case hex digits of `value` (at most 0x10FFFF) to `bytes`.
  @inline(__always)
  static func append(_ value: UInt32, to bytes: inout [UInt8]) {
    assert(value <= 0x10_FFFF, "a code point")
    bytes.append(UInt8(ascii: "U"))
    bytes.append(UInt8(ascii: "+"))
    let digits = value < 0x1_0000 ? 4 : value < 0x10_0000 ? 5 : 6
    for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
      let nibble = UInt8(truncatingIfNeeded: value >> UInt32(shift)) & 0xF
      bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
    }
  }

  /// `U+XXXX` for one code point.
  static func string(_ value: UInt32) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(8)
    append(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `U+1112 U+1161 U+11AB`: each of `scalars`, separated by spaces.
  static func string<Scalars: Sequence<Unicode.Scalar>>(_ scalars: Scalars) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(scalars.underestimatedCount * 8)
    for scalar in scalars {
      if !bytes.isEmpty { bytes.append(UInt8(ascii: " ")) }
      append(scalar.value, to: &bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
