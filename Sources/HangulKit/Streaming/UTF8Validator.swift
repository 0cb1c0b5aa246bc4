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
/// path for ASCII; memory is constant apart from a short sample kept for
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
      if expected == 0, byte &- 0xE1 < 0x0F, index + 2 < count {
        // A whole three-byte sequence (all of Hangul): checked at once.
        let second = base[index + 1]
        let third = base[index + 2]
        if second & 0xC0 == 0x80, third & 0xC0 == 0x80, byte != 0xED || second < 0xA0 {
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
