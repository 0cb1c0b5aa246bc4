/// Skips, sixteen bytes at a time, text that a form leaves as it is and that
/// proves itself well-formed UTF-8 by the same test.
///
/// Composed (NFC, NFKC): ASCII, Hangul syllables, and in NFC the two-byte
/// code points below U+0300. Decomposed (NFD, NFKD): ASCII, conjoining jamo
/// (U+1100-U+11FF), and in NFD U+0080-U+00BF. Each of these has quick check
/// Yes and combining class 0 in its forms, and none joins the code point
/// before it, so a run of them needs no work; whatever follows a run (a
/// combining mark, a conjoining final after a syllable) is left to the
/// caller, which sees the run's last code point as open. The block test is
/// branch-free: a block stops the scan when any byte is a lead of something
/// else (other three- and four-byte code points, other two-byte ones, C0 and
/// C1), a lead whose second byte leaves the range (EA below B0, ED from 9E;
/// E1 outside 84-87), or a continuation byte where none is due (or none
/// where one is due); the caller's loop takes that block.
///
///     // "한국어 text" repeated: the scan returns a position near the end,
///     // at the start of a code point.
///     let position = NormalizedTextScan.skip(base, from: 2, count: count, decomposed: false, twoByteLeads: 10)
///
/// About 3.5 instructions a byte in the composing loop, against about 14
/// when it looks at each code point.
enum NormalizedTextScan: ByteLaneScan {
  /// Bytes of look-ahead the scan keeps from the end, so that the code point
  /// it stops in can be found without reading past `count`.
  static let margin = 16 + 2

  /// Two-byte leads from C2 the scan takes: U+0080-U+02FF in NFC.
  static let composedTwoByteLeads: UInt8 = 10
  /// U+0080-U+00BF in NFD (U+00C0 À decomposes).
  static let decomposedTwoByteLeads: UInt8 = 1

  /// The two-byte leads from C2 the scan takes in `form`: none in the
  /// compatibility forms (U+00A0 changes there).
  static func twoByteLeads(for form: ICUNormalizer.Form) -> UInt8 {
    switch form {
    case .nfc: composedTwoByteLeads
    case .nfd: decomposedTwoByteLeads
    case .nfkc, .nfkd: 0
    }
  }

  /// ``skip(_:from:count:decomposed:twoByteLeads:)`` of decomposed text, as
  /// a call: inlined in the decomposing loop, its constants took registers
  /// that loop needs (text → NFD, which never meets the jamo it is for,
  /// took 2 % longer).
  @inline(never)
  static func skipDecomposed(
    _ base: UnsafePointer<UInt8>, from start: Int, count: Int, twoByteLeads: UInt8
  ) -> Int {
    skip(base, from: start, count: count, decomposed: true, twoByteLeads: twoByteLeads)
  }

  /// The first position from `start` on that the scan does not vouch for,
  /// at the start of a code point: `start` itself when its first block
  /// fails. `start - 2 ..< start` must be the end of well-formed code
  /// points the caller took (the test for the first block reads them).
  /// `twoByteLeads` counts the two-byte leads from C2 that are taken (0 in
  /// the compatibility forms: U+00A0 changes).
  @inline(__always)
  static func skip(
    _ base: UnsafePointer<UInt8>, from start: Int, count: Int, decomposed: Bool,
    twoByteLeads: UInt8
  ) -> Int {
    assert(start >= 2, "the first block's test reads the two bytes before it")
    var position = start
    // Local constants (static ones cost a swift_once check at each use).
    // Bytes compared as signed lanes where one compare does it: ASCII is 0
    // or more, a continuation byte (80-BF) less than -64, a lead of two or
    // three bytes (C0-EF) from -64 to -17; B0 is -80, 9E -98.
    let xC0 = SIMD16<UInt8>(repeating: 0xC0)
    let xC2 = SIMD16<UInt8>(repeating: 0xC2)
    let xE0 = SIMD16<UInt8>(repeating: 0xE0)
    let xF0 = SIMD16<UInt8>(repeating: 0xF0)
    let (continuationEnd, leadFirst2, leadEnd3) = (
      Signed(repeating: -64), Signed(repeating: -65), Signed(repeating: -16)
    )
    let (belowB0, belowRange9E) = (Signed(repeating: -80), Signed(repeating: -99))
    let twoByteCount = SIMD16<UInt8>(repeating: twoByteLeads)
    // The three-byte leads taken: EA-ED (syllables) or E1 (jamo).
    let leadFirst = SIMD16<UInt8>(repeating: decomposed ? 0xE1 : 0xEA)
    let leadCount = SIMD16<UInt8>(repeating: decomposed ? 1 : 4)
    // Their second bytes: E1 84-87; EA from B0, ED below 9E.
    let x84 = SIMD16<UInt8>(repeating: 0x84)
    let x04 = SIMD16<UInt8>(repeating: 0x04)
    let xE1 = SIMD16<UInt8>(repeating: 0xE1)
    let xEA = SIMD16<UInt8>(repeating: 0xEA)
    let xED = SIMD16<UInt8>(repeating: 0xED)
    while position &+ margin <= count {
      // The scan reads base[position - 2 ..< position + 16]: inside the buffer.
      assert(position >= 2 && position &+ 16 <= count)
      let bytes = UnsafeRawPointer(base + position)
      let current = bytes.loadUnaligned(as: SIMD16<UInt8>.self)
      let before = bytes.loadUnaligned(fromByteOffset: -1, as: SIMD16<UInt8>.self)
      let twoBefore = bytes.loadUnaligned(fromByteOffset: -2, as: SIMD16<UInt8>.self)
      let (signedCurrent, signedBefore) = (signed(current), signed(before))
      // Vector operands only: the operators with a scalar operand, and `&`
      // on vectors, are the protocol's lane-by-lane versions. Masks are
      // combined as lanes of bytes (as masks they were widened and narrowed
      // again, four instructions a block).
      let isContinuation = laneBits(signedCurrent .< continuationEnd)
      let continues =
        laneBits(signedBefore .> leadFirst2) & laneBits(signedBefore .< leadEnd3)
        | laneBits((twoBefore & xF0) .== xE0)
      let isLead = laneBits(current .>= xC0)
      let takenLead =
        laneBits(current &- leadFirst .< leadCount) | laneBits(current &- xC2 .< twoByteCount)
      // A second byte out of the range; one that is not a continuation
      // byte stops the block anyway.
      let leavesRange =
        decomposed
        ? laneBits(before .== xE1) & laneBits(current &- x84 .>= x04)
        : laneBits(before .== xEA) & laneBits(signedCurrent .< belowB0)
          | (laneBits(before .== xED) & laneBits(signedCurrent .> belowRange9E))
      let stops = (isContinuation ^ continues) | (isLead & ~takenLead) | leavesRange
      if any(stops) { break }
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
