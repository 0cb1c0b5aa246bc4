/// The table-driven loop of ``DecomposeFilter``: what each ASCII byte and
/// each precomposed syllable becomes, as UTF-8 laid out for copying in whole
/// 8-byte words, and a loop that copies them through pointers.
///
/// The tables are the ``Decomposer``'s own output for each unit alone, so
/// the loop writes exactly what the decomposer would; it stops at the first
/// unit whose output depends on what came before (a conjoining jamo, U+200C,
/// U+2060) or that is not UTF-8, for the decomposer to take. A compatibility
/// jamo in the key forms depends on the unit before it too, but only through
/// the decomposer's ``SeparatorTable``: the loop writes its keys, after a
/// separator where the table says so, and stops only where the table does
/// not know the unit before yet.
///
///     let fast = DecomposeFastPath(Decomposer(form: .qwerty))
///     // fast.run over "닭 a" writes "ekfr \u{2060}a" and stops at the end.
///
/// Building takes O(128) per filter (the syllable table is built once per
/// run); the loop is O(n) with no calls,
/// bounds checks or reference counting per unit.
struct DecomposeFastPath: Sendable {
  /// What each syllable becomes (``DecompositionTable``, shared, not copied):
  /// entries of whole words, each with its length in its last byte.
  let table: DecompositionTable
  /// Each ASCII byte's output (up to four bytes, little-endian) in the low 32
  /// bits and its length above.
  let ascii: [UInt64]
  /// Which ASCII bytes are not written as they are, for the word-at-a-time check.
  let prefixesControls: Bool
  let prefixesLetters: Bool
  let wordPathAllowed: Bool
  /// Whether a compatibility jamo is written as its keys (the key forms).
  let jamoAsKeys: Bool
  /// Whether a compatibility jamo is written as its table entry with no
  /// separator (initials with clusters split), else as it is.
  let jamoFromTable: Bool
  /// Whether separators are written at all (not with `plain`).
  let separates: Bool

  /// The most bytes written for one byte read, for sizing the output: four
  /// for an ASCII byte with its literal prefix, or a third of the longest
  /// syllable's output.
  let expansion: Int
  /// Bytes the loop may write past what it reports as written: the rest of
  /// an entry's last word.
  let slack: Int

  init(_ decomposer: Decomposer) {
    var asciiEntries = [UInt64](repeating: 0, count: 128)
    var special: [UInt8] = []
    for code in 0..<UInt8(128) {
      var alone = decomposer
      alone.finish()
      var output: [UInt8] = []
      alone.decompose(.scalar(Unicode.Scalar(code)), into: &output)
      var packed: UInt64 = 0
      for (position, byte) in output.prefix(4).enumerated() {
        packed |= UInt64(byte) << (8 * position)
      }
      asciiEntries[Int(code)] = packed | UInt64(min(output.count, 4)) << 32
      if output != [code] { special.append(code) }
    }
    ascii = asciiEntries
    let controls: [UInt8] = [0x08, 0x7F]
    let letters =
      Array(UInt8(ascii: "A")...UInt8(ascii: "Z")) + Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
    prefixesControls = special.contains(0x08) || special.contains(0x7F)
    prefixesLetters = special.contains { letters.contains($0) }
    // The word check knows only these two groups.
    wordPathAllowed =
      special.allSatisfy { controls.contains($0) || letters.contains($0) }
      && (!prefixesControls || controls.allSatisfy(special.contains))
      && (!prefixesLetters || letters.allSatisfy(special.contains))
    table = decomposer.table
    jamoAsKeys = decomposer.form.isKeystrokes
    jamoFromTable = decomposer.splitsClusters
    separates = decomposer.separators != nil
    // A jamo's keys and the separator before them, for three bytes read.
    expansion = max(4, (table.longestSyllable + 2) / 3, (table.words * 8 + 3 + 2) / 3)
    slack = table.words * 8 + 8
  }

  /// Where the loop stopped, how many bytes it wrote, and the last unit it
  /// took: a syllable's scalar value (in the key forms also a compatibility
  /// jamo's), 0 for any other text, nil for none.
  struct Stop {
    var position: Int
    var written: Int
    var lastUnit: UInt32?
  }

  /// Decomposes `input[start...]` into `output` (room for
  /// `(input.count - start) * expansion + slack` bytes) until a unit it does
  /// not take or the end. `previous` is the decomposer's Hangul unit before
  /// `start` and `separators` the rows of its ``SeparatorTable`` (empty
  /// when it has none yet, or none at all).
  func run(
    _ input: UnsafeBufferPointer<UInt8>, from start: Int, into output: UnsafeMutablePointer<UInt8>,
    previous: Unicode.Scalar? = nil, separators: [UInt64] = []
  ) -> Stop {
    table.entries.withUnsafeBytes { entries in
      ascii.withUnsafeBufferPointer { asciiEntries in
        separators.withUnsafeBufferPointer { rows in
          guard let base = input.baseAddress, let entryBase = entries.baseAddress,
            let asciiBase = asciiEntries.baseAddress
          else { return Stop(position: start, written: 0, lastUnit: nil) }
          assert((0...input.count).contains(start), "the loop starts inside the input")
          assert(entries.count >= table.words * 8 * HangulSyllable.count, "an entry per syllable")
          assert(asciiEntries.count == 128, "an entry per ASCII byte")
          let tables = Tables(
            syllables: entryBase, words: table.words, ascii: asciiBase,
            prefixesControls: prefixesControls, prefixesLetters: prefixesLetters,
            wordPathAllowed: wordPathAllowed, jamoAsKeys: jamoAsKeys, jamoFromTable: jamoFromTable,
            separates: separates,
            separatorRows: rows.count == SeparatorTable.unitCount ? rows.baseAddress : nil,
            start: base + start,
            unitBeforeStart: previous.flatMap(SeparatorTable.unit(of:)) ?? -1)
          let (position, written) = Self.loop(
            base, count: input.count, from: start, into: output, tables)
          return Stop(
            position: position, written: written,
            lastUnit: Self.lastUnit(base, from: start, to: position, jamoAsKeys: jamoAsKeys))
        }
      }
    }
  }

  /// The last unit the loop took before `end`, found from the bytes: three
  /// bytes that encode a syllable can only be the last unit taken (their lead
  /// is no continuation byte, and no other unit ends in two continuation
  /// bytes after such a lead).
  @inline(__always)
  private static func lastUnit(
    _ input: UnsafePointer<UInt8>, from start: Int, to end: Int, jamoAsKeys: Bool
  ) -> UInt32? {
    guard end > start else { return nil }
    guard end - start >= 3 else { return 0 }
    let lead = input[end - 3]
    let second = input[end - 2]
    let third = input[end - 1]
    guard lead & 0xF0 == 0xE0, second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return 0 }
    let value = UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
    if value &- HangulSyllable.firstScalarValue < UInt32(HangulSyllable.count) { return value }
    // In the key forms a jamo is Hangul the next jamo may need a separator after.
    return jamoAsKeys && value &- Jamo.firstScalarValue < UInt32(Jamo.count) ? value : 0
  }

  /// The tables as raw pointers, for the loop.
  private struct Tables {
    let syllables: UnsafeRawPointer
    let words: Int
    let ascii: UnsafePointer<UInt64>
    let prefixesControls: Bool
    let prefixesLetters: Bool
    let wordPathAllowed: Bool
    let jamoAsKeys: Bool
    let jamoFromTable: Bool
    let separates: Bool
    /// The rows of the decomposer's ``SeparatorTable`` (nil: none yet, or none).
    let separatorRows: UnsafePointer<UInt64>?
    /// Where the loop starts, and the unit index of the Hangul before it (or -1).
    let start: UnsafePointer<UInt8>
    let unitBeforeStart: Int
  }

  /// Whether eight ASCII bytes are all written as they are.
  @inline(__always)
  private static func isPlain(_ word: UInt64, _ tables: Tables) -> Bool {
    if tables.prefixesControls,
      ByteSearch.zeroBytes(word ^ ByteSearch.broadcast(0x08))
        | ByteSearch.zeroBytes(word ^ ByteSearch.broadcast(0x7F)) != 0
    {
      return false
    }
    if tables.prefixesLetters {
      // A byte in a...z after folding case: above 0x60 and below 0x7B.
      let folded = word | 0x2020_2020_2020_2020
      let letters =
        (folded &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(folded &+ 0x0505_0505_0505_0505) & ByteSearch.highBits
      if letters != 0 { return false }
    }
    return true
  }

  /// Whether a scalar from U+0080 on, not a syllable or a compatibility
  /// jamo of U+3131–U+3163, is written as it is, whatever came before.
  @inline(__always)
  private static func passesThrough(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100..<0x1200, 0x200C, 0x2060, 0xA960..<0xA980, 0xD7B0..<0xD800: false
    default: true
    }
  }

  /// Whether jamo `offset` at `cursor` needs a separator before its keys:
  /// the unit before it is read from the input (three bytes back, a
  /// syllable or a jamo, or what the decomposer had before the start);
  /// `nil` when the table does not know that unit's row yet.
  @inline(__always)
  private static func needsSeparator(
    _ cursor: UnsafePointer<UInt8>, jamo offset: UInt32, _ tables: Tables
  ) -> Bool? {
    guard tables.separates else { return false }
    // A table not allocated yet knows nothing yet.
    guard let rows = tables.separatorRows else { return nil }
    var unit = -1
    let distance = cursor - tables.start
    if distance == 0 {
      unit = tables.unitBeforeStart
    } else if distance >= 3, cursor[-3] & 0xF0 == 0xE0 {
      // Three bytes back start a three-byte unit the loop took: the one before.
      let value =
        UInt32(cursor[-3] & 0x0F) << 12 | UInt32(cursor[-2] & 0x3F) << 6 | UInt32(cursor[-1] & 0x3F)
      let syllable = value &- HangulSyllable.firstScalarValue
      let jamo = value &- Jamo.firstScalarValue
      if syllable < UInt32(HangulSyllable.count) {
        unit = Int(syllable)
      } else if jamo < UInt32(Jamo.count) {
        unit = HangulSyllable.count + Int(jamo)
      }
    }
    guard unit >= 0 else { return false }
    let row = rows[unit]
    guard row & SeparatorTable.known != 0 else { return nil }
    return row >> UInt64(offset) & 1 != 0
  }

  /// The loop, specialized for the number of words a syllable takes; returns
  /// where it stopped and how many bytes it wrote.
  private static func loop(
    _ input: UnsafePointer<UInt8>, count: Int, from start: Int,
    into output: UnsafeMutablePointer<UInt8>, _ tables: Tables
  ) -> (Int, Int) {
    switch tables.words {
    case ...1: loop(input, count: count, from: start, into: output, tables, words: 1)
    case 2: loop(input, count: count, from: start, into: output, tables, words: 2)
    case 3: loop(input, count: count, from: start, into: output, tables, words: 3)
    default: loop(input, count: count, from: start, into: output, tables, words: tables.words)
    }
  }

  @inline(__always)
  private static func loop(
    _ input: UnsafePointer<UInt8>, count: Int, from start: Int,
    into output: UnsafeMutablePointer<UInt8>, _ tables: Tables, words: Int
  ) -> (Int, Int) {
    var cursor = input + start
    let end = input + count
    var target = output
    // Eight bytes or more ahead, no unit can run past the end: no checks.
    if count - start >= 8 {
      let safeEnd = end - 8
      while cursor <= safeEnd {
        assert(end - cursor >= 8, "the word loaded lies inside the input")
        // Syllables, nearly all of Korean text, two at a time when they
        // come two in a row, straight from one load of eight bytes.
        let word = UInt64(littleEndian: UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self))
        let index = syllableIndex(word)
        if index < UInt32(HangulSyllable.count) {
          copyEntry(index, to: &target, tables, words: words)
          let nextIndex = syllableIndex(word &>> 24)
          if nextIndex < UInt32(HangulSyllable.count) {
            copyEntry(nextIndex, to: &target, tables, words: words)
            cursor += 6
          } else {
            cursor += 3
          }
          continue
        }
        // An ASCII byte among other text (the space between words): its
        // entry here, as `step` would write it, since `step` is too large
        // to inline and a call per space cost a third of the loop. When
        // the eight bytes are all ASCII, `step` may take them at once.
        let lead = UInt8(truncatingIfNeeded: word)
        if lead < 0x80, word & ByteSearch.highBits != 0 {
          let entry = tables.ascii[Int(lead)]
          UnsafeMutableRawPointer(target).storeBytes(
            of: UInt32(truncatingIfNeeded: entry), as: UInt32.self)
          target += Int(truncatingIfNeeded: entry >> 32)
          cursor += 1
          continue
        }
        guard step(&cursor, end, &target, tables, words: words, checksEnd: false) else {
          return (cursor - input, target - output)
        }
      }
    }
    while cursor < end {
      guard step(&cursor, end, &target, tables, words: words, checksEnd: true) else { break }
    }
    return (cursor - input, target - output)
  }

  /// The syllable index of the three-byte sequence in the low bytes of
  /// `word` (first byte lowest), or a number past the syllables when they
  /// are not one.
  @inline(__always)
  private static func syllableIndex(_ word: UInt64) -> UInt32 {
    guard word & 0xC0_C0F0 == 0x80_80E0 else { return UInt32.max }
    let value = (word & 0x0F) &<< 12 | (word &>> 2) & 0xFC0 | (word &>> 16) & 0x3F
    return UInt32(truncatingIfNeeded: value) &- HangulSyllable.firstScalarValue
  }

  /// Copies the entry of syllable `index` in whole words and moves `target`
  /// on by its length, found in the last byte of the last word.
  @inline(__always)
  private static func copyEntry(
    _ index: UInt32, to target: inout UnsafeMutablePointer<UInt8>, _ tables: Tables, words: Int
  ) {
    let source = tables.syllables + Int(index) &* (words &* 8)
    let destination = UnsafeMutableRawPointer(target)
    var last = source.loadUnaligned(as: UInt64.self)
    destination.storeBytes(of: last, as: UInt64.self)
    for word in 1..<max(words, 1) {
      last = source.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self)
      destination.storeBytes(of: last, toByteOffset: word &* 8, as: UInt64.self)
    }
    let length = Int(truncatingIfNeeded: UInt64(littleEndian: last) >> 56)
    assert(length < max(words, 1) * 8, "an entry's length counts bytes of the words stored")
    target += length
  }

  /// Takes one unit at `cursor`; `false` when it is one for the decomposer.
  @inline(__always)
  private static func step(
    _ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>,
    _ target: inout UnsafeMutablePointer<UInt8>, _ tables: Tables, words: Int, checksEnd: Bool
  ) -> Bool {
    assert(cursor < end, "a unit starts before the end")
    assert(checksEnd || end - cursor >= 8, "unchecked steps have eight bytes ahead")
    let lead = cursor.pointee
    if lead < 0x80 {
      if tables.wordPathAllowed, !checksEnd || end - cursor >= 8 {
        let word = UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self)
        if word & ByteSearch.highBits == 0, isPlain(word, tables) {
          UnsafeMutableRawPointer(target).storeBytes(of: word, as: UInt64.self)
          target += 8
          cursor += 8
          return true
        }
      }
      let entry = tables.ascii[Int(lead)]
      UnsafeMutableRawPointer(target).storeBytes(
        of: UInt32(truncatingIfNeeded: entry), as: UInt32.self)
      target += Int(truncatingIfNeeded: entry >> 32)
      cursor += 1
      return true
    }
    if lead & 0xF0 == 0xE0 {
      if checksEnd, end - cursor < 3 { return false }
      let second = cursor[1]
      let third = cursor[2]
      guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return false }
      let value = UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
      let index = value &- HangulSyllable.firstScalarValue
      if index < UInt32(HangulSyllable.count) {
        copyEntry(index, to: &target, tables, words: words)
        cursor += 3
        return true
      }
      let jamo = value &- Jamo.firstScalarValue
      if jamo < UInt32(Jamo.count), tables.jamoAsKeys {
        // A jamo's keys, after a separator where they would join what came before.
        guard let separated = needsSeparator(cursor, jamo: jamo, tables) else { return false }
        if separated {
          target[0] = 0xE2
          target[1] = 0x80
          target[2] = 0x8C
          target += 3
        }
        copyEntry(UInt32(HangulSyllable.count) &+ jamo, to: &target, tables, words: words)
        cursor += 3
        return true
      }
      if jamo < UInt32(Jamo.count), tables.jamoFromTable {
        copyEntry(UInt32(HangulSyllable.count) &+ jamo, to: &target, tables, words: words)
        cursor += 3
        return true
      }
      // Not a syllable: overlong and surrogate forms are not UTF-8.
      guard value >= 0x800, value & 0xF800 != 0xD800, passesThrough(value) else { return false }
      target[0] = lead
      target[1] = second
      target[2] = third
      target += 3
      cursor += 3
      return true
    }
    if lead >= 0xC2, lead <= 0xDF {
      if checksEnd, end - cursor < 2 { return false }
      guard cursor[1] & 0xC0 == 0x80 else { return false }
      target[0] = lead
      target[1] = cursor[1]
      target += 2
      cursor += 2
      return true
    }
    guard lead >= 0xF0, lead <= 0xF4 else { return false }
    if checksEnd, end - cursor < 4 { return false }
    let second = cursor[1]
    guard second >= (lead == 0xF0 ? 0x90 : 0x80), second <= (lead == 0xF4 ? 0x8F : 0xBF),
      cursor[2] & 0xC0 == 0x80, cursor[3] & 0xC0 == 0x80
    else { return false }
    UnsafeMutableRawPointer(target).storeBytes(
      of: UnsafeRawPointer(cursor).loadUnaligned(as: UInt32.self), as: UInt32.self)
    target += 4
    cursor += 4
    return true
  }
}
