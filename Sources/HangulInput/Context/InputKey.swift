/// A key pressed on a Hangul keyboard, as ``HangulInputContext/process(_:)``
/// takes it: a key position, named by the ASCII character the key types on a
/// US QWERTY keyboard (`r`, `K`, `;`; a phone keypad's `1`–`9`, `*`, `0`,
/// `#`), or, on a keyboard whose keys carry compatibility-jamo labels (2-set,
/// the phone keypads), a label (ㄱ, ㅏ, 천지인's ㆍ U+318D).
///
///     let position: InputKey = "r"          // the key that types ㄱ on 2-set
///     let label: InputKey = "ㄱ"             // the same key, by its label
///     InputKey(ascii: UInt8(ascii: "r")) == position   // true
///
/// A key is a scalar value and nothing else, so that a filter makes one from
/// an input byte at no cost. Any scalar makes a key; one the keyboard has no
/// key for is a key it does not take (``HangulInputContext/process(_:)``
/// returns `false`).
public struct InputKey: Hashable, Sendable, ExpressibleByUnicodeScalarLiteral {
  /// The key's scalar value: below 0x80 a key position, otherwise a label.
  public let value: UInt32

  /// The key at an ASCII position (a byte of 0x80 or more is no key).
  @inlinable public init(ascii code: UInt8) {
    value = UInt32(code)
  }

  /// The key that `scalar` names: an ASCII character is a key position,
  /// anything else a label.
  @inlinable public init(_ scalar: Unicode.Scalar) {
    value = scalar.value
  }

  @inlinable public init(unicodeScalarLiteral scalar: Unicode.Scalar) {
    value = scalar.value
  }

  /// The ASCII position, or `nil` for a label.
  @inlinable public var ascii: UInt8? { value < 0x80 ? UInt8(value) : nil }

  /// The scalar the key names.
  public var scalar: Unicode.Scalar { Unicode.Scalar(value) ?? "\u{FFFD}" }
}
