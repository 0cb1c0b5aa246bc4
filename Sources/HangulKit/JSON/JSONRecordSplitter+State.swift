// The parts of a JSONRecordSplitter's state, each a concern of its own.

extension JSONRecordSplitter {
  /// The names of the two members the splitter looks for, as given and as UTF-8.
  struct FieldNames: Sendable {
    /// The member that holds an envelope's records.
    let records: String
    /// The member whose string makes an object a record rather than an envelope.
    let content: String
    let recordsBytes: [UInt8]
    let contentBytes: [UInt8]

    init(records: String, content: String) {
      self.records = records
      self.content = content
      recordsBytes = Array(records.utf8)
      contentBytes = Array(content.utf8)
    }
  }

  /// The start of the input (a byte order mark may be there: decided once
  /// three bytes are in) and a UTF-8 sequence that the last chunk's end cut,
  /// which is scanned with the bytes that complete it.
  struct ChunkJoint: Sendable {
    var started = false
    var startBytes: [UInt8] = []
    /// The start of a UTF-8 sequence that the last chunk's end cut.
    var cutSequence: [UInt8] = []
  }

  /// The name of the member being read in a top-level object (its bytes as
  /// they came, escapes and all), kept across chunks.
  struct TopLevelName: Sendable {
    /// The longest name kept: a longer one is no name the splitter looks for.
    static let limit = 4096

    var bytes: [UInt8] = []
    /// The index in the chunk where the name's unsaved bytes start, or -1.
    var start = -1
    /// Whether the name was longer than ``limit``.
    var overflow = false

    /// A name starts at `index` of the chunk.
    mutating func begin(at index: Int) {
      bytes.removeAll(keepingCapacity: true)
      overflow = false
      start = index
    }

    mutating func append(_ part: UnsafeBufferPointer<UInt8>) {
      if bytes.count + part.count > Self.limit {
        overflow = true
      } else {
        bytes.append(contentsOf: part)
      }
    }

    /// Whether the name is `text` (its UTF-8 `textBytes`), escapes decoded.
    func `is`(_ textBytes: [UInt8], _ text: String) -> Bool {
      if !bytes.contains(UInt8(ascii: "\\")) { return bytes == textBytes }
      let token = [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]
      return (try? JSONParser.parse(token))?.stringValue == text
    }
  }

  /// The record being read: its bytes, where it starts, and its top-level members.
  struct OpenRecord: Sendable {
    var isOpen = false
    var buffer = JSONRecordBuffer()
    /// The index in the chunk where the record's unsaved bytes start.
    var segmentStart = 0
    /// The nesting depth outside the record.
    var base = 0
    /// The line and column of its first character, and whether that starts its line.
    var line = 1
    var column = 1
    var firstOnLine = false
    var isObject = false
    var hasWhitespace = false
    /// The offset in the input of the record's first byte.
    var startOffset = 0
    var members: [Member] = []
    /// The name of the member being read (offsets in the record), and where its value starts.
    var memberName = 0..<0
    var memberValueStart = 0

    /// The offset in the record of the byte at `index` of the chunk.
    @inline(__always)
    func offset(_ index: Int) -> Int {
      buffer.length + index - segmentStart
    }
  }

  /// How a record with a syntax error is read on to its likely end: the
  /// error, and what the lenient reading follows (strings, nesting past the
  /// maximum depth, a closer that may end the record).
  struct Recovery: Sendable {
    var problem: Problem?
    /// Whether the problem is at a U+0000 and every byte after it so far is one
    /// too: the input may be a file cut short, which ends in NUL bytes.
    var onlyNULsSinceProblem = false
    /// What the problem interrupted (a string, a number, a literal, or nothing).
    var tokenAtProblem = Token.none
    /// How much deeper than ``maximumDepth`` a broken record nests: counted, not kept.
    var excessDepth = 0
    /// Whether the record is a line of something that is not JSON.
    var garbageRecord = false
    var lenientString = false
    var lenientEscape = false
    /// A closer in a broken record that matches an array or envelope around it:
    /// its offset in the record and the frame it matches, until the next
    /// character tells whether it was stray (the record's own closer follows) or
    /// ends the record.
    var pendingCloser = -1
    var pendingCloserMatch = 0

    /// A record starts: no problem yet.
    mutating func reset() {
      problem = nil
      onlyNULsSinceProblem = false
      excessDepth = 0
      pendingCloser = -1
      garbageRecord = false
      lenientString = false
      lenientEscape = false
    }
  }

  /// Problems with the structure around records, until they are taken.
  struct ProblemLog: Sendable {
    var problems: [Problem] = []
    /// How many there were in all.
    var count = 0
    /// How many of ``problems`` a record carried out already.
    var handedOut = 0

    mutating func add(_ problem: Problem) {
      count += 1
      problems.append(problem)
    }

    /// The problems not carried out by a record yet (marked as carried out now).
    mutating func handOut() -> [Problem] {
      guard handedOut < problems.count else { return [] }
      defer { handedOut = problems.count }
      return Array(problems[handedOut...])
    }

    mutating func take() -> [Problem] {
      defer {
        problems.removeAll()
        handedOut = 0
      }
      return problems
    }
  }
}
