extension JSONRecordSplitter {
  // MARK: - Strings

  mutating func beginString(
    at index: Int, isName: Bool, in bytes: UnsafeBufferPointer<UInt8>
  ) {
    lexer.beginString(isName: isName)
    if isName {
      if stack.count == 1 { name.begin(at: index + 1) }
      if current.isOpen, current.isObject, stack.count == current.base + 1 {
        current.memberName = current.offset(index)..<current.offset(index)
      }
    }
  }

  /// Reads string bytes from `start`; returns the index to go on from.
  mutating func scanString(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var index = start
    let count = bytes.count
    while index < count {
      if lexer.utf8Needed == 0, lexer.escape == 0, !lexer.highSurrogatePending {
        index = TokenState.skipPlainText(bytes, from: index)
        guard index < count else { break }
      }
      let byte = bytes[index]
      if lexer.utf8Needed > 0 {
        guard byte >= lexer.utf8Low, byte <= lexer.utf8High else {
          return stringFailure(
            "invalid UTF-8: \(Self.describe(bytes, at: index)) where a continuation byte belongs",
            at: index, in: bytes, reread: true)
        }
        lexer.utf8Needed -= 1
        lexer.utf8Low = 0x80
        lexer.utf8High = 0xBF
        index += 1
        continue
      }
      if lexer.escape > 0 {
        if let message = lexer.escapeProblem(byte, at: index, in: bytes) {
          return stringFailure(message, at: index, in: bytes, reread: byte == UInt8(ascii: "\""))
        }
        index += 1
        continue
      }
      // The common case: plain ASCII and whole UTF-8 sequences.
      if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        if lexer.highSurrogatePending {
          return stringFailure(
            "a lone surrogate in a \\u escape", at: index, in: bytes, reread: true)
        }
        index += 1
        while index < count {
          let next = bytes[index]
          guard next >= 0x20, next < 0x80, next != UInt8(ascii: "\""), next != UInt8(ascii: "\\")
          else { break }
          index += 1
        }
        continue
      }
      if byte >= 0x80 {
        if lexer.highSurrogatePending {
          return stringFailure(
            "a lone surrogate in a \\u escape", at: index, in: bytes, reread: true)
        }
        // Whole three-byte sequences (Hangul) without the state machine.
        if byte & 0xF0 == 0xE0, index + 2 < count {
          let second = bytes[index + 1]
          let third = bytes[index + 2]
          let low: UInt8 = byte == 0xE0 ? 0xA0 : 0x80
          let high: UInt8 = byte == 0xED ? 0x9F : 0xBF
          if second >= low, second <= high, third & 0xC0 == 0x80 {
            index += 3
            continue
          }
        }
        guard let lead = UTF8Lead(byte) else {
          return stringFailure(
            "invalid UTF-8: \(Self.describe(bytes, at: index))", at: index, in: bytes)
        }
        lexer.utf8Needed = lead.following
        lexer.utf8Low = lead.secondLow
        lexer.utf8High = lead.secondHigh
        index += 1
        continue
      }
      if byte == UInt8(ascii: "\\") {
        lexer.escape = 1
        index += 1
        continue
      }
      if lexer.highSurrogatePending {
        return stringFailure("a lone surrogate in a \\u escape", at: index, in: bytes, reread: true)
      }
      if byte == UInt8(ascii: "\"") {
        lexer.token = .none
        if lexer.stringIsName {
          if stack.count == 1, name.start >= 0 {
            name.append(UnsafeBufferPointer(rebasing: bytes[name.start..<index]))
            name.start = -1
          }
          if current.isOpen, current.isObject, stack.count == current.base + 1 {
            current.memberName = current.memberName.lowerBound..<current.offset(index + 1)
          }
        } else {
          lexer.pendingStringEnd = index + 1
        }
        return index + 1
      }
      // A control character.
      let what = byte == 0x0A ? "a line break" : Self.describe(bytes, at: index)
      return stringFailure("\(what) inside a string (escape it)", at: index, in: bytes)
    }
    return index
  }

  /// A string error at `index`: in a record, the broken-record reading takes
  /// over from that byte; elsewhere it is reported and the string goes on.
  /// Returns the index to go on from.
  mutating func stringFailure(
    _ message: String, at index: Int, in bytes: UnsafeBufferPointer<UInt8>, reread: Bool = false
  ) -> Int {
    fail(message, at: index, in: bytes)
    if current.isOpen { return index }
    lexer.resetStringChecks()
    if reread { return index }
    if bytes[index] == 0x0A { position.newline(at: index) }
    return index + 1
  }
}
