/// A keyboard's combination rules (two jamo typed in a row make a third) as
/// a flat open-addressing hash table, built once when a composer is made, so
/// that the automaton looks a pair up with a multiply and a probe or two
/// instead of a `Dictionary` lookup (hashing, retains).
///
///     let table = JamoPairTable([0x1169 << 32 | 0x1161: 0x116A])   // ᅩ + ᅡ → ᅪ
///     table.combine(0x1169, 0x1161)   // 0x116A
///     table.combine(0x1161, 0x1169)   // 0
///
/// A lookup is O(1); the table holds at most four slots per rule (at least 16).
struct JamoPairTable: Sendable, Equatable {
  /// `first << 32 | second` of each rule, 0 in an empty slot (a jamo is never 0).
  private let pairs: [UInt64]
  private let results: [UInt32]
  private let mask: Int

  init(_ combinations: [UInt64: UInt32]) {
    var size = 16
    while size < combinations.count * 4 { size <<= 1 }
    var pairs = [UInt64](repeating: 0, count: size)
    var results = [UInt32](repeating: 0, count: size)
    for (pair, result) in combinations where pair != 0 {
      var slot = Self.slot(of: pair, mask: size - 1)
      while pairs[slot] != 0 { slot = (slot + 1) & (size - 1) }
      pairs[slot] = pair
      results[slot] = result
    }
    self.pairs = pairs
    self.results = results
    mask = size - 1
  }

  @inline(__always)
  private static func slot(of pair: UInt64, mask: Int) -> Int {
    Int(truncatingIfNeeded: (pair &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
  }

  /// The jamo that `first` and `second` typed in a row make, or 0.
  @inline(__always)
  func combine(_ first: UInt32, _ second: UInt32) -> UInt32 {
    let pair = UInt64(first) << 32 | UInt64(second)
    var slot = Self.slot(of: pair, mask: mask)
    while true {
      let stored = pairs[slot]
      if stored == pair { return results[slot] }
      if stored == 0 { return 0 }
      slot = (slot + 1) & mask
    }
  }
}
