import Synchronization

/// What ICU says about each code point for one normalization form, in a
/// table filled from ICU as text needs it, 256 code points at a time (a
/// block costs about 512 ICU look-ups, some 30 µs; Korean text needs about
/// 50 blocks; a block that a table of the same form asked before is copied):
/// whether normalization has a boundary before the code point, whether it is
/// already in the form on its own, and whether the project's own Hangul
/// arithmetic may handle it.
///
///     let properties = try NormalizationProperties(.nfc)
///     properties.flags(of: 0x61) & NormalizationProperties.stable != 0    // true: "a"
///     properties.flags(of: 0x301) & NormalizationProperties.boundary != 0 // false
///
/// Code points from U+30000 on (rare) are asked of ICU each time. A look-up
/// is O(1). Not for sharing between threads (it fills itself).
package final class NormalizationProperties {
  /// Normalization has a boundary before the code point: text may be cut
  /// there and the pieces normalized apart.
  package static let boundary: UInt8 = 1
  /// A boundary, and the code point alone is in the form: with a boundary
  /// after it too, it is written unchanged.
  package static let stable: UInt8 = 2
  /// A Hangul syllable or conjoining jamo: the project's arithmetic composes
  /// and decomposes it (ARCHITECTURE.md, Unicode ground truth) instead of ICU.
  package static let hangul: UInt8 = 4
  /// Not asked of ICU yet (no other flag is set with it).
  package static let unknown: UInt8 = 0x80

  /// Code points below this are in the table.
  package static let tableLimit: UInt32 = 0x30000

  package let form: ICUNormalizer.Form
  package let normalizer: ICUNormalizer
  /// The flags of every code point below ``tableLimit``, ``unknown`` until asked.
  let table: UnsafeMutablePointer<UInt8>

  /// A table for `form`, empty until used.
  package convenience init(_ form: ICUNormalizer.Form) throws {
    self.init(normalizer: try ICUNormalizer(form))
  }

  /// A table for `normalizer`'s form, empty until used.
  package init(normalizer: ICUNormalizer) {
    form = normalizer.form
    self.normalizer = normalizer
    let key = normalizer.form.rawValue
    if let spare = Self.spareTables.withLock({ $0[key]?.popLast() }) {
      table = spare.table
    } else {
      table = .allocate(capacity: Int(Self.tableLimit))
      table.initialize(repeating: Self.unknown, count: Int(Self.tableLimit))
    }
  }

  deinit {
    let key = form.rawValue
    let kept = Self.spareTables.withLock { spares -> Bool in
      guard spares[key, default: []].count < Self.sparesKept else { return false }
      spares[key, default: []].append(SpareTable(table: table))
      return true
    }
    if !kept { table.deallocate() }
  }

  /// A table no instance uses, filled as far as its last one asked.
  private struct SpareTable: @unchecked Sendable {
    // Sendable: a spare table has no owner until one instance takes it.
    let table: UnsafeMutablePointer<UInt8>
  }

  /// The tables of instances that are gone, by form, for the next instance
  /// of the same form: a parallel run makes a filter, and so a table, for
  /// each 2 MiB piece, which would otherwise clear 192 KiB and fill again
  /// what the one before it knew (ICU's answers depend on the form and the
  /// code point alone, so what a table holds stays true).
  private static let spareTables = Mutex<[ICUNormalizer.Form.RawValue: [SpareTable]]>([:])

  /// How many spare tables of each form are kept at most.
  private static let sparesKept = 8

  /// The flags of the code point `value` (a scalar value).
  @inline(__always)
  package func flags(of value: UInt32) -> UInt8 {
    guard value < Self.tableLimit else { return Self.askICU(value, normalizer) }
    let flags = table[Int(value)]
    return flags == Self.unknown ? fill(value) : flags
  }

  /// Asks ICU about the block of `value`, or copies what a table of the
  /// same form learnt before; returns the flags of `value`.
  @inline(never)
  func fill(_ value: UInt32) -> UInt8 {
    let start = Int(value & ~0xFF)
    let key = Int(form.rawValue) << 16 | start >> 8
    let block = UnsafeMutableBufferPointer(start: table + start, count: 0x100)
    let known = Self.learnt.withLock { blocks -> Bool in
      guard let flags = blocks[key] else { return false }
      _ = block.update(fromContentsOf: flags)
      return true
    }
    if !known {
      for index in 0..<0x100 {
        block[index] = Self.askICU(UInt32(start + index), normalizer)
      }
      let flags = Array(block)
      Self.learnt.withLock { $0[key] = flags }
    }
    return table[Int(value)]
  }

  /// The blocks asked of ICU so far, by form and block (the form's raw value
  /// times 65,536 plus the code point divided by 256), for every table: a
  /// fresh filter for each piece of a parallel run starts from what the
  /// others learnt instead of asking ICU again (some 2.8 million
  /// instructions a filter for Korean text, a tenth of a 2 MiB piece).
  /// ICU's answers depend on the form and the code point alone.
  private static let learnt = Mutex<[Int: [UInt8]]>([:])

  /// Whether the project's arithmetic handles `value`: syllables and
  /// conjoining jamo, none of which has a compatibility decomposition.
  package static func isConjoiningHangul(_ value: UInt32) -> Bool {
    switch value {
    case 0xAC00...0xD7A3, 0x1100...0x11FF, 0xA960...0xA97C, 0xD7B0...0xD7C6, 0xD7CB...0xD7FB: true
    default: false
    }
  }

  static func askICU(_ value: UInt32, _ normalizer: ICUNormalizer) -> UInt8 {
    guard let scalar = Unicode.Scalar(value) else { return boundary | stable }
    var flags: UInt8 = 0
    if normalizer.hasBoundary(before: scalar) {
      flags |= boundary
      if normalizer.isNormalized(scalar) { flags |= stable }
    }
    if isConjoiningHangul(value) { flags |= hangul }
    return flags
  }
}
