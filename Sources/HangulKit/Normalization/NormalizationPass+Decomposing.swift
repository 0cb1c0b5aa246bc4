/// The copy loop of NFD and NFKD (``NormalizationPass``): ``DecomposingKernel``
/// while eight bytes or more are left, then a loop that takes the last few.
extension NormalizationPass {
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
    copyLoop(&state, base, count, out, table, syllableTable)
  }

  /// Copies ASCII and stable code points, and writes syllables as their
  /// jamo, straight into `out` (which has room for three bytes per input
  /// byte and 64 more, so stores of whole words may run a few bytes past
  /// what counts), until something needs the general path.
  @inline(__always)
  static func copyLoop(
    _ state: inout CopyState, _ base: UnsafePointer<UInt8>, _ count: Int,
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
      if lead & 0xF0 == 0xE0 {
        guard position &+ 2 < count else { break }
        let second = base[position &+ 1]
        let third = base[position &+ 2]
        guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { break }
        let value =
          UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
        // A syllable (its value alone proves the bytes well-formed): its jamo from the table.
        let index = Int(value &- HangulSyllable.firstScalarValue)
        if index >= 0, index < HangulSyllable.count {
          written &+= Self.storeDecomposition(of: index, from: syllableTable, to: out + written)
          open = false
          position &+= 3
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
      guard isStableFourBytes(base, at: position, count: count, table) else { break }
      UnsafeMutableRawPointer(out + written).storeBytes(
        of: UnsafeRawPointer(base + position).loadUnaligned(as: UInt32.self), as: UInt32.self)
      written &+= 4
      lastHangul = false
      lastStart = position
      open = true
      position &+= 4
    }
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
}
