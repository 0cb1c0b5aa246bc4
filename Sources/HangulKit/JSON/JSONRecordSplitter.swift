/// Splits a stream of review records into one record at a time, whatever
/// shape holds them: an API envelope `{"data":[…]}`, a bare array `[…]`, or
/// JSON Lines. The shape is detected from the input itself: `[` starts an
/// array; `{` whose first member is `"data"` with an array value starts an
/// envelope; anything else is JSON Lines.
///
///     var splitter = JSONRecordSplitter()
///     var records: [String] = []
///     splitter.feed(Array(#"{"data":[{"a":1},{"b":2}]}"#.utf8), isLast: true) { record in
///       records.append(String(decoding: record.bytes, as: UTF8.self))
///     }
///     // records == [#"{"a":1}"#, #"{"b":2}"#]
///
/// Each byte is looked at once (O(n)); memory is the largest record. The
/// splitter only finds where records begin and end (strings, escapes and
/// nesting); each record is then parsed strictly on its own, so a malformed
/// record does not stop the others.
public struct JSONRecordSplitter: Sendable {
  /// The shape of the input.
  public enum Shape: String, Sendable {
    case envelope
    case array
    case lines
  }

  /// One record: its bytes, its 0-based index and the input line it starts on.
  public struct Record: Sendable {
    public var bytes: [UInt8]
    public var index: Int
    public var line: Int
    /// Why the record is known to be broken before parsing (cut off by the end of input).
    public var problem: String?
  }

  /// The detected shape, once known.
  public private(set) var shape: Shape?
  /// A problem with the envelope or array itself (not with one record).
  public private(set) var structureProblems: [(line: Int, message: String)] = []

  private var prefix: [UInt8] = []
  private var record: [UInt8] = []
  private var recordLine = 1
  private var line = 1
  private var index = 0
  private var depth = 0
  private var inString = false
  private var escaped = false
  /// Array shapes: whether the array has ended (then only the rest of the envelope follows).
  private var arrayEnded = false
  private var trailerDepth = 0

  public init() {}

  /// Feeds the next chunk; `body` receives each complete record.
  public mutating func feed(
    _ chunk: [UInt8], isLast: Bool, _ body: (Record) throws -> Void
  ) rethrows {
    try chunk.withUnsafeBufferPointer { try feed($0, isLast: isLast, body) }
  }

  /// Feeds the next chunk; `body` receives each complete record.
  public mutating func feed(
    _ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool, _ body: (Record) throws -> Void
  ) rethrows {
    if shape == nil {
      prefix.append(contentsOf: chunk)
      guard let detected = Self.detect(prefix, isLast: isLast) else { return }
      shape = detected.shape
      let buffered = prefix
      prefix = []
      for byte in buffered[..<detected.skip] where byte == 0x0A { line += 1 }
      if detected.shape != .lines { depth = detected.shape == .envelope ? 2 : 1 }
      try buffered.withUnsafeBufferPointer {
        try scan(UnsafeBufferPointer(rebasing: $0[detected.skip...]), body)
      }
    } else {
      try scan(chunk, body)
    }
    if isLast { try finish(body) }
  }

  /// Decides the shape from the start of the input, if it can yet; `skip` is
  /// how many bytes belong to the envelope's or array's opening.
  static func detect(_ bytes: [UInt8], isLast: Bool) -> (shape: Shape, skip: Int)? {
    var position = 0
    func skipSpace() {
      while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) {
        position += 1
      }
    }
    // A byte order mark is allowed before the first token.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    skipSpace()
    guard position < bytes.count else { return isLast ? (.lines, 0) : nil }
    if bytes[position] == UInt8(ascii: "[") { return (.array, position + 1) }
    guard bytes[position] == UInt8(ascii: "{") else { return (.lines, 0) }
    position += 1
    skipSpace()
    let name = Array(#""data""#.utf8)
    guard position + name.count <= bytes.count else { return isLast ? (.lines, 0) : nil }
    guard Array(bytes[position..<(position + name.count)]) == name else { return (.lines, 0) }
    position += name.count
    skipSpace()
    guard position < bytes.count else { return isLast ? (.lines, 0) : nil }
    guard bytes[position] == UInt8(ascii: ":") else { return (.lines, 0) }
    position += 1
    skipSpace()
    guard position < bytes.count else { return isLast ? (.lines, 0) : nil }
    return bytes[position] == UInt8(ascii: "[") ? (.envelope, position + 1) : (.lines, 0)
  }

  private mutating func emit(_ body: (Record) throws -> Void, problem: String? = nil) rethrows {
    defer {
      record.removeAll(keepingCapacity: record.capacity <= 1 << 20)
      index += 1
    }
    try body(Record(bytes: record, index: index, line: recordLine, problem: problem))
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Record) throws -> Void)
    rethrows
  {
    if shape == .lines {
      var start = 0
      for position in bytes.indices where bytes[position] == 0x0A {
        record.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        if !record.allSatisfy(Self.isSpace) {
          try emit(body)
        } else {
          record.removeAll(keepingCapacity: true)
        }
        line += 1
        recordLine = line
        start = position + 1
      }
      record.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
      return
    }
    for byte in bytes {
      defer { if byte == 0x0A { line += 1 } }
      if arrayEnded {
        scanTrailer(byte)
        continue
      }
      if inString {
        record.append(byte)
        followString(byte)
        continue
      }
      let base = 1 + (shape == .envelope ? 1 : 0)  // the depth between records
      if depth == base, record.isEmpty {
        // Between records: whitespace, commas, the end of the array.
        if Self.isSpace(byte) || byte == UInt8(ascii: ",") { continue }
        if byte == UInt8(ascii: "]") {
          arrayEnded = true
          trailerDepth = shape == .envelope ? 1 : 0
          continue
        }
        recordLine = line
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
        record.append(byte)
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        record.append(byte)
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == base {
          // The end of the array right after a record.
          try emit(body)
          arrayEnded = true
          trailerDepth = shape == .envelope ? 1 : 0
          if byte == UInt8(ascii: "}") {
            structureProblems.append((line, "expected ']' to end the array"))
          }
          continue
        }
        depth -= 1
        record.append(byte)
      case UInt8(ascii: ","):
        if depth == base {
          try emit(body)
        } else {
          record.append(byte)
        }
      default:
        record.append(byte)
      }
    }
  }

  /// Follows one byte inside a string: an escape, or the closing quote.
  @inline(__always)
  private mutating func followString(_ byte: UInt8) {
    if escaped {
      escaped = false
    } else if byte == UInt8(ascii: "\\") {
      escaped = true
    } else if byte == UInt8(ascii: "\"") {
      inString = false
    }
  }

  /// After the array: the rest of an envelope (other members, then `}`), then only whitespace.
  private mutating func scanTrailer(_ byte: UInt8) {
    if inString {
      followString(byte)
      return
    }
    switch byte {
    case UInt8(ascii: "\""): inString = true
    case UInt8(ascii: "{"), UInt8(ascii: "["): trailerDepth += 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      if trailerDepth == 0 {
        structureProblems.append((line, "unexpected '\(Unicode.Scalar(byte))' after the end"))
      } else {
        trailerDepth -= 1
      }
    default:
      if trailerDepth == 0, !Self.isSpace(byte), structureProblems.isEmpty {
        structureProblems.append((line, "unexpected text after the end"))
      }
    }
  }

  private mutating func finish(_ body: (Record) throws -> Void) rethrows {
    switch shape {
    case .lines:
      if !record.allSatisfy(Self.isSpace) { try emit(body) }
    case .array, .envelope:
      if !record.isEmpty {
        try emit(body, problem: "the input ends in the middle of this record")
      }
      if !arrayEnded {
        structureProblems.append((line, "the input ends before the array does"))
      } else if trailerDepth > 0 {
        structureProblems.append((line, "the input ends before the envelope does"))
      }
    case nil:
      break
    }
  }
}
