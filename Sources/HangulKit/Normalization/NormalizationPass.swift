/// One pass of ``UnicodeNormalizer`` over a buffer.
///
/// Bytes from `pending.start` to `segment.start` are classified but not
/// written: all to be copied, or all to go to ICU (`pending.isSlow`). The
/// open segment starts at `segment.start`; it is classified when the next
/// boundary closes it. Output goes through a local pointer into the sink's storage.
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

  /// The bytes classified but not written yet, from `start` to the open
  /// segment's start: all to be copied, or all to go to ICU (`isSlow`).
  struct Pending {
    var start = 0
    var isSlow = false
    /// Whether they hold a segment longer than
    /// ``UnicodeNormalizer/longestSegment`` (they go in canonical order).
    var isLong = false
  }

  /// The segment the last code point opened, classified when the next
  /// boundary closes it: whether something may still join it, whether
  /// every code point of it is in the form alone, whether it is Hangul.
  struct Segment {
    var start = 0
    var isOpen = false
    var isStable = false
    var isHangul = false
  }

  var pending = Pending()
  var segment = Segment()
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
      if !pending.isSlow, segment.isStable || !segment.isOpen {
        flushPending(upTo: position)
        let loopStart = position
        guard let base = input.baseAddress,
          let syllableTable = UnsafeRawPointer(syllables.baseAddress)
        else { break }
        // The loops store whole words past what they count, and write at
        // most three bytes for each byte they take.
        assert(
          written + (count - position) * 3 + ConjoiningSyllableKernel.outputSlack <= capacity,
          "the copy loops have room for the rest of the input")
        var state = CopyState(
          position: position, written: written, lastStart: segment.start, open: segment.isOpen,
          lastHangul: false)
        let twoByteLeads = NormalizedTextScan.twoByteLeads(for: normalizer.form)
        if composes {
          Self.copyComposing(
            &state, base, count, out, table, compatibility: normalizer.form == .nfkc,
            twoByteLeads: twoByteLeads)
        } else {
          Self.copyDecomposing(
            &state, base, count, out, table, syllableTable, twoByteLeads: twoByteLeads)
        }
        position = state.position
        written = state.written
        segment.start = state.lastStart
        let open = state.open
        let lastHangul = state.lastHangul
        pending.start = position
        segment.isOpen = open
        if position > loopStart {
          segment.isStable = true
          segment.isHangul = lastHangul
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
      if flags & NormalizationProperties.boundary != 0 || afterInvalid || !segment.isOpen {
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
        segment.isStable = false
        segment.isHangul = segment.isHangul && flags & NormalizationProperties.hangul != 0
        if !pending.isLong, !segment.isHangul,
          position - segment.start >= UnicodeNormalizer.longestSegment
        {
          // Hundreds of combining marks on one letter: ICU would take time
          // quadratic in the run; it gets the whole segment in canonical
          // order, and what came before it as it is.
          flushPending(upTo: segment.start)
          pending.isSlow = true
          pending.isLong = true
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
      if segment.isOpen { closeSegment(at: position) }
      flushPending(upTo: position)
      reserve(16)
      writeDecomposition(index)
      segment.isOpen = false
      pending.start = position + 3
      pending.isSlow = false
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
    if segment.isOpen { closeSegment(at: position) }
    flushPending(upTo: position)
    reserve(3)
    out[written] = UInt8(0xE0 | syllable >> 12)
    out[written + 1] = UInt8(0x80 | syllable >> 6 & 0x3F)
    out[written + 2] = UInt8(0x80 | syllable & 0x3F)
    written += 3
    segment.isOpen = false
    pending.start = end
    pending.isSlow = false
    return end
  }

  /// Writes everything before the open segment; returns where it starts.
  private mutating func hold() -> Int {
    // A line or record that ends the block is let go: nothing that follows
    // changes a newline or NUL (interactive use sees each line at once).
    if segment.isOpen, segment.isStable, input[segment.start] == 0x0A || input[segment.start] == 0 {
      flushPending(upTo: segment.start + 1)
      return segment.start + 1
    }
    if segment.isOpen { retractOpenSegment() }
    let end = segment.isOpen ? segment.start : pending.start
    flushPending(upTo: end)
    return end
  }

  /// Takes back the open segment if the copy loop has written it already.
  @inline(__always)
  private mutating func retractOpenSegment() {
    guard !pending.isSlow, pending.start > segment.start else { return }
    written -= pending.start - segment.start
    pending.start = segment.start
  }

  /// Writes the NFD of syllable `index` from the table (six or nine bytes,
  /// copied in 8-byte words; the output has room to spare).
  @inline(__always)
  private mutating func writeDecomposition(_ index: Int) {
    guard let table = UnsafeRawPointer(syllables.baseAddress) else { return }
    written &+= Self.storeDecomposition(of: index, from: table, to: out + written)
  }

  @inline(__always)
  private mutating func startSegment(at position: Int, stable: Bool, hangul: Bool) {
    if segment.isOpen { closeSegment(at: position) }
    segment.isOpen = true
    segment.start = position
    segment.isStable = stable
    segment.isHangul = hangul
  }

  @inline(__always)
  private mutating func closeSegment(at end: Int) {
    if segment.isStable {
      guard pending.isSlow else { return }
      flushPending(upTo: segment.start)
      pending.isSlow = false
    } else if segment.isHangul {
      flushPending(upTo: segment.start)
      writeHangul(from: segment.start, to: end)
      pending.start = end
      pending.isSlow = false
    } else {
      guard !pending.isSlow else { return }
      flushPending(upTo: segment.start)
      pending.isSlow = true
    }
  }

  private mutating func flushPending(upTo end: Int) {
    guard end > pending.start, let base = input.baseAddress else { return }
    if pending.isSlow {
      sink.count = written
      if pending.isLong {
        normalizer.normalizeLongSegment(
          base + pending.start, count: end - pending.start, into: sink)
        pending.isLong = false
      } else {
        normalizer.normalizeWithICU(base + pending.start, count: end - pending.start, into: sink)
      }
      // Keep room for the rest at three bytes out for each byte in.
      sink.reserve((input.count - end) * 3 + 64)
      out = sink.base
      written = sink.count
      capacity = sink.capacity
    } else {
      reserve(end - pending.start)
      (out + written).update(from: base + pending.start, count: end - pending.start)
      written += end - pending.start
    }
    pending.start = end
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
