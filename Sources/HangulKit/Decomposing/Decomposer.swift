/// Decomposes text one unit at a time into jamo, conjoining jamo or the keys
/// that type it, keeping what it needs to make key output round-trip.
///
/// For ``DecompositionForm/keys`` and ``DecompositionForm/qwerty`` the output
/// is a keystroke log that `hangul-compose` (with `--keys qwerty` for the
/// latter, default options otherwise) turns back into exactly the input. To
/// know where that needs a ``KeyLogControl/separator``, the decomposer runs the
/// composer on its own output: before writing the keys of a syllable or jamo it
/// tries them, and when they would not compose into that unit it writes a
/// separator first.
///
///     var decomposer = Decomposer(form: .keys)
///     var output: [Unicode.Scalar] = []
///     for scalar in "각ㅏ".unicodeScalars {
///       decomposer.decompose(.scalar(scalar)) { if case .scalar(let s) = $0 { output.append(s) } }
///     }
///     // output: ㄱ ㅏ ㄱ U+200C ㅏ
///
/// Each unit takes O(1) time and the state is constant-size.
public struct Decomposer: Sendable {
  public let form: DecompositionForm
  /// The composer that reads the output (keys and qwerty forms only).
  private var shadow = SyllableComposer()
  /// The QWERTY letter of each jamo key.
  private let letterOfJamo: [UInt8]

  public init(form: DecompositionForm, keyboard: Keyboard = .twoSet) {
    self.form = form
    var letters = [UInt8](repeating: 0, count: Jamo.count)
    for code in (UInt8(ascii: "a")...UInt8(ascii: "z")) + Array("QWERTOP".utf8) {
      if let jamo = keyboard.jamo(forASCII: code), letters[Int(jamo.offset)] == 0 {
        letters[Int(jamo.offset)] = code
      }
    }
    letterOfJamo = letters
  }

  /// Decomposes one unit of input, passing each unit of output to `emit`.
  public mutating func decompose(_ unit: DecodedUnit, _ emit: (DecodedUnit) throws -> Void) rethrows
  {
    guard case .scalar(let scalar) = unit else {
      endSyllable()
      try emit(unit)
      return
    }
    if let syllable = HangulSyllable(scalar) {
      switch form {
      case .nfd:
        try emit(.scalar(Self.conjoining(0x1100, syllable.initialIndex)))
        try emit(.scalar(Self.conjoining(0x1161, syllable.vowelIndex)))
        if syllable.finalIndex > 0 {
          try emit(.scalar(Self.conjoining(0x11A7, syllable.finalIndex)))
        }
      case .jamo:
        try emit(.scalar(syllable.initial.scalar))
        try emit(.scalar(syllable.vowel.scalar))
        if let final = syllable.final { try emit(.scalar(final.scalar)) }
      case .keys, .qwerty:
        var keys = KeyRun()
        keys.append(syllable.initial)
        keys.append(syllable.vowel)
        if let final = syllable.final { keys.append(final) }
        try type(keys, making: scalar, emit)
      }
      return
    }
    if let jamo = Jamo(scalar) {
      if form.isKeystrokes {
        var keys = KeyRun()
        keys.append(jamo)
        try type(keys, making: scalar, emit)
      } else {
        try emit(unit)
      }
      return
    }
    endSyllable()
    switch form {
    case .jamo:
      try emit(.scalar(Jamo(conjoining: scalar)?.scalar ?? scalar))
    case .nfd:
      try emit(unit)
    case .keys, .qwerty:
      if needsLiteralPrefix(scalar) { try emit(.scalar(KeyLogControl.literalPrefix)) }
      try emit(unit)
    }
  }

  /// Ends the input (or a stream of it).
  public mutating func finish() {
    endSyllable()
  }

  /// Whether `scalar` would not read back as itself in a keystroke log.
  private func needsLiteralPrefix(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x08, 0x7F, KeyLogControl.separator.value, KeyLogControl.literalPrefix.value: true
    case 0x1161...0x1175, 0x11A8...0x11C2: true  // would compose with the text before
    case 0x41...0x5A, 0x61...0x7A: form == .qwerty
    default: false
    }
  }

  private mutating func endSyllable() {
    _ = shadow.commit()
  }

  /// Writes the keys of one syllable or jamo, after a separator if the keys
  /// typed after what came before would not make `target`.
  private mutating func type(
    _ keys: KeyRun, making target: Unicode.Scalar, _ emit: (DecodedUnit) throws -> Void
  ) rethrows {
    var trial = shadow
    let previous = trial.composing
    var commits = 0
    var firstCommit: Unicode.Scalar?
    for key in keys {
      if let done = trial.press(key) {
        commits += 1
        if firstCommit == nil { firstCommit = done }
      }
    }
    let composesAsIs =
      trial.composing == target
      && (previous == nil ? commits == 0 : commits == 1 && firstCommit == previous)
    if !composesAsIs {
      try emit(.scalar(KeyLogControl.separator))
      trial = SyllableComposer(keyboard: shadow.keyboard, options: shadow.options)
      for key in keys { _ = trial.press(key) }
    }
    shadow = trial
    for key in keys {
      if form == .qwerty {
        try emit(.scalar(Unicode.Scalar(letterOfJamo[Int(key.offset)])))
      } else {
        try emit(.scalar(key.scalar))
      }
    }
  }

  private static func conjoining(_ base: UInt32, _ index: Int) -> Unicode.Scalar {
    Unicode.Scalar(base + UInt32(index)) ?? "\u{FFFD}"
  }
}

/// The keys of one syllable: at most six (two per part), stored inline.
struct KeyRun: Sequence {
  private var storage: (Jamo, Jamo, Jamo, Jamo, Jamo, Jamo)
  private(set) var count = 0

  init() {
    let filler = Jamo(offset: 0)
    storage = (filler, filler, filler, filler, filler, filler)
  }

  /// Appends the keys that type `jamo`.
  mutating func append(_ jamo: Jamo) {
    if let parts = JamoTables.compoundParts[Int(jamo.offset)] {
      appendKey(parts.0)
      appendKey(parts.1)
    } else {
      appendKey(jamo)
    }
  }

  private mutating func appendKey(_ key: Jamo) {
    switch count {
    case 0: storage.0 = key
    case 1: storage.1 = key
    case 2: storage.2 = key
    case 3: storage.3 = key
    case 4: storage.4 = key
    default: storage.5 = key
    }
    count = Swift.min(count + 1, 6)
  }

  subscript(position: Int) -> Jamo {
    switch position {
    case 0: storage.0
    case 1: storage.1
    case 2: storage.2
    case 3: storage.3
    case 4: storage.4
    default: storage.5
    }
  }

  func makeIterator() -> some IteratorProtocol<Jamo> {
    var position = 0
    return AnyIterator {
      guard position < count else { return nil }
      defer { position += 1 }
      return self[position]
    }
  }
}
