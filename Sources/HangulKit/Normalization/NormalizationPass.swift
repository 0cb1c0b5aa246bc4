/// One pass of ``UnicodeNormalizer`` over a buffer.
///
/// Bytes from `pendingStart` to `segmentStart` are classified but not
/// written: all to be copied, or all to go to ICU (`pendingSlow`). The open
/// segment starts at `segmentStart`; it is classified when the next boundary
/// closes it. Output goes through a local pointer into the sink's storage.
///
///     var pass = NormalizationPass(input: bytes, table: table, syllables: nfd, sink: sink, normalizer: nfc)
///     let consumed = pass.run(isLast: false)   // the last segment is held back
///
/// Time O(n) in the buffer (a segment longer than
/// ``UnicodeNormalizer/longestSegment`` goes to ICU in canonical order).
struct NormalizationPass {
  let input: UnsafeBufferPointer<UInt8>
  let table: UnsafeMutablePointer<UInt8>
  let syllables: UnsafeBufferPointer<UInt8>
  let sink: ByteSink
  let normalizer: UnicodeNormalizer
  let composes: Bool

  var out: UnsafeMutablePointer<UInt8>
  var written: Int
  var capacity: Int

  var pendingStart = 0
  var pendingSlow = false
  /// Whether the bytes waiting for ICU hold a segment longer than
  /// ``UnicodeNormalizer/longestSegment`` (they go in canonical order).
  var pendingLong = false
  var segmentStart = 0
  var segmentOpen = false
  var segmentStable = false
  var segmentHangul = false
  /// Whether some bytes were not UTF-8 (or a sequence was cut off by the end
  /// of the last input).
  var sawInvalid = false

  init(
    input: UnsafeBufferPointer<UInt8>, table: UnsafeMutablePointer<UInt8>,
    syllables: UnsafeBufferPointer<UInt8>, sink: ByteSink, normalizer: UnicodeNormalizer
  ) {
    self.input = input
    self.table = table
    self.syllables = syllables
    self.sink = sink
    self.normalizer = normalizer
    composes = normalizer.form.composes
    // Hangul grows at most threefold (a syllable becomes up to nine bytes);
    // ICU's output is made room for as it comes. The composing kernel
    // needs its slack past that.
    sink.reserve(input.count * 3 + ConjoiningSyllableKernel.outputSlack)
    out = sink.base
    written = sink.count
    capacity = sink.capacity
  }

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
    compatibility: Bool
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
          twoByteLeads: compatibility ? 0 : NormalizedTextScan.composedTwoByteLeads)
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
            !isBoundaryInEveryForm(base + stop.position)
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
        if lead == 0xE1, position &+ 12 <= count, let found = conjoiningSyllable(base + position) {
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
      guard lead == 0xF0, position &+ 3 < count else { return }
      let second = base[position &+ 1]
      guard second >= 0x90, second & 0xC0 == 0x80, base[position &+ 2] & 0xC0 == 0x80,
        base[position &+ 3] & 0xC0 == 0x80
      else { return }
      let value =
        UInt32(second & 0x3F) << 12 | UInt32(base[position &+ 2] & 0x3F) << 6
        | UInt32(base[position &+ 3] & 0x3F)
      guard value < NormalizationProperties.tableLimit,
        table[Int(value)] & NormalizationProperties.stable != 0
      else { return }
      position &+= 4
      copied = true
    }
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

  /// The copy loop of the decomposing forms: ``DecomposingKernel`` while
  /// eight bytes or more are left, then ``copyLoop`` for the last few.
  @inline(never)
  static func copyDecomposing(
    _ state: inout CopyState, _ base: UnsafePointer<UInt8>, _ count: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ table: UnsafeMutablePointer<UInt8>,
    _ syllableTable: UnsafeRawPointer, twoByteLeads: UInt8
  ) {
    let start = state.position
    let stop = DecomposingKernel.run(
      base, from: start, count: count, out, written: state.written, table, syllableTable,
      twoByteLeads: twoByteLeads)
    if stop.position > start {
      state.position = stop.position
      state.written = stop.written
      DecomposingKernel.describeLast(before: stop.position, base, table, &state)
    }
    guard stop.nearEnd else { return }
    copyLoop(composes: false, &state, base, count, out, table, syllableTable)
  }

  /// Copies ASCII and stable code points, and writes Hangul by the fast
  /// paths, straight into `out` (which has room for three bytes per input
  /// byte and 64 more, so stores of whole words may run a few bytes past
  /// what counts), until something needs the general path.
  @inline(__always)
  static func copyLoop(
    composes: Bool, _ state: inout CopyState, _ base: UnsafePointer<UInt8>, _ count: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ table: UnsafeMutablePointer<UInt8>,
    _ syllableTable: UnsafeRawPointer
  ) {
    var position = state.position
    var written = state.written
    var lastStart = state.lastStart
    var open = state.open
    var lastHangul = state.lastHangul
    defer {
      state = CopyState(
        position: position, written: written, lastStart: lastStart, open: open,
        lastHangul: lastHangul)
    }
    while position < count {
      let lead = base[position]
      if lead < 0x80 {
        // ASCII, eight bytes at a time where it can.
        if position &+ 8 <= count {
          let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
          if word & 0x8080_8080_8080_8080 == 0 {
            UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
            written &+= 8
            lastStart = position &+ 7
            position &+= 8
            lastHangul = false
            open = true
            continue
          }
        }
        out[written] = lead
        written &+= 1
        lastStart = position
        position &+= 1
        lastHangul = false
        open = true
        continue
      }
      if composes, lead == 0xE1, position &+ 12 <= count,
        let syllable = Self.conjoiningSyllable(base + position)
      {
        // An initial, a vowel, perhaps a final, and a boundary after them.
        out[written] = UInt8(truncatingIfNeeded: 0xE0 | syllable.value >> 12)
        out[written &+ 1] = UInt8(truncatingIfNeeded: 0x80 | syllable.value >> 6 & 0x3F)
        out[written &+ 2] = UInt8(truncatingIfNeeded: 0x80 | syllable.value & 0x3F)
        written &+= 3
        open = false
        position &+= syllable.length
        continue
      }
      if lead & 0xF0 == 0xE0 {
        guard position &+ 2 < count else { break }
        let second = base[position &+ 1]
        let third = base[position &+ 2]
        guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { break }
        let value =
          UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
        // A syllable (its value alone proves the bytes well-formed).
        let index = Int(value &- HangulSyllable.firstScalarValue)
        if !composes {
          if index >= 0, index < HangulSyllable.count {
            // Its jamo from the table.
            written &+= Self.storeDecomposition(of: index, from: syllableTable, to: out + written)
            open = false
            position &+= 3
            continue
          }
        } else if index >= 0, index < HangulSyllable.count {
          // Stable in NFC and NFKC (no syllable is the second of a pair), but
          // open: a final that follows joins it (the general path sees that).
          out[written] = lead
          out[written &+ 1] = second
          out[written &+ 2] = third
          written &+= 3
          lastHangul = true
          lastStart = position
          open = true
          position &+= 3
          continue
        } else if value &- 0x1100 < 19, position &+ 5 < count, base[position &+ 3] == 0xE1,
          base[position &+ 4] == 0x85, base[position &+ 5] & 0xC0 == 0x80
        {
          // A modern initial and vowel, perhaps a final, near the end of
          // the buffer: one syllable if a boundary follows.
          let vowel = UInt32(base[position &+ 5] & 0x3F) | 0x1140
          guard vowel &- 0x1161 < 21 else { break }
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
          guard end < count else { break }
          let next = base[end]
          if next >= 0x80 {
            guard next & 0xF0 == 0xE0, end &+ 2 < count,
              table[
                Int(
                  UInt32(next & 0x0F) << 12 | UInt32(base[end &+ 1] & 0x3F) << 6
                    | UInt32(base[end &+ 2] & 0x3F))] & NormalizationProperties.boundary != 0
            else { break }
          }
          out[written] = UInt8(truncatingIfNeeded: 0xE0 | syllable >> 12)
          out[written &+ 1] = UInt8(truncatingIfNeeded: 0x80 | syllable >> 6 & 0x3F)
          out[written &+ 2] = UInt8(truncatingIfNeeded: 0x80 | syllable & 0x3F)
          written &+= 3
          open = false
          position = end
          continue
        }
        guard lead != 0xE0 || second >= 0xA0, lead != 0xED || second < 0xA0 else { break }
        let flags = table[Int(value)]
        guard flags & NormalizationProperties.stable != 0 else { break }
        out[written] = lead
        out[written &+ 1] = second
        out[written &+ 2] = third
        written &+= 3
        lastHangul = flags & NormalizationProperties.hangul != 0
        lastStart = position
        open = true
        position &+= 3
        continue
      }
      if lead & 0xE0 == 0xC0 {
        // Two bytes (Latin, Greek, Cyrillic, combining marks, …).
        guard lead >= 0xC2, position &+ 1 < count else { break }
        let second = base[position &+ 1]
        guard second & 0xC0 == 0x80 else { break }
        let flags = table[Int(UInt32(lead & 0x1F) << 6 | UInt32(second & 0x3F))]
        guard flags & NormalizationProperties.stable != 0 else { break }
        out[written] = lead
        out[written &+ 1] = second
        written &+= 2
        lastHangul = false
        lastStart = position
        open = true
        position &+= 2
        continue
      }
      // Four bytes (emoji, …), below U+30000 only.
      guard lead == 0xF0, position &+ 3 < count else { break }
      let second = base[position &+ 1]
      guard second >= 0x90, second & 0xC0 == 0x80, base[position &+ 2] & 0xC0 == 0x80,
        base[position &+ 3] & 0xC0 == 0x80
      else { break }
      let value =
        UInt32(second & 0x3F) << 12 | UInt32(base[position &+ 2] & 0x3F) << 6
        | UInt32(base[position &+ 3] & 0x3F)
      guard value < NormalizationProperties.tableLimit,
        table[Int(value)] & NormalizationProperties.stable != 0
      else { break }
      UnsafeMutableRawPointer(out + written).storeBytes(
        of: UnsafeRawPointer(base + position).loadUnaligned(as: UInt32.self), as: UInt32.self)
      written &+= 4
      lastHangul = false
      lastStart = position
      open = true
      position &+= 4
    }
  }

  /// Makes room for `extra` more output bytes.
  @inline(__always)
  mutating func reserve(_ extra: Int) {
    guard written + extra > capacity else { return }
    sink.count = written
    sink.reserve(extra)
    out = sink.base
    capacity = sink.capacity
  }

  /// Hands the output to the sink.
  mutating func commit() {
    sink.count = written
  }

  mutating func run(isLast: Bool) -> Int {
    defer { commit() }
    let count = input.count
    var position = 0
    // After a byte that is not UTF-8 nothing joins what came before.
    var afterInvalid = false
    while position < count {
      // The copy loop: ASCII and stable three-byte code points while nothing
      // is waiting for ICU, each a segment of its own, written as they come
      // (the last one is taken back if a code point joins it), and Hangul
      // syllables by the fast paths.
      if !pendingSlow, segmentStable || !segmentOpen {
        flushPending(upTo: position)
        let loopStart = position
        guard let base = input.baseAddress,
          let syllableTable = UnsafeRawPointer(syllables.baseAddress)
        else { break }
        var state = CopyState(
          position: position, written: written, lastStart: segmentStart, open: segmentOpen,
          lastHangul: false)
        if composes {
          Self.copyComposing(
            &state, base, count, out, table, compatibility: normalizer.form == .nfkc)
        } else {
          Self.copyDecomposing(
            &state, base, count, out, table, syllableTable,
            twoByteLeads: normalizer.form == .nfkd ? 0 : NormalizedTextScan.decomposedTwoByteLeads)
        }
        position = state.position
        written = state.written
        segmentStart = state.lastStart
        let open = state.open
        let lastHangul = state.lastHangul
        pendingStart = position
        segmentOpen = open
        if position > loopStart {
          segmentStable = true
          segmentHangul = lastHangul
          afterInvalid = false
        }
        guard position < count else { break }
      }
      let lead = input[position]
      if lead < 0x80 {
        // ASCII: a boundary, and in every form as it is.
        startSegment(at: position, stable: true, hangul: false)
        afterInvalid = false
        position += 1
        continue
      }
      var value: UInt32 = 0
      var length = 0
      if lead & 0xF0 == 0xE0, position + 2 < count, input[position + 1] & 0xC0 == 0x80,
        input[position + 2] & 0xC0 == 0x80, lead != 0xE0 || input[position + 1] >= 0xA0,
        lead != 0xED || input[position + 1] < 0xA0
      {
        value =
          UInt32(lead & 0x0F) << 12 | UInt32(input[position + 1] & 0x3F) << 6
          | UInt32(input[position + 2] & 0x3F)
        length = 3
      } else {
        switch UTF8Stream.step(input, at: position) {
        case .scalar(let decoded, let decodedLength):
          value = decoded
          length = decodedLength
        case .incomplete where !isLast:
          return hold()
        case .invalid, .incomplete:
          sawInvalid = true
          startSegment(at: position, stable: true, hangul: false)
          afterInvalid = true
          position += 1
          continue
        }
      }
      let flags = normalizer.properties.flags(of: value)
      if flags & NormalizationProperties.boundary != 0 || afterInvalid || !segmentOpen {
        afterInvalid = false
        if flags & NormalizationProperties.hangul != 0 {
          if let end = writeSyllable(value, at: position, length: count) {
            // Written: what follows starts afresh (a syllable's spelling in
            // any form ends with a starter nothing can join or pass).
            position = end
            continue
          }
        }
        startSegment(
          at: position, stable: flags & NormalizationProperties.stable != 0,
          hangul: flags & NormalizationProperties.hangul != 0)
      } else {
        retractOpenSegment()
        segmentStable = false
        segmentHangul = segmentHangul && flags & NormalizationProperties.hangul != 0
        if !pendingLong, !segmentHangul,
          position - segmentStart >= UnicodeNormalizer.longestSegment
        {
          // Hundreds of combining marks on one letter: ICU would take time
          // quadratic in the run; it gets the whole segment in canonical
          // order, and what came before it as it is.
          flushPending(upTo: segmentStart)
          pendingSlow = true
          pendingLong = true
        }
      }
      afterInvalid = false
      position += length
    }
    guard isLast else { return hold() }
    closeSegment(at: count)
    flushPending(upTo: count)
    return count
  }

  /// The fast paths of Hangul at a boundary: in a decomposing form a
  /// precomposed syllable, in a composing form a modern initial, vowel and
  /// final (or initial and vowel) followed by a boundary. Writes the result
  /// and returns where the input goes on, or `nil` when the case is not one
  /// of these.
  @inline(__always)
  private mutating func writeSyllable(_ value: UInt32, at position: Int, length count: Int) -> Int?
  {
    if !composes {
      let index = Int(value &- HangulSyllable.firstScalarValue)
      guard index >= 0, index < HangulSyllable.count else { return nil }
      if segmentOpen { closeSegment(at: position) }
      flushPending(upTo: position)
      reserve(16)
      writeDecomposition(index)
      segmentOpen = false
      pendingStart = position + 3
      pendingSlow = false
      return position + 3
    }
    // A modern initial: E1 84 80–92.
    guard value &- 0x1100 < 19, position + 5 < count, input[position + 3] == 0xE1,
      input[position + 4] == 0x85, input[position + 5] & 0xC0 == 0x80
    else { return nil }
    let vowel = UInt32(input[position + 5] & 0x3F) | 0x1140
    guard vowel &- 0x1161 < 21 else { return nil }
    var syllable =
      HangulSyllable.firstScalarValue + ((value - 0x1100) * 21 + vowel - 0x1161) * 28
    var end = position + 6
    if end + 2 < count, input[end] == 0xE1, input[end + 1] & 0xFE == 0x86,
      input[end + 2] & 0xC0 == 0x80
    {
      let final = UInt32(input[end + 1] & 0x3F) << 6 | UInt32(input[end + 2] & 0x3F) | 0x1000
      if final &- 0x11A8 < 27 {
        syllable += final - 0x11A7
        end += 3
      }
    }
    // Whatever follows must be a boundary (or the end of the whole text);
    // otherwise the general path sees the segment whole.
    guard end < count else { return nil }
    let next = input[end]
    if next >= 0x80 {
      guard next & 0xF0 == 0xE0, end + 2 < count else { return nil }
      let following =
        UInt32(next & 0x0F) << 12 | UInt32(input[end + 1] & 0x3F) << 6
        | UInt32(input[end + 2] & 0x3F)
      guard table[Int(following)] & NormalizationProperties.boundary != 0 else { return nil }
    }
    if segmentOpen { closeSegment(at: position) }
    flushPending(upTo: position)
    reserve(3)
    out[written] = UInt8(0xE0 | syllable >> 12)
    out[written + 1] = UInt8(0x80 | syllable >> 6 & 0x3F)
    out[written + 2] = UInt8(0x80 | syllable & 0x3F)
    written += 3
    segmentOpen = false
    pendingStart = end
    pendingSlow = false
    return end
  }

  /// The syllable spelled by the modern initial, vowel and optional final at
  /// `bytes` (at least 12 readable), with the length of its spelling, if the
  /// byte after it starts ASCII, a syllable or an initial (each a boundary in
  /// every form, or a byte that is not UTF-8, a boundary too).
  @inline(__always)
  static func conjoiningSyllable(_ bytes: UnsafePointer<UInt8>) -> (value: UInt32, length: Int)? {
    let word = UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self)
    // E1 84 xx E1 85 yy: an initial U+1100–U+113F and a vowel U+1160–U+117F.
    guard word & 0x0000_00FF_FF00_FFFF == 0x0000_0085_E100_84E1 else { return nil }
    let initial = UInt32(truncatingIfNeeded: word >> 16) & 0xFF &- 0x80
    let vowel = UInt32(truncatingIfNeeded: word >> 40) & 0xFF &- 0xA1
    guard initial < 19, vowel < 21 else { return nil }
    var value = HangulSyllable.firstScalarValue + (initial * 21 + vowel) * 28
    var length = 6
    if word >> 48 & 0xFE_FF == 0x86_E1, bytes[8] & 0xC0 == 0x80 {
      // E1 86 A8 – E1 87 82: a final U+11A8–U+11C2.
      let final = (UInt32(truncatingIfNeeded: word >> 56) & 1) << 6 | UInt32(bytes[8] & 0x3F)
      if final &- 0x28 < 27 {
        value += final - 0x27
        length = 9
      }
    }
    guard isBoundaryInEveryForm(bytes + length) else { return nil }
    return (value, length)
  }

  /// Whether the bytes at `bytes` (two readable) start ASCII, a syllable or
  /// an initial, each a boundary in every form, or a byte that is not UTF-8,
  /// a boundary too.
  @inline(__always)
  static func isBoundaryInEveryForm(_ bytes: UnsafePointer<UInt8>) -> Bool {
    let next = bytes[0]
    return next < 0x80 || next >= 0xEA && next <= 0xED || next == 0xE1 && bytes[1] == 0x84
  }

  /// Writes everything before the open segment; returns where it starts.
  private mutating func hold() -> Int {
    // A line or record that ends the block is let go: nothing that follows
    // changes a newline or NUL (interactive use sees each line at once).
    if segmentOpen, segmentStable, input[segmentStart] == 0x0A || input[segmentStart] == 0 {
      flushPending(upTo: segmentStart + 1)
      return segmentStart + 1
    }
    if segmentOpen { retractOpenSegment() }
    let end = segmentOpen ? segmentStart : pendingStart
    flushPending(upTo: end)
    return end
  }

  /// Takes back the open segment if the copy loop has written it already.
  @inline(__always)
  private mutating func retractOpenSegment() {
    guard !pendingSlow, pendingStart > segmentStart else { return }
    written -= pendingStart - segmentStart
    pendingStart = segmentStart
  }

  /// Writes the NFD of syllable `index` from the table (six or nine bytes,
  /// copied in 8-byte words; the output has room to spare).
  @inline(__always)
  private mutating func writeDecomposition(_ index: Int) {
    guard let table = UnsafeRawPointer(syllables.baseAddress) else { return }
    written &+= Self.storeDecomposition(of: index, from: table, to: out + written)
  }

  /// Stores the NFD of syllable `index` from `table` (``SyllableDecompositions``)
  /// at `target` as two 8-byte words, 16 bytes in all; returns how many count.
  @inline(__always)
  static func storeDecomposition(
    of index: Int, from table: UnsafeRawPointer, to target: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let source = index &* SyllableDecompositions.stride
    let raw = UnsafeMutableRawPointer(target)
    raw.storeBytes(
      of: table.loadUnaligned(fromByteOffset: source, as: UInt64.self), as: UInt64.self)
    raw.storeBytes(
      of: table.loadUnaligned(fromByteOffset: source + 8, as: UInt64.self), toByteOffset: 8,
      as: UInt64.self)
    return Int(table.load(fromByteOffset: source + 15, as: UInt8.self))
  }

  @inline(__always)
  private mutating func startSegment(at position: Int, stable: Bool, hangul: Bool) {
    if segmentOpen { closeSegment(at: position) }
    segmentOpen = true
    segmentStart = position
    segmentStable = stable
    segmentHangul = hangul
  }

  @inline(__always)
  private mutating func closeSegment(at end: Int) {
    if segmentStable {
      guard pendingSlow else { return }
      flushPending(upTo: segmentStart)
      pendingSlow = false
    } else if segmentHangul {
      flushPending(upTo: segmentStart)
      writeHangul(from: segmentStart, to: end)
      pendingStart = end
      pendingSlow = false
    } else {
      guard !pendingSlow else { return }
      flushPending(upTo: segmentStart)
      pendingSlow = true
    }
  }

  private mutating func flushPending(upTo end: Int) {
    guard end > pendingStart, let base = input.baseAddress else { return }
    if pendingSlow {
      sink.count = written
      if pendingLong {
        normalizer.normalizeLongSegment(base + pendingStart, count: end - pendingStart, into: sink)
        pendingLong = false
      } else {
        normalizer.normalizeWithICU(base + pendingStart, count: end - pendingStart, into: sink)
      }
      // Keep room for the rest at three bytes out for each byte in.
      sink.reserve((input.count - end) * 3 + 64)
      out = sink.base
      written = sink.count
      capacity = sink.capacity
    } else {
      reserve(end - pendingStart)
      (out + written).update(from: base + pendingStart, count: end - pendingStart)
      written += end - pendingStart
    }
    pendingStart = end
  }

  @inline(__always)
  private mutating func appendUTF8(_ value: UInt32) {
    reserve(4)
    if value < 0x800 {
      out[written] = UInt8(0xC0 | value >> 6)
      out[written + 1] = UInt8(0x80 | value & 0x3F)
      written += 2
    } else {
      out[written] = UInt8(0xE0 | value >> 12)
      out[written + 1] = UInt8(0x80 | value >> 6 & 0x3F)
      out[written + 2] = UInt8(0x80 | value & 0x3F)
      written += 3
    }
  }

  /// A segment of syllables and conjoining jamo (all three-byte sequences).
  private mutating func writeHangul(from start: Int, to end: Int) {
    func scalar(at position: Int) -> UInt32 {
      UInt32(input[position] & 0x0F) << 12 | UInt32(input[position + 1] & 0x3F) << 6
        | UInt32(input[position + 2] & 0x3F)
    }
    if composes {
      var last = scalar(at: start)
      var position = start + 3
      while position < end {
        let next = scalar(at: position)
        if let joined = HangulNormalization.composition(of: last, next) {
          last = joined
        } else {
          appendUTF8(last)
          last = next
        }
        position += 3
      }
      appendUTF8(last)
      return
    }
    var position = start
    while position < end {
      let value = scalar(at: position)
      if let syllable = HangulSyllable(Unicode.Scalar(value) ?? "\u{0}") {
        for part in syllable.conjoiningJamo { appendUTF8(part.value) }
      } else {
        appendUTF8(value)
      }
      position += 3
    }
  }
}
