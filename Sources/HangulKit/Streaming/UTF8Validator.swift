/// Finds the first byte of a stream that is not UTF-8, with its line and its
/// column in characters, so that a program can say where a file stops being
/// UTF-8 and what encoding it may be in.
///
///     var validator = UTF8Validator()
///     [0x61, 0x0A, 0x62, 0xC7, 0xD1].withUnsafeBufferPointer { validator.scan($0) }
///     validator.finish()
///     // validator.firstInvalid: line 2, column 2, byte 0xC7
///
/// Scanning stops at the first invalid byte. Time is O(n) with a word-at-a-time
/// path for ASCII and a path that takes a three-byte sequence at once; memory is constant apart from a short sample kept for
/// ``InvalidByte/sample``.
public struct UTF8Validator: Sendable {
  /// Where the stream first stops being UTF-8.
  public struct InvalidByte: Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var byte: UInt8
    /// The bytes from the invalid one on (up to 1 KiB of the same chunk), to guess the encoding.
    public var sample: [UInt8]
  }

  public private(set) var firstInvalid: InvalidByte?
  private var line = 1
  /// Characters before the next one on its line.
  private var column = 0
  /// Continuation bytes still expected, and the range the next one must be in.
  private var expected = 0
  private var lowest: UInt8 = 0x80
  private var highest: UInt8 = 0xBF
  /// Where the sequence being read started.
  private var sequenceLine = 1
  private var sequenceColumn = 0
  private var sequenceLead: UInt8 = 0

  public init() {}

  /// Scans the next chunk of the stream.
  public mutating func scan(_ chunk: UnsafeBufferPointer<UInt8>) {
    guard firstInvalid == nil, let base = chunk.baseAddress else { return }
    let count = chunk.count
    var index = 0
    while index < count {
      if expected == 0, index + 8 <= count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 == 0 {
          // Eight ASCII bytes: count newlines without looking at each otherwise.
          let newlines = word ^ 0x0A0A_0A0A_0A0A_0A0A
          let hasNewline = (newlines &- 0x0101_0101_0101_0101) & ~newlines & 0x8080_8080_8080_8080
          if hasNewline == 0 {
            column += 8
            index += 8
            continue
          }
        }
      }
      let byte = base[index]
      if expected == 0, byte & 0xF0 == 0xE0, index + 2 < count {
        // A whole three-byte sequence (Hangul, CJK, most punctuation) at once.
        let second = base[index + 1]
        let third = base[index + 2]
        let secondLowest: UInt8 = byte == 0xE0 ? 0xA0 : 0x80
        let secondHighest: UInt8 = byte == 0xED ? 0x9F : 0xBF
        if second >= secondLowest, second <= secondHighest, third & 0xC0 == 0x80 {
          column += 1
          index += 3
          continue
        }
      }
      if expected > 0 {
        guard byte >= lowest, byte <= highest else {
          fail(line: sequenceLine, column: sequenceColumn, byte: sequenceLead, chunk, from: index)
          return
        }
        expected -= 1
        lowest = 0x80
        highest = 0xBF
        index += 1
        continue
      }
      if byte < 0x80 {
        if byte == 0x0A {
          line += 1
          column = 0
        } else {
          column += 1
        }
        index += 1
        continue
      }
      sequenceLine = line
      sequenceColumn = column + 1
      sequenceLead = byte
      switch byte {
      case 0xC2...0xDF: expected = 1
      case 0xE0: (expected, lowest) = (2, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: expected = 2
      case 0xED: (expected, highest) = (2, 0x9F)
      case 0xF0: (expected, lowest) = (3, 0x90)
      case 0xF1...0xF3: expected = 3
      case 0xF4: (expected, highest) = (3, 0x8F)
      default:
        fail(line: line, column: column + 1, byte: byte, chunk, from: index)
        return
      }
      column += 1
      index += 1
    }
  }

  /// Takes a chunk that the caller has already found to be UTF-8 (a filter
  /// that decoded it): it may finish a sequence open from the chunk before
  /// and leave one open at its end, and is valid otherwise. Only its lines
  /// and the characters of its last line are counted, a word at a time.
  public mutating func skipValid(_ chunk: UnsafeBufferPointer<UInt8>) {
    guard firstInvalid == nil, let base = chunk.baseAddress else { return }
    var start = 0
    if expected > 0 {
      // The rest of a sequence already counted.
      start = min(expected, chunk.count)
      expected -= start
      lowest = 0x80
      highest = 0xBF
      guard expected == 0 else { return }
    }
    // A sequence left open at the end goes through the full check.
    var end = chunk.count
    var back = chunk.count - 1
    while back >= max(start, chunk.count - 3) {
      let byte = base[back]
      if byte & 0xC0 == 0xC0 {
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        if back + length > chunk.count { end = back }
        break
      }
      if byte < 0x80 { break }
      back -= 1
    }
    let body = UnsafeBufferPointer(start: base + start, count: end - start)
    var lastLineStart = body.count
    while lastLineStart > 0, body[lastLineStart - 1] != 0x0A { lastLineStart -= 1 }
    if lastLineStart > 0 {
      line += Self.count(of: 0x0A, in: UnsafeBufferPointer(rebasing: body[..<lastLineStart]))
      column = 0
    }
    column += Self.characters(in: UnsafeBufferPointer(rebasing: body[lastLineStart...]))
    if end < chunk.count { scan(UnsafeBufferPointer(rebasing: chunk[end...])) }
  }

  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// How many high bits of bytes are set in `flags` (which has no other bits):
  /// a multiply, as the baseline x86-64 target has no population count.
  @inline(__always)
  private static func flagCount(_ flags: UInt64) -> Int {
    Int(truncatingIfNeeded: ((flags >> 7) &* 0x0101_0101_0101_0101) >> 56)
  }

  /// How many bytes of `bytes` are `byte`: a plain loop the compiler turns
  /// into 16-byte vector compares, in blocks of 224 bytes (seven rounds of
  /// two vectors) whose counts fit the bytes it adds them in.
  private static func count(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var total = 0
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start &+ 224)
      var found: UInt8 = 0
      var index = start
      while index < end {
        found &+= base[index] == byte ? 1 : 0
        index &+= 1
      }
      total &+= Int(found)
      start = end
    }
    return total
  }

  /// How many characters the UTF-8 `bytes` hold: the bytes that are not continuation bytes.
  private static func characters(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var continuations = 0
    var index = 0
    while index + 8 <= bytes.count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      // 10xxxxxx: the high bit set and the next one clear.
      continuations &+= Self.flagCount(word & ~(word << 1) & highBits)
      index += 8
    }
    while index < bytes.count {
      if base[index] & 0xC0 == 0x80 { continuations += 1 }
      index += 1
    }
    return bytes.count - continuations
  }

  /// Ends the stream: a sequence cut off at its end is invalid.
  public mutating func finish() {
    if firstInvalid == nil, expected > 0 {
      firstInvalid = InvalidByte(
        line: sequenceLine, column: sequenceColumn, byte: sequenceLead, sample: [sequenceLead])
    }
  }

  private mutating func fail(
    line: Int, column: Int, byte: UInt8, _ chunk: UnsafeBufferPointer<UInt8>, from index: Int
  ) {
    let start = byte == sequenceLead && expected > 0 ? max(0, index - 3) : index
    let sample = Array(chunk[start..<min(chunk.count, start + 1024)])
    firstInvalid = InvalidByte(line: line, column: column, byte: byte, sample: sample)
  }
}

extension UTF8Validator.InvalidByte {
  /// An encoding the bytes read well in, to suggest to the user: `utf-16` after
  /// a UTF-16 byte order mark, `cp949` (which includes EUC-KR) when the sample
  /// converts from it without a fault, else `nil`.
  public var likelyEncoding: String? {
    if line == 1, column == 1,
      sample.starts(with: [0xFF, 0xFE]) || sample.starts(with: [0xFE, 0xFF])
    {
      return "utf-16"
    }
    guard let cp949 = try? InputTranscoder(encoding: "cp949") else { return nil }
    var output: [UInt8] = []
    // Leave out a last character that the sample may have cut in two.
    sample.withUnsafeBufferPointer { cp949.transcode($0, isLast: false, into: &output) }
    guard cp949.invalidSequences == 0 else { return nil }
    // It reads as Korean: Hangul and no C1 control characters (which single
    // stray bytes such as 0x80 become).
    let scalars = String(decoding: output, as: UTF8.self).unicodeScalars
    let hasHangul = scalars.contains { HangulSyllable($0) != nil }
    let hasControls = scalars.contains { (0x80...0x9F).contains($0.value) }
    return hasHangul && !hasControls ? "cp949" : nil
  }

  /// The warning a program writes: where, which byte, and what to do.
  public func warning(file: String) -> String {
    let hex = String(byte, radix: 16, uppercase: true)
    var text =
      "\(file):\(line):\(column): warning: byte 0x\(hex.count < 2 ? "0" + hex : hex) is not UTF-8"
    if let encoding = likelyEncoding {
      text += "; the file looks like \(encoding.uppercased()): try --from-code \(encoding)"
    } else {
      text += "; if the file is in another encoding, name it with --from-code"
    }
    return text
  }
}
