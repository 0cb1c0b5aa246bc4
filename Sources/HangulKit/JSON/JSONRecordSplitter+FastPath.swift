extension JSONRecordSplitter {
  /// The bytes of valid JSON that make up most of a record, taken without
  /// ``structural(at:in:_:)`` (which may end a record and so carries the
  /// record handler): whitespace, and inside a record's nesting every
  /// punctuation (with the spaces after it), a whole string, number or
  /// literal (or its start, when the chunk ends first), and a nested object
  /// or array opening or closing. Returns the index to go on from, or
  /// `index` to leave the byte to ``structural(at:in:_:)``, having changed nothing.
  @inline(__always)
  mutating func quickStructural(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let byte = bytes[index]
    switch byte {
    case 0x20, 0x09, 0x0D:
      if current.isOpen { current.hasWhitespace = true }
      return index + 1
    case 0x0A:
      if current.isOpen { current.hasWhitespace = true }
      position.newline(at: index)
      return index + 1
    default:
      break
    }
    guard current.isOpen, stack.count > current.base else { return index }
    let state = stack.innermost.state
    let isValuePlace = state == .value || state == .valueOrEnd || state == .element
    switch byte {
    case UInt8(ascii: "\""):
      if state == .nameOrEnd || state == .name {
        stack.innermost.state = .colon
        beginString(at: index, isName: true, in: bytes)
      } else if isValuePlace {
        startValue(at: index, state: state)
        beginString(at: index, isName: false, in: bytes)
      } else {
        return index
      }
      position.lineHasContent = true
      let next = scanString(from: index + 1, in: bytes)
      if lexer.pendingStringEnd >= 0 {
        // A string value inside the record: it ends no record.
        let end = lexer.pendingStringEnd
        lexer.pendingStringEnd = -1
        _ = valueEndedInsideRecord(at: end)
      }
      return next
    case UInt8(ascii: ":"):
      guard state == .colon else { return index }
      stack.innermost.state = .value
      position.lineHasContent = true
      return skipSpaces(after: index, in: bytes)
    case UInt8(ascii: ","):
      if state == .commaOrEndObject {
        stack.innermost.state = .name
      } else if state == .commaOrEndArray {
        stack.innermost.state = .element
      } else {
        return index
      }
      position.lineHasContent = true
      return skipSpaces(after: index, in: bytes)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      guard isValuePlace else { return index }
      position.lineHasContent = true
      startValue(at: index, state: state)
      lexer.token = .number
      lexer.numberState = .minus
      _ = lexer.continueNumber(byte)
      var next = index + 1
      while next < bytes.count, lexer.continueNumber(bytes[next]) { next += 1 }
      if next < bytes.count, lexer.numberState.isComplete {
        lexer.token = .none
        _ = valueEndedInsideRecord(at: next)
      }
      return next
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      guard isValuePlace else { return index }
      position.lineHasContent = true
      startValue(at: index, state: state)
      lexer.token = .literal
      lexer.literal =
        byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
      lexer.literalPosition = 1
      let length = lexer.literal.utf8CodeUnitCount
      guard index + length <= bytes.count else { return index + 1 }
      let whole = lexer.literal.withUTF8Buffer { expected in
        (1..<length).allSatisfy { bytes[index + $0] == expected[$0] }
      }
      guard whole else { return index + 1 }
      lexer.token = .none
      _ = valueEndedInsideRecord(at: index + length)
      return index + length
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      // An array that may hold an envelope's records, and nesting too deep, take the long way.
      guard isValuePlace, stack.count - current.base < Self.maximumDepth,
        byte == UInt8(ascii: "{") || stack.count != 1
      else { return index }
      position.lineHasContent = true
      startValue(at: index, state: state)
      let isObject = byte == UInt8(ascii: "{")
      stack.append(
        Frame(isObject: isObject, state: isObject ? .nameOrEnd : .valueOrEnd, role: .plain))
      return index + 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      // The record's own closer ends the record: the long way.
      guard stack.count > current.base + 1 else { return index }
      let closes =
        byte == UInt8(ascii: "}")
        ? state == .nameOrEnd || state == .commaOrEndObject
        : state == .valueOrEnd || state == .commaOrEndArray
      guard closes else { return index }
      position.lineHasContent = true
      stack.removeLast()
      _ = valueEndedInsideRecord(at: index + 1)
      return index + 1
    default:
      return index
    }
  }

  /// The index after `index` and the spaces, tabs and carriage returns that follow it.
  @inline(__always)
  mutating func skipSpaces(after index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var next = index + 1
    while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 || bytes[next] == 0x0D {
      next += 1
    }
    if next > index + 1 { current.hasWhitespace = true }
    return next
  }

  /// A value starts inside a record where one may (`state` says so): the
  /// frame moves on and a member's value start is noted.
  @inline(__always)
  mutating func startValue(at index: Int, state: State) {
    stack.innermost.state = state == .value ? .commaOrEndObject : .commaOrEndArray
    if current.isObject, stack.count == current.base + 1 {
      current.memberValueStart = current.offset(index)
    }
  }

  /// A value ended just before `end` inside a record's nesting (or outside
  /// any record): notes a top-level member. Returns false when the value is
  /// the record itself, which ``valueEnded(at:in:_:)`` must end.
  @inline(__always)
  mutating func valueEndedInsideRecord(at end: Int) -> Bool {
    guard current.isOpen else { return true }
    if stack.count == current.base { return false }
    if current.isObject, stack.count == current.base + 1 {
      current.members.append(
        Member(name: current.memberName, value: current.memberValueStart..<current.offset(end)))
      if candidate.isOpen { candidate.memberEnded() }
    } else if stack.count == candidate.recordsDepth {
      candidate.elementEnded(at: current.offset(end))
    }
    return true
  }
}
