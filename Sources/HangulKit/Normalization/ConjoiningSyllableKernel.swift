/// The inner loop that composes Korean NFD text (macOS file names, text
/// decomposed for search): each modern initial, vowel and optional final in
/// conjoining jamo becomes its precomposed syllable, and ASCII is copied,
/// straight from input bytes to output bytes, until anything else comes.
///
/// The shapes it takes, byte for byte (no other byte sequence matches them,
/// so they need no separate UTF-8 check):
///
///     E1 84 80–92   an initial U+1100–U+1112
///     E1 85 A1–B5   a vowel U+1161–U+1175
///     E1 86 A8–BF   a final U+11A8–U+11BF (optional)
///     E1 87 80–82   a final U+11C0–U+11C2 (optional)
///
/// and the caller's callers rely on these facts (SPEC §2): the syllable it
/// writes is a starter that nothing after it can join (an initial and vowel
/// take the final that follows them, and no other code point composes with
/// a syllable), and an initial joins nothing before it, so the loop may start
/// and stop at any of these places. An old vowel or final after the
/// syllable, a combining mark, anything else: the loop stops before it and
/// the caller's general path goes on.
///
///     let input = Array("\u{1112}\u{1161}\u{11AB} \u{1100}\u{1173}\u{11AF}!".utf8) + [UInt8](repeating: 0x20, count: 16)
///     // run(base, from: 0, limit: input.count - 16, out, written: 0)
///     // writes "한 글!" and stops at the padding's last 16 bytes
///
/// O(n), a few instructions a syllable: one 8-byte load for the initial and
/// vowel, one 4-byte load for the final, one table look-up and one 4-byte
/// store for the syllable; ASCII in 8-byte words.
enum ConjoiningSyllableKernel {
  /// How many bytes past a step's start the loop may read: steps start only
  /// where at least this many input bytes remain.
  static let lookahead = 16

  /// The loop's tables, one array: for each byte after E1 84 (an
  /// initial's last byte) the initial's share of the syllable index
  /// (``initialOffset``), for each byte after E1 85 the vowel's
  /// (``vowelOffset``), each ``invalidShare`` where the byte does not end a
  /// modern jamo; for the last byte of E1 86 and E1 87 (``finalOffset``, 256
  /// each) the final's index with 3 (its length) in bits 8 and up, or 0; and
  /// the UTF-8 of syllable U+AC00 + index (``syllableOffset``), its three
  /// bytes in the low bytes of a little-endian `UInt32`.
  static let tables: [UInt32] = {
    var table = [UInt32](repeating: 0, count: syllableOffset + HangulSyllable.count)
    for byte in 0..<256 {
      table[initialOffset + byte] =
        (0x80..<0x93).contains(byte) ? UInt32(byte - 0x80) * 588 : invalidShare
      table[vowelOffset + byte] =
        (0xA1..<0xB6).contains(byte) ? UInt32(byte - 0xA1) * 28 : invalidShare
    }
    for final in 1...27 {
      // U+11A7 + final: E1 86 A8–BF, then E1 87 80–82.
      let value = 0x11A7 + final
      table[finalOffset + ((value >> 6 & 1) << 8 | 0x80 | value & 0x3F)] = UInt32(final) | 3 << 8
    }
    for index in 0..<HangulSyllable.count {
      let value = HangulSyllable.firstScalarValue + UInt32(index)
      table[syllableOffset + index] =
        (0xE0 | value >> 12) | (0x80 | value >> 6 & 0x3F) << 8 | (0x80 | value & 0x3F) << 16
    }
    return table
  }()

  static let initialOffset = 0
  static let vowelOffset = 256
  static let finalOffset = 512
  static let syllableOffset = 1024
  /// An initial's or vowel's share that makes any sum of shares too big.
  static let invalidShare: UInt32 = 0x8000

  /// Where a run stopped.
  struct Stop {
    /// Where the input goes on.
    var position: Int
    /// Where the output goes on.
    var written: Int
    /// How many of the bytes taken were ASCII (the rest were jamo, three bytes each).
    var asciiBytes: Int
  }

  /// Whether the bytes at `input` start a syllable the loop takes (an
  /// initial and a vowel); at least 8 bytes must be readable.
  @inline(__always)
  static func startsSyllable(_ input: UnsafePointer<UInt8>) -> Bool {
    let word = UnsafeRawPointer(input).loadUnaligned(as: UInt64.self)
    return word & 0xC0_FFFF_C0FF_FF == 0x80_85E1_8084_E1
      && UInt32(truncatingIfNeeded: word >> 16) & 0x3F < 19
      && UInt32(truncatingIfNeeded: word >> 40) & 0xFF &- 0xA1 < 21
  }

  /// Composes from `start` while steps start at or before `limit` (so that
  /// ``lookahead`` bytes are readable from each), writing at `out + written`
  /// (which must have room for eight bytes past everything written: ASCII
  /// goes in whole words, syllables in 4-byte stores; the output never
  /// outgrows the input taken). All of ASCII is taken.
  @inline(never)
  static func run(
    _ input: UnsafePointer<UInt8>, from start: Int, limit: Int,
    _ out: UnsafeMutablePointer<UInt8>, written: Int
  ) -> Stop {
    tables.withUnsafeBufferPointer { table in
      guard let table = table.baseAddress else {
        return Stop(position: start, written: written, asciiBytes: 0)
      }
      return loop(
        input, from: start, limit: limit, out, written: written, table, stopsAtControls: false)
    }
  }

  /// ``run(_:from:limit:_:written:)`` for a composer of keystrokes: it stops
  /// before ASCII control characters and DEL (newline, Backspace).
  @inline(never)
  static func runStoppingAtControls(
    _ input: UnsafePointer<UInt8>, from start: Int, limit: Int,
    _ out: UnsafeMutablePointer<UInt8>, written: Int
  ) -> Stop {
    tables.withUnsafeBufferPointer { table in
      guard let table = table.baseAddress else {
        return Stop(position: start, written: written, asciiBytes: 0)
      }
      return loop(
        input, from: start, limit: limit, out, written: written, table, stopsAtControls: true)
    }
  }

  /// The loop of both runs.
  @inline(__always)
  private static func loop(
    _ input: UnsafePointer<UInt8>, from start: Int, limit: Int,
    _ out: UnsafeMutablePointer<UInt8>, written: Int, _ table: UnsafePointer<UInt32>,
    stopsAtControls: Bool
  ) -> Stop {
    var position = start
    var written = written
    var ascii = 0
    let initials = table + initialOffset
    let vowels = table + vowelOffset
    let syllables = table + syllableOffset
    while position <= limit {
      let word = UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self)
      if word & 0xFF_FF00_FFFF == 0x85_E100_84E1 {
        // E1 84 xx E1 85 yy: an initial and a vowel if xx and yy are in range.
        let share = initials[Int(input[position &+ 2])] &+ vowels[Int(input[position &+ 5])]
        guard share < invalidShare else { break }
        // E1 86|87 zz: a final if zz is a continuation byte and the code
        // point is in range. Without a branch or a table (finals come and go
        // at random, and where the next step starts should depend on as few
        // loads as can be): each test leaves its answer in bit 31.
        let pair = UInt32(truncatingIfNeeded: word >> 48)
        let last = UInt32(input[position &+ 8])
        let shaped = (pair & 0xFEFF ^ 0x86E1) &- 1
        let offset = (pair >> 2 & 0x40) &+ last &- 0xA8
        let inRange = (offset &- 27) & ~offset
        let continuation = (last ^ 0x80) &- 0x40
        let hasFinal = (shaped & inRange & continuation) >> 31
        let final = (offset &+ 1) & (0 &- hasFinal)
        // One ASCII byte after the syllable (a space between words) is
        // taken in the same step, again without a branch: the loop then
        // goes from syllable to syllable across most word breaks.
        let afterVowel = UInt32(input[position &+ 6])
        let afterFinal = UInt32(input[position &+ 9])
        let next = afterVowel ^ (afterVowel ^ afterFinal) & (0 &- hasFinal)
        let takesNext =
          stopsAtControls ? (next &- 0x20 < 0x5F ? 1 : 0) as UInt32 : next < 0x80 ? 1 : 0
        UnsafeMutableRawPointer(out + written).storeBytes(
          of: syllables[Int(share &+ final)] | next << 24, as: UInt32.self)
        written &+= 3 &+ Int(takesNext)
        position &+= 6 &+ Int(hasFinal &* 3 &+ takesNext)
        ascii &+= Int(takesNext)
        continue
      }
      guard word & 0x80 == 0 else { break }
      // ASCII: up to the first other byte of the word.
      var take = ByteSearch.leadingASCII(word)
      if stopsAtControls {
        // The first byte below 0x20 or equal to 0x7F (the lowest flag of
        // each test is exact; flags above it may be borrows).
        let flags =
          ByteSearch.bytesBelow(0x20, in: word)
          | ByteSearch.zeroBytes(word ^ ByteSearch.broadcast(0x7F))
        take = min(take, ByteSearch.firstFlagged(flags))
        guard take > 0 else { break }
      }
      UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
      written &+= take
      position &+= take
      ascii &+= take
    }
    return Stop(position: position, written: written, asciiBytes: ascii)
  }
}
