/// Reads values out of the raw bytes of a valid JSON text without building a
/// ``JSONValue``: finds a member by its path, decodes a string token to its
/// UTF-8 bytes, and compacts a nested value token for token.
///
///     let record = Array(#"{"user": {"userName": "a\"b"}, "n": 1.50}"#.utf8)
///     let range = JSONTokenText.valueRange(of: [Array("user".utf8), Array("userName".utf8)], in: record)
///     // record[range] == #""a\"b""#
///     var text: [UInt8] = []
///     JSONTokenText.appendDecodedString(record[range!], to: &text)  // a"b
///
/// Every function is O(n) in the bytes it is given. The input must be valid
/// JSON (check it with ``JSONParser`` first).
package enum JSONTokenText {
  /// The range of the value at `path` (member names, outermost first; the
  /// first member of each name), or nil when a member on the way is missing
  /// or a value on the way is not an object.
  package static func valueRange(of path: [[UInt8]], in bytes: [UInt8]) -> Range<Int>? {
    var range = 0..<bytes.count
    for name in path {
      guard let found = memberValueRange(named: name, in: bytes, within: range) else { return nil }
      range = found
    }
    return trimmed(range, in: bytes)
  }

  /// The value range of the first member called `name` of the object in `range`.
  static func memberValueRange(named name: [UInt8], in bytes: [UInt8], within range: Range<Int>)
    -> Range<Int>?
  {
    var result: Range<Int>?
    var decoded: [UInt8] = []
    forEachMember(in: bytes, within: range) { nameToken, valueRange in
      let inner = (nameToken.lowerBound + 1)..<(nameToken.upperBound - 1)
      let matches: Bool
      if bytes[inner].contains(UInt8(ascii: "\\")) {
        decoded.removeAll(keepingCapacity: true)
        appendDecodedString(bytes[nameToken], to: &decoded)
        matches = decoded == name
      } else {
        matches = bytes[inner].elementsEqual(name)
      }
      if matches { result = valueRange }
      return !matches
    }
    return result
  }

  /// Calls `body` with the name token and value range of each member of the
  /// object in `range` (nothing when it holds no object) until it returns false.
  static func forEachMember(
    in bytes: [UInt8], within range: Range<Int>, _ body: (Range<Int>, Range<Int>) -> Bool
  ) {
    var position = skipSpace(bytes, from: range.lowerBound, to: range.upperBound)
    guard position < range.upperBound, bytes[position] == UInt8(ascii: "{") else { return }
    position += 1
    while true {
      position = skipSpace(bytes, from: position, to: range.upperBound)
      guard position < range.upperBound, bytes[position] == UInt8(ascii: "\"") else { return }
      let nameEnd = Self.stringEnd(bytes, from: position, to: range.upperBound)
      let nameToken = position..<nameEnd
      position = skipSpace(bytes, from: nameEnd, to: range.upperBound)
      guard position < range.upperBound, bytes[position] == UInt8(ascii: ":") else { return }
      position = skipSpace(bytes, from: position + 1, to: range.upperBound)
      let valueEnd = Self.valueEnd(bytes, from: position, to: range.upperBound)
      guard body(nameToken, position..<valueEnd) else { return }
      position = skipSpace(bytes, from: valueEnd, to: range.upperBound)
      guard position < range.upperBound, bytes[position] == UInt8(ascii: ",") else { return }
      position += 1
    }
  }

  /// Appends the text of a string token (quotes included in `token`) as UTF-8.
  package static func appendDecodedString(_ token: ArraySlice<UInt8>, to output: inout [UInt8]) {
    token.withUnsafeBufferPointer { appendDecodedString($0, to: &output) }
  }

  /// Appends the text of a string token (quotes included in `token`) as UTF-8;
  /// the runs between escapes are found eight bytes at a time and copied whole.
  static func appendDecodedString(_ token: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    let end = token.count - 1
    guard end > 0 else { return }
    let backslash = ByteSearch.Needles(UInt8(ascii: "\\"))
    let body = UnsafeBufferPointer(rebasing: token[..<end])
    var runStart = 1
    while true {
      let position = ByteSearch.firstIndex(in: body, from: runStart, of: backslash)
      output.append(contentsOf: UnsafeBufferPointer(rebasing: body[runStart..<position]))
      guard position < end else { return }
      let escape = token[position + 1]
      var next = position + 2
      switch escape {
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "u"):
        var value = UInt32(hexUnit(token, at: next))
        next += 4
        if (0xD800..<0xDC00).contains(value), next + 6 <= end,
          token[next] == UInt8(ascii: "\\"), token[next + 1] == UInt8(ascii: "u")
        {
          let low = UInt32(hexUnit(token, at: next + 2))
          value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
          next += 6
        }
        appendUTF8(value, to: &output)
      default: output.append(escape)
      }
      runStart = next
    }
  }

  /// Appends a value token with the whitespace between its tokens removed;
  /// strings, escapes and number spellings stay as they are.
  package static func appendCompacted(_ token: ArraySlice<UInt8>, to output: inout [UInt8]) {
    var position = token.startIndex
    var runStart = position
    var inString = false
    while position < token.endIndex {
      let byte = token[position]
      if inString {
        if byte == UInt8(ascii: "\\") {
          position += 2
          continue
        }
        if byte == UInt8(ascii: "\"") { inString = false }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        output.append(contentsOf: token[runStart..<position])
        runStart = position + 1
      }
      position += 1
    }
    output.append(contentsOf: token[runStart..<token.endIndex])
  }

  /// The index just past the string token that starts at `start`.
  static func stringEnd(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      var position = start + 1
      while position < end {
        let byte = buffer[position]
        if byte == UInt8(ascii: "\\") {
          position += 2
        } else if byte == UInt8(ascii: "\"") {
          return position + 1
        } else {
          position += 1
        }
      }
      return end
    }
  }

  /// The index just past the value (string, number, literal, object, array) that starts at `start`.
  static func valueEnd(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
    guard start < end else { return start }
    let first = bytes[start]
    if first == UInt8(ascii: "\"") { return stringEnd(bytes, from: start, to: end) }
    if first != UInt8(ascii: "{"), first != UInt8(ascii: "[") {
      var position = start
      while position < end {
        switch bytes[position] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
          return position
        default: position += 1
        }
      }
      return end
    }
    return bytes.withUnsafeBufferPointer { buffer in
      var depth = 0
      var position = start
      var inString = false
      while position < end {
        let byte = buffer[position]
        position += 1
        if inString {
          if byte == UInt8(ascii: "\\") {
            position += 1
          } else if byte == UInt8(ascii: "\"") {
            inString = false
          }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return position }
        default: break
        }
      }
      return end
    }
  }

  private static func hexUnit(_ token: UnsafeBufferPointer<UInt8>, at position: Int) -> UInt16 {
    var unit: UInt16 = 0
    for offset in 0..<4 {
      // The token was validated: every digit is a hex digit.
      unit = unit << 4 | UInt16(jsonHexDigit(token[position + offset]) ?? 0)
    }
    return unit
  }

  private static func appendUTF8(_ value: UInt32, to output: inout [UInt8]) {
    switch value {
    case 0..<0x80:
      output.append(UInt8(value))
    case 0x80..<0x800:
      output.append(UInt8(0xC0 | value >> 6))
      output.append(UInt8(0x80 | value & 0x3F))
    case 0x800..<0x10000:
      output.append(UInt8(0xE0 | value >> 12))
      output.append(UInt8(0x80 | value >> 6 & 0x3F))
      output.append(UInt8(0x80 | value & 0x3F))
    default:
      output.append(UInt8(0xF0 | value >> 18))
      output.append(UInt8(0x80 | value >> 12 & 0x3F))
      output.append(UInt8(0x80 | value >> 6 & 0x3F))
      output.append(UInt8(0x80 | value & 0x3F))
    }
  }

  private static func skipSpace(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
    var position = start
    while position < end {
      let byte = bytes[position]
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
      position += 1
    }
    return position
  }

  private static func trimmed(_ range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
    var lower = skipSpace(bytes, from: range.lowerBound, to: range.upperBound)
    var upper = range.upperBound
    while upper > lower, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[upper - 1]) { upper -= 1 }
    if lower > upper { lower = upper }
    return lower..<upper
  }
}
