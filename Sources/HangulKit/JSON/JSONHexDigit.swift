/// The value of a hexadecimal digit of a JSON `\u` escape, shared by every
/// JSON reader of the project (parser, validator, splitter, string normalizer).
///
///     jsonHexDigit(UInt8(ascii: "b"))  // 11
///     jsonHexDigit(UInt8(ascii: "g"))  // nil
///
/// O(1).
@inline(__always)
func jsonHexDigit(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - 0x30
  case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - 0x61 + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - 0x41 + 10
  default: nil
  }
}
