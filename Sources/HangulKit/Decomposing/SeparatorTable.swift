/// For the key forms of ``Decomposer``: whether the keys of a compatibility
/// jamo, written right after those of a Hangul unit (a syllable or a
/// jamo), would compose into something other than that unit and the jamo,
/// so that a ``KeyLogControl/separator`` must come between them.
///
/// The answer is the composer's (``SyllableComposer`` on the keyboard), one
/// row of 51 answers per unit, worked out the first time that unit comes
/// before a jamo: ㅋㅋㅋ or ㅠㅠ then costs a table lookup per jamo instead of
/// a composer run (and, before, a composer built) per jamo.
///
///     var separators = SeparatorTable(keyboard: .twoSet)
///     separators.needsSeparator(after: SeparatorTable.unit(of: "ㄱ"), before: Jamo("ㅅ")!)  // true: ㄳ
///     separators.needsSeparator(after: SeparatorTable.unit(of: "가"), before: Jamo("ㄱ")!)  // false: 각 then…
///
/// A row takes 51 composer runs once; a lookup is O(1). Memory: 8 bytes a
/// unit (90 KB), allocated at the first lookup.
struct SeparatorTable: Sendable {
  /// For each unit (a syllable by index, then each compatibility jamo by
  /// offset): bit `j` set when jamo `j` needs a separator after it, and
  /// ``known`` once the row is worked out.
  private(set) var rows: [UInt64] = []
  /// A composer with nothing typed, copied for each row (its tables shared).
  private let composer: SyllableComposer

  /// The bit of a row that says it is worked out.
  static let known: UInt64 = 1 << 63

  /// How many units there are: the syllables, then the compatibility jamo.
  static let unitCount = HangulSyllable.count + Jamo.count

  init(keyboard: Keyboard) {
    composer = SyllableComposer(keyboard: keyboard)
  }

  /// The unit index of a syllable or a compatibility jamo, or `nil`.
  static func unit(of scalar: Unicode.Scalar) -> Int? {
    let index = scalar.value &- HangulSyllable.firstScalarValue
    if index < UInt32(HangulSyllable.count) { return Int(index) }
    if let jamo = Jamo(scalar) { return HangulSyllable.count + Int(jamo.offset) }
    return nil
  }

  /// Whether `jamo` after `unit` needs a separator; works the row out if it is not yet.
  mutating func needsSeparator(after unit: Int, before jamo: Jamo) -> Bool {
    assert(unit >= 0 && unit < Self.unitCount, "a syllable or compatibility jamo")
    if rows.isEmpty { rows = [UInt64](repeating: 0, count: Self.unitCount) }
    var row = rows[unit]
    if row & Self.known == 0 {
      row = Self.row(after: unit, composer: composer)
      rows[unit] = row
    }
    return row >> UInt64(jamo.offset) & 1 != 0
  }

  /// The row of `unit`: for each jamo, whether typing its keys after the
  /// unit's would not give the unit and then the jamo.
  static func row(after unit: Int, composer: SyllableComposer) -> UInt64 {
    let previous =
      unit < HangulSyllable.count
      ? HangulSyllable(index: unit).scalar
      : Jamo.all[unit - HangulSyllable.count].scalar
    var typed = composer
    for key in Decomposer.keys(of: previous) { _ = typed.press(key) }
    var row = known
    for jamo in Jamo.all {
      var next = typed
      var committed: [Unicode.Scalar] = []
      for key in jamo.keys {
        if let done = next.press(key) { committed.append(done) }
      }
      if !(committed == [previous] && next.composing == jamo.scalar) {
        row |= 1 << UInt64(jamo.offset)
      }
    }
    return row
  }
}
