/// Finds bytes in a buffer eight at a time (a 64-bit word per step, no
/// per-byte branch), for the scanners that skip long runs of ordinary text:
/// the table writer looking for the bytes a field must escape, the record
/// splitter looking for the end of a string, the normalizing, decomposing and
/// verifying kernels copying ASCII.
/// Words are little-endian: the first byte is the lowest.
///
///     let text = Array("a,b".utf8)
///     text.withUnsafeBufferPointer { ByteSearch.firstIndex(in: $0, from: 0, of: ByteSearch.Needles(0x2C)) }  // 1
///
/// O(n) in the bytes skipped.
enum ByteSearch {
  /// Up to four bytes looked for at once.
  struct Needles {
    let patterns: (UInt64, UInt64, UInt64, UInt64)

    /// Needles; leave out the last ones to look for fewer bytes.
    init(_ first: UInt8, _ second: UInt8? = nil, _ third: UInt8? = nil, _ fourth: UInt8? = nil) {
      patterns = (
        ByteSearch.broadcast(first), ByteSearch.broadcast(second ?? first),
        ByteSearch.broadcast(third ?? first), ByteSearch.broadcast(fourth ?? first)
      )
    }

    /// A word with the high bit set in each byte of `word` that is a needle
    /// (exact for the lowest such byte; bytes above it may be flagged too).
    @inline(__always)
    func matches(_ word: UInt64) -> UInt64 {
      ByteSearch.zeroBytes(word ^ patterns.0) | ByteSearch.zeroBytes(word ^ patterns.1)
        | ByteSearch.zeroBytes(word ^ patterns.2) | ByteSearch.zeroBytes(word ^ patterns.3)
    }
  }

  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// `byte` in each of the eight bytes of a word.
  @inline(__always)
  static func broadcast(_ byte: UInt8) -> UInt64 { UInt64(byte) &* ones }

  /// The high bit of each zero byte of `word` (exact for the lowest zero byte).
  @inline(__always)
  static func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highBits }

  /// The high bit of each byte of `word` below `limit` (≤ 0x80; exact for the lowest such byte).
  @inline(__always)
  static func bytesBelow(_ limit: UInt8, in word: UInt64) -> UInt64 {
    (word &- broadcast(limit)) & ~word & highBits
  }

  /// The eight bytes at `index` (which must have eight bytes after it), first byte lowest.
  @inline(__always)
  static func word(_ base: UnsafePointer<UInt8>, at index: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
  }

  /// The ASCII bytes `word` starts with (8 for a word of ASCII: no high bit
  /// leaves 64 trailing zero bits).
  @inline(__always)
  static func leadingASCII(_ word: UInt64) -> Int { (word & highBits).trailingZeroBitCount &>> 3 }

  /// The index of the byte a nonzero ``Needles/matches(_:)`` result flags first.
  @inline(__always)
  static func firstFlagged(_ flags: UInt64) -> Int { flags.trailingZeroBitCount >> 3 }

  /// The index of the first needle at or after `start`, or `bytes.count`.
  static func firstIndex(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, of needles: Needles)
    -> Int
  {
    guard let base = bytes.baseAddress else { return bytes.count }
    let count = bytes.count
    var index = start
    while index + 8 <= count {
      let flags = needles.matches(word(base, at: index))
      if flags != 0 { return index + firstFlagged(flags) }
      index += 8
    }
    let (a, b, c, d) = needles.patterns
    while index < count {
      let byte = UInt64(base[index]) &* ones
      if byte == a || byte == b || byte == c || byte == d { return index }
      index += 1
    }
    return count
  }

  /// How many characters start in `base[from..<end]`: the bytes that are
  /// not UTF-8 continuation bytes (10xxxxxx), eight at a time.
  static func characterCount(in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
    var position = from
    var characters = 0
    while position + 8 <= end {
      let word = ByteSearch.word(base, at: position)
      characters += 8 - (word & ~(word << 1) & ByteSearch.highBits).nonzeroBitCount
      position += 8
    }
    while position < end {
      if base[position] & 0xC0 != 0x80 { characters += 1 }
      position += 1
    }
    return characters
  }
}
