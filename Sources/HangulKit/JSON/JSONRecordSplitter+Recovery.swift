extension JSONRecordSplitter {
  // MARK: - Broken records

  /// One byte of a record that already has a syntax error: strings and bracket kinds are
  /// followed so that the record ends where it most likely does.
  mutating func lenient(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    let byte = bytes[index]
    if recovery.onlyNULsSinceProblem, byte != 0 { recovery.onlyNULsSinceProblem = false }
    if recovery.garbageRecord {
      if byte == 0x0A {
        try finishRecord(at: index, in: bytes, body)
        position.newline(at: index)
      }
      return
    }
    if lexer.token == .string {
      // The string that held the error: it ends at its quote or at the line's end.
      lexer.token = .none
      recovery.lenientString = true
      recovery.lenientEscape = lexer.escape == 1
    } else if lexer.token != .none {
      lexer.token = .none
    }
    if recovery.lenientString {
      if byte == 0x0A {
        recovery.lenientString = false
        position.newline(at: index)
      } else if recovery.lenientEscape {
        recovery.lenientEscape = false
      } else if byte == UInt8(ascii: "\\") {
        recovery.lenientEscape = true
      } else if byte == UInt8(ascii: "\"") {
        recovery.lenientString = false
      }
      return
    }
    switch byte {
    case 0x0A:
      position.newline(at: index)
      return
    case 0x20, 0x09, 0x0D:
      return
    default:
      break
    }
    if recovery.pendingCloser >= 0 {
      let closesRecordFrame =
        (byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")) && stack.count > current.base
        && stack[stack.count - 1].isObject == (byte == UInt8(ascii: "}"))
      if closesRecordFrame {
        // The record's own closer follows: the other one was stray.
        recovery.pendingCloser = -1
      } else {
        // The closer ended the record and closes what is around it.
        try closeAroundRecord(at: index, in: bytes, body)
        try structural(at: index, in: bytes, body)
        return
      }
    }
    switch byte {
    case UInt8(ascii: "\""):
      recovery.lenientString = true
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      if !position.lineHasContent, position.column(at: index, in: bytes) <= current.column {
        // A value that starts a line no further right than the broken record
        // (which may have begun after another value on its line): the next record.
        try finishRecord(at: index, in: bytes, body)
        // Read again as an envelope: that reading takes this byte too.
        if restartIndex >= 0 { return }
        if let frame = stack.last, frame.role == .records {
          stack[stack.count - 1].state = .element
        }
        try structural(at: index, in: bytes, body)
        return
      }
      if stack.count - current.base > Self.maximumDepth {
        // Deeper than any record may be: counted, so that memory stays bounded.
        recovery.excessDepth += 1
      } else {
        stack.append(
          Frame(isObject: byte == UInt8(ascii: "{"), state: .commaOrEndObject, role: .plain))
      }
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      if recovery.excessDepth > 0 {
        recovery.excessDepth -= 1
        break
      }
      let isObject = byte == UInt8(ascii: "}")
      guard let match = stack.lastIndex(where: { $0.isObject == isObject }) else { break }
      if match >= current.base {
        stack.removeLast(stack.count - match)
        if stack.count == current.base { try finishRecord(at: index + 1, in: bytes, body) }
      } else {
        // It closes an array or envelope around the record, or it is stray: the next character says.
        recovery.pendingCloser = current.offset(index)
        recovery.pendingCloserMatch = match
      }
    default:
      break
    }
    position.lineHasContent = true
  }

  /// Ends the broken record before its pending closer, which closes the frames around it.
  mutating func closeAroundRecord(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    let match = recovery.pendingCloserMatch
    try finishRecord(at: index, in: bytes, cutAt: recovery.pendingCloser, body)
    recovery.pendingCloser = -1
    stack.removeLast(stack.count - match)
  }
}
