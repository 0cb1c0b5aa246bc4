extension JSONRecordSplitter {
  /// One byte outside strings, numbers and literals, in a valid stretch.
  mutating func structural(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    let byte = bytes[index]
    switch byte {
    case 0x20, 0x09, 0x0D:
      if current.isOpen { current.hasWhitespace = true }
      return
    case 0x0A:
      if current.isOpen { current.hasWhitespace = true }
      position.newline(at: index)
      return
    default:
      break
    }
    let state = stack.last?.state
    switch byte {
    case UInt8(ascii: "\""):
      if state == .nameOrEnd || state == .name {
        stack[stack.count - 1].state = .colon
        beginString(at: index, isName: true, in: bytes)
      } else if try beginValue(at: index, in: bytes, body) {
        if !current.isOpen, stack.count == 1, stack[0].role == .envelope, nameIsContentField {
          fail(
            "the envelope's own \(JSONWriter.quoted(contentField)) string is not imported: "
              + "its \(JSONWriter.quoted(recordsField)) was already read as records",
            at: index, in: bytes)
        }
        beginString(at: index, isName: false, in: bytes)
      }
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let isObject = byte == UInt8(ascii: "{")
      let holdsRecords = !isObject && (stack.isEmpty && !current.isOpen || isRecordsMember)
      if try beginValue(at: index, in: bytes, body) {
        var role = Role.plain
        if holdsRecords, current.isOpen, !decidesEnvelopesAtOnce {
          // It may yet be a record with a data array: read on as one until that is known.
          keepRecord(upTo: index, in: bytes)
          if !hasContentString {
            candidate.beginRecords(at: current.offset(index + 1), depth: stack.count + 1)
          }
        } else if holdsRecords {
          if current.isOpen {
            // The top-level object being read is an envelope: what came before is read past.
            current.isOpen = false
            current.buffer.discard()
            stack[0].role = .envelope
          }
          role = .records
        }
        stack.append(
          Frame(isObject: isObject, state: isObject ? .nameOrEnd : .valueOrEnd, role: role))
        if current.isOpen, stack.count - current.base > Self.maximumDepth {
          fail("nesting deeper than \(Self.maximumDepth)", at: index, in: bytes)
        }
        if stack.count == 1 {
          outerStart.line = position.line
          outerStart.column = position.column(at: index, in: bytes)
        }
      }
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      let isObject = byte == UInt8(ascii: "}")
      let closes =
        isObject
        ? state == .nameOrEnd || state == .commaOrEndObject
        : state == .valueOrEnd || state == .commaOrEndArray
      guard closes else {
        let after = state == .name || state == .element ? " after ','" : ""
        fail("unexpected \(Self.describe(bytes, at: index))\(after)", at: index, in: bytes)
        if current.isOpen {
          try lenient(at: index, in: bytes, body)
        } else if state == .name || state == .element, stack.last?.isObject == isObject {
          // A trailing comma: the container still ends here.
          stack.removeLast()
          try valueEnded(at: index + 1, in: bytes, body)
        } else if stack.isEmpty {
          // A closer with nothing open: the text it starts is skipped, one report for a run.
          skippingText = true
        }
        return
      }
      stack.removeLast()
      try valueEnded(at: index + 1, in: bytes, body)
    case UInt8(ascii: ","):
      if state == .commaOrEndObject {
        stack[stack.count - 1].state = .name
      } else if state == .commaOrEndArray {
        stack[stack.count - 1].state = .element
      } else {
        unexpected(at: index, in: bytes)
        if current.isOpen { try lenient(at: index, in: bytes, body) }
      }
    case UInt8(ascii: ":"):
      if state == .colon {
        stack[stack.count - 1].state = .value
      } else {
        unexpected(at: index, in: bytes)
        if current.isOpen { try lenient(at: index, in: bytes, body) }
      }
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      if try beginValue(at: index, in: bytes, body) {
        lexer.token = .number
        lexer.numberState = .minus
        _ = lexer.continueNumber(byte)
      }
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      if try beginValue(at: index, in: bytes, body) {
        lexer.token = .literal
        lexer.literal =
          byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
        lexer.literalPosition = 1
      }
    default:
      if stack.isEmpty, !current.isOpen, !position.lineHasContent {
        // A line of something else at the top level: a record that is not JSON, up to the line's end.
        startRecord(at: index, in: bytes)
        recovery.garbageRecord = true
        fail("unexpected \(Self.describe(bytes, at: index))", at: index, in: bytes)
      } else {
        unexpected(at: index, in: bytes)
        if current.isOpen { try lenient(at: index, in: bytes, body) }
      }
    }
    // After a record read again as an envelope, that reading's state stands.
    if restartIndex < 0 { position.lineHasContent = true }
  }

  /// Reports an unexpected character; at the top level, the text it starts is skipped.
  mutating func unexpected(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) {
    let place = stack.isEmpty && !current.isOpen ? " between values" : ""
    fail("unexpected \(Self.describe(bytes, at: index))\(place)", at: index, in: bytes)
    if stack.isEmpty, !current.isOpen { skippingText = true }
  }

  /// Whether the value about to start is the records member of a top-level object.
  var isRecordsMember: Bool {
    guard stack.count == 1, stack[0].isObject, stack[0].state == .value, !name.overflow else {
      return false
    }
    if !current.isOpen { return stack[0].role == .envelope && nameMatches }
    return current.base == 0 && recovery.problem == nil && nameMatches
  }

  var nameMatches: Bool { name.is(fields.recordsBytes, recordsField) }

  /// Whether the member name just read at the top level is the content field.
  var nameIsContentField: Bool { !name.overflow && name.is(fields.contentBytes, contentField) }

  /// records are, notes member positions. Returns whether to read the value.
  mutating func beginValue(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows -> Bool {
    if let frame = stack.last {
      switch frame.state {
      case .value:
        stack[stack.count - 1].state = .commaOrEndObject
      case .valueOrEnd, .element:
        stack[stack.count - 1].state = .commaOrEndArray
      case .commaOrEndArray where !current.isOpen:
        // A missing comma between records: report it, read the record.
        fail("missing ',' before \(Self.describe(bytes, at: index))", at: index, in: bytes)
      default:
        fail("unexpected \(Self.describe(bytes, at: index))", at: index, in: bytes)
        if current.isOpen { try lenient(at: index, in: bytes, body) }
        return false
      }
    }
    let startsRecord =
      stack.isEmpty ? bytes[index] != UInt8(ascii: "[") : stack[stack.count - 1].role == .records
    if !current.isOpen, startsRecord {
      startRecord(at: index, in: bytes)
    } else if current.isOpen, current.isObject, stack.count == current.base + 1 {
      current.memberValueStart = current.offset(index)
    }
    return true
  }

  /// A value ended just before `end`: the record, or a member of it, may be complete.
  mutating func valueEnded(
    at end: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void
  ) rethrows {
    guard current.isOpen else { return }
    if stack.count == current.base {
      try finishRecord(at: end, in: bytes, body)
    } else if current.isObject, stack.count == current.base + 1 {
      current.members.append(
        Member(name: current.memberName, value: current.memberValueStart..<current.offset(end)))
      if candidate.isOpen { candidate.memberEnded() }
    } else if stack.count == candidate.recordsDepth {
      candidate.elementEnded(at: current.offset(end))
    }
  }
}
