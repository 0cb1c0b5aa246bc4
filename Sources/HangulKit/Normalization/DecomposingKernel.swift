/// The inner loop of NFD and NFKD (``NormalizationPass``): one pointer
/// walk over the input that writes ASCII eight bytes at a time, each
/// precomposed syllable as its 16-byte ``SyllableDecompositions`` entry (one
/// load and one store of two words, advancing by the entry's length), and
/// every other code point that is in the form alone as it is, and stops at
/// anything else for the general path.
///
///     // "한 a" → E1 84 92 E1 85 A1 E1 86 AB 20 61, stopping 8 bytes before the end
///     let stop = DecomposingKernel.run(base, from: 0, count: n, out, written: 0, flags, syllables, twoByteLeads: 1)
///
/// The loop reads only while eight bytes are left (no bounds checks) and
/// recognises every sequence exactly, overlong, surrogate and cut-off forms
/// included, so what it passes is well-formed UTF-8 with no second check.
/// The output must have room for three bytes per input byte and 64 more.
/// Time O(n): about 20 instructions per syllable.
enum DecomposingKernel {
  /// Where the kernel stopped, and whether it was because fewer than eight
  /// bytes were left (else at a code point for the general path).
  struct Stop {
    var position: Int
    var written: Int
    var nearEnd: Bool
  }

  /// Writes the NFD of `base[start...]` at `out + written` until a code
  /// point it does not take or until fewer than eight bytes are left.
  /// `flags` is the ``NormalizationProperties`` table, `syllables` the
  /// ``SyllableDecompositions`` bytes; `twoByteLeads` what
  /// ``NormalizedTextScan`` takes of the two-byte code points in this form.
  @inline(never)
  static func run(
    _ base: UnsafePointer<UInt8>, from start: Int, count: Int,
    _ out: UnsafeMutablePointer<UInt8>, written: Int, _ flags: UnsafeMutablePointer<UInt8>,
    _ syllables: UnsafeRawPointer, twoByteLeads: UInt8
  ) -> Stop {
    assert(start >= 0 && written >= 0, "positions inside the buffers")
    guard count &- start >= 8 else { return Stop(position: start, written: written, nearEnd: true) }
    var cursor = base + start
    var target = UnsafeMutableRawPointer(out + written)
    let last = base + (count &- 8)
    let stable = NormalizationProperties.stable
    var nearEnd = true
    // Where the block scan may next be tried: two bytes in (it reads the two
    // before it, which must be code points this loop took), and past a
    // block it refused.
    var scanFrom = base + start + 2
    while cursor <= last {
      assert(base + count - cursor >= 8, "the word loaded lies inside the input")
      let word = UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self)
      if word & 0x80 == 0 {
        // ASCII: the whole word is stored, and the ASCII bytes it starts with count.
        target.storeBytes(of: word, as: UInt64.self)
        // (A word of ASCII has no bit set: 64 trailing zeros, 8 bytes.)
        let length = ByteSearch.leadingASCII(word)
        cursor += length
        target += length
        continue
      }
      if word & 0xC0_C0F0 == 0x80_80E0 {
        // Three bytes: 1110xxxx 10xxxxxx 10xxxxxx.
        let value = threeByteValue(word)
        let index = value &- HangulSyllable.firstScalarValue
        if index < UInt32(HangulSyllable.count) {
          target += storeSyllable(index, syllables, at: target)
          // A second syllable in the same word (bytes 3 to 5).
          let next = word &>> 24
          let nextIndex = threeByteValue(next) &- HangulSyllable.firstScalarValue
          if next & 0xC0_C0F0 == 0x80_80E0, nextIndex < UInt32(HangulSyllable.count) {
            target += storeSyllable(nextIndex, syllables, at: target)
            cursor += 6
          } else {
            cursor += 3
          }
          continue
        }
        if word & 0xFF == 0xE1, cursor >= scanFrom {
          // Conjoining jamo (NFD Korean): copied as they are, sixteen bytes
          // a step. (Tested here, after the syllables, not first in every
          // step: text → NFD meets none.)
          let position = cursor - base
          let skipped = NormalizedTextScan.skipDecomposed(
            base, from: position, count: count, twoByteLeads: twoByteLeads)
          scanFrom = base + skipped + 16
          if skipped > position {
            target.copyMemory(from: cursor, byteCount: skipped &- position)
            target += skipped &- position
            cursor = base + skipped
            continue
          }
        }
        // Not overlong (from U+0800), not a surrogate, in the form alone.
        guard value >= 0x800, value & 0xF800 != 0xD800, flags[Int(value)] & stable != 0 else {
          nearEnd = false
          break
        }
        target.storeBytes(of: UInt32(truncatingIfNeeded: word), as: UInt32.self)
        cursor += 3
        target += 3
        continue
      }
      if word & 0xC0E0 == 0x80C0 {
        // Two bytes: 110xxxxx 10xxxxxx, from U+0080.
        let value = UInt32(truncatingIfNeeded: (word & 0x1F) &<< 6 | (word &>> 8) & 0x3F)
        guard value >= 0x80, flags[Int(value)] & stable != 0 else {
          nearEnd = false
          break
        }
        target.storeBytes(of: UInt16(truncatingIfNeeded: word), as: UInt16.self)
        cursor += 2
        target += 2
        continue
      }
      if word & 0xC0C0_C0F8 == 0x8080_80F0 {
        // Four bytes: 11110xxx and three continuation bytes, U+10000 up to the table's end.
        let value = UInt32(
          truncatingIfNeeded: (word & 0x07) &<< 18 | (word & 0x3F00) &<< 4
            | (word &>> 10) & 0xFC0 | (word &>> 24) & 0x3F)
        guard value &- 0x1_0000 < NormalizationProperties.tableLimit &- 0x1_0000,
          flags[Int(value)] & stable != 0
        else {
          nearEnd = false
          break
        }
        target.storeBytes(of: UInt32(truncatingIfNeeded: word), as: UInt32.self)
        cursor += 4
        target += 4
        continue
      }
      nearEnd = false
      break
    }
    return Stop(
      position: cursor - base, written: target - UnsafeMutableRawPointer(out), nearEnd: nearEnd)
  }

  /// The scalar value of the three-byte sequence in the low bytes of `word`
  /// (its shape checked by the caller).
  @inline(__always)
  private static func threeByteValue(_ word: UInt64) -> UInt32 {
    UInt32(truncatingIfNeeded: (word & 0x0F) &<< 12 | (word & 0x3F00) &>> 2 | (word &>> 16) & 0x3F)
  }

  /// Stores the 16-byte entry of syllable `index` at `target`; returns how
  /// many of its bytes count (six or nine).
  @inline(__always)
  private static func storeSyllable(
    _ index: UInt32, _ syllables: UnsafeRawPointer, at target: UnsafeMutableRawPointer
  ) -> Int {
    assert(index < UInt32(HangulSyllable.count), "a syllable's entry")
    let entry = syllables + Int(index) &* SyllableDecompositions.stride
    target.storeBytes(of: entry.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
    let length = Int(entry.load(fromByteOffset: 15, as: UInt8.self))
    assert(length == 6 || length == 9, "two or three jamo of three bytes")
    return length
  }

  /// Sets what ``NormalizationPass`` keeps of the last code point the kernel
  /// passed, the one that ends before `end`: a syllable closes its segment
  /// (nothing that follows changes its jamo); any other code point opens one
  /// at its start.
  @inline(__always)
  static func describeLast(
    before end: Int, _ base: UnsafePointer<UInt8>, _ flags: UnsafeMutablePointer<UInt8>,
    _ state: inout NormalizationPass.CopyState
  ) {
    var start = end &- 1
    while base[start] & 0xC0 == 0x80 { start &-= 1 }
    var hangul = false
    if end &- start == 3 {
      let value =
        UInt32(base[start] & 0x0F) << 12 | UInt32(base[start &+ 1] & 0x3F) << 6
        | UInt32(base[start &+ 2] & 0x3F)
      if value &- HangulSyllable.firstScalarValue < UInt32(HangulSyllable.count) {
        state.open = false
        return
      }
      hangul = flags[Int(value)] & NormalizationProperties.hangul != 0
    }
    state.lastStart = start
    state.open = true
    state.lastHangul = hangul
  }
}
