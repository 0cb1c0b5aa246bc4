/// Checks that bytes are exactly one JSON value, accepting what
/// ``JSONParser`` accepts (RFC 8259, strict UTF-8, no lone surrogate escape,
/// nesting up to ``JSONParser/defaultMaximumDepth``) without building it.
///
///     JSONValidator.isValid(Array(#"{"a":[1,"가"]}"#.utf8))  // true
///     JSONValidator.isValid(Array(#"{"a":01}"#.utf8))        // false
///
/// One pass, O(n); memory is the nesting depth. Used for the fast path of
/// table exports; a record it refuses goes through ``JSONParser`` for its message.
package enum JSONValidator {
  package static func isValid(
    _ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth
  ) -> Bool {
    bytes.withUnsafeBufferPointer { isValid($0, maximumDepth: maximumDepth) }
  }

  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Bool {
    var members: [(name: Range<Int>, value: Range<Int>)] = []
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(maximumDepth, 1)) {
      isValid(bytes, maximumDepth: maximumDepth, stack: $0, members: &members, collect: false)
    }
  }

  /// The index of the top-level members when `bytes` are valid JSON (an
  /// object, or no members for any other value), found in the same pass.
  package static func memberIndex(
    _ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth
  ) -> JSONMemberIndex? {
    var members: [(name: Range<Int>, value: Range<Int>)] = []
    let valid = bytes.withUnsafeBufferPointer { buffer in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(maximumDepth, 1)) {
        isValid(buffer, maximumDepth: maximumDepth, stack: $0, members: &members, collect: true)
      }
    }
    return valid ? JSONMemberIndex(members: members) : nil
  }

  /// `stack` holds the open containers, `{` or `[`; with `collect`, the
  /// members of a top-level object go to `members`.
  private static func isValid(
    _ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int,
    stack: UnsafeMutableBufferPointer<UInt8>,
    members: inout [(name: Range<Int>, value: Range<Int>)], collect: Bool
  ) -> Bool {
    var position = 0
    let count = bytes.count
    var depth = 0
    var name = 0..<0
    var scannedName = 0..<0
    var awaitingValue = false
    var valueStart = -1
    @inline(__always) func skipSpace() {
      while position < count {
        let byte = bytes[position]
        guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
        position += 1
      }
    }
    // Expecting a value here; afterwards, a separator or a closing bracket.
    while true {
      skipSpace()
      guard position < count else { return false }
      if awaitingValue, depth == 1 {
        valueStart = position
        awaitingValue = false
      }
      var byte = bytes[position]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard depth < maximumDepth else { return false }
        stack[depth] = byte
        depth += 1
        position += 1
        skipSpace()
        guard position < count else { return false }
        let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if bytes[position] == closing {
          depth -= 1
          position += 1
          break
        }
        if byte == UInt8(ascii: "{") {
          guard memberName(bytes, &position, &scannedName) else { return false }
          awaitingValue = collect && depth == 1
          if awaitingValue { name = scannedName }
        }
        continue
      case UInt8(ascii: "\""):
        guard string(bytes, &position) else { return false }
      case UInt8(ascii: "t"):
        guard literal(bytes, &position, "true") else { return false }
      case UInt8(ascii: "f"):
        guard literal(bytes, &position, "false") else { return false }
      case UInt8(ascii: "n"):
        guard literal(bytes, &position, "null") else { return false }
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard number(bytes, &position) else { return false }
      default:
        return false
      }
      // After a value: close containers or go to the next element.
      while true {
        if valueStart >= 0, depth == 1 {
          members.append((name, valueStart..<position))
          valueStart = -1
        }
        skipSpace()
        guard depth > 0 else { return position == count }
        let open = stack[depth - 1]
        guard position < count else { return false }
        byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: ",") {
          if open == UInt8(ascii: "{") {
            skipSpace()
            guard memberName(bytes, &position, &scannedName) else { return false }
            awaitingValue = collect && depth == 1
            if awaitingValue { name = scannedName }
          }
          break
        }
        let closing = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        guard byte == closing else { return false }
        depth -= 1
      }
    }
  }

  /// A member name and its colon.
  private static func memberName(
    _ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int, _ name: inout Range<Int>
  ) -> Bool {
    while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) {
      position += 1
    }
    let start = position
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\""),
      string(bytes, &position)
    else { return false }
    name = start..<position
    while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) {
      position += 1
    }
    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
    position += 1
    return true
  }

  private static func literal(
    _ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int, _ text: StaticString
  ) -> Bool {
    let length = text.utf8CodeUnitCount
    guard position + length <= bytes.count else { return false }
    let matches = text.withUTF8Buffer { expected in
      (0..<length).allSatisfy { bytes[position + $0] == expected[$0] }
    }
    position += length
    return matches
  }

  private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Bool {
    func digits() -> Int {
      let start = position
      while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
        position += 1
      }
      return position - start
    }
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 else {
      return false
    }
    if bytes[position] == 0x30 { position += 1 } else { _ = digits() }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard digits() > 0 else { return false }
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard digits() > 0 else { return false }
    }
    return true
  }

  /// A string token starting at its opening quote.
  private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Bool {
    position += 1
    let count = bytes.count
    while position < count {
      let byte = bytes[position]
      if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        position += 1
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        position += 1
        return true
      case UInt8(ascii: "\\"):
        guard position + 1 < count else { return false }
        let escape = bytes[position + 1]
        position += 2
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          continue
        case UInt8(ascii: "u"):
          guard let unit = hexUnit(bytes, &position) else { return false }
          if (0xD800..<0xDC00).contains(unit) {
            guard position + 1 < count, bytes[position] == UInt8(ascii: "\\"),
              bytes[position + 1] == UInt8(ascii: "u")
            else { return false }
            position += 2
            guard let low = hexUnit(bytes, &position), (0xDC00..<0xE000).contains(low) else {
              return false
            }
          } else if (0xDC00..<0xE000).contains(unit) {
            return false
          }
        default:
          return false
        }
      case 0..<0x20:
        return false
      case 0xE1...0xEC, 0xEE...0xEF:
        // Three-byte sequences without the special ranges of E0 and ED
        // (Hangul syllables among them): two continuation bytes.
        guard position + 2 < count, bytes[position + 1] & 0xC0 == 0x80,
          bytes[position + 2] & 0xC0 == 0x80
        else { return false }
        position += 3
      default:
        guard case .scalar(_, let length) = UTF8Stream.step(bytes, at: position) else {
          return false
        }
        position += length
      }
    }
    return false
  }

  private static func hexUnit(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int)
    -> UInt16?
  {
    guard position + 4 <= bytes.count else { return nil }
    var unit: UInt16 = 0
    for _ in 0..<4 {
      guard let digit = jsonHexDigit(bytes[position]) else { return nil }
      unit = unit << 4 | UInt16(digit)
      position += 1
    }
    return unit
  }
}
