/// A small deterministic random generator (SplitMix64) for the tests of
/// every target: a seed gives the same numbers on every machine, so a
/// failure reproduces and a generated corpus stays the same.
///
///     var generator = SeededGenerator(seed: 27)
///     generator.below(10)   // the same number in 0..<10 on every run
public struct SeededGenerator: RandomNumberGenerator {
  public var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in 0 ..< `bound`, the remainder of ``next()`` (not
  /// `Int.random(in:using:)`: the tests' seeds were chosen with these numbers).
  public mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0, "below(_:) needs a bound of 1 or more")
    return Int(next() % UInt64(bound))
  }

  /// Whether an event of `percent` in a hundred happens this time.
  public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
