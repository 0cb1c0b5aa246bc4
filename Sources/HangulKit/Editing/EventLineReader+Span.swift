/// An event pretty-printed over several lines (`jq .`): an object left open
/// at the end of its line goes on in the next; a line that starts a new
/// object where the open one cannot go on cuts that one off (a truncated
/// record of JSON Lines). hangul-keylog(5), "Event logs".
struct EventLineSpan {
  /// The newlines read inside the event at hand.
  var linesInside = 0
  /// Whether only spaces were read since the event went on in a new line.
  var pending = false
  /// Where the event's text before that ended: a line counted from the
  /// event's first, and its columns.
  var lastTextLine = 0
  var lastTextColumns = 0
  /// Whether the event was cut off by the start of another (a `{` that
  /// begins the next line read), and the columns before that `{`.
  var cutOff = false
  var carriedColumn = 0
  /// The line of the error at hand when it is not the line being read.
  var errorLine: Int?
  /// Whether the event was rejected inside its object (its lines go on).
  var rejectedOpen = false
}

extension EventLineReader {
  /// The newlines read inside the event at hand.
  var linesInside: Int { span.linesInside }
  /// Whether the event at hand was cut off by the start of the next.
  var cutOff: Bool { span.cutOff }

  /// Whether a newline read now goes inside the event (its object is open
  /// between tokens, or after a number); if so, the next line is read as
  /// its continuation.
  mutating func goesOnAfterNewline() -> Bool {
    guard !stack.isEmpty, rejection == nil else { return false }
    switch phase {
    case .afterOpen, .memberName, .colon, .value, .arrayStart, .afterMember, .afterElement:
      break
    case .number where token.number.isComplete:
      finishValue(.number(String(decoding: held, as: UTF8.self)))
    default:
      return false
    }
    if !span.pending {
      span.pending = true
      (span.lastTextLine, span.lastTextColumns) = (span.linesInside, column)
    }
    span.linesInside += 1
    column = 0
    return true
  }

  /// Whether a newline read now goes inside a rejected event that was left
  /// open: the lines after it are skipped with it up to one that starts
  /// an object, so a broken pretty-printed event is one error, not one a line.
  mutating func skipsOnAfterNewline() -> Bool {
    guard phase == .skipping, span.rejectedOpen else { return false }
    span.pending = true
    span.linesInside += 1
    column = 0
    return true
  }

  /// Reads the spaces that begin a line the event at hand goes on in, from
  /// `index`, up to its first other byte: whether that byte (left unread)
  /// begins the next event instead, because the open one cannot go on
  /// there (it was cut off, or broken): a truncated record of JSON Lines,
  /// the next object of pretty-printed JSON.
  mutating func startsNextEvent(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Bool {
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A { return false }
      if Self.isSpace(byte) {
        column += 1
        index += 1
        continue
      }
      span.pending = false
      guard byte == UInt8(ascii: "{"), phase == .skipping || column == 0 || expectsMemberName
      else { return false }
      span.pending = true
      cutOffEvent()
      return true
    }
    return false
  }

  /// Whether the open object waits for a member name or for `,` or `}`.
  var expectsMemberName: Bool {
    phase == .afterOpen || phase == .memberName || phase == .afterMember
  }

  /// Rejects the open event as cut off at the end of the line before this
  /// one, with the error a newline there would have given.
  mutating func cutOffEvent() {
    span.carriedColumn = column
    endLine()
    span.cutOff = true
  }
}
