/// Skips, sixteen bytes at a time, text that every composing form leaves as
/// it is and that proves itself well-formed UTF-8: ASCII, Hangul syllables
/// and (in NFC) the two-byte code points below U+0300.
///
/// Every such code point has NFC_Quick_Check Yes and combining class 0, and
/// none composes with the code point before it, so a run of them needs no
/// work; whatever follows the run (a combining mark, a conjoining final) is
/// left to the caller, which sees the run's last code point as open. The
/// block test is branch-free: a block stops the scan when any byte is a lead
/// of something else (other three-byte code points, four-byte ones, two-byte
/// ones from U+0300, C0/C1), a syllable lead whose second byte leaves the
/// syllables (EA below B0, ED from 9E), or a continuation byte where none is
/// due (or none where one is due); the caller's loop takes that block.
///
///     // "한국어 text" repeated: the scan returns a position near the end,
///     // at the start of a code point.
///     let position = ComposedTextScan.skip(base, from: 2, count: count, belowU0300: true)
///
/// About 1.5 instructions a byte, against about 14 for the loop that looks
/// at each code point.
enum ComposedTextScan {
  /// Bytes of look-ahead the scan keeps from the end, so that the code point
  /// it stops in can be found without reading past `count`.
  static let margin = 16 + 2

  /// The first position from `start` on that the scan does not vouch for,
  /// at the start of a code point: `start` itself when its first block
  /// fails. `start - 2 ..< start` must be the end of well-formed code
  /// points the caller took (the test for the first block reads them).
  @inline(__always)
  static func skip(
    _ base: UnsafePointer<UInt8>, from start: Int, count: Int, belowU0300: Bool
  ) -> Int {
    assert(start >= 2, "the first block's test reads the two bytes before it")
    var position = start
    // Local constants (static ones cost a swift_once check at each use).
    let x00 = SIMD16<UInt8>(repeating: 0x00)
    let x04 = SIMD16<UInt8>(repeating: 0x04)
    let x0A = SIMD16<UInt8>(repeating: 0x0A)
    let x80 = SIMD16<UInt8>(repeating: 0x80)
    let x9E = SIMD16<UInt8>(repeating: 0x9E)
    let xB0 = SIMD16<UInt8>(repeating: 0xB0)
    let xC0 = SIMD16<UInt8>(repeating: 0xC0)
    let xC2 = SIMD16<UInt8>(repeating: 0xC2)
    let xE0 = SIMD16<UInt8>(repeating: 0xE0)
    let xEA = SIMD16<UInt8>(repeating: 0xEA)
    let xED = SIMD16<UInt8>(repeating: 0xED)
    let xF0 = SIMD16<UInt8>(repeating: 0xF0)
    let twoByteLimit = belowU0300 ? x0A : x00
    while position &+ margin <= count {
      // The scan reads base[position - 2 ..< position + 16]: inside the buffer.
      assert(position >= 2 && position &+ 16 <= count)
      let bytes = UnsafeRawPointer(base + position)
      let current = bytes.loadUnaligned(as: SIMD16<UInt8>.self)
      let before = bytes.loadUnaligned(fromByteOffset: -1, as: SIMD16<UInt8>.self)
      let twoBefore = bytes.loadUnaligned(fromByteOffset: -2, as: SIMD16<UInt8>.self)
      // Vector operands only: the operators with a scalar operand, and `&`
      // on vectors, are the protocol's lane-by-lane versions.
      let isContinuation = current .>= x80 .& (current .< xC0)
      let continues =
        before .>= xC0 .& (before .< xF0)
        .| (twoBefore .>= xE0 .& (twoBefore .< xF0))
      // Leads: EA-ED start syllables (checked at the second byte below);
      // C2-CB (U+0080-U+02FF) are stable in NFC, not in NFKC (U+00A0 …).
      let isLead = current .>= xC0
      let syllableLead = current &- xEA .< x04
      let stableTwoByteLead = current &- xC2 .< twoByteLimit
      let otherLead = isLead .& .!(syllableLead .| stableTwoByteLead)
      let leavesSyllables =
        (before .== xEA) .& (current .< xB0)
        .| ((before .== xED) .& (current .>= x9E))
      let stops = (isContinuation .^ continues) .| otherLead .| leavesSyllables
      // Not `any(stops)`: the standard library reduces a mask lane by lane.
      let lanes = unsafeBitCast(stops, to: SIMD2<UInt64>.self)
      if lanes[0] | lanes[1] != 0 { break }
      position &+= 16
    }
    guard position > start else { return start }
    // The last code point the blocks began is proven whole only by the
    // block that failed: back to its start, for the caller's loop to take it
    // (unless it is ASCII, whole in one byte).
    var last = position &- 1
    while base[last] & 0xC0 == 0x80 { last &-= 1 }
    assert(last >= start, "the scan starts at a code point")
    if base[last] >= 0xC0 { position = last }
    return position
  }
}
