// MARK: - Resuming in the middle of an input

/// A place between two records where a splitter can start reading in the
/// middle of an input (a piece of a parallel run), and everything the
/// splitter that read up to it would carry on with: the offset, line and
/// column, and what holds the records there. ``JSONRecordBoundaryFinder``
/// finds such places; ``resumePoint`` says whether a splitter that read up
/// to one stands exactly there.
///
///     let point = JSONRecordSplitter.ResumePoint(
///       offset: 17, line: 1, column: 18, lineHasContent: true, container: .envelope(line: 1, column: 1))
///     var splitter = JSONRecordSplitter(resumingAt: point)  // reads `{"b":2}]}` as record 1 of `{"data":[{"a":1},`
///
/// O(1). Public as the resume point of ``ReviewImportFilter`` (a
/// ``ByteFilter``); what it holds is for the package's runners.
package struct JSONRecordResumePoint: Sendable, Equatable {
  /// What holds the records at the place, with the line and column where it starts.
  package enum Container: Sendable, Equatable {
    /// Nothing: between top-level values (JSON Lines, values one after another).
    case none
    /// A top-level array of records, just after a comma between two of them.
    case array(line: Int, column: Int)
    /// The records member of an envelope, just after a comma between two records.
    case envelope(line: Int, column: Int)
  }

  /// The byte offset in the input (a byte order mark at its start included).
  package var offset: Int
  /// The line (1-based) and column (1-based, in characters) of the byte at `offset`.
  package var line: Int
  package var column: Int
  /// Whether the line holds anything but whitespace before `offset`.
  package var lineHasContent: Bool
  package var container: Container

  package init(offset: Int, line: Int, column: Int, lineHasContent: Bool, container: Container) {
    self.offset = offset
    self.line = line
    self.column = column
    self.lineHasContent = lineHasContent
    self.container = container
  }
}

extension JSONRecordSplitter {
  /// Where a splitter can start reading in the middle of an input (see ``JSONRecordResumePoint``).
  package typealias ResumePoint = JSONRecordResumePoint

  /// A splitter that starts at `point`, as the splitter that read the input
  /// up to there would go on (records are counted from 0 again).
  package init(
    recordsField: String = "data", contentField: String = "content", resumingAt point: ResumePoint
  ) {
    self.init(recordsField: recordsField, contentField: contentField)
    input.started = true
    position.chunkStart = point.offset
    position.anchorOffset = point.offset
    position.anchorColumn = point.column
    position.line = point.line
    position.lineHasContent = point.lineHasContent
    switch point.container {
    case .none:
      break
    case .array(let startLine, let startColumn):
      stack.append(Frame(isObject: false, state: .element, role: .records))
      outerStart = LineColumn(line: startLine, column: startColumn)
    case .envelope(let startLine, let startColumn):
      stack.append(Frame(isObject: true, state: .commaOrEndObject, role: .envelope))
      stack.append(Frame(isObject: false, state: .element, role: .records))
      outerStart = LineColumn(line: startLine, column: startColumn)
    }
  }

  /// Where the splitter stands, when it stands where a splitter made with
  /// ``init(recordsField:resumingAt:)`` could take over: between records,
  /// no token, record or cut character open, the nesting one of the
  /// containers of ``ResumePoint/Container``; otherwise `nil`. Every other
  /// field of the splitter is set afresh before it is read again from such a
  /// place (the record's fields when a record starts, a token's when it
  /// starts, a member name when the next name starts), so two splitters at
  /// the same point read the rest of the input alike. O(1).
  package var resumePoint: ResumePoint? {
    guard input.started, input.startBytes.isEmpty, input.cutSequence.isEmpty, !current.isOpen,
      lexer.token == .none,
      !skippingText, lexer.pendingStringEnd < 0, name.start < 0,
      position.anchorOffset == position.chunkStart
    else { return nil }
    let container: ResumePoint.Container
    switch stack.count {
    case 0:
      container = .none
    case 1:
      let records = stack[0]
      guard !records.isObject, records.state == .element, records.role == .records else {
        return nil
      }
      container = .array(line: outerStart.line, column: outerStart.column)
    case 2:
      let envelope = stack[0]
      let records = stack[1]
      guard envelope.isObject, envelope.state == .commaOrEndObject, envelope.role == .envelope,
        !records.isObject, records.state == .element, records.role == .records
      else { return nil }
      container = .envelope(line: outerStart.line, column: outerStart.column)
    default:
      return nil
    }
    return ResumePoint(
      offset: position.chunkStart, line: position.line, column: position.anchorColumn,
      lineHasContent: position.lineHasContent,
      container: container)
  }
}
