/// Reads the lines of an event log (``EventLogFilter``) as they stream in,
/// a byte at a time, and keeps of each line only what its event can use:
/// the first `"key"`, `"code"`, `"text"`, `"t"`, `"doc"` and `"shiftKey"`
/// members of its object (and those of a browser's event: `"type"`,
/// `"timeStamp"`, `"time"`, `"data"`, `"inputType"`, `"keyCode"`,
/// `"ctrlKey"`, `"metaKey"`), each up to ``limit`` bytes, and of a container
/// only its kind. Everything else is checked as RFC 8259 JSON (what
/// ``JSONParser`` accepts, nesting up to ``JSONParser/defaultMaximumDepth``)
/// and dropped. A line that cannot be an event is rejected as soon as that is
/// clear (a first byte that does not open an object, a syntax error, a kept
/// value past the limit), and the rest of it is skipped unread.
///
///     var reader = EventLineReader(limit: 1 << 20)
///     let line = Array(#"{"key":"ㄱ","extra":[1,2]}"#.utf8) + [0x0A]
///     let (next, ended) = line.withUnsafeBufferPointer { reader.read($0, from: 0) }
///     // next == line.count, ended == true
///     reader.takeLine()   // .event(members: [key "ㄱ"], column: 1)
///
/// Time O(n); memory: the kept members, the nesting stack and nothing per
/// byte of the line.
struct EventLineReader {
  /// A member of a line's object that an event may use, as far as it is kept.
  struct Member: Equatable {
    var name: String
    /// Its value; a container is kept empty (only its kind counts).
    var value: JSONValue
    /// The column (in characters) where the value starts.
    var column: Int
    /// The value's line, counted from the event's first (0: that line).
    var line = 0
  }

  /// What a line turned out to be.
  enum Line: Equatable {
    /// Spaces, tabs and carriage returns only.
    case blank
    /// An object, with its members an event may use and the column of its `{`.
    case event(members: [Member], column: Int)
    /// Not an event: a ``Rejection`` said why.
    case rejected
  }

  /// Why a line is not an event, and the column (in characters) of the place.
  struct Rejection: Equatable {
    var message: String
    var column: Int
    /// The line of the place, counted from the event's first (0: that line).
    var line = 0
  }

  /// The names of the members an event uses.
  static let usedNames: [[UInt8]] = [
    "key", "code", "text", "t", "doc", "shiftKey",
    // The members of a browser's event (SPEC 3.6), from browserNamesStart.
    "type", "timeStamp", "time", "data", "inputType", "keyCode", "ctrlKey", "metaKey",
  ].map { Array($0.utf8) }

  /// The index in ``usedNames`` of the first member only browser events use.
  static let browserNamesStart = 6

  /// The most bytes of one kept value (a string decoded to UTF-8, a number as spelled).
  let limit: Int
  /// Whether a byte order mark may start the next line (the first of an input).
  var byteOrderMarkAllowed = true

  var phase = Phase.lineStart
  /// The containers open, `{` or `[`; the first is the line's object.
  var stack: [UInt8] = []
  /// Characters of the line read so far, the one at hand included.
  var column = 0
  private var lineStarted = false
  private var byteOrderMarkRead = 0
  var token = TokenState()
  /// What the line's object keeps of its members so far.
  private var kept = KeptMembers()
  /// The value being kept (``KeptMembers/valueColumn`` says where it starts).
  var held: [UInt8] = []
  /// Where the event at hand stands across lines (pretty-printed JSON).
  var span = EventLineSpan()
  var rejection: Rejection?
  private var rejectionTaken = false

  init(limit: Int) {
    self.limit = limit
  }

  /// Where a line is: between tokens (what may come next), or in a token.
  enum Phase {
    case lineStart, afterOpen, memberName, colon, value, afterMember
    case arrayStart, afterElement, afterObject, skipping
    case string, number, literal
  }

  /// Whether part of a line has been read (a byte order mark's first bytes too).
  var isInLine: Bool { lineStarted || byteOrderMarkRead > 0 }

  /// Reads `bytes` from `start` up to the end of the first line that ends
  /// in them: returns where reading stopped and whether a line ended there
  /// (its newline read; ``takeLine()`` tells what it was).
  mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (
    next: Int, lineEnded: Bool
  ) {
    var index = start
    let count = bytes.count
    // (Only where an event goes on in a new line: not a test per byte.)
    if span.pending, startsNextEvent(bytes, at: &index) { return (index, true) }
    while index < count {
      let byte = bytes[index]
      if byte == 0x0A {
        if goesOnAfterNewline() || skipsOnAfterNewline() {
          index += 1
          if startsNextEvent(bytes, at: &index) { return (index, true) }
          continue
        }
        endLine()
        return (index + 1, true)
      }
      if phase == .skipping {
        // The rest of a rejected line: nothing in it counts.
        index = ByteSearch.firstIndex(in: bytes, from: index, of: Self.newline)
        continue
      }
      if !lineStarted, byteOrderMarkAllowed, byteOrderMarkRead < 3 {
        // A UTF-8 byte order mark may start each input (Windows exports).
        if byte == Self.byteOrderMark[byteOrderMarkRead] {
          byteOrderMarkRead += 1
          index += 1
          continue
        }
        if byteOrderMarkRead > 0 {
          column = 1
          lineStarted = true
          reject("not valid JSON: unexpected character", at: 1)
          continue
        }
      }
      lineStarted = true
      // A character begins here unless a string's sequence goes on (a stray
      // continuation byte counts one, as every byte that is not UTF-8 does).
      if byte & 0xC0 != 0x80 || phase != .string || token.continuation == 0 { column += 1 }
      take(byte)
      index += 1
    }
    return (count, false)
  }

  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
  private static let newline = ByteSearch.Needles(0x0A)
  private static let trueLiteral = Array("true".utf8)
  private static let falseLiteral = Array("false".utf8)
  private static let nullLiteral = Array("null".utf8)

  /// The rejection found since the last call, once.
  mutating func takeRejection() -> Rejection? {
    guard !rejectionTaken, let rejection else { return nil }
    rejectionTaken = true
    return rejection
  }

  /// What the line that just ended was; readies the reader for the next.
  mutating func takeLine() -> Line {
    defer { startLine() }
    if rejection != nil { return .rejected }
    if phase == .lineStart { return .blank }
    return .event(members: kept.members, column: kept.objectColumn)
  }

  /// Ends the line at hand as a newline would (the input ended).
  mutating func endLine() {
    if !lineStarted, byteOrderMarkRead > 0, byteOrderMarkRead < 3 {
      // The start of a byte order mark and no more: a byte that is not UTF-8.
      column = 1
      lineStarted = true
      reject("not valid JSON: unexpected character", at: 1)
    }
    if phase != .skipping, phase != .lineStart {
      if span.pending {
        // Nothing came after the line where the event's text stopped: that is where it ends.
        (span.errorLine, column) = (span.lastTextLine, span.lastTextColumns)
      }
      let end = column + 1
      if phase == .number {
        if token.number.isComplete {
          finishValue(.number(String(decoding: held, as: UTF8.self)))
        } else {
          syntaxError("invalid number", at: end)
        }
      }
      switch phase {
      case .afterOpen, .memberName: syntaxError("expected a member name", at: end)
      case .colon: syntaxError("expected ':'", at: end)
      case .value, .arrayStart: syntaxError("unexpected end of input", at: end)
      case .afterMember: syntaxError("expected ',' or '}'", at: end)
      case .afterElement: syntaxError("expected ',' or ']'", at: end)
      case .string:
        if token.continuation > 0 {
          syntaxError("invalid UTF-8 in a string", at: token.sequenceColumn)
        } else if token.escape >= 2 {
          // Where the four digits should have started.
          syntaxError("invalid \\u escape", at: end - (token.escape - 2))
        } else if token.highSurrogate != nil {
          syntaxError(
            "lone surrogate in \\u escape",
            at: token.surrogateBackslash ? token.backslashColumn : end)
        } else {
          syntaxError("unterminated string", at: end)
        }
      case .literal: syntaxError("invalid literal", at: token.literalColumn)
      case .lineStart, .afterObject, .skipping, .number: break
      }
    }
    if rejection == nil, let overlong = kept.overlong,
      kept.members.contains(where: { $0.name == "type" })
    {
      reject(overlong.message, at: overlong.column)
    }
    byteOrderMarkAllowed = false
  }

  private mutating func startLine() {
    phase = .lineStart
    stack.removeAll(keepingCapacity: true)
    column = span.cutOff ? span.carriedColumn : 0
    span = EventLineSpan()
    lineStarted = false
    byteOrderMarkRead = 0
    kept.removeAll()
    held.removeAll(keepingCapacity: held.capacity <= 1 << 16)
    rejection = nil
    rejectionTaken = false
  }

  private mutating func reject(_ message: String, at column: Int) {
    rejection = Rejection(
      message: message, column: column, line: span.errorLine ?? span.linesInside)
    span.rejectedOpen = !stack.isEmpty
    phase = .skipping
    held.removeAll()
    kept.members.removeAll()
  }

  mutating func syntaxError(_ message: String, at column: Int) {
    reject("not valid JSON: " + message, at: column)
  }

  @inline(__always)
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D
  }

  /// Takes one byte of the line (not its newline).
  private mutating func take(_ byte: UInt8) {
    switch phase {
    case .string: takeInString(byte)
    case .number: takeInNumber(byte)
    case .literal: takeInLiteral(byte)
    default: takeBetweenTokens(byte)
    }
  }

  mutating func takeBetweenTokens(_ byte: UInt8) {
    if Self.isSpace(byte) { return }
    switch phase {
    case .lineStart:
      guard byte == UInt8(ascii: "{") else {
        // Not an object: no event, whatever follows.
        let kind: String? =
          switch byte {
          case UInt8(ascii: "["): "an array"
          case UInt8(ascii: "\""): "a string"
          case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
          case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
          case UInt8(ascii: "n"): "null"
          default: nil
          }
        if let kind {
          reject("an event must be a JSON object, not \(kind)", at: column)
        } else {
          syntaxError("unexpected character", at: column)
        }
        return
      }
      kept.objectColumn = column
      stack.append(byte)
      phase = .afterOpen
    case .afterOpen, .memberName:
      if byte == UInt8(ascii: "}"), phase == .afterOpen {
        closeContainer()
      } else if byte == UInt8(ascii: "\"") {
        startString(isName: true)
      } else {
        syntaxError("expected a member name", at: column)
      }
    case .colon:
      guard byte == UInt8(ascii: ":") else { return syntaxError("expected ':'", at: column) }
      phase = .value
    case .value:
      startValue(byte)
    case .arrayStart:
      if byte == UInt8(ascii: "]") { closeContainer() } else { startValue(byte) }
    case .afterMember:
      if byte == UInt8(ascii: ",") {
        phase = .memberName
      } else if byte == UInt8(ascii: "}") {
        closeContainer()
      } else {
        syntaxError("expected ',' or '}'", at: column)
      }
    case .afterElement:
      if byte == UInt8(ascii: ",") {
        phase = .value
      } else if byte == UInt8(ascii: "]") {
        closeContainer()
      } else {
        syntaxError("expected ',' or ']'", at: column)
      }
    case .afterObject:
      syntaxError("unexpected text after the value", at: column)
    case .skipping, .string, .number, .literal:
      break
    }
  }

  /// Starts a value with `byte`, its first.
  private mutating func startValue(_ byte: UInt8) {
    let isMemberValue = stack.count == 1
    if isMemberValue { (kept.valueColumn, kept.valueLine) = (column, span.linesInside) }
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      guard stack.count < JSONParser.defaultMaximumDepth else {
        return syntaxError("nesting deeper than \(JSONParser.defaultMaximumDepth)", at: column)
      }
      if isMemberValue { keep(byte == UInt8(ascii: "{") ? .object([]) : .array([])) }
      stack.append(byte)
      phase = byte == UInt8(ascii: "{") ? .afterOpen : .arrayStart
    case UInt8(ascii: "\""):
      startString(isName: false)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      phase = .number
      token.keeps = isMemberValue && kept.valueName != nil
      token.number = .start
      takeInNumber(byte)
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      phase = .literal
      token.literal =
        byte == UInt8(ascii: "t")
        ? Self.trueLiteral : byte == UInt8(ascii: "f") ? Self.falseLiteral : Self.nullLiteral
      token.literalRead = 1
      token.literalColumn = column
    default:
      syntaxError("unexpected character", at: column)
    }
  }

  /// Keeps `value` as the member whose name came last, if it is one an event uses.
  private mutating func keep(_ value: JSONValue) {
    guard let index = kept.valueName else { return }
    kept.valueName = nil
    kept.members.append(
      Member(
        name: String(decoding: Self.usedNames[index], as: UTF8.self), value: value,
        column: kept.valueColumn, line: kept.valueLine))
  }

  /// A value is complete: what may come next depends on its container.
  mutating func finishValue(_ kept: JSONValue?) {
    if stack.count == 1, let kept { keep(kept) }
    held.removeAll(keepingCapacity: held.capacity <= 1 << 16)
    phase = stack.last == UInt8(ascii: "{") ? .afterMember : .afterElement
  }

  private mutating func closeContainer() {
    stack.removeLast()
    if stack.isEmpty {
      phase = .afterObject
    } else {
      // The container itself was kept as its kind when it opened.
      finishValue(nil)
    }
  }

  // MARK: Strings

  private mutating func startString(isName: Bool) {
    phase = .string
    token.isName = isName
    token.keeps = isName ? stack.count == 1 : stack.count == 1 && kept.valueName != nil
    token.escape = 0
    token.highSurrogate = nil
    token.surrogateBackslash = false
    token.continuation = 0
    if isName { kept.name.removeAll(keepingCapacity: true) }
  }

  /// Adds a byte of a string's decoded UTF-8 to what is kept of it.
  @inline(__always)
  private mutating func hold(_ byte: UInt8) {
    guard token.keeps else { return }
    if token.isName {
      // No used name is longer than nine bytes: a longer one is not used.
      if kept.name.count <= 9 { kept.name.append(byte) }
      return
    }
    guard held.count < limit else { return tooLong() }
    held.append(byte)
  }

  private mutating func holdScalar(_ value: UInt32) {
    guard token.keeps, let scalar = Unicode.Scalar(value) else { return }
    var bytes: [UInt8] = []
    bytes.appendUTF8(scalar)
    for byte in bytes { hold(byte) }
  }

  mutating func tooLong() {
    let member =
      kept.valueName.map { String(decoding: Self.usedNames[$0], as: UTF8.self) } ?? "value"
    let message = "\"\(member)\" is longer than --max-line allows (\(limit) bytes)"
    guard let index = kept.valueName, index >= Self.browserNamesStart else {
      return reject(message, at: kept.valueColumn)
    }
    // A browser event's member: an error only if the line has a "type"
    // (``endLine()``); a line without one means what it did before it was read.
    token.keeps = false
    kept.valueName = nil
    held.removeAll()
    if kept.overlong == nil {
      kept.overlong = Rejection(message: message, column: kept.valueColumn, line: kept.valueLine)
    }
  }

  private mutating func takeInString(_ byte: UInt8) {
    if token.continuation > 0 {
      guard byte >= token.lowest, byte <= token.highest else {
        return syntaxError("invalid UTF-8 in a string", at: token.sequenceColumn)
      }
      token.continuation -= 1
      token.lowest = 0x80
      token.highest = 0xBF
      hold(byte)
      return
    }
    if token.escape > 0 { return takeInEscape(byte) }
    if token.highSurrogate != nil {
      // Only `\u` and a low surrogate may follow a high one.
      if !token.surrogateBackslash, byte == UInt8(ascii: "\\") {
        token.surrogateBackslash = true
        token.backslashColumn = column
        return
      }
      guard token.surrogateBackslash, byte == UInt8(ascii: "u") else {
        return syntaxError(
          "lone surrogate in \\u escape",
          at: token.surrogateBackslash ? token.backslashColumn : column)
      }
      token.escape = 2
      token.unit = 0
      return
    }
    switch byte {
    case UInt8(ascii: "\""):
      if token.isName {
        endName()
      } else {
        finishValue(token.keeps ? .string(String(decoding: held, as: UTF8.self)) : nil)
      }
    case UInt8(ascii: "\\"):
      token.escape = 1
    case 0..<0x20:
      syntaxError("control character in a string", at: column)
    case 0..<0x80:
      hold(byte)
    default:
      // The lead of a sequence: how many bytes follow, and the range of the next.
      token.sequenceColumn = column
      guard let lead = UTF8Lead(byte) else {
        return syntaxError("invalid UTF-8 in a string", at: column)
      }
      token.continuation = lead.following
      token.lowest = lead.secondLow
      token.highest = lead.secondHigh
      hold(byte)
    }
  }

  private mutating func takeInEscape(_ byte: UInt8) {
    if token.escape == 1 {
      token.escape = 0
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): hold(byte)
      case UInt8(ascii: "b"): hold(0x08)
      case UInt8(ascii: "f"): hold(0x0C)
      case UInt8(ascii: "n"): hold(0x0A)
      case UInt8(ascii: "r"): hold(0x0D)
      case UInt8(ascii: "t"): hold(0x09)
      case UInt8(ascii: "u"):
        token.escape = 2
        token.unit = 0
      default: syntaxError("invalid escape", at: column)
      }
      return
    }
    guard let digit = jsonHexDigit(byte) else {
      return syntaxError("invalid \\u escape", at: column)
    }
    token.unit = token.unit << 4 | UInt32(digit)
    token.escape += 1
    guard token.escape == 6 else { return }
    token.escape = 0
    let unit = token.unit
    if let high = token.highSurrogate {
      token.highSurrogate = nil
      token.surrogateBackslash = false
      guard (0xDC00..<0xE000).contains(unit) else {
        return syntaxError("lone surrogate in \\u escape", at: column + 1)
      }
      holdScalar(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))
    } else if (0xD800..<0xDC00).contains(unit) {
      token.highSurrogate = unit
    } else if (0xDC00..<0xE000).contains(unit) {
      syntaxError("lone surrogate in \\u escape", at: column + 1)
    } else {
      holdScalar(unit)
    }
  }

  /// A member name is complete: its value is kept if an event uses it and
  /// no member before had the name.
  private mutating func endName() {
    kept.valueName = nil
    if token.keeps, let index = Self.usedNames.firstIndex(of: kept.name) {
      let bit: UInt16 = 1 << index
      if kept.seenNames & bit == 0 {
        kept.seenNames |= bit
        kept.valueName = index
      }
    }
    phase = .colon
  }
}
