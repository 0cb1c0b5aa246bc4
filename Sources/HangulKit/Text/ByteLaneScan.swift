/// What the sixteen-bytes-a-step scans share (``NormalizedTextScan`` of the
/// normalizer, ``BlockScan`` of the verifiers): a block's bytes seen as
/// signed lanes, and masks combined as lanes of bytes.
///
/// Compared as signed bytes, one instruction tests a range that unsigned
/// takes two for: ASCII is 0 or more, a continuation byte (80-BF) below
/// -64, a lead of two or three bytes (C0-EF) from -64 to -17. Masks are
/// combined as bytes because, combined as masks, LLVM widened and narrowed
/// them again (four instructions a block).
///
///     let bytes = Self.signed(block)
///     let passed = laneBits(bytes .>= Signed())  // ASCII lanes all ones
///     if every(passed) { … }
///
/// A scan adopts it (`enum Scan: ByteLaneScan`) and calls these as its own
/// static functions: they are inlined, with no dispatch.
protocol ByteLaneScan {}

extension ByteLaneScan {
  typealias Block = SIMD16<UInt8>
  /// A block's bytes as signed lanes, or a mask's lanes (all ones or all
  /// zeros) to combine with `&` and `|`.
  typealias Signed = SIMD16<Int8>
  typealias Mask = SIMDMask<Signed>

  @inline(__always)
  static func signed(_ block: Block) -> Signed { unsafeBitCast(block, to: Signed.self) }

  @inline(__always)
  static func laneBits(_ mask: Mask) -> Signed { unsafeBitCast(mask, to: Signed.self) }

  /// Whether every lane of `passed` (a mask's lanes) is all ones: two
  /// words compared, not a reduction lane by lane.
  @inline(__always)
  static func every(_ passed: Signed) -> Bool {
    let words = unsafeBitCast(passed, to: (UInt64, UInt64).self)
    return words.0 & words.1 == ~0
  }

  /// Whether any lane of `lanes` (a mask's lanes) is set: two words, not a
  /// reduction lane by lane.
  @inline(__always)
  static func any(_ lanes: Signed) -> Bool {
    let words = unsafeBitCast(lanes, to: (UInt64, UInt64).self)
    return words.0 | words.1 != 0
  }

  /// The first lane of `passed` (a mask's lanes) that is zero, 16 when none
  /// is: the first zero byte of its two words.
  @inline(__always)
  static func firstFailing(_ passed: Signed) -> Int {
    let words = unsafeBitCast(passed, to: (UInt64, UInt64).self)
    let low = ~words.0
    guard low == 0 else { return low.trailingZeroBitCount &>> 3 }
    let high = ~words.1
    return high == 0 ? 16 : 8 &+ high.trailingZeroBitCount &>> 3
  }
}
