/// Finds places between review records where the pieces of a parallel
/// import may begin, in one cheap pass over the input from its start: it
/// follows only strings (their quotes and escapes), the nesting depth and
/// the member names of top-level objects, not the whole grammar that
/// ``JSONRecordSplitter`` checks. The places (boundaries):
///
/// - just after a line break or a closing bracket between top-level values
///   (JSON Lines, values one after another);
/// - just after a comma between the records of a top-level array;
/// - just after a comma between the records of an envelope's records
///   member (`{"data":[{…},{…}]}`).
///
/// Each comes with the ``JSONRecordSplitter/ResumePoint`` a splitter starts
/// from there. In valid JSON it is exactly where the splitter that read up
/// to the place stands; in broken JSON it may not be, which
/// ``JSONRecordSplitter/resumePoint`` tells (the piece is then read on by
/// the splitter before it).
///
///     var finder = JSONRecordBoundaryFinder()
///     let bytes = Array(#"{"data":[{"a":1},{"b":2}]}"#.utf8)
///     bytes.withUnsafeBufferPointer { finder.boundary(in: $0, notBefore: 1) }  // 17
///     finder.resumePoint  // offset 17, line 1, column 18, in the envelope at 1:1
///
/// A finder made `guessing` follows the input this way only up to its first
/// boundary: it then only counts the line breaks up to each next piece's
/// size and guesses a boundary among the lines just after it (``guess``), in
/// the container its first boundary was in. A wrong guess costs no
/// correctness: the filter before the piece finds it does not stand there,
/// and reads the piece itself; the runner then has the finder stop guessing
/// (``stopGuessing()``), and it follows the input again from its start.
///
/// Time: O(n), strings eight bytes at a time (guessing: line breaks sixteen
/// bytes at a time, and the few lines after each piece's size); memory O(1).
package struct JSONRecordBoundaryFinder: PieceBoundaryFinder, Sendable {
  private let recordsFieldBytes: [UInt8]
  /// The file offset of the next byte.
  package private(set) var position = 0
  /// Whether boundaries after the first are guessed.
  package private(set) var isGuessing: Bool
  /// What holds the records at the first boundary (guessing only).
  private var guessedContainer: JSONRecordSplitter.ResumePoint.Container?
  /// Lines and columns are counted up to this offset.
  private var counted = 0
  private var line = 1
  private var column = 1
  /// Whether the scan is inside a string, and just after its backslash.
  private var string = (isOpen: false, escaped: false)
  /// How deep the scan is, and what the top-level value is and where it starts.
  private var top = Top()
  /// The top-level object's member names, read to find the records member.
  private var member = MemberName()

  private struct Top {
    var depth = 0
    var isObject = false
    var line = 1
    var column = 1
  }

  private struct MemberName {
    /// Whether the container at depth 2 is an envelope's records member.
    var inRecords = false
    /// Whether the next string of the top-level object is a member name.
    var isExpected = false
    var isBeingRead = false
    var bytes: [UInt8] = []
    var matches = false
  }
  private var point = JSONRecordSplitter.ResumePoint(
    offset: 0, line: 1, column: 1, lineHasContent: false, container: .none)

  /// The bytes outside strings that the finder follows.
  private static let followed: [Bool] = (0..<256).map {
    Array(#""{}[],:"#.utf8 + [0x0A]).contains(UInt8($0))
  }

  /// A finder of the boundaries of an envelope whose records are in the
  /// member `recordsField`; `guessing`, it guesses those after the first.
  package init(recordsField: String = "data", guessing: Bool = false) {
    recordsFieldBytes = Array(recordsField.utf8)
    isGuessing = guessing
  }

  /// Stops guessing: the finder starts afresh, to follow the input from its
  /// start (``position`` 0). Nothing when it does not guess.
  package mutating func stopGuessing() {
    guard isGuessing else { return }
    self = JSONRecordBoundaryFinder(recordsFieldBytes: recordsFieldBytes)
  }

  /// Stops guessing and follows the input exactly from `point`, a place
  /// between records where a splitter that read the input in order stands
  /// (no farther than ``position``): what holds the records there tells the
  /// nesting the finder follows. Nothing when it does not guess.
  package mutating func stopGuessing(resumingFrom point: JSONRecordSplitter.ResumePoint) {
    guard isGuessing else { return }
    var finder = JSONRecordBoundaryFinder(recordsFieldBytes: recordsFieldBytes)
    (finder.position, finder.counted) = (point.offset, point.offset)
    (finder.line, finder.column) = (point.line, point.column)
    finder.point = point
    switch point.container {
    case .none:
      break
    case .array(let line, let column):
      (finder.top.depth, finder.top.line, finder.top.column) = (1, line, column)
    case .envelope(let line, let column):
      (finder.top.depth, finder.top.isObject, finder.member.inRecords) = (2, true, true)
      (finder.top.line, finder.top.column) = (line, column)
    }
    self = finder
  }

  private init(recordsFieldBytes: [UInt8]) {
    self.recordsFieldBytes = recordsFieldBytes
    isGuessing = false
  }

  /// The state a splitter starts from at the boundary returned last.
  package var resumePoint: JSONRecordSplitter.ResumePoint { point }

  /// The state at the boundary returned last, as its own type.
  package var splitterResumePoint: JSONRecordSplitter.ResumePoint { point }

  package mutating func boundary(in bytes: UnsafeBufferPointer<UInt8>, notBefore target: Int)
    -> Int?
  {
    if isGuessing, let container = guessedContainer {
      return guess(in: bytes, notBefore: target, container: container)
    }
    let start = position
    let count = bytes.count
    let followed = Self.followed
    var index = 0
    if start == 0, count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      // A byte order mark: not a character of line 1.
      index = 3
      counted = 3
    }
    while index < count {
      if string.isOpen {
        if string.escaped {
          string.escaped = false
          if member.isBeingRead { appendName(bytes[index]) }
          index += 1
          continue
        }
        let stop = Self.quoteOrBackslash(in: bytes, from: index)
        if member.isBeingRead {
          for offset in index..<stop { appendName(bytes[offset]) }
        }
        guard stop < count else {
          index = count
          break
        }
        let byte = bytes[stop]
        if byte == UInt8(ascii: "\\") {
          string.escaped = true
          if member.isBeingRead { appendName(byte) }
          index = stop + 1
          continue
        }
        string.isOpen = false
        if member.isBeingRead {
          member.isBeingRead = false
          member.matches = member.bytes == recordsFieldBytes
        }
        index = stop + 1
        continue
      }
      // Numbers, literals, spaces: nothing to follow.
      while index < count, !followed[Int(bytes[index])] { index += 1 }
      guard index < count else { break }
      let byte = bytes[index]
      index += 1
      var container: JSONRecordSplitter.ResumePoint.Container?
      var lineHasContent = true
      switch byte {
      case UInt8(ascii: "\""):
        string.isOpen = true
        if top.depth == 1, top.isObject, member.isExpected {
          member.isBeingRead = true
          member.bytes.removeAll(keepingCapacity: true)
        }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        top.depth += 1
        if top.depth == 1 {
          top.isObject = byte == UInt8(ascii: "{")
          member.isExpected = top.isObject
          (top.line, top.column) = place(at: start + index - 1, in: bytes, startingAt: start)
        } else if top.depth == 2 {
          member.inRecords = top.isObject && byte == UInt8(ascii: "[") && member.matches
        }
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        guard top.depth > 0 else { break }
        top.depth -= 1
        if top.depth == 0 { container = JSONRecordSplitter.ResumePoint.Container.none }
        if top.depth == 1 { member.inRecords = false }
      case UInt8(ascii: ","):
        if top.depth == 1 {
          if top.isObject {
            member.isExpected = true
          } else {
            container = .array(line: top.line, column: top.column)
          }
        } else if top.depth == 2, member.inRecords {
          container = .envelope(line: top.line, column: top.column)
        }
      case UInt8(ascii: ":"):
        if top.depth == 1 { member.isExpected = false }
      case 0x0A:
        if top.depth == 0 {
          container = JSONRecordSplitter.ResumePoint.Container.none
          lineHasContent = false
        }
      default:
        break
      }
      if let container, start + index >= target {
        let (line, column) = place(at: start + index, in: bytes, startingAt: start)
        point = JSONRecordSplitter.ResumePoint(
          offset: start + index, line: line, column: column, lineHasContent: lineHasContent,
          container: container)
        position = start + index
        if isGuessing { guessedContainer = container }
        return position
      }
    }
    _ = place(at: start + count, in: bytes, startingAt: start)
    position = start + count
    return nil
  }

  /// How far past a piece's size a guess looks for a boundary before the
  /// finder stops guessing (records longer than this, or none on lines of their own).
  package static let guessReach = 1 << 20

  /// Guesses the first boundary at or after `target`: the start of a line
  /// that begins (after spaces and tabs) with `{`, after a line that ends
  /// (before spaces, tabs and a carriage return) with `},` in an array or
  /// envelope, with `}` or `]` between top-level values; what holds the
  /// records there is taken to be `container`. In valid JSON no line break
  /// is in a string, and such a line break is inside a record only in a
  /// record whose own array of objects is written one object a line at the
  /// records' own layout (then the guess is found wrong, see the type's
  /// summary). Reads the bytes before `target` only for their line breaks;
  /// stops before a line whose start the end of `bytes` cuts (``position``
  /// tells where to go on). Time: O(bytes), sixteen bytes at a time.
  private mutating func guess(
    in bytes: UnsafeBufferPointer<UInt8>, notBefore target: Int,
    container: JSONRecordSplitter.ResumePoint.Container
  ) -> Int? {
    let start = position
    let count = bytes.count
    guard let base = bytes.baseAddress, count > 0 else { return nil }
    // A line break at `target - 1` or after makes a boundary at `target` or after.
    var index = min(count, max(0, target - 1 - start))
    line += ByteCounting.count(0x0A, in: UnsafeBufferPointer(rebasing: bytes[..<index]))
    let inArray: Bool
    switch container {
    case .none: inArray = false
    case .array, .envelope: inArray = true
    }
    func isBlank(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
    while index < count {
      guard let found = SystemCalls.firstByte(0x0A, from: base + index, count: count - index)
      else { break }
      let newline = found.assumingMemoryBound(to: UInt8.self) - base
      // The next line: blanks, then `{`.
      var next = newline + 1
      while next < count, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
      if next == count, index > 0 || newline > 0 {
        // The window's end cuts the next line: go on from this one's start
        // (or its break), so that both lines are in the next window.
        position = start + (index > 0 ? index : newline)
        return nil
      }
      line += 1
      index = newline + 1
      guard next < count, bytes[next] == UInt8(ascii: "{") else { continue }
      // The line before: `},` (or `}`, `]` between top-level values).
      var back = newline - 1
      while back >= 0, isBlank(bytes[back]) { back -= 1 }
      if inArray {
        guard back >= 0, bytes[back] == UInt8(ascii: ",") else { continue }
        back -= 1
        while back >= 0, isBlank(bytes[back]) || bytes[back] == 0x0A { back -= 1 }
        guard back >= 0, bytes[back] == UInt8(ascii: "}") else { continue }
      } else {
        guard back >= 0, bytes[back] == UInt8(ascii: "}") || bytes[back] == UInt8(ascii: "]")
        else { continue }
      }
      position = start + index
      point = JSONRecordSplitter.ResumePoint(
        offset: position, line: line, column: 1, lineHasContent: false, container: container)
      return position
    }
    if start + count - target > Self.guessReach {
      // No boundary where one was looked for: follow the input from its start.
      stopGuessing()
      return nil
    }
    // memchr found no line break after `index`.
    position = start + count
    return nil
  }

  private mutating func appendName(_ byte: UInt8) {
    // A longer name is not the records field's: one byte past it is enough to tell.
    if member.bytes.count <= recordsFieldBytes.count { member.bytes.append(byte) }
  }

  /// The line and column of the file offset `offset` (in `bytes`, which
  /// starts at `start`), counted on from where they were counted last.
  private mutating func place(
    at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, startingAt start: Int
  ) -> (line: Int, column: Int) {
    guard let base = bytes.baseAddress, offset > counted else { return (line, column) }
    let from = counted - start
    let end = offset - start
    var lineStart = from
    var cursor = UnsafeRawPointer(base + from)
    let stop = UnsafeRawPointer(base + end)
    while cursor < stop, let found = SystemCalls.firstByte(0x0A, from: cursor, count: stop - cursor)
    {
      line += 1
      cursor = found + 1
      lineStart = cursor - UnsafeRawPointer(base)
    }
    if lineStart > from { column = 1 }
    column += ByteSearch.characterCount(in: base, from: lineStart, to: end)
    counted = offset
    return (line, column)
  }

  /// The index of the first quote or backslash at or after `start`, or
  /// `bytes.count`: eight bytes at a time.
  @inline(__always)
  static func quoteOrBackslash(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return bytes.count }
    let count = bytes.count
    let quotes = ByteSearch.broadcast(UInt8(ascii: "\""))
    let backslashes = ByteSearch.broadcast(UInt8(ascii: "\\"))
    var index = start
    while index + 8 <= count {
      let word = ByteSearch.word(base, at: index)
      let flags = ByteSearch.zeroBytes(word ^ quotes) | ByteSearch.zeroBytes(word ^ backslashes)
      if flags != 0 { return index + ByteSearch.firstFlagged(flags) }
      index += 8
    }
    while index < count, base[index] != UInt8(ascii: "\""), base[index] != UInt8(ascii: "\\") {
      index += 1
    }
    return index
  }

}
