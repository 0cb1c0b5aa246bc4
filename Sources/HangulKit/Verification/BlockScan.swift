/// The sixteen-bytes-a-step part of the verifiers' scans: a block of output
/// is passed when every code point that starts in it is of a kind the scan
/// knows to agree with ICU, decided for the sixteen lanes at once with no
/// branch per character; it stops at the first lane it cannot pass.
///
///     var (last, separators) = (0, 0)
///     BlockScan.passStable(base, count, from: 2, separator: 0x0A, jamo: false,
///                          syllables: true, last: &last, separators: &separators)
///     // the first byte that is not ASCII or a syllable (or 18 before the end);
///     // separators: how many newlines it passed
///
/// In ``passStable(_:_:from:separator:jamo:syllables:last:separators:)``
/// a lane passes when its byte is ASCII, an accepted lead (its range
/// checked with the next byte), or a continuation byte, and it is a
/// continuation byte exactly when a three-byte lead one or two bytes before
/// makes one due (loads one and two bytes before the block). In
/// ``passGroups(_:_:from:)`` a lead's lane checks the bytes after it (loads
/// up to four bytes on) and the jamo before it. Lanes read up to three
/// bytes before the block: the bytes before the first block must not hold a
/// lead that reaches into it (each scan checks this before its first
/// block). A lane that fails may be inside a code point whose lead passed:
/// each scan stops at that code point's start, and after its last block it
/// passes only the continuation bytes due to a lead in the block's last
/// lanes. Time O(n), a few vector operations per sixteen bytes.
///
/// Every operation is between two vectors (a constant is a vector of it):
/// with a scalar operand Swift compares lane by lane. Lanes are handled
/// through ``ByteLaneScan``.
package enum BlockScan: ByteLaneScan {
  @inline(__always)
  static func load(_ base: UnsafePointer<UInt8>, _ index: Int) -> Block {
    UnsafeRawPointer(base + index).loadUnaligned(as: Block.self)
  }

  /// `byte` in every lane.
  @inline(__always)
  static func splat(_ byte: UInt8) -> Block { Block(repeating: byte) }

  /// What a scan of normalized or composed output passes besides ASCII: a
  /// type for each, so that each gets its own loop with no test of the kind
  /// in it.
  fileprivate protocol Kind {
    /// E1 to pass U+1100–U+11FF, E3 to pass U+3100–U+31FF, 0 neither.
    static var jamoLead: UInt8 { get }
    /// Whether to pass the syllables U+AC00–U+D77F.
    static var syllables: Bool { get }
    /// Whether the scan counts the separators it passes (a checker that
    /// numbers records does).
    static var countsSeparators: Bool { get }
  }

  fileprivate enum Jamo: Kind {
    static var jamoLead: UInt8 { 0xE1 }
    static var syllables: Bool { false }
    static var countsSeparators: Bool { true }
  }

  fileprivate enum Syllables: Kind {
    static var jamoLead: UInt8 { 0 }
    static var syllables: Bool { true }
    static var countsSeparators: Bool { true }
  }

  fileprivate enum JamoAndSyllables: Kind {
    static var jamoLead: UInt8 { 0xE1 }
    static var syllables: Bool { true }
    static var countsSeparators: Bool { true }
  }

  fileprivate enum Composed: Kind {
    static var jamoLead: UInt8 { 0xE3 }
    static var syllables: Bool { true }
    static var countsSeparators: Bool { false }
  }

  /// Normalized output (``NormalFormChecker``): passes ASCII (`separator`
  /// too: `separators` grows by each one passed, so that a scan of lines
  /// does not stop at every line's end), with `syllables` the syllables
  /// U+AC00–U+D77F and with `jamo` the conjoining jamo U+1100–U+11FF (blocks
  /// every code point of which the form's table says is stable: the caller
  /// knows which). Returns where it stopped, a code point start (`start`
  /// when it cannot begin there); `last` becomes the start of the last code
  /// point passed.
  @inline(never)
  package static func passStable(
    _ base: UnsafePointer<UInt8>, _ count: Int, from start: Int, separator: UInt8, jamo: Bool,
    syllables: Bool, last: inout Int, separators: inout Int
  ) -> Int {
    // One loop for each kind, with no test of the kind in it.
    switch (jamo, syllables) {
    case (true, false):
      passStable(Jamo.self, base, count, start, separator, &last, &separators)
    case (false, true):
      passStable(Syllables.self, base, count, start, separator, &last, &separators)
    case (true, true):
      passStable(JamoAndSyllables.self, base, count, start, separator, &last, &separators)
    case (false, false): start
    }
  }

  /// Whether one of the 16 bytes at `start` leads a code point that
  /// ``passStable(_:_:from:separator:jamo:syllables:last:separators:)``
  /// does not pass (it would stop there): a lead (C0–FF) that is not E1
  /// with `jamo` nor EA–ED with `syllables`. A scan that stops at once costs
  /// as much as some fifty bytes of a scan that runs.
  @inline(__always)
  package static func holdsOtherLead(_ start: UnsafePointer<UInt8>, jamo: Bool, syllables: Bool)
    -> Bool
  {
    let bytes = signed(load(start, 0))
    // As signed bytes, leads are -64 to -1; E1 is -31, EA -22 and ED -19.
    var other = laneBits(bytes .>= Signed(repeating: -64)) & laneBits(bytes .< Signed())
    if jamo { other &= ~laneBits(bytes .== Signed(repeating: -31)) }
    if syllables {
      other &=
        ~(laneBits(bytes .> Signed(repeating: -23)) & laneBits(bytes .< Signed(repeating: -18)))
    }
    return any(other)
  }

  /// Composed output whose every syllable and compatibility jamo agrees
  /// with ICU (``AgreedUnitScan``): passes ASCII, the syllables
  /// U+AC00–U+D77F and the code points U+3100–U+31FF (the compatibility
  /// jamo, and others that are not Hangul, which the check leaves alone).
  /// Returns where it stopped, a code point start (`start` when it cannot
  /// begin there).
  @inline(never)
  package static func passComposed(_ base: UnsafePointer<UInt8>, _ count: Int, from start: Int)
    -> Int
  {
    var last = start
    var separators = 0
    // Composed output is checked a line at a time: no separator is counted.
    return passStable(Composed.self, base, count, start, 0x0A, &last, &separators)
  }

  /// The loop of ``passStable(_:_:from:separator:jamo:syllables:last:separators:)``
  /// and ``passComposed(_:_:from:)``, specialized for each kind. Blocks
  /// follow each other sixteen bytes apart. A lane passes when it is ASCII,
  /// an accepted lead, or a continuation byte, and the continuation bytes
  /// are exactly the lanes one or two after a three-byte lead (read from the
  /// loads one and two bytes before the block): a lead is followed by its
  /// two continuation bytes, in this block or the next (the scan's end
  /// checks those after the last block). A failing lane may be inside a
  /// code point: the scan stops at that code point's start. Separators are
  /// counted with no branch: each lane of a vector counts those it passed,
  /// summed before a lane can overflow (every 255 blocks) and where the
  /// scan stops.
  @inline(never)
  private static func passStable<K: Kind>(
    _ kind: K.Type, _ base: UnsafePointer<UInt8>, _ count: Int, _ start: Int, _ separator: UInt8,
    _ last: inout Int, _ separators: inout Int
  ) -> Int {
    let jamoLead = K.jamoLead
    let syllables = K.syllables
    let jamo = jamoLead != 0
    var position = start
    // No three-byte lead before the block whose code point reaches into it.
    guard position &+ 18 <= count, position >= 2, base[position &- 1] & 0xF0 != 0xE0,
      base[position &- 2] & 0xF0 != 0xE0
    else { return position }
    let separatorLanes = splat(separator)
    let highNibble = splat(0xF0)
    let threeByteLead = splat(0xE0)
    let (jamoLeads, jamoSecond, secondMask) = (splat(jamoLead), splat(0x84), splat(0xFC))
    let (ea, ed) = (splat(0xEA), splat(0xED))
    // Compared as signed bytes (one instruction each): ASCII is 0 or more,
    // a continuation byte (80–BF) less than -64; EB and EC are -21 and -20,
    // B0 is -80 and 9E -98.
    let (noLane, continuationEnd) = (Signed(repeating: -1), Signed(repeating: -64))
    let (belowEB, aboveEC) = (Signed(repeating: -22), Signed(repeating: -19))
    let (belowB0, nineE) = (Signed(repeating: -81), Signed(repeating: -98))
    // Separators passed in each lane since the last sum, and in how many blocks.
    var lanes = Block()
    var blocksInLanes = 0
    while position &+ 18 <= count {
      let bytes = load(base, position)
      let next = load(base, position &+ 1)
      let (signedBytes, signedNext) = (signed(bytes), signed(next))
      let before = load(base, position &- 1)
      let twoBefore = load(base, position &- 2)
      var lead = Signed()
      let leadBefore: Signed
      if jamo {
        lead |= laneBits(bytes .== jamoLeads) & laneBits((next & secondMask) .== jamoSecond)
      }
      if syllables {
        // EA B0 80 (U+AC00) to ED 9D BF (U+D77F): EB and EC with any second
        // byte, EA with B0–BF, ED with 80–9D (the second byte's lane checks
        // that it continues).
        let middle = laneBits(signedBytes .> belowEB) & laneBits(signedBytes .< aboveEC)
        let first = laneBits(bytes .== ea) & laneBits(signedNext .> belowB0)
        let last = laneBits(bytes .== ed) & laneBits(signedNext .< nineE)
        lead |= middle | first | last
      }
      if jamo, !syllables {
        leadBefore = laneBits(before .== jamoLeads) | laneBits(twoBefore .== jamoLeads)
      } else {
        leadBefore =
          laneBits((before & highNibble) .== threeByteLead)
          | laneBits((twoBefore & highNibble) .== threeByteLead)
      }
      let continuation = laneBits(signedBytes .< continuationEnd)
      // A lead's own lane fails unless it is accepted; a lane after one is
      // a continuation byte exactly when one is due.
      let passed =
        (laneBits(signedBytes .> noLane) | lead | continuation)
        & laneBits(continuation .== leadBefore)
      guard every(passed) else {
        let failing = firstFailing(passed)
        position &+= failing
        if K.countsSeparators {
          if blocksInLanes > 0 { separators &+= sum(lanes) }
          // Those of the block's lanes that passed, before the failing one.
          separators &+= countBefore(failing, bytes .== separatorLanes)
        }
        position = codePointStart(base, position, start)
        if position > start { last = position &- (base[position &- 1] < 0x80 ? 1 : 3) }
        return position
      }
      if K.countsSeparators {
        // A lane that matches is all ones: subtracting it adds one.
        lanes &-= unsafeBitCast(bytes .== separatorLanes, to: Block.self)
        blocksInLanes &+= 1
        if blocksInLanes == 255 {
          separators &+= sum(lanes)
          lanes = Block()
          blocksInLanes = 0
        }
      }
      position &+= 16
    }
    if K.countsSeparators { separators &+= sum(lanes) }
    guard position > start else { return position }
    // A lead in the last block's last two lanes: its continuation bytes
    // are after the block (there are two more bytes: position + 2 <= count).
    assert(position &+ 2 <= count, "the loop leaves two bytes after its last block")
    if base[position &- 1] & 0xF0 == 0xE0 {
      position &+= base[position] & 0xC0 == 0x80 && base[position &+ 1] & 0xC0 == 0x80 ? 2 : -1
    } else if base[position &- 2] & 0xF0 == 0xE0 {
      position &+= base[position] & 0xC0 == 0x80 ? 1 : -2
    }
    if position > start { last = position &- (base[position &- 1] < 0x80 ? 1 : 3) }
    return position
  }

  /// The start of the code point that `stop`, a lane that failed after
  /// lanes that passed, is in: the lead one or two bytes before when there
  /// is one (its continuation bytes were due), not before `start`.
  @inline(__always)
  private static func codePointStart(
    _ base: UnsafePointer<UInt8>, _ stop: Int, _ start: Int
  ) -> Int {
    if stop &- 1 >= start, base[stop &- 1] & 0xF0 == 0xE0 { return stop &- 1 }
    if stop &- 2 >= start, base[stop &- 2] & 0xF0 == 0xE0 { return stop &- 2 }
    return stop
  }

  /// How many of the lanes before `lane` are true in `mask` (its two words'
  /// bytes before that lane, all ones or all zeros, counted by their bits).
  @inline(__always)
  static func countBefore(_ lane: Int, _ mask: Mask) -> Int {
    assert((0..<16).contains(lane), "a lane of a block")
    let words = unsafeBitCast(mask, to: (UInt64, UInt64).self)
    let bits = UInt64(truncatingIfNeeded: lane &* 8)
    let low = lane >= 8 ? words.0 : words.0 & ((1 &<< bits) &- 1)
    let high = lane <= 8 ? 0 : words.1 & ((1 &<< (bits &- 64)) &- 1)
    return (low.nonzeroBitCount &+ high.nonzeroBitCount) &>> 3
  }

  /// The sum of the lanes' counts.
  @inline(__always)
  private static func sum(_ lanes: Block) -> Int {
    Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
  }

  /// Decomposed output whose every modern group agrees with ICU
  /// (``AgreedUnitScan``): passes ASCII and groups initial E1 84 80–92,
  /// vowel E1 85 A1–B5, perhaps final E1 86 A8 – E1 87 82. Each lane checks
  /// its neighbour three bytes on: an initial needs a vowel after it, a
  /// vowel an initial before it, a final a vowel before it (that neighbour's
  /// own lane checks the rest of it). Returns where it stopped, at the start
  /// of a group: a group cut by the stop is left whole for the caller.
  @inline(never)
  package static func passGroups(_ base: UnsafePointer<UInt8>, _ count: Int, from start: Int) -> Int
  {
    var position = start
    // No lead before the block reaching into it, and no initial or vowel
    // right before it (a vowel or final in lane 0 would lean on it).
    guard position &+ 21 <= count, position >= 3, base[position &- 1] != 0xE1,
      base[position &- 2] != 0xE1,
      base[position &- 3] != 0xE1 || base[position &- 2] &- 0x84 >= 2
    else { return position }
    let (e1, initialSecond, vowelSecond) = (splat(0xE1), splat(0x84), splat(0x85))
    let (finalSecond, lastFinalSecond) = (splat(0x86), splat(0x87))
    // Third bytes compared as signed bytes: initials 80–92 are below -109,
    // vowels A1–B5 from -95 to -75, finals A8–BF from -88 to -65 and 80–82
    // below -125; ASCII is 0 or more, a continuation byte below -64.
    let (noLane, continuationEnd) = (Signed(repeating: -1), Signed(repeating: -64))
    let (initialEnd, lastFinalEnd) = (Signed(repeating: -109), Signed(repeating: -125))
    let (belowVowel, vowelEnd) = (Signed(repeating: -96), Signed(repeating: -74))
    let belowFinal = Signed(repeating: -89)
    while position &+ 21 <= count {
      let bytes = load(base, position)
      let next = load(base, position &+ 1)
      let afterNext = signed(load(base, position &+ 2))
      let third = load(base, position &+ 3)
      let fourth = load(base, position &+ 4)
      let before = load(base, position &- 1)
      let twoBefore = load(base, position &- 2)
      let threeBefore = load(base, position &- 3)
      let isE1 = laneBits(bytes .== e1)
      let leadBefore = laneBits(threeBefore .== e1)
      let initial =
        laneBits(next .== initialSecond) & laneBits(afterNext .< initialEnd)
        & laneBits(third .== e1) & laneBits(fourth .== vowelSecond)
      let vowel =
        laneBits(next .== vowelSecond) & laneBits(afterNext .> belowVowel)
        & laneBits(afterNext .< vowelEnd) & leadBefore & laneBits(twoBefore .== initialSecond)
      let finalShape =
        laneBits(next .== finalSecond) & laneBits(afterNext .> belowFinal)
        & laneBits(afterNext .< continuationEnd)
        | laneBits(next .== lastFinalSecond) & laneBits(afterNext .< lastFinalEnd)
      let final = finalShape & leadBefore & laneBits(twoBefore .== vowelSecond)
      let signedBytes = signed(bytes)
      let continuation =
        laneBits(signedBytes .< continuationEnd)
        & (laneBits(before .== e1) | laneBits(twoBefore .== e1))
      let passed =
        laneBits(signedBytes .> noLane) | isE1 & (initial | vowel | final) | continuation
      guard every(passed) else {
        position &+= firstFailing(passed)
        return backToGroupStart(base, position, start)
      }
      position &+= 16
    }
    // The code point that straddles the last block's end was checked whole
    // by its lead's lane (a continuation byte after a code point that ends
    // with the block is not passed: it is in no code point).
    if position > start {
      if base[position &- 1] == 0xE1 {
        position &+= 2
      } else if base[position &- 2] == 0xE1 {
        position &+= 1
      }
    }
    return backToGroupStart(base, position, start)
  }

  /// `position`, or the start of the group it cuts (after its initial or
  /// vowel), not before `start`.
  @inline(__always)
  private static func backToGroupStart(_ base: UnsafePointer<UInt8>, _ stop: Int, _ start: Int)
    -> Int
  {
    var position = stop
    if position &- 3 >= start, base[position &- 3] == 0xE1 {
      if base[position &- 2] == 0x84 {
        position &-= 3
      } else if base[position &- 2] == 0x85, position &- 6 >= start {
        position &-= 6
      }
    }
    return position
  }
}
