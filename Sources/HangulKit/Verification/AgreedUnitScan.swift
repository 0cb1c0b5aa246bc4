/// The bulk of ``VerifyingFilter``'s fast scan: output passed a word at a
/// time while it is ASCII or Hangul units that ICU has agreed with; it stops
/// at anything else (or 16 bytes before the end) for the unit-by-unit scan.
///
///     var position = 0
///     AgreedUnitScan.passDecomposed(base, count, &position, nil)
///     // position: the first byte that is not ASCII or a modern group (or 16 before the end)
///
/// Units are what ``OutputVerifier/provesEveryUnit()`` proves: in decomposed
/// output modern initial–vowel(–final) groups, in composed output
/// syllables and compatibility jamo; each is a starter that nothing joins,
/// so lines of them and ASCII agree with ICU. Time O(n), a word at a time,
/// with two 64 KiB tables that say which byte pairs make a group.
enum AgreedUnitScan {
  /// Indexed by the third byte of an initial and the third byte of a vowel
  /// (`initial | vowel << 8`): 1 when they are E1 84 80–92 and E1 85 A1–B5.
  private static let modernInitialVowel: [UInt8] = (0..<0x1_0000).map { key in
    let initial = key & 0xFF
    let vowel = key >> 8
    return initial &- 0x80 < 19 && vowel &- 0xA1 < 21 ? 1 : 0
  }

  /// Indexed by the second and third bytes of a code point led by E1
  /// (`second | third << 8`): 1 for a modern final, E1 86 A8 – E1 87 82.
  private static let modernFinal: [UInt8] = (0..<0x1_0000).map { key in
    let second = key & 0xFF
    let third = key >> 8
    guard second & 0xFE == 0x86, third & 0xC0 == 0x80 else { return 0 }
    return ((second & 1) << 6 | third & 0x3F) &- 0x28 < 27 ? 1 : 0
  }

  /// Decomposed output: ASCII and modern groups E1 84 80–92, E1 85 A1–B5
  /// and perhaps E1 86 A8 – E1 87 82 whose states (``VerifyingFilter``'s
  /// answers from ICU, 1 agreeing) are 1; `states` nil: every group agrees.
  static func passDecomposed(
    _ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int,
    _ states: UnsafePointer<UInt8>?
  ) {
    guard count &- position >= 16 else { return }
    modernInitialVowel.withUnsafeBufferPointer { initialVowel in
      modernFinal.withUnsafeBufferPointer { final in
        guard let initialVowel = initialVowel.baseAddress, let final = final.baseAddress else {
          return
        }
        position =
          if let states {
            passGroups(base, count, from: position, initialVowel, final, states)
          } else {
            passGroups(base, count, from: position, initialVowel, final)
          }
      }
    }
  }

  /// Passes one unit at `cursor` when every group agrees: the ASCII a word
  /// starts with, or a group (whose shape is all there is to check);
  /// `false` for anything else.
  @inline(__always)
  private static func stepGroup(
    _ cursor: inout UnsafePointer<UInt8>, _ initialVowel: UnsafePointer<UInt8>,
    _ final: UnsafePointer<UInt8>
  ) -> Bool {
    let word = UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self)
    if word & 0x80 == 0 {
      cursor += ByteSearch.leadingASCII(word)
      return true
    }
    // E1 84 xx E1 85 yy, xx and yy from the table.
    guard word & 0x0000_00FF_FF00_FFFF == 0x0000_0085_E100_84E1,
      initialVowel[Int(cursor[2]) | Int(cursor[5]) &<< 8] != 0
    else { return false }
    // Then perhaps E1 and a final's two bytes: 6 or 9 bytes with no branch
    // (whether a final follows is as good as random).
    let pair = UnsafeRawPointer(cursor + 7).loadUnaligned(as: UInt16.self)
    let leadIsE1 = (Int(truncatingIfNeeded: ((word &>> 48 & 0xFF) ^ 0xE1) &- 1) &>> 63) & 1
    cursor += 6 &+ 3 &* (Int(final[Int(pair)]) & leadIsE1)
    return true
  }

  /// The loop of ``passDecomposed(_:_:_:_:)`` when every group agrees:
  /// sixteen bytes a step by ``BlockScan/passGroups(_:_:from:)``, a unit a
  /// step where it cannot go on (near the end, or where it cannot begin),
  /// trying the blocks again after each unit.
  @inline(never)
  private static func passGroups(
    _ base: UnsafePointer<UInt8>, _ count: Int, from start: Int,
    _ initialVowel: UnsafePointer<UInt8>, _ final: UnsafePointer<UInt8>
  ) -> Int {
    var cursor = base + start
    let last = base + (count &- 16)
    while true {
      cursor = base + BlockScan.passGroups(base, count, from: cursor - base)
      guard cursor <= last, stepGroup(&cursor, initialVowel, final) else { break }
    }
    return cursor - base
  }

  /// Decomposed output when every group agrees, in two parts: the bytes
  /// `0..<middle` and `middle..<count` from `first` and `second`. Returns
  /// where each stopped, as ``passDecomposed(_:_:_:_:)`` does.
  static func passDecomposedInTwo(
    _ base: UnsafePointer<UInt8>, middle: Int, _ count: Int, _ first: Int, _ second: Int
  ) -> (Int, Int) {
    var firstStop = first
    var secondStop = second
    passDecomposed(base, middle, &firstStop, nil)
    passDecomposed(base, count, &secondStop, nil)
    return (firstStop, secondStop)
  }

  /// The loop of ``passDecomposed(_:_:_:_:)`` asking `states` of each group.
  @inline(never)
  private static func passGroups(
    _ base: UnsafePointer<UInt8>, _ count: Int, from start: Int,
    _ initialVowel: UnsafePointer<UInt8>, _ final: UnsafePointer<UInt8>,
    _ states: UnsafePointer<UInt8>
  ) -> Int {
    var cursor = base + start
    let last = base + (count &- 16)
    while cursor <= last {
      let word = UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self)
      if word & 0x80 == 0 {
        cursor += ByteSearch.leadingASCII(word)
        continue
      }
      guard word & 0x0000_00FF_FF00_FFFF == 0x0000_0085_E100_84E1,
        initialVowel[Int(cursor[2]) | Int(cursor[5]) &<< 8] != 0
      else { break }
      let pair = UnsafeRawPointer(cursor + 7).loadUnaligned(as: UInt16.self)
      let hasFinal = cursor[6] == 0xE1 && final[Int(pair)] != 0
      let finalIndex = hasFinal ? Int(pair &>> 8 & 0x3F | (pair & 1) &<< 6) &- 0x27 : 0
      // E1 84 80+i is U+1100+i; E1 85 xx is U+1140 + (xx & 0x3F).
      let index =
        HangulSyllable.index(
          initial: 0x1100 | UInt32(cursor[2] & 0x3F), vowel: 0x1140 | UInt32(cursor[5] & 0x3F))
        &+ finalIndex
      guard states[index] == 1 else { break }
      cursor += hasFinal ? 9 : 6
    }
    return cursor - base
  }

  /// Composed output: ASCII, syllables and compatibility jamo whose states
  /// are 1 (syllable `index` at `index`, jamo U+3131 + i at 11,172 + i);
  /// with `everyJamoAgrees` (every state is 1), sixteen bytes a step by
  /// ``BlockScan/passComposed(_:_:from:)``, and any two code points of
  /// U+3100–U+31FF in one step.
  @inline(never)
  static func passComposed(
    _ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int,
    _ states: UnsafePointer<UInt8>, everyJamoAgrees: Bool
  ) {
    guard count &- position >= 16 else { return }
    var cursor = base + position
    let last = base + (count &- 16)
    defer { position = cursor - base }
    // Where the block scan is tried next: at once after the unit it
    // stopped at, 16 bytes on after one it could not begin with.
    var blocksFrom = cursor
    while cursor <= last {
      // Every syllable and jamo agrees: sixteen bytes a step.
      if everyJamoAgrees, cursor >= blocksFrom {
        let stop = base + BlockScan.passComposed(base, count, from: cursor - base)
        blocksFrom = stop == cursor ? cursor + 16 : stop + 1
        cursor = stop
        guard cursor <= last else { break }
      }
      let word = UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self)
      if word & 0x80 == 0 {
        cursor += ByteSearch.leadingASCII(word)
        continue
      }
      assert(base + count - cursor >= 16, "the word and the block scan lie inside the text")
      if everyJamoAgrees, word & 0xC0FC_FFC0_FCFF == 0x8084_E380_84E3 {
        // E3 84–87 xx twice: compatibility jamo, or code points that are not Hangul.
        cursor += 6
        continue
      }
      // 1110xxxx 10xxxxxx 10xxxxxx: a syllable or a compatibility jamo.
      guard word & 0xC0_C0F0 == 0x80_80E0 else { return }
      let value = UInt32(
        truncatingIfNeeded: (word & 0x0F) &<< 12 | (word & 0x3F00) &>> 2 | (word &>> 16) & 0x3F)
      let index: UInt32
      if value &- HangulSyllable.firstScalarValue < UInt32(HangulSyllable.count) {
        index = value &- HangulSyllable.firstScalarValue
      } else if value &- 0x3131 < 0x5E {
        index = UInt32(HangulSyllable.count) &+ (value &- 0x3131)
      } else {
        return
      }
      assert(index < UInt32(HangulSyllable.count + 0x5E), "a state per syllable and jamo")
      guard states[Int(index)] == 1 else { return }
      cursor += 3
    }
  }
}
