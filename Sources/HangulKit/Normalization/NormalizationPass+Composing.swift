/// The copy loop of NFC and NFKC (``NormalizationPass``): text already in
/// the form copied in runs, syllables and ASCII passed by the block scan of
/// ``NormalizedTextScan``, conjoining jamo composed by
/// ``ConjoiningSyllableKernel``.
extension NormalizationPass {
  /// The state of the copy loop, kept in registers by the loop functions.
  struct CopyState {
    var position: Int
    var written: Int
    /// Where the last code point copied starts (the open segment).
    var lastStart: Int
    /// Whether that code point may still be joined by what follows.
    var open: Bool
    /// Whether it is Hangul (a syllable or a jamo).
    var lastHangul: Bool
  }

  /// The copy loop of the composing forms. Text in NFC is mostly copied
  /// as it is, so code points that stay are not written one by one: each
  /// run of them is copied whole when something else is written or the loop
  /// ends, and where the last one starts is found at the end. In NFKC
  /// (`compatibility`) an initial and vowel with no final may still be
  /// joined by what follows (ㄳ becomes the final U+11AA), so NFD Korean
  /// stops short of one unless a boundary follows it.
  @inline(never)
  static func copyComposing(
    _ state: inout CopyState, _ base: UnsafePointer<UInt8>, _ count: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ table: UnsafeMutablePointer<UInt8>,
    compatibility: Bool, twoByteLeads: UInt8
  ) {
    let loopStart = state.position
    var position = loopStart
    var written = state.written
    var runStart = position
    // Whether the last thing passed was copied (rather than composed).
    var copied = false
    defer {
      flushRun(&runStart, to: position, base, count, out, &written)
      state.written = written
      if position > loopStart {
        state.open = copied
        if copied {
          // The last code point copied: where it starts, and whether it is Hangul.
          var start = position &- 1
          while base[start] & 0xC0 == 0x80 { start &-= 1 }
          state.lastStart = start
          state.lastHangul =
            position &- start == 3
            && NormalizationProperties.isConjoiningHangul(
              UInt32(base[start] & 0x0F) << 12 | UInt32(base[start &+ 1] & 0x3F) << 6
                | UInt32(base[start &+ 2] & 0x3F))
        }
      }
      state.position = position
    }
    // Where the block scan may next be tried: after a block it refused.
    var scanFrom = loopStart &+ 2
    while position < count {
      if position >= scanFrom, position &+ NormalizedTextScan.margin <= count {
        // Bytes loopStart..<position are code points this loop took, so the
        // two before `position` end well-formed code points.
        let skipped = NormalizedTextScan.skip(
          base, from: position, count: count, decomposed: false,
          twoByteLeads: twoByteLeads)
        scanFrom = skipped &+ 16
        if skipped > position {
          position = skipped
          copied = true
          continue
        }
      }
      let lead = base[position]
      if lead < 0x80 {
        // ASCII, eight bytes at a time where it can.
        position &+= 1
        while position &+ 8 <= count,
          UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
            & 0x8080_8080_8080_8080 == 0
        {
          position &+= 8
        }
        copied = true
        continue
      }
      if lead & 0xF0 == 0xE0 {
        if lead == 0xE1, position &+ ConjoiningSyllableKernel.lookahead <= count,
          ConjoiningSyllableKernel.startsSyllable(base + position)
        {
          // NFD Korean: syllables and ASCII by the kernel, as far as it goes.
          flushRun(&runStart, to: position, base, count, out, &written)
          var stop = ConjoiningSyllableKernel.run(
            base, from: position, limit: count &- ConjoiningSyllableKernel.lookahead, out,
            written: written)
          if compatibility, base[stop.position &- 5] == 0x84, base[stop.position &- 2] == 0x85,
            !ConjoiningJamoBytes.isBoundaryInEveryForm(base + stop.position)
          {
            // The last syllable, an initial and a vowel, may take what
            // follows: the general path sees it.
            stop.position &-= 6
            stop.written &-= 3
          }
          if stop.position > position {
            position = stop.position
            written = stop.written
            runStart = position
            // ASCII last stays open (a mark may join it); a syllable is closed.
            copied = base[position &- 1] < 0x80
            continue
          }
        }
        if lead == 0xE1, position &+ 12 <= count,
          let found = ConjoiningJamoBytes.syllable(base + position)
        {
          // An initial, a vowel, perhaps a final, and a boundary after them.
          flushRun(&runStart, to: position, base, count, out, &written)
          storeUTF8(found.value, at: out + written)
          written &+= 3
          position &+= found.length
          runStart = position
          copied = false
          continue
        }
        guard position &+ 2 < count else { return }
        let second = base[position &+ 1]
        let third = base[position &+ 2]
        guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return }
        let value = UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
        if value &- HangulSyllable.firstScalarValue < UInt32(HangulSyllable.count) {
          // A syllable: stable in NFC and NFKC (no syllable is the second of
          // a pair), but open: a final that follows joins it (the general
          // path sees to that). Its value alone proves the bytes well-formed.
          position &+= 3
          copied = true
          continue
        }
        if lead == 0xE1, value &- 0x1100 < 19 {
          // A modern initial with a vowel (and perhaps a final) and a
          // boundary after them is one syllable: here near the end of the
          // buffer, or before what the word-wise test does not know to be a
          // boundary.
          guard position &+ 5 < count, base[position &+ 3] == 0xE1,
            base[position &+ 4] == 0x85, base[position &+ 5] & 0xC0 == 0x80
          else { return }
          let vowel = UInt32(base[position &+ 5] & 0x3F) | 0x1140
          guard vowel &- 0x1161 < 21 else { return }
          var syllable =
            HangulSyllable.firstScalarValue + ((value - 0x1100) * 21 + vowel - 0x1161) * 28
          var end = position &+ 6
          if end &+ 2 < count, base[end] == 0xE1, base[end &+ 1] & 0xFE == 0x86,
            base[end &+ 2] & 0xC0 == 0x80
          {
            let final =
              UInt32(base[end &+ 1] & 0x3F) << 6 | UInt32(base[end &+ 2] & 0x3F) | 0x1000
            if final &- 0x11A8 < 27 {
              syllable += final - 0x11A7
              end &+= 3
            }
          }
          guard end < count else { return }
          let next = base[end]
          if next >= 0x80 {
            guard next & 0xF0 == 0xE0, end &+ 2 < count,
              table[
                Int(
                  UInt32(next & 0x0F) << 12 | UInt32(base[end &+ 1] & 0x3F) << 6
                    | UInt32(base[end &+ 2] & 0x3F))] & NormalizationProperties.boundary != 0
            else { return }
          }
          flushRun(&runStart, to: position, base, count, out, &written)
          storeUTF8(syllable, at: out + written)
          written &+= 3
          position = end
          runStart = end
          copied = false
          continue
        }
        guard lead != 0xE0 || second >= 0xA0, lead != 0xED || second < 0xA0,
          table[Int(value)] & NormalizationProperties.stable != 0
        else { return }
        position &+= 3
        copied = true
        continue
      }
      if lead & 0xE0 == 0xC0 {
        // Two bytes (Latin, Greek, Cyrillic, combining marks, …).
        guard lead >= 0xC2, position &+ 1 < count else { return }
        let second = base[position &+ 1]
        guard second & 0xC0 == 0x80,
          table[Int(UInt32(lead & 0x1F) << 6 | UInt32(second & 0x3F))]
            & NormalizationProperties.stable != 0
        else { return }
        position &+= 2
        copied = true
        continue
      }
      // Four bytes (emoji, …), below U+30000 only.
      guard isStableFourBytes(base, at: position, count: count, table) else { return }
      position &+= 4
      copied = true
    }
  }

  /// Whether the four bytes at `position` are one well-formed sequence
  /// (emoji, …) below ``NormalizationProperties/tableLimit`` that is in the
  /// form alone: the copy loops take it as it is.
  @inline(__always)
  static func isStableFourBytes(
    _ base: UnsafePointer<UInt8>, at position: Int, count: Int, _ table: UnsafeMutablePointer<UInt8>
  ) -> Bool {
    guard base[position] == 0xF0, position &+ 3 < count else { return false }
    let second = base[position &+ 1]
    guard second >= 0x90, second & 0xC0 == 0x80, base[position &+ 2] & 0xC0 == 0x80,
      base[position &+ 3] & 0xC0 == 0x80
    else { return false }
    let value =
      UInt32(second & 0x3F) << 12 | UInt32(base[position &+ 2] & 0x3F) << 6
      | UInt32(base[position &+ 3] & 0x3F)
    return value < NormalizationProperties.tableLimit
      && table[Int(value)] & NormalizationProperties.stable != 0
  }

  /// Copies the input from `start` to `end` to the output and moves `start` on.
  @inline(__always)
  static func flushRun(
    _ start: inout Int, to end: Int, _ base: UnsafePointer<UInt8>, _ count: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ written: inout Int
  ) {
    let length = end &- start
    guard length > 0 else { return }
    if length <= 8, start &+ 8 <= count {
      // A space or a word between syllables: one load and one store (the
      // output has room for the bytes after it).
      UnsafeMutableRawPointer(out + written).storeBytes(
        of: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self), as: UInt64.self)
    } else {
      (out + written).update(from: base + start, count: length)
    }
    written &+= length
    start = end
  }

  /// Stores the UTF-8 of the three-byte scalar `value` at `target` as one
  /// 4-byte word (the output has room for the byte after it).
  @inline(__always)
  static func storeUTF8(_ value: UInt32, at target: UnsafeMutablePointer<UInt8>) {
    let bytes =
      (0xE0 | value >> 12) | (0x80 | value >> 6 & 0x3F) << 8 | (0x80 | value & 0x3F) << 16
    UnsafeMutableRawPointer(target).storeBytes(of: bytes, as: UInt32.self)
  }
}
