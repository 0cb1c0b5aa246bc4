import HangulKit
import Testing

/// The filter types runs of keys and ASCII text through a fast path
/// (``LineEditor`` writing through a pointer). It must type exactly what the
/// editor types one key at a time through its public operations, on every
/// keyboard, whatever the chunk boundaries and the line limit.
@Suite("Key runs: fast path and key-by-key agree")
struct KeyRunTests {
  /// The editor driven one character at a time: the general path.
  static func keyByKey(
    _ log: [Unicode.Scalar], keys: KeyEncoding, keyboard: Keyboard, options: ComposerOptions,
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength
  ) -> [UInt8] {
    var editor = LineEditor(
      keyboard: keyboard, options: options, maximumLineLength: maximumLineLength)
    for scalar in log {
      switch scalar.value {
      case 0x0A: editor.endLine()
      case 0x08, 0x7F: editor.backspace()
      case 0x20...0x7E where keys == .qwerty && editor.context.automaton.keysAreLayoutPositions:
        let code = UInt8(scalar.value)
        if keyboard.layout.value(forKey: code) != 0 {
          editor.press(key: code)
        } else {
          editor.insert(scalar)
        }
      case 0x41...0x5A where keys == .qwerty, 0x61...0x7A where keys == .qwerty:
        if let jamo = keyboard.jamo(forASCII: UInt8(scalar.value)) {
          editor.press(jamo)
        } else {
          editor.insert(scalar)
        }
      default:
        if let jamo = Jamo(scalar) { editor.press(jamo) } else { editor.insert(scalar) }
      }
    }
    editor.finish()
    return editor.output
  }

  /// A random log: mostly keys, with spaces, punctuation, Backspaces,
  /// newlines, and (with `text`) other text.
  static func randomLog(
    _ generator: inout SeededGenerator, keys: KeyEncoding, keyboard: Keyboard, length: Int,
    text: Bool
  ) -> [Unicode.Scalar] {
    let keyCodes = keyboard.layout.mappedKeys.map { Unicode.Scalar($0) }
    let jamo: [Unicode.Scalar] = keyboard.hasJamoLabels ? Jamo.all.map(\.scalar) : []
    let controls: [Unicode.Scalar] = ["\n", "\u{8}", "\u{7F}"]
    let others = controls + (text ? [" ", " ", ".", "1", "\t", "가", "é", "😀"] : [])
    return (0..<length).map { _ in
      let pick = Int.random(in: 0..<10, using: &generator)
      if pick < 6, keys == .qwerty, !keyCodes.isEmpty {
        return keyCodes.randomElement(using: &generator) ?? "a"
      }
      if pick < 8, !jamo.isEmpty { return jamo.randomElement(using: &generator) ?? "ㄱ" }
      return others.randomElement(using: &generator) ?? " "
    }
  }

  /// A generator of its own for each keyboard and test (`salt`).
  static func generator(_ salt: UInt64, keyboard id: String) -> SeededGenerator {
    SeededGenerator(seed: salt &+ UInt64(id.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
  }

  /// The UTF-8 of a log.
  static func bytes(_ log: [Unicode.Scalar]) -> [UInt8] {
    Array(String(String.UnicodeScalarView(log)).utf8)
  }

  /// A random log (``randomLog(_:keys:keyboard:length:text:)``), its UTF-8,
  /// and what the editor types from it one character at a time (the
  /// reference every chunking must reproduce).
  static func sample(
    _ generator: inout SeededGenerator, keys: KeyEncoding, keyboard: Keyboard,
    options: ComposerOptions, length: Int, text: Bool,
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength
  ) -> (log: [Unicode.Scalar], bytes: [UInt8], expected: [UInt8]) {
    let log = randomLog(&generator, keys: keys, keyboard: keyboard, length: length, text: text)
    let expected = keyByKey(
      log, keys: keys, keyboard: keyboard, options: options, maximumLineLength: maximumLineLength)
    return (log, bytes(log), expected)
  }

  static let cases: [(id: String, keys: KeyEncoding, options: ComposerOptions)] = [
    ("2", .jamo, ComposerOptions()), ("2", .qwerty, ComposerOptions()),
    ("2", .qwerty, ComposerOptions(doubleStroke: true, bareClusters: false, extendedVowels: true)),
    ("2", .qwerty, ComposerOptions(autoReorder: true)),
    ("2", .jamo, ComposerOptions(backspace: .keystroke)),
    ("2", .jamo, ComposerOptions(doubleStroke: true)),
    ("2", .qwerty, ComposerOptions(extendedVowels: true)),
    ("2", .jamo, ComposerOptions(bareClusters: false)),
    ("3f", .qwerty, ComposerOptions()), ("3f", .qwerty, ComposerOptions(autoReorder: true)),
    ("3f", .qwerty, ComposerOptions(doubleStroke: true, extendedVowels: true)),
    ("3s", .qwerty, ComposerOptions()), ("32", .qwerty, ComposerOptions()),
    ("39", .qwerty, ComposerOptions()), ("3y", .qwerty, ComposerOptions()),
    ("2y", .qwerty, ComposerOptions()), ("ro", .qwerty, ComposerOptions()),
    ("ahn", .qwerty, ComposerOptions()),
  ]

  @Test("random logs with Backspaces, in random chunks and line limits", arguments: cases)
  func agreement(id: String, keys: KeyEncoding, options: ComposerOptions) throws {
    let keyboard = try Keyboard(id: id)
    var generator = Self.generator(0x5EED_0014, keyboard: id)
    for round in 0..<40 {
      let limit = [4, 7, 16, 64, LineEditor.defaultMaximumLineLength][round % 5]
      let (log, bytes, expected) = Self.sample(
        &generator, keys: keys, keyboard: keyboard, options: options, length: 400,
        text: round % 2 == 0, maximumLineLength: limit)
      var filter = ComposeFilter(
        keys: keys, keyboard: keyboard, options: options, maximumLineLength: limit)
      var output: [UInt8] = []
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + Int.random(in: 1...97, using: &generator))
        bytes[start..<end].withUnsafeBufferPointer { filter.process($0, into: &output) }
        start = end
      }
      filter.finish(into: &output)
      expectSameBytes(output, expected)
      #expect(filter.statistics.total.keystrokes == Self.keystrokes(log))
    }
  }

  /// Composes `bytes` with the filter, cut into chunks at `cuts`.
  static func filtered(
    _ bytes: [UInt8], cuts: [Int], keys: KeyEncoding, keyboard: Keyboard, options: ComposerOptions,
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength,
    transitionStateLimit: Int = LineEditor.defaultTransitionStateLimit
  ) -> (output: [UInt8], keystrokes: Int) {
    var filter = ComposeFilter(
      keys: keys, keyboard: keyboard, options: options, maximumLineLength: maximumLineLength,
      transitionStateLimit: transitionStateLimit)
    var output: [UInt8] = []
    var start = 0
    for end in cuts + [bytes.count] where end >= start {
      bytes[start..<end].withUnsafeBufferPointer { filter.process($0, into: &output) }
      start = end
    }
    filter.finish(into: &output)
    return (output, filter.statistics.total.keystrokes)
  }

  /// Cuts every `size` bytes of `count`.
  static func cuts(every size: Int, in count: Int) -> [Int] {
    Array(stride(from: size, to: count, by: size))
  }

  /// The keystrokes a log types (a compound jamo is two).
  static func keystrokes(_ log: [Unicode.Scalar]) -> Int {
    log.reduce(0) { count, scalar in count + (Jamo(scalar).map { $0.keys.count } ?? 1) }
  }

  /// The transition table (one load per key) must type what the automaton
  /// types key by key wherever a chunk ends: every cut of a random log with
  /// Backspaces and text, one chunk boundary at each offset.
  @Test("a chunk cut at every offset", arguments: cases)
  func everyCut(id: String, keys: KeyEncoding, options: ComposerOptions) throws {
    let keyboard = try Keyboard(id: id)
    var generator = Self.generator(0xC0_7517, keyboard: id)
    let (log, bytes, expected) = Self.sample(
      &generator, keys: keys, keyboard: keyboard, options: options, length: 160, text: true)
    for cut in 0...bytes.count {
      let result = Self.filtered(
        bytes, cuts: [cut], keys: keys, keyboard: keyboard, options: options)
      expectSameBytes(result.output, expected)
      #expect(result.keystrokes == Self.keystrokes(log))
    }
  }

  /// A table that holds only a few states starts over again and again (and
  /// a step it cannot hold goes the general way): the text must not change.
  @Test("a transition table that keeps starting over", arguments: cases)
  func smallTable(id: String, keys: KeyEncoding, options: ComposerOptions) throws {
    let keyboard = try Keyboard(id: id)
    var generator = Self.generator(0x7AB1E, keyboard: id)
    for round in 0..<12 {
      let (log, bytes, expected) = Self.sample(
        &generator, keys: keys, keyboard: keyboard, options: options, length: 600, text: true)
      let cuts = (0..<8).map { _ in Int.random(in: 0...bytes.count, using: &generator) }.sorted()
      let result = Self.filtered(
        bytes, cuts: cuts, keys: keys, keyboard: keyboard, options: options,
        transitionStateLimit: [4, 5, 9, 64][round % 4])
      expectSameBytes(result.output, expected)
      #expect(result.keystrokes == Self.keystrokes(log))
    }
  }

  /// Real typing: long runs of keys through one table, which must end each
  /// run in the automaton's own state (a Backspace after a run undoes the
  /// syllable's last step as the automaton would).
  @Test("words of keys with Backspaces after each run", arguments: cases)
  func wordsAndBackspaces(id: String, keys: KeyEncoding, options: ComposerOptions) throws {
    let keyboard = try Keyboard(id: id)
    var generator = Self.generator(0xB5, keyboard: id)
    let keyCodes = keys == .qwerty ? keyboard.layout.mappedKeys.map { Unicode.Scalar($0) } : []
    let jamo = keyboard.hasJamoLabels ? Jamo.all.map(\.scalar) : []
    let alphabet = keyCodes + jamo
    guard !alphabet.isEmpty else { return }
    var log: [Unicode.Scalar] = []
    for _ in 0..<300 {
      for _ in 0..<Int.random(in: 1...12, using: &generator) {
        log.append(alphabet.randomElement(using: &generator) ?? "a")
      }
      log.append(["\u{8}", "\u{8}", " ", "\n", "\u{7F}"].randomElement(using: &generator) ?? " ")
    }
    let bytes = Self.bytes(log)
    let expected = Self.keyByKey(log, keys: keys, keyboard: keyboard, options: options)
    for size in [1, 2, 3, 7, 4096] {
      let result = Self.filtered(
        bytes, cuts: Self.cuts(every: size, in: bytes.count), keys: keys, keyboard: keyboard,
        options: options)
      expectSameBytes(result.output, expected)
      #expect(result.keystrokes == Self.keystrokes(log))
    }
  }

  /// A filter may take over the transition tables of an earlier one
  /// (``ComposeFilter/reuseCaches(of:)``, as the pieces of a parallel run
  /// do): from a filter of the same keyboard and options it types what a
  /// fresh one types; from one of another keyboard or options it must keep
  /// its own (taking them would type the other automaton's steps).
  @Test("a filter that takes over an earlier filter's tables", arguments: cases)
  func tablesTakenOver(id: String, keys: KeyEncoding, options: ComposerOptions) throws {
    let keyboard = try Keyboard(id: id)
    var generator = Self.generator(0x7A4E, keyboard: id)
    let (_, bytes, expected) = Self.sample(
      &generator, keys: keys, keyboard: keyboard, options: options, length: 3000, text: true)
    for other in Self.cases {
      // An earlier filter that learned from a log of its own keyboard.
      let otherKeyboard = try Keyboard(id: other.id)
      var earlier = ComposeFilter(keys: other.keys, keyboard: otherKeyboard, options: other.options)
      let earlierLog = Self.randomLog(
        &generator, keys: other.keys, keyboard: otherKeyboard, length: 3000, text: true)
      var ignored: [UInt8] = []
      try earlier.process(Self.bytes(earlierLog), into: &ignored)
      var filter = ComposeFilter(keys: keys, keyboard: keyboard, options: options)
      filter.reuseCaches(of: earlier)
      var output: [UInt8] = []
      try filter.process(bytes, into: &output)
      filter.finish(into: &output)
      expectSameBytes(output, expected)
    }
  }

  /// On a 3-set keyboard a syllable that is not one precomposed character
  /// (an initial and a final, a lone vowel) is written as several jamo, more
  /// than a table entry's 3 bytes; every key that commits it writes the same
  /// bytes, which the state's steps share. Each line types a few keys, then
  /// one key of all: every step from those states, with text after it.
  @Test("every key after syllables written as several jamo", arguments: ["3f", "3s", "39", "32"])
  func everyKeyAfterLongWrites(id: String) throws {
    let keyboard = try Keyboard(id: id)
    var generator = Self.generator(0x10C6, keyboard: id)
    let keyCodes = keyboard.layout.mappedKeys.map { Unicode.Scalar($0) }
    var log: [Unicode.Scalar] = []
    for _ in 0..<40 {
      let prefix = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
        keyCodes.randomElement(using: &generator) ?? "a"
      }
      for key in keyCodes { log += prefix + [key, " ", "\n"] }
    }
    let bytes = Self.bytes(log)
    for limit in [LineEditor.defaultTransitionStateLimit, 6] {
      let result = Self.filtered(
        bytes, cuts: [bytes.count / 3], keys: .qwerty, keyboard: keyboard,
        options: ComposerOptions(), transitionStateLimit: limit)
      expectSameBytes(
        result.output,
        Self.keyByKey(log, keys: .qwerty, keyboard: keyboard, options: ComposerOptions()))
      #expect(result.keystrokes == Self.keystrokes(log))
    }
  }

  @Test("a long run of keys crosses the run length and the chunk ends")
  func longRun() throws {
    let word = Array("dkssudgktpdy ".utf8)
    let log: [UInt8] = Array(repeating: word, count: 2000).joined() + [0x0A]
    let expected = Array((String(repeating: "안녕하세요 ", count: 2000) + "\n").utf8)
    for chunkSize in [1, 5, 4096, log.count] {
      let result = Self.filtered(
        log, cuts: Self.cuts(every: chunkSize, in: log.count), keys: .qwerty, keyboard: .twoSet,
        options: ComposerOptions())
      expectSameBytes(result.output, expected)
    }
  }
}
