/// Writes the QWERTY keys that type text on a keyboard without jamo labels
/// (3-set, old Hangul, romaja: ``InputAutomaton/KeyDecomposition/layoutKeys``), so that
/// `hangul-compose --keys qwerty --keyboard K` gives back exactly the text.
///
/// The keys of each syllable are found from the keyboard's tables (a key
/// that types each part, or keys whose jamo combine into it) and checked on
/// the keyboard's own automaton. Before writing them the decomposer types
/// them, on a copy of the automaton, after what it wrote before: when they
/// would not finish the previous syllable and start this one, it writes the
/// separator U+200C first. A character the composer would not read as
/// itself (a key of the keyboard, BS, DEL, U+200C, U+2060, a conjoining vowel
/// or final) gets the literal prefix U+2060, and so does a syllable the
/// keyboard cannot type.
///
///     var decomposer = LayoutDecomposer(keyboard: try Keyboard(id: "3f"))
///     var out: [UInt8] = []
///     for scalar in "안녕".unicodeScalars { decomposer.decompose(.scalar(scalar), into: &out) }
///     // String(decoding: out, as: UTF8.self) == "jfshea"
///
/// Each unit takes O(1) time (the keys of a syllable are found once, then kept).
public struct LayoutDecomposer: Sendable {
  public let keyboard: Keyboard
  /// Whether the keys spell Latin letters (romaja): see
  /// ``InputAutomaton/spellsLatinLetters(_:)``.
  private let spellsLetters: Bool
  /// The composer's state after the keys written since the last commit.
  private var simulator: LayoutComposer
  private let fresh: LayoutComposer
  /// The keys of each syllable met so far (empty: the keyboard cannot type it).
  private var keysOfSyllable: [UInt32: [UInt8]] = [:]
  /// The key sequences that may type each jamo, by depth and jamo (see ``sequences(typing:depth:)``).
  private var sequencesOfJamo: [UInt64: [[UInt8]]] = [:]

  /// The combinations, by result.
  private let combinationsByResult: [UInt32: [(UInt64, UInt32)]]

  public init(keyboard: Keyboard) {
    self.keyboard = keyboard
    spellsLetters = InputAutomaton.spellsLatinLetters(keyboard)
    combinationsByResult = Dictionary(
      grouping: keyboard.layout.combinations.map { ($0.key, $0.value) }
    ) {
      $0.1
    }
    fresh = LayoutComposer(layout: keyboard.layout)
    simulator = fresh
  }

  /// Decomposes one unit of input, appending the output's UTF-8 to `output`.
  package mutating func decompose(_ unit: DecodedUnit, into output: inout [UInt8]) {
    guard case .scalar(let scalar) = unit else {
      simulator = fresh
      if case .invalidByte(let byte) = unit { output.append(byte) }
      return
    }
    let value = scalar.value
    if value &- HangulSyllable.firstScalarValue < UInt32(HangulSyllable.count) {
      let keys = keys(of: value)
      if !keys.isEmpty {
        writeKeys(keys, of: value, into: &output)
        return
      }
    }
    simulator = fresh
    if needsLiteralPrefix(scalar) { output.appendUTF8(KeyLogControl.literalPrefix) }
    output.appendUTF8(scalar)
  }

  /// Ends the input.
  public mutating func finish() {
    simulator = fresh
  }

  /// Whether a character would not read back as itself.
  func needsLiteralPrefix(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x08, 0x7F, KeyLogControl.separator.value, KeyLogControl.literalPrefix.value: true
    case 0x1161...0x1175, 0x11A8...0x11C2: true  // would compose with the text before
    case 0x20...0x7E: keyboard.layout.value(forKey: UInt8(scalar.value)) != 0
    default: false
    }
  }

  /// Writes the keys of a syllable, with a separator first if they would
  /// compose with what is before.
  private mutating func writeKeys(_ keys: [UInt8], of syllable: UInt32, into output: inout [UInt8])
  {
    var trial = simulator
    var before: [UInt8] = []
    simulator.buffer.write(into: &before)
    var committed: [UInt8] = []
    var taken = true
    for key in keys { taken = trial.press(key: key, into: &committed) && taken }
    if !(taken && committed == before && Self.shows(trial, syllable)) {
      output.appendUTF8(KeyLogControl.separator)
      trial = fresh
      for key in keys { _ = trial.press(key: key, into: &committed) }
    }
    output.append(contentsOf: keys)
    simulator = trial
  }

  /// Whether the composer is composing exactly `syllable`.
  private static func shows(_ composer: LayoutComposer, _ syllable: UInt32) -> Bool {
    var text: [UInt8] = []
    composer.buffer.write(into: &text)
    var expected: [UInt8] = []
    expected.appendUTF8(Unicode.Scalar(syllable) ?? "\u{FFFD}")
    return text == expected
  }

  /// The shortest keys that type a syllable alone on the keyboard, or none.
  mutating func keys(of syllable: UInt32) -> [UInt8] {
    if let known = keysOfSyllable[syllable] { return known }
    let (initial, vowel, final) = HangulSyllable.jamoValues(
      ofIndex: Int(syllable - HangulSyllable.firstScalarValue))
    var initials = sequences(typing: initial, depth: 2)
    if spellsLetters, initial == LayoutComposer.silentInitial {
      initials.insert([], at: 0)  // romaja puts ㅇ before a lone vowel
    }
    let vowels = sequences(typing: vowel, depth: 3)
    // ㄾ is three keys on ahn (ㄹ ㅎ ㄷ).
    let finals = final == 0 ? [[]] : sequences(typing: final, depth: 3)
    var candidates: [[UInt8]] = []
    for first in initials {
      for second in vowels {
        for third in finals { candidates.append(first + second + third) }
      }
    }
    // The fewest keys, then the fewest Shift keys (capitals start a syllable
    // on romaja), then the way a person spells (see ``misspellings(_:)``).
    candidates.sort { isPreferred($0, to: $1) }
    let found =
      candidates.first { keys in
        var composer = fresh
        var committed: [UInt8] = []
        for key in keys where !composer.press(key: key, into: &committed) { return false }
        return committed.isEmpty && Self.shows(composer, syllable)
      } ?? []
    keysOfSyllable[syllable] = found
    return found
  }

  /// Key sequences that may type `target` (checked later on the automaton):
  /// a key that types it (or types the initial whose final it is), or keys
  /// that type two jamo that combine into it.
  private mutating func sequences(typing target: UInt32, depth: Int) -> [[UInt8]] {
    let key = UInt64(depth) << 32 | UInt64(target)
    if let known = sequencesOfJamo[key] { return known }
    let found = findSequences(typing: target, depth: depth)
    sequencesOfJamo[key] = found
    return found
  }

  private mutating func findSequences(typing target: UInt32, depth: Int) -> [[UInt8]] {
    let layout = keyboard.layout
    var result: [[UInt8]] = layout.mappedKeys.filter { key in
      let value = layout.value(forKey: key)
      return value == target || ConjoiningJamo.final(ofInitial: value) == target
    }.map { [$0] }
    guard depth > 1 else { return result }
    for (pair, _) in combinationsByResult[target] ?? [] {
      let first = UInt32(truncatingIfNeeded: pair >> 32)
      let second = UInt32(truncatingIfNeeded: pair)
      guard first != target else { continue }
      let lasts = sequences(typing: second, depth: 1)
      for head in sequences(typing: first, depth: depth - 1) {
        for last in lasts { result.append(head + last) }
      }
    }
    if spellsLetters {
      // A capital after the first key starts a new syllable: such keys never
      // type one jamo, and must not crowd out those that do (ㅒ has 48
      // spellings of three keys, YAE and yae among them).
      result.removeAll { keys in keys.dropFirst().contains { $0 &- UInt8(ascii: "A") < 26 } }
      result.sort { isPreferred($0, to: $1) }
    } else {
      result.sort { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) }
    }
    return Array(result.prefix(12))
  }

  /// The order among keys that type the same thing: the fewest keys, then
  /// the fewest capitals, then the fewest misspellings, then byte order.
  private func isPreferred(_ first: [UInt8], to second: [UInt8]) -> Bool {
    func capitals(_ keys: [UInt8]) -> Int { keys.count { $0 &- UInt8(ascii: "A") < 26 } }
    let rank = (first.count, capitals(first), misspellings(first))
    let otherRank = (second.count, capitals(second), misspellings(second))
    return rank != otherRank ? rank < otherRank : first.lexicographicallyPrecedes(second)
  }

  /// On romaja, how far keys are from the way a person spells: y and w are
  /// the glides that begin a vowel of two or more letters (gyae 걔, gwae 괘,
  /// gwi 귀, not giae, goae, gui), i, u, o the letters after them and the
  /// vowels alone (goi 괴, heui 희, ul 울, not goy, heuy, wl). A vowel of
  /// several letters that does not begin with a glide, and a glide alone,
  /// count 1; each glide after a vowel's first letter 2. Other keyboards
  /// spell no letters: 0.
  private func misspellings(_ keys: [UInt8]) -> Int {
    guard spellsLetters else { return 0 }
    func isGlide(_ key: UInt8) -> Bool {
      key | 0x20 == UInt8(ascii: "y") || key | 0x20 == UInt8(ascii: "w")
    }
    var count = 0
    var run: [UInt8] = []  // the letters of the vowel at hand
    func endRun() {
      if let first = run.first, isGlide(first) != (run.count > 1) { count += 1 }
      count += 2 * run.dropFirst().count { isGlide($0) }
      run.removeAll()
    }
    for key in keys {
      if ConjoiningJamo.isVowel(keyboard.layout.value(forKey: key)) {
        run.append(key)
      } else {
        endRun()
      }
    }
    endRun()
    return count
  }
}

/// The `hangul-decompose --to qwerty --keyboard K` filter for keyboards
/// without jamo labels: ``LayoutDecomposer`` over a byte stream.
///
///     var filter = LayoutDecomposeFilter(keyboard: try Keyboard(id: "3f"))
///     try filter.filtered(Array("안녕\n".utf8))   // "jfshea\n"
///
/// Time is O(n); memory is constant apart from the keys of syllables met.
public struct LayoutDecomposeFilter: ByteFilter, StreamingFilter {
  private var decomposer: LayoutDecomposer
  private var stream = UTF8Stream()

  public init(keyboard: Keyboard) {
    decomposer = LayoutDecomposer(keyboard: keyboard)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    var decomposer = self.decomposer
    stream.decode(chunk, isLast: false) { decomposer.decompose($0, into: &output) }
    self.decomposer = decomposer
  }

  public mutating func finish(into output: inout [UInt8]) {
    var decomposer = self.decomposer
    stream.decode(UnsafeBufferPointer(start: nil, count: 0), isLast: true) {
      decomposer.decompose($0, into: &output)
    }
    decomposer.finish()
    self.decomposer = decomposer
  }
}
