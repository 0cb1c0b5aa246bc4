/// Decomposes text one unit at a time into jamo, conjoining jamo or the keys
/// that type it, keeping what it needs to make key output round-trip.
///
/// For ``DecompositionForm/keys`` and ``DecompositionForm/qwerty`` the output
/// is a keystroke log that `hangul-compose` (with `--keys qwerty` for the
/// latter, default options otherwise) turns back into exactly the input. To
/// know where that needs a ``KeyLogControl/separator``, the decomposer asks the
/// composer: before writing the keys of a standalone jamo that follows Hangul
/// it tries them after the keys of the Hangul before, and when they would not
/// compose into that jamo it writes a separator first. A syllable never needs
/// one: its initial and vowel always end what came before, and leave the
/// composer as if the syllable had been typed alone.
///
///     var decomposer = Decomposer(form: .keys)
///     var output: [Unicode.Scalar] = []
///     for scalar in "각ㅏ".unicodeScalars {
///       decomposer.decompose(.scalar(scalar)) { if case .scalar(let s) = $0 { output.append(s) } }
///     }
///     // output: ㄱ ㅏ ㄱ U+200C ㅏ
///
/// With `plain` the key forms write neither separator nor literal prefix: the
/// keys a person would type, readable and greppable, but no longer sure to
/// compose back to the input.
///
/// Each unit takes O(1) time and the state is constant-size.
public struct Decomposer: Sendable {
  public let form: DecompositionForm
  /// Whether separators and literal prefixes are left out.
  public let isPlain: Bool
  /// For ``DecompositionForm/initials``: whether a compatibility jamo that
  /// is a consonant cluster is written as its two consonants (ㄻ → ㄹㅁ), as
  /// initials typed on Windows' input method come merged.
  public let splitsClusters: Bool
  let keyboard: Keyboard
  /// What each syllable and jamo becomes, as UTF-8 (``DecompositionTable``).
  let table: DecompositionTable
  /// The last unit, when it was Hangul that the composer may still be composing.
  private(set) var previousHangul: Unicode.Scalar?
  /// For ``DecompositionForm/initials``: whether a conjoining vowel or final
  /// that comes now continues a syllable whose initial is written.
  private var continuesSyllable = false
  /// Which jamo need a separator after which unit (key forms, not plain).
  private(set) var separators: SeparatorTable?
  /// Plain key forms: the modern conjoining initial, and then vowel, of an
  /// NFD syllable whose end has not come yet (0: none).
  private var heldInitial: UInt32 = 0
  private var heldVowel: UInt32 = 0

  /// A decomposer to `form`; `splitClusters` applies to ``DecompositionForm/initials`` only.
  public init(
    form: DecompositionForm, keyboard: Keyboard = .twoSet, plain: Bool = false,
    splitClusters: Bool = false
  ) {
    self.form = form
    isPlain = plain
    splitsClusters = splitClusters && form == .initials
    self.keyboard = keyboard
    table = DecompositionTable(form: form, keyboard: keyboard, splitClusters: splitsClusters)
    if form.isKeystrokes, !plain { separators = SeparatorTable(keyboard: keyboard) }
  }

  /// Decomposes one unit of input, passing each unit of output to `emit`.
  package mutating func decompose(_ unit: DecodedUnit, _ emit: (DecodedUnit) throws -> Void)
    rethrows
  {
    var bytes: [UInt8] = []
    decompose(unit, into: &bytes)
    var stream = UTF8Stream()
    try stream.decode(bytes, isLast: true, emit)
  }

  /// Decomposes one unit of input, appending the output's UTF-8 to `output`.
  package mutating func decompose(_ unit: DecodedUnit, into output: inout [UInt8]) {
    if isPlain, form.isKeystrokes, readsAsSyllable(unit, into: &output) { return }
    guard case .scalar(let scalar) = unit else {
      previousHangul = nil
      continuesSyllable = false
      if case .invalidByte(let byte) = unit { output.append(byte) }
      return
    }
    let value = scalar.value
    if value &- HangulSyllable.firstScalarValue < UInt32(HangulSyllable.count) {
      table.append(syllable: Int(value - HangulSyllable.firstScalarValue), to: &output)
      if form.isKeystrokes { previousHangul = scalar }
      continuesSyllable = true
      return
    }
    if form == .initials {
      appendInitial(of: scalar, to: &output)
      return
    }
    if let jamo = Jamo(scalar), form.isKeystrokes {
      if needsSeparator(before: jamo) { output.appendUTF8(KeyLogControl.separator) }
      table.append(jamo: jamo, to: &output)
      previousHangul = scalar
      return
    }
    previousHangul = nil
    switch form {
    case .jamo:
      output.appendUTF8(Self.compatibilityJamo(of: scalar))
    case .nfd:
      output.appendUTF8(scalar)
    case .keys, .qwerty:
      if needsLiteralPrefix(scalar) { output.appendUTF8(KeyLogControl.literalPrefix) }
      output.appendUTF8(scalar)
    case .initials:
      output.appendUTF8(scalar)
    }
  }

  /// Ends the input (or a stream of it), writing what is held.
  public mutating func finish(into output: inout [UInt8]) {
    releaseHeld(into: &output)
    finish()
  }

  /// Ends the input (or a stream of it); what is held is dropped.
  public mutating func finish() {
    previousHangul = nil
    continuesSyllable = false
    heldInitial = 0
    heldVowel = 0
  }

  /// Whether the decomposer holds the start of an NFD syllable (plain key forms):
  /// the next unit must come through ``decompose(_:into:)``.
  var holdsJamo: Bool { heldInitial != 0 }

  /// Plain key forms read NFD syllables (macOS file names) as the syllables
  /// they are: a modern initial and vowel, then perhaps a modern final, get
  /// the keys of their NFC syllable, and so does a final after a precomposed
  /// syllable without one (가 + ᆨ = 각). Conjoining jamo that make no modern
  /// syllable (a lone jamo, old Hangul such as ᄒᆞᆫ) are written as they are.
  /// Returns whether `unit` is taken.
  private mutating func readsAsSyllable(_ unit: DecodedUnit, into output: inout [UInt8]) -> Bool {
    let value: UInt32
    if case .scalar(let scalar) = unit { value = scalar.value } else { value = 0 }
    let isModernVowel = (0x1161...0x1175).contains(value)
    let isModernFinal = (0x11A8...0x11C2).contains(value)
    if heldInitial != 0, heldVowel == 0, isModernVowel {
      heldVowel = value
      return true
    }
    if heldVowel != 0, isModernFinal {
      appendSyllable(initial: heldInitial, vowel: heldVowel, final: value, to: &output)
      return true
    }
    // An old syllable: its modern part is written as it is too.
    releaseHeld(into: &output, asSyllable: !Self.continuesOldSyllable(value))
    if (0x1100...0x1112).contains(value) {
      heldInitial = value
      return true
    }
    if isModernFinal, let previous = previousHangul?.value, HangulSyllable.contains(previous),
      (previous - HangulSyllable.firstScalarValue) % 28 == 0
    {
      let jamo = HangulSyllable.jamoValues(
        ofIndex: Int(previous - HangulSyllable.firstScalarValue))
      appendSyllable(
        initial: jamo.initial, vowel: jamo.vowel, final: value, to: &output, after: previous)
      return true
    }
    return false
  }

  /// Writes the keys of the syllable of modern conjoining jamo (`final` 0:
  /// none); `after`: the syllable without its final, already written.
  private mutating func appendSyllable(
    initial: UInt32, vowel: UInt32, final: UInt32, to output: inout [UInt8],
    after written: UInt32? = nil
  ) {
    let index = HangulSyllable.index(initial: initial, vowel: vowel, final: final)
    if written != nil, let jamo = Unicode.Scalar(final).flatMap({ Jamo(conjoining: $0) }) {
      table.append(jamo: jamo, to: &output)  // a syllable's keys are those of its parts in turn
    } else {
      table.append(syllable: index, to: &output)
    }
    heldInitial = 0
    heldVowel = 0
    decompose(syllableValue: HangulSyllable.firstScalarValue + UInt32(index))
  }

  /// Writes the held start of an NFD syllable: a modern initial and vowel as
  /// their syllable (unless `asSyllable` is false), an initial alone as it is.
  private mutating func releaseHeld(into output: inout [UInt8], asSyllable: Bool = true) {
    guard heldInitial != 0 else { return }
    if heldVowel != 0, asSyllable {
      appendSyllable(initial: heldInitial, vowel: heldVowel, final: 0, to: &output)
      return
    }
    for value in [heldInitial, heldVowel] where value != 0 {
      output.appendUTF8(Unicode.Scalar(value) ?? "\u{FFFD}")
    }
    heldInitial = 0
    heldVowel = 0
    previousHangul = nil
  }

  /// Whether a scalar after an initial and a vowel makes the syllable old
  /// Hangul: an old vowel or final, or a tone mark.
  static func continuesOldSyllable(_ value: UInt32) -> Bool {
    switch value {
    case 0x1176...0x11A7, 0x11C3...0x11FF, 0xD7B0...0xD7FB, 0x302E, 0x302F: true
    default: false
    }
  }

  /// Writes what ``DecompositionForm/initials`` makes of a unit that is not a
  /// precomposed syllable: a conjoining initial as its compatibility jamo, and
  /// nothing for the conjoining vowels and finals of the same syllable, so that
  /// NFD text gives the same initials as NFC text.
  private mutating func appendInitial(of scalar: Unicode.Scalar, to output: inout [UInt8]) {
    switch scalar.value {
    case 0x1100...0x115F, 0xA960...0xA97C:
      output.appendUTF8(Self.compatibilityJamo(of: scalar))
      continuesSyllable = true
    case 0x1160...0x11FF where continuesSyllable, 0xD7B0...0xD7FB where continuesSyllable:
      break
    default:
      if splitsClusters, let jamo = Jamo(scalar) {
        table.append(jamo: jamo, to: &output)
      } else {
        output.appendUTF8(scalar)
      }
      continuesSyllable = false
    }
  }

  /// The compatibility jamo that shows a conjoining jamo alone, old ones
  /// included (ᆞ → ㆍ, as Unicode's compatibility decompositions of
  /// U+3131–U+318E and libhangul's `hangul_jamo_to_cjamo`), or the scalar
  /// itself when it has none.
  static func compatibilityJamo(of scalar: Unicode.Scalar) -> Unicode.Scalar {
    let shown = ConjoiningJamo.compatibility(scalar.value)
    return shown == 0 ? scalar : Unicode.Scalar(shown) ?? scalar
  }

  /// Remembers a syllable the caller wrote itself.
  mutating func decompose(syllableValue value: UInt32) {
    if form.isKeystrokes { previousHangul = Unicode.Scalar(value) }
    continuesSyllable = true
  }

  /// Whether `scalar` would not read back as itself in a keystroke log.
  func needsLiteralPrefix(_ scalar: Unicode.Scalar) -> Bool {
    if isPlain { return false }
    return switch scalar.value {
    case 0x08, 0x7F, KeyLogControl.separator.value, KeyLogControl.literalPrefix.value: true
    case 0x1161...0x1175, 0x11A8...0x11C2: true  // would compose with the text before
    case 0x41...0x5A, 0x61...0x7A: form == .qwerty
    default: false
    }
  }

  /// Whether the keys of `jamo`, typed right after those of the previous
  /// Hangul unit, would compose into something other than that unit and
  /// `jamo` (``SeparatorTable``).
  mutating func needsSeparator(before jamo: Jamo) -> Bool {
    guard let previous = previousHangul, let unit = SeparatorTable.unit(of: previous) else {
      return false
    }
    return separators?.needsSeparator(after: unit, before: jamo) ?? false
  }

  /// The keys that type a syllable or a jamo.
  static func keys(of scalar: Unicode.Scalar) -> [Jamo] {
    if let syllable = HangulSyllable(scalar) {
      return syllable.initial.keys + syllable.vowel.keys + (syllable.final?.keys ?? [])
    }
    return Jamo(scalar)?.keys ?? []
  }
}
