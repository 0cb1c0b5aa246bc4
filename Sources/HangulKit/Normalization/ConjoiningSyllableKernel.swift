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
/// and the caller's callers rely on these facts (ARCHITECTURE.md, Unicode ground truth): the syllable it
/// writes is a starter that nothing after it can join (an initial and vowel
/// take the final that follows them, and no other code point composes with
/// a syllable), and an initial joins nothing before it, so the loop may start
/// and stop at any of these places. An old vowel or final after the
/// syllable, a combining mark, anything else: the loop stops before it and
/// the caller's general path goes on. For a composer of keystrokes (whose
/// general path copies all other text), other characters that are not
/// jamo or keys are copied too.
///
///     let input = Array("\u{1112}\u{1161}\u{11AB} \u{1100}\u{1173}\u{11AF}!".utf8) + [UInt8](repeating: 0x20, count: 16)
///     // run(base, from: 0, limit: input.count - 16, out, written: 0)
///     // writes "한 글!" and stops at the padding's last 16 bytes
///
/// Where the next step starts depends on the step before it (a final or
/// not), which caps one walk through the text at one syllable per chain of
/// dependent loads. So a long run is walked as two halves at once (the
/// second half starts after an ASCII byte, where the one walk would copy
/// ASCII or start a step too), whose steps the processor overlaps; the
/// second half's output is moved down after the first's.
///
/// O(n), a few instructions a syllable: one 8-byte load for the initial and
/// vowel and a table look-up each, one look-up by the two bytes after the
/// vowel for the final, one for the syllable and one 4-byte store; ASCII in
/// 8-byte words.
enum ConjoiningSyllableKernel {
  /// How many bytes past a step's start the loop may read: steps start only
  /// where at least this many input bytes remain.
  static let lookahead = 16

  /// How many bytes past `limit - start` the output buffer must have room
  /// for (past `out + written`): the last step, whole-word stores, and the
  /// gap between the two halves of a long run.
  static let outputSlack = 64

  /// The shortest window walked as two halves.
  static let splitLength = 1024

  /// The loop's tables, one array: for each byte after E1 84 (an
  /// initial's last byte) the initial's share of the syllable index
  /// (``initialOffset``), for each byte after E1 85 the vowel's
  /// (``vowelOffset``), each ``invalidShare`` where the byte does not end a
  /// modern jamo; the UTF-8 of syllable U+AC00 + index (``syllableOffset``),
  /// its three bytes in the low bytes of a little-endian `UInt32`; and for
  /// each pair of bytes after an E1 (``finalPairOffset``, 65,536 entries
  /// indexed by the pair as a little-endian `UInt16`) the final's index with
  /// 3 (its length) in bits 8 and up where the pair ends a modern final, or
  /// 0 (pair 0, which ends no final, is what any other byte than E1 reads).
  /// Only the few pairs Korean text holds are ever read.
  static let tables: [UInt32] = {
    var table = [UInt32](repeating: 0, count: finalPairOffset + 1 << 16)
    for byte in 0..<256 {
      table[initialOffset + byte] =
        (0x80..<0x93).contains(byte) ? UInt32(byte - 0x80) * 588 : invalidShare
      table[vowelOffset + byte] =
        (0xA1..<0xB6).contains(byte) ? UInt32(byte - 0xA1) * 28 : invalidShare
    }
    for index in 0..<HangulSyllable.count {
      let value = HangulSyllable.firstScalarValue + UInt32(index)
      table[syllableOffset + index] =
        (0xE0 | value >> 12) | (0x80 | value >> 6 & 0x3F) << 8 | (0x80 | value & 0x3F) << 16
    }
    for final in 1...27 {
      // U+11A7 + final: E1 86 A8–BF, then E1 87 80–82; the pair of bytes
      // after E1 as a little-endian `UInt16`.
      let value = 0x11A7 + final
      let pair = (0x80 | value >> 6 & 0x3F) | (0x80 | value & 0x3F) << 8
      table[finalPairOffset + pair] = UInt32(final) | 3 << 8
    }
    return table
  }()

  static let initialOffset = 0
  static let vowelOffset = 256
  static let syllableOffset = 512
  static let finalPairOffset = syllableOffset + HangulSyllable.count
  /// An initial's or vowel's share that makes any sum of shares too big.
  static let invalidShare: UInt32 = 0x8000

  /// Which ASCII a run takes.
  enum ASCIIRule {
    /// All of it (`hangul-normalize`).
    case all
    /// All but control characters and DEL (a composer of keystrokes: newline, Backspace).
    case printable
    /// Printable ASCII and newlines (whole lines of a keystroke log).
    case printableAndNewline
  }

  /// Where a run stopped.
  struct Stop {
    /// Where the input goes on.
    var position: Int
    /// Where the output goes on.
    var written: Int
    /// How many of the bytes taken were ASCII (the rest were jamo, three
    /// bytes each, and other characters copied for a composer).
    var asciiBytes: Int
    /// For each other character copied, 3 less its length (so that
    /// ``characters(from:)`` counts it once).
    var lengthAdjustment = 0

    /// How many characters (ASCII, conjoining jamo, others) were taken
    /// since `start`: a composer's keystrokes.
    func characters(from start: Int) -> Int {
      asciiBytes + (position - start - asciiBytes + lengthAdjustment) / 3
    }
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
  /// (which must have room for `limit - start + outputSlack` more bytes: the
  /// output never outgrows the input taken). All of ASCII is taken.
  @inline(never)
  static func run(
    _ input: UnsafePointer<UInt8>, from start: Int, limit: Int,
    _ out: UnsafeMutablePointer<UInt8>, written: Int
  ) -> Stop {
    walkWithTables(input, from: start, limit: limit, out, written: written, .all)
  }

  /// ``run(_:from:limit:_:written:)`` for a composer of keystrokes: it stops
  /// before ASCII control characters and DEL (newline, Backspace).
  @inline(never)
  static func runStoppingAtControls(
    _ input: UnsafePointer<UInt8>, from start: Int, limit: Int,
    _ out: UnsafeMutablePointer<UInt8>, written: Int
  ) -> Stop {
    walkWithTables(input, from: start, limit: limit, out, written: written, .printable)
  }

  /// ``run(_:from:limit:_:written:)`` for whole lines of a keystroke log:
  /// it takes newlines and stops before other ASCII control characters and DEL.
  @inline(never)
  static func runTakingNewlines(
    _ input: UnsafePointer<UInt8>, from start: Int, limit: Int,
    _ out: UnsafeMutablePointer<UInt8>, written: Int
  ) -> Stop {
    walkWithTables(input, from: start, limit: limit, out, written: written, .printableAndNewline)
  }

  /// The run of an entry point under its `rule`, with ``tables`` at hand:
  /// the one place for the set-up the entry points share. Inlined into
  /// each, so that `rule` is a constant there and each has a loop of its own.
  @inline(__always)
  private static func walkWithTables(
    _ input: UnsafePointer<UInt8>, from start: Int, limit: Int,
    _ out: UnsafeMutablePointer<UInt8>, written: Int, _ rule: ASCIIRule
  ) -> Stop {
    tables.withUnsafeBufferPointer { table in
      // The tables are never empty; without them nothing would be taken.
      guard let table = table.baseAddress else {
        return Stop(position: start, written: written, asciiBytes: 0)
      }
      assert(start >= 0 && written >= 0, "positions inside the buffers")
      return walk(input, from: start, limit: limit, out, written: written, table, rule)
    }
  }

  /// Where the second half of a run from `start` to `limit` may start: just
  /// after a space or newline near the middle (where the one walk copies
  /// that byte and goes on as it would from the next), or `nil`.
  @inline(__always)
  private static func secondHalf(
    _ input: UnsafePointer<UInt8>, from start: Int, limit: Int
  ) -> Int? {
    var split = start + (limit - start) / 2
    let end = min(limit, split + 256)
    while split < end {
      let byte = input[split]
      if byte == 0x20 || byte == 0x0A { return split + 1 }
      split += 1
    }
    return nil
  }

  /// The run, in windows of ``windowLength`` bytes: where the first half
  /// of a window stops, the second half's work is lost, so the halves are
  /// kept short.
  @inline(__always)
  private static func walk(
    _ input: UnsafePointer<UInt8>, from start: Int, limit: Int,
    _ out: UnsafeMutablePointer<UInt8>, written: Int, _ table: UnsafePointer<UInt32>,
    _ rule: ASCIIRule
  ) -> Stop {
    var cursor = Stop(position: start, written: written, asciiBytes: 0)
    while true {
      let end = min(limit, cursor.position &+ windowLength)
      cursor = walk(input, cursor, limit: end, out, table, rule)
      // Stopped before the window's end, or at the end of the run.
      guard cursor.position > end, end < limit else { return cursor }
    }
  }

  /// The length of the windows of a long run.
  static let windowLength = 4096

  /// The run from `cursor` to `limit`, as two halves at once where it is long.
  @inline(__always)
  private static func walk(
    _ input: UnsafePointer<UInt8>, _ cursor: Stop, limit: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ table: UnsafePointer<UInt32>, _ rule: ASCIIRule
  ) -> Stop {
    var first = cursor
    let start = cursor.position
    let written = cursor.written
    guard limit - start >= splitLength, let split = secondHalf(input, from: start, limit: limit)
    else {
      while first.position <= limit, step(&first, input, out, table, rule) {}
      return first
    }
    // The second half writes past where the first half can reach.
    let secondOut = written + (split - start) + 32
    var second = Stop(position: split, written: secondOut, asciiBytes: 0)
    var secondStopped = false
    while first.position < split, second.position <= limit {
      guard step(&first, input, out, table, rule) else { return first }
      if !step(&second, input, out, table, rule) {
        secondStopped = true
        break
      }
    }
    while first.position < split {
      guard step(&first, input, out, table, rule) else { return first }
    }
    if !secondStopped {
      while second.position <= limit, step(&second, input, out, table, rule) {}
    }
    // The first half's last step may have taken ASCII past the split (the
    // second half's first bytes): those bytes are dropped from its share.
    let overshoot = first.position - split
    let joined = first.written - overshoot
    UnsafeMutableRawPointer(out + joined).copyMemory(
      from: out + secondOut, byteCount: second.written - secondOut)
    return Stop(
      position: second.position, written: joined + second.written - secondOut,
      asciiBytes: first.asciiBytes - overshoot + second.asciiBytes,
      lengthAdjustment: first.lengthAdjustment + second.lengthAdjustment)
  }

  /// For a composer: the length of the well-formed character that `word`
  /// starts with (its first byte not ASCII) where the composer's general
  /// path copies it as text whatever comes before or after it: not a
  /// conjoining jamo (U+1100–U+11FF, U+A960–U+A97F, U+D7B0–U+D7FF), a
  /// compatibility jamo (a key) or a ``KeyLogControl`` character; 0
  /// elsewhere. (Not inlined: the walk's registers stay its own.)
  @inline(never)
  private static func textLength(_ word: UInt64) -> Int {
    let lead = UInt32(truncatingIfNeeded: word) & 0xFF
    let second = UInt32(truncatingIfNeeded: word >> 8) & 0xFF
    let third = UInt32(truncatingIfNeeded: word >> 16) & 0xFF
    let fourth = UInt32(truncatingIfNeeded: word >> 24) & 0xFF
    let length: Int
    if lead &- 0xC2 < 0x1E {
      guard second & 0xC0 == 0x80 else { return 0 }
      length = 2
    } else if lead & 0xF0 == 0xE0 {
      guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return 0 }
      let value = (lead & 0x0F) << 12 | (second & 0x3F) << 6 | third & 0x3F
      guard value >= 0x800, value &- 0xD800 >= 0x800, value &- 0x1100 >= 0x100,
        value &- 0xA960 >= 0x20, value &- 0xD7B0 >= 0x50,
        value &- Jamo.firstScalarValue >= UInt32(Jamo.count),
        value != KeyLogControl.separator.value, value != KeyLogControl.literalPrefix.value
      else { return 0 }
      length = 3
    } else if lead &- 0xF0 < 5 {
      guard second & 0xC0 == 0x80, third & 0xC0 == 0x80, fourth & 0xC0 == 0x80 else { return 0 }
      let value = (lead & 0x07) << 18 | (second & 0x3F) << 12 | (third & 0x3F) << 6 | fourth & 0x3F
      guard value &- 0x1_0000 < 0x10_0000 else { return 0 }
      length = 4
    } else {
      return 0
    }
    return length
  }

  /// Whether `rule` takes the ASCII byte `byte` (0 or 1).
  @inline(__always)
  private static func takes(_ byte: UInt32, _ rule: ASCIIRule) -> UInt32 {
    switch rule {
    case .all: return byte < 0x80 ? 1 : 0
    case .printable: return byte &- 0x20 < 0x5F ? 1 : 0
    case .printableAndNewline: return byte &- 0x20 < 0x5F || byte == 0x0A ? 1 : 0
    }
  }

  /// One step at `cursor.position` (a syllable and perhaps one ASCII byte
  /// after it, or up to eight ASCII bytes); `false`, with nothing taken,
  /// where the walk stops.
  @inline(__always)
  private static func step(
    _ cursor: inout Stop, _ input: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>,
    _ table: UnsafePointer<UInt32>, _ rule: ASCIIRule
  ) -> Bool {
    let at = input + cursor.position
    let word = UnsafeRawPointer(at).loadUnaligned(as: UInt64.self)
    if word & 0xFF_FF00_FFFF == 0x85_E100_84E1 {
      // E1 84 xx E1 85 yy: an initial and a vowel if xx and yy are in range.
      let share = table[initialOffset &+ Int(at[2])] &+ table[vowelOffset &+ Int(at[5])]
      guard share < invalidShare else { return false }
      assert(share < UInt32(HangulSyllable.count), "a modern initial and vowel")
      // E1 86|87 zz: a final. The two bytes after E1 pick its entry (0 where
      // they end no final; after any other byte, pair 0 is read). No
      // branch, as finals come and go at random.
      let pair = UInt32(UnsafeRawPointer(at + 7).loadUnaligned(as: UInt16.self))
      let afterVowel = UInt32(at[6])
      let afterFinal = UInt32(at[9])
      let entry = table[finalPairOffset &+ Int(pair & (afterVowel == 0xE1 ? 0xFFFF : 0))]
      // One ASCII byte after the syllable (a space between words) is taken
      // in the same step, again without a branch: the walk then goes from
      // syllable to syllable across most word breaks.
      let next = entry == 0 ? afterVowel : afterFinal
      let takesNext = takes(next, rule)
      UnsafeMutableRawPointer(out + cursor.written).storeBytes(
        of: table[syllableOffset &+ Int(share &+ entry & 0xFF)] | next << 24, as: UInt32.self)
      cursor.written &+= 3 &+ Int(takesNext)
      cursor.position &+= 6 &+ Int(entry >> 8 &+ takesNext)
      cursor.asciiBytes &+= Int(takesNext)
      return true
    }
    if word & 0x80 != 0 {
      // For a composer, other text is copied; in a normal form, what comes
      // after it may join it, so the walk stops.
      guard rule != .all else { return false }
      let length = textLength(word)
      guard length > 0 else { return false }
      UnsafeMutableRawPointer(out + cursor.written).storeBytes(of: word, as: UInt64.self)
      cursor.written &+= length
      cursor.position &+= length
      cursor.lengthAdjustment &+= 3 &- length
      return true
    }
    // ASCII: up to the first other byte of the word.
    var take = ByteSearch.leadingASCII(word)
    if rule != .all {
      // The first byte below 0x20 or equal to 0x7F (the lowest flag of
      // each test is exact; flags above it may be borrows).
      let flags =
        ByteSearch.bytesBelow(0x20, in: word)
        | ByteSearch.zeroBytes(word ^ ByteSearch.broadcast(0x7F))
      let control = ByteSearch.firstFlagged(flags)
      if control < take {
        // A newline is taken, as the last byte of the step, where the rule takes it.
        take = rule == .printableAndNewline && at[control] == 0x0A ? control &+ 1 : control
      }
      guard take > 0 else { return false }
    }
    UnsafeMutableRawPointer(out + cursor.written).storeBytes(of: word, as: UInt64.self)
    cursor.written &+= take
    cursor.position &+= take
    cursor.asciiBytes &+= take
    return true
  }
}
