/// A malformed JSON text, with the byte offset where it went wrong.
package struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Offset of the offending byte from the start of the parsed text.
  package var offset: Int
  package var message: String

  package var description: String { message }
}

/// A strict RFC 8259 parser with a nesting limit.
///
///     let value = try JSONParser.parse(Array(#"[1, "가", null]"#.utf8))
///     // .array([.number("1"), .string("가"), .null])
///
/// Parsing is O(n); recursion depth is bounded by `maximumDepth`, so hostile
/// nesting is a clear error, not a stack overflow.
package enum JSONParser {
  /// The default nesting limit.
  package static let defaultMaximumDepth = 512

  /// Parses exactly one JSON value (with optional surrounding whitespace).
  package static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth)
    throws(JSONSyntaxError) -> JSONValue
  {
    var reader = Reader(bytes: bytes, maximumDepth: maximumDepth)
    reader.skipWhitespace()
    let value = try reader.value(depth: 0)
    reader.skipWhitespace()
    guard reader.position == bytes.count else {
      throw reader.error("unexpected text after the value")
    }
    return value
  }

  struct Reader {
    let bytes: [UInt8]
    let maximumDepth: Int
    var position = 0

    init(bytes: [UInt8], maximumDepth: Int) {
      self.bytes = bytes
      self.maximumDepth = maximumDepth
    }

    func error(_ message: String) -> JSONSyntaxError {
      JSONSyntaxError(offset: position, message: message)
    }

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipWhitespace() {
      while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        position += 1
      }
    }

    mutating func expect(_ literal: StaticString) throws(JSONSyntaxError) {
      let count = literal.utf8CodeUnitCount
      let matches = literal.withUTF8Buffer { expected in
        position + count <= bytes.count
          && (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
      }
      guard matches else { throw error("invalid literal") }
      position += count
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      guard let byte = current else { throw error("unexpected end of input") }
      switch byte {
      case UInt8(ascii: "{"): return try object(depth: depth + 1)
      case UInt8(ascii: "["): return try array(depth: depth + 1)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"):
        try expect("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try expect("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try expect("null")
        return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
      default: throw error("unexpected character")
      }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
      position += 1
      var members: [JSONValue.Member] = []
      skipWhitespace()
      if current == UInt8(ascii: "}") {
        position += 1
        return .object(members)
      }
      while true {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
        let name = try string()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
        position += 1
        skipWhitespace()
        members.append(JSONValue.Member(name, try value(depth: depth)))
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","): position += 1
        case UInt8(ascii: "}"):
          position += 1
          return .object(members)
        default: throw error("expected ',' or '}'")
        }
      }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
      position += 1
      var elements: [JSONValue] = []
      skipWhitespace()
      if current == UInt8(ascii: "]") {
        position += 1
        return .array(elements)
      }
      while true {
        skipWhitespace()
        elements.append(try value(depth: depth))
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","): position += 1
        case UInt8(ascii: "]"):
          position += 1
          return .array(elements)
        default: throw error("expected ',' or ']'")
        }
      }
    }

    mutating func number() throws(JSONSyntaxError) -> String {
      let start = position
      if current == UInt8(ascii: "-") { position += 1 }
      guard let first = current, first >= 0x30, first <= 0x39 else { throw error("invalid number") }
      position += 1
      if first != 0x30 { skipDigits() }
      if current == UInt8(ascii: ".") {
        position += 1
        guard skipDigits() > 0 else { throw error("invalid number") }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        position += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
        guard skipDigits() > 0 else { throw error("invalid number") }
      }
      return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    @discardableResult
    mutating func skipDigits() -> Int {
      let start = position
      while let byte = current, byte >= 0x30, byte <= 0x39 { position += 1 }
      return position - start
    }

    mutating func string() throws(JSONSyntaxError) -> String {
      position += 1
      var scalars = String.UnicodeScalarView()
      while true {
        guard let byte = current else { throw error("unterminated string") }
        switch byte {
        case UInt8(ascii: "\""):
          position += 1
          return String(scalars)
        case UInt8(ascii: "\\"):
          position += 1
          scalars.append(try escape())
        case 0..<0x20:
          throw error("control character in a string")
        case 0..<0x80:
          scalars.append(Unicode.Scalar(byte))
          position += 1
        default:
          let step = bytes.withUnsafeBufferPointer { UTF8Stream.step($0, at: position) }
          guard case .scalar(let value, let length) = step, let scalar = Unicode.Scalar(value)
          else {
            throw error("invalid UTF-8 in a string")
          }
          scalars.append(scalar)
          position += length
        }
      }
    }

    mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
      guard let byte = current else { throw error("unterminated string") }
      position += 1
      switch byte {
      case UInt8(ascii: "\""): return "\""
      case UInt8(ascii: "\\"): return "\\"
      case UInt8(ascii: "/"): return "/"
      case UInt8(ascii: "b"): return "\u{8}"
      case UInt8(ascii: "f"): return "\u{C}"
      case UInt8(ascii: "n"): return "\n"
      case UInt8(ascii: "r"): return "\r"
      case UInt8(ascii: "t"): return "\t"
      case UInt8(ascii: "u"):
        let unit = try hexUnit()
        if (0xD800..<0xDC00).contains(unit) {
          guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
            bytes[position + 1] == UInt8(ascii: "u")
          else { throw error("lone surrogate in \\u escape") }
          position += 2
          let low = try hexUnit()
          guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate in \\u escape") }
          let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
          return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        guard let scalar = Unicode.Scalar(UInt32(unit)) else {
          throw error("lone surrogate in \\u escape")
        }
        return scalar
      default:
        position -= 1
        throw error("invalid escape")
      }
    }

    mutating func hexUnit() throws(JSONSyntaxError) -> UInt16 {
      guard position + 4 <= bytes.count else { throw error("invalid \\u escape") }
      var unit: UInt16 = 0
      for _ in 0..<4 {
        guard let digit = jsonHexDigit(bytes[position]) else {
          throw error("invalid \\u escape")
        }
        unit = unit << 4 | UInt16(digit)
        position += 1
      }
      return unit
    }
  }
}
