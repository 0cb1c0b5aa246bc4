/// The automaton of a phone keypad (천지인): a consonant key pressed again
/// retypes the jamo it just typed as the next in its cycle, and vowel keys are
/// strokes that build a vowel; the jamo so typed go through the 2-set rules of
/// ``SyllableComposer`` (finals, compound finals, bare clusters, a vowel
/// takes the last final), without its vowel combinations (strokes make those).
///
///     var composer = KeypadComposer(layout: try KeyboardLayout.builtIn(id: "cheonjiin"))
///     var line: [UInt8] = []
///     for key in "0125".utf8 { _ = composer.press(key: key, into: &line) }  // ㅇ ㅣ ㆍ ㄴ
///     composer.commit(into: &line)
///     // String(decoding: line, as: UTF8.self) == "안"
///
/// A press restores the state saved when its run began (the first press of
/// the cycle, the first stroke of the vowel) and types the run's jamo there,
/// so a retyped jamo joins the syllable before as if typed at once (갈 +
/// ㅇㅇ → 갊). Each press takes O(1) time; Backspace restores the state before
/// the last press (see ``undoPress()``).
public struct KeypadComposer: Sendable {
  /// The state a Backspace goes back to, and the start of a run.
  struct Saved: Sendable {
    var syllable: CompositionState
    var lineCount: Int
    var run: Run
    var runStart: CompositionState
    var runLineCount: Int
  }

  /// The presses in a row that type one jamo.
  enum Run: Sendable, Equatable {
    case none
    /// A consonant key and how many times in a row it was pressed, minus one.
    case consonant(key: UInt8, step: Int)
    /// Vowel strokes and the state they reached.
    case vowel(state: [UInt32])
  }

  public let layout: KeyboardLayout
  private var syllable: SyllableComposer
  private var run = Run.none
  private var runStart = CompositionState()
  private var runLineCount = 0
  private var history: [Saved] = []
  /// How many presses Backspace can undo at most.
  static let historyLimit = 256
  /// The keys (ASCII codes) that type each compatibility jamo, by scalar value.
  public let pressesByJamo: [UInt32: [UInt8]]
  /// The key whose first label is each scalar value (ㅣ ㆍ ㅡ ㄱ …).
  public let keyByLabel: [UInt32: UInt8]

  /// The 2-set keyboard without compound vowels: strokes make those.
  private static let syllableKeyboard: Keyboard = {
    var keyboard = Keyboard.twoSet
    keyboard.vowelCombinations = []
    return keyboard
  }()

  public init(layout: KeyboardLayout) {
    self.layout = layout
    syllable = SyllableComposer(keyboard: Self.syllableKeyboard)
    var labels: [UInt32: UInt8] = [:]
    for code in layout.mappedKeys { labels[layout.value(forKey: code)] = code }
    keyByLabel = labels
    pressesByJamo = Self.presses(of: layout)
  }

  /// The shortest presses that type each jamo: a cycle's n-th jamo is its key
  /// n times; a vowel the strokes that reach it; a compound consonant its parts.
  static func presses(of layout: KeyboardLayout) -> [UInt32: [UInt8]] {
    var table: [UInt32: [UInt8]] = [:]
    for (key, values) in layout.keypad.cycles {
      for (index, value) in values.enumerated() where table[value] == nil {
        table[value] = [UInt8](repeating: key, count: index + 1)
      }
    }
    // Breadth first over stroke states, so each vowel gets its fewest strokes.
    var frontier: [([UInt32], [UInt8])] = [([], [])]
    var seen: Set<[UInt32]> = [[]]
    let vowelKeys = Set(layout.keypad.strokes.keys.map(\.key)).sorted()
    while !frontier.isEmpty {
      var next: [([UInt32], [UInt8])] = []
      for (state, keys) in frontier {
        for key in vowelKeys {
          guard let reached = layout.keypad.stroke(from: state, key: key), !seen.contains(reached)
          else { continue }
          seen.insert(reached)
          if reached.count == 1, table[reached[0]] == nil { table[reached[0]] = keys + [key] }
          next.append((reached, keys + [key]))
        }
      }
      frontier = next
    }
    for jamo in Jamo.all where table[jamo.scalar.value] == nil {
      let parts = jamo.keys.map { table[$0.scalar.value] }
      if parts.count > 1, parts.allSatisfy({ $0 != nil }) {
        table[jamo.scalar.value] = parts.flatMap { $0 ?? [] }
      }
    }
    return table
  }

  /// Whether nothing is being composed.
  public var isEmpty: Bool { syllable.state.isEmpty && dots == 0 }

  /// How many ㆍ strokes wait for a vowel.
  private var dots: Int {
    if case .vowel(let state) = run, state.allSatisfy({ $0 == Self.araeA }) { return state.count }
    return 0
  }

  /// U+318D, the ㆍ (arae-a) stroke shown while no vowel is complete.
  static let araeA: UInt32 = 0x318D

  /// What is being composed: the syllable, then any ㆍ strokes.
  public var composing: [Unicode.Scalar] {
    var shown: [Unicode.Scalar] = syllable.composing.map { [$0] } ?? []
    shown += [Unicode.Scalar](repeating: "\u{318D}", count: dots)
    return shown
  }

  /// Types one key (an ASCII code); `false` when the keypad has no such key
  /// (then nothing changed). Text the press finishes is appended to `line`.
  public mutating func press(key code: UInt8, into line: inout [UInt8]) -> Bool {
    let label = layout.value(forKey: code)
    guard label != 0 else { return false }
    save(line)
    if let cycle = layout.keypad.cycles[code] {
      var step = 0
      if case .consonant(let key, let previous) = run, key == code {
        step = (previous + 1) % cycle.count
        rewind(&line)
      } else {
        startRun(&line)
      }
      run = .consonant(key: code, step: step)
      type(cycle[step], into: &line)
    } else {
      var state = layout.keypad.stroke(from: [], key: code) ?? [label]
      if case .vowel(let previous) = run,
        let reached = layout.keypad.stroke(from: previous, key: code)
      {
        state = reached
        rewind(&line)
      } else {
        startRun(&line)
      }
      run = .vowel(state: state)
      if state.count == 1, state[0] != Self.araeA { type(state[0], into: &line) }
    }
    return true
  }

  /// Ends the syllable and the cycle (the next key, U+200C) and writes them.
  public mutating func commit(into line: inout [UInt8]) {
    endRun(&line)
    if let done = syllable.commit() { append(done, to: &line) }
    history.removeAll(keepingCapacity: true)
  }

  /// Undoes the last press (a tap of a cycle steps back, a stroke is taken
  /// off): `false` when no press since the last commit is left to undo.
  public mutating func undoPress(in line: inout [UInt8]) -> Bool {
    guard let saved = history.popLast() else { return false }
    syllable.restore(saved.syllable)
    line.removeSubrange(min(saved.lineCount, line.count)...)
    run = saved.run
    runStart = saved.runStart
    runLineCount = saved.runLineCount
    return true
  }

  /// How many bytes at the start of the line no press can change any more
  /// (Backspace aside): the text before the run in progress.
  public var settledCount: Int {
    run == .none ? Int.max : runLineCount
  }

  /// Forgets the first `count` bytes of the line (taken out by the caller)
  /// and the presses Backspace could undo.
  public mutating func forget(firstBytes count: Int) {
    runLineCount = max(0, runLineCount - count)
    history.removeAll(keepingCapacity: true)
  }

  private mutating func save(_ line: [UInt8]) {
    if history.count == Self.historyLimit { history.removeFirst(Self.historyLimit / 2) }
    history.append(
      Saved(
        syllable: syllable.state, lineCount: line.count, run: run, runStart: runStart,
        runLineCount: runLineCount))
  }

  /// Goes back to where the run began, to type its next jamo there.
  private mutating func rewind(_ line: inout [UInt8]) {
    syllable.restore(runStart)
    line.removeSubrange(min(runLineCount, line.count)...)
  }

  private mutating func startRun(_ line: inout [UInt8]) {
    endRun(&line)
    runStart = syllable.state
    runLineCount = line.count
  }

  /// Ends the run: ㆍ strokes that made no vowel end the syllable and stay as text.
  private mutating func endRun(_ line: inout [UInt8]) {
    let waiting = dots
    if waiting > 0 {
      if let done = syllable.commit() { append(done, to: &line) }
      for _ in 0..<waiting { append("\u{318D}", to: &line) }
    }
    run = .none
  }

  private mutating func type(_ value: UInt32, into line: inout [UInt8]) {
    guard let scalar = Unicode.Scalar(value), let jamo = Jamo(scalar) else { return }
    // A compound vowel from strokes is one step; compound consonants come
    // as their parts' presses.
    if let done = syllable.press(jamo) { append(done, to: &line) }
  }

  private func append(_ scalar: Unicode.Scalar, to line: inout [UInt8]) {
    line.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [])
  }
}
