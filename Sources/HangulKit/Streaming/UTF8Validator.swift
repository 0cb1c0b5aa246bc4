/// Finds the first byte of a stream that is not UTF-8, with its line and its
/// column in characters, so that a program can say where a file stops being
/// UTF-8 and what encoding it may be in.
///
///     var validator = UTF8Validator()
///     [0x61, 0x0A, 0x62, 0xC7, 0xD1].withUnsafeBufferPointer { validator.scan($0) }
///     validator.finish()
///     // validator.firstInvalid: line 2, column 2, byte 0xC7
///
/// Scanning stops at the first invalid byte. Time is O(n): well-formed text is
/// checked eight ASCII bytes or one sequence at a time and lines and columns
/// are counted afterwards over what passed, a word at a time; memory is constant apart from a short sample kept for
/// ``InvalidByte/sample``.
package struct UTF8Validator: Sendable {
  /// Where the stream first stops being UTF-8.
  package struct InvalidByte: Equatable, Sendable {
    package var line: Int
    package var column: Int
    package var byte: UInt8
    /// The bytes from the invalid one on (up to 1 KiB of the same chunk), to guess the encoding.
    package var sample: [UInt8]
  }

  package private(set) var firstInvalid: InvalidByte?
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

  package init() {}

  /// Whether no sequence begun in the chunks scanned so far is waiting for
  /// its continuation bytes.
  var isBetweenSequences: Bool { expected == 0 }

  /// Scans the next chunk of the stream.
  package mutating func scan(_ chunk: UnsafeBufferPointer<UInt8>) {
    guard firstInvalid == nil, let base = chunk.baseAddress else { return }
    let count = chunk.count
    // A sequence begun in the last chunk is finished byte by byte.
    var start = 0
    while expected > 0, start < count {
      scanBytes(chunk, from: start, to: start + 1)
      guard firstInvalid == nil else { return }
      start += 1
    }
    // Then the well-formed bulk, without following lines and columns; they are
    // counted once over what it passed.
    let end = Self.wellFormedPrefix(base, from: start, count: count)
    advancePosition(over: base, from: start, to: end)
    // What stopped it (a byte that is not UTF-8, or a sequence cut off by the
    // end of the chunk) is looked at byte by byte.
    scanBytes(chunk, from: end, to: count)
  }

  /// Where the well-formed UTF-8 that starts at `start` ends: at the first
  /// sequence that is ill-formed or cut off by `count`. Eight ASCII bytes
  /// at a time, three-byte sequences (Hangul, CJK) in one step.
  @inline(__always)
  static func wellFormedPrefix(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
    assert(start >= 0 && start <= count, "the scan starts inside the buffer")
    var index = start
    while index &+ 8 <= count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      let high = word & 0x8080_8080_8080_8080
      if high == 0 {
        index &+= 8
        continue
      }
      // Skip the ASCII bytes before the first other one; a three-byte
      // sequence is then checked in the word itself, without a branch on
      // which lead it has.
      let ascii = high.trailingZeroBitCount &>> 3
      index &+= ascii
      let rest = word &>> UInt64(ascii &<< 3)
      if ascii <= 5, rest & 0xC0_C0F0 | Self.narrowFault(rest) == 0x80_80E0 {
        // Two in one word when they fit (Hangul and conjoining jamo run on).
        let next = rest &>> 24
        if ascii <= 2, next & 0xC0_C0F0 | Self.narrowFault(next) == 0x80_80E0 {
          index &+= 6
        } else {
          index &+= 3
        }
        // The sequences checked lay in the word loaded (`ascii` ≤ 5, or ≤ 2 for two).
        assert(index <= count, "a sequence checked in the word ends inside the buffer")
        continue
      }
      guard let length = sequenceLength(base, at: index, count: count) else { return index }
      index &+= length
    }
    while index < count {
      guard let length = sequenceLength(base, at: index, count: count) else { return index }
      index &+= length
    }
    return index
  }

  /// 1 when the three-byte sequence in the low bytes of `bytes` has a lead
  /// whose second byte must be narrower than 80–BF and it is not (E0 needs
  /// bit 5 of the second byte set, A0–BF, no overlong form; ED needs it
  /// clear, 80–9F, no surrogate); else 0. No branch on the lead.
  @inline(__always)
  static func narrowFault(_ bytes: UInt64) -> UInt64 {
    let lowBits = (bytes & 0x0F) &<< 1 | (bytes &>> 13 & 1)
    return (0x0800_0001 as UInt64) &>> lowBits & 1
  }

  /// The length of the well-formed sequence at `index`, or `nil` when it is
  /// ill-formed or cut off by `count`.
  @inline(__always)
  static func sequenceLength(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Int? {
    let lead = base[index]
    if lead < 0x80 { return 1 }
    guard let shape = UTF8Lead(lead), index &+ shape.following < count else { return nil }
    let second = base[index &+ 1]
    guard second >= shape.secondLow, second <= shape.secondHigh else { return nil }
    // The bytes after the second are any continuation bytes.
    for offset in stride(from: 2, through: shape.following, by: 1) {
      guard base[index &+ offset] & 0xC0 == 0x80 else { return nil }
    }
    return shape.following &+ 1
  }

  /// Moves the line and column on over the well-formed bytes `start..<end`:
  /// newlines are counted a word at a time, and characters only after the
  /// last newline.
  private mutating func advancePosition(
    over base: UnsafePointer<UInt8>, from start: Int, to end: Int
  ) {
    guard end > start else { return }
    // Newlines sixteen bytes at a time, then the last one from the end.
    let newlines = ByteCounting.count(
      0x0A, in: UnsafeBufferPointer(start: base + start, count: end - start))
    var lineStart = start
    if newlines > 0 {
      line &+= newlines
      column = 0
      lineStart = end
      while base[lineStart &- 1] != 0x0A {
        assert(lineStart > start + 1, "a newline was counted in start..<end")
        lineStart &-= 1
      }
    }
    // Characters are the bytes that are not continuation bytes (10xxxxxx).
    var index = lineStart
    var characters = 0
    while index + 8 <= end {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      characters &+= 8 &- (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
      index &+= 8
    }
    while index < end {
      characters &+= base[index] & 0xC0 == 0x80 ? 0 : 1
      index &+= 1
    }
    column &+= characters
  }

  /// Scans `start..<end` of `chunk` one byte at a time, following the line and column.
  private mutating func scanBytes(_ chunk: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
  {
    var index = start
    while index < end {
      let byte = chunk[index]
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
      guard let shape = UTF8Lead(byte) else {
        fail(line: line, column: column + 1, byte: byte, chunk, from: index)
        return
      }
      (expected, lowest, highest) = (shape.following, shape.secondLow, shape.secondHigh)
      column += 1
      index += 1
    }
  }

  /// Takes a chunk that the caller has already found to be UTF-8 (a filter
  /// that decoded it): it may finish a sequence open from the chunk before
  /// and leave one open at its end, and is valid otherwise. Only its lines
  /// and the characters of its last line are counted, a word at a time.
  package mutating func skipValid(_ chunk: UnsafeBufferPointer<UInt8>) {
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
    let end = Self.openSequenceStart(in: chunk, notBefore: start) ?? chunk.count
    advancePosition(over: base, from: start, to: end)
    if end < chunk.count { scan(UnsafeBufferPointer(rebasing: chunk[end...])) }
  }

  /// Where a sequence left open at the end of `bytes` begins: the lead
  /// byte among its last three (at `start` or after) with fewer bytes after
  /// it than it needs; `nil` when `bytes` ends with a whole sequence. For
  /// bytes already found to be UTF-8 but for their end. O(1).
  static func openSequenceStart(
    in bytes: UnsafeBufferPointer<UInt8>, notBefore start: Int = 0
  ) -> Int? {
    var back = bytes.count - 1
    while back >= max(start, bytes.count - 3) {
      let byte = bytes[back]
      if byte < 0x80 { return nil }
      if byte & 0xC0 == 0xC0 {
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        return back + length > bytes.count ? back : nil
      }
      back -= 1
    }
    return nil
  }

  /// Ends the stream: a sequence cut off at its end is invalid.
  package mutating func finish() {
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
  package var likelyEncoding: String? {
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
  package func warning(file: String) -> String {
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
