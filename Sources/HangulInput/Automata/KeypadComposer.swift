/// The automaton of a phone keypad (천지인, 나랏글, SKY-II): presses in a row
/// that type one jamo make a run, whose state each press changes by the
/// keypad's rules (a key pressed again steps through its cycle; a stroke, 획추가
/// or 쌍자음 changes the jamo or the vowel strokes typed so far); the jamo so
/// typed go through the 2-set rules of ``SyllableComposer`` (finals, compound
/// finals, bare clusters, a vowel takes the last final), without its vowel
/// combinations (strokes make those).
///
///     var composer = KeypadComposer(layout: KeyboardLayout(builtIn: "cheonjiin")!)
///     var line: [UInt8] = []
///     for key in "0125".utf8 { _ = composer.press(key: key, into: &line) }  // ㅇ ㅣ ㆍ ㄴ
///     composer.commit(into: &line)
///     // String(decoding: line, as: UTF8.self) == "안"
///
/// A press that continues the run restores the state saved when the run began
/// and types the run's new jamo there, so a retyped jamo joins the syllable
/// before as if typed at once (갈 + ㅇㅇ → 갊). Each press takes O(1) time;
/// Backspace restores the state before the last press (see ``undoPress()``).
package struct KeypadComposer: Sendable {
  /// The state a Backspace goes back to, and the start of a run.
  struct Saved: Sendable {
    var syllable: CompositionState
    /// Where the line's bytes that a later press may take back began, and
    /// those bytes (from the start of the run in progress: a few at most).
    var lineStart: Int
    var lineTail: [UInt8]
    var run: [UInt32]
    var runStart: CompositionState
    var runLineCount: Int
  }

  package let layout: KeyboardLayout
  private var syllable: SyllableComposer
  /// The state of the run in progress (empty: none).
  private var run: [UInt32] = []
  private var runStart = CompositionState()
  private var runLineCount = 0
  private var history: [Saved] = []
  /// How many presses Backspace can undo at most.
  static let historyLimit = 256
  /// How the calls since ``beginEdit(lineCount:)`` changed the line that
  /// was there then, for an input method's edit (``HangulInputContext``).
  package private(set) var edit = LineEdit(base: 0)
  /// The bytes of that line the cuts removed, in order (the old line from
  /// ``LineEdit/unchangedCount`` to its end).
  package private(set) var removedBytes: [UInt8] = []
  /// The keys (ASCII codes) that type each compatibility jamo, by scalar value.
  package let pressesByJamo: [UInt32: [UInt8]]
  /// The key whose first label is each scalar value (ㅣ ㆍ ㅡ ㄱ …).
  package let keyByLabel: [UInt32: UInt8]

  /// The 2-set keyboard without compound vowels: strokes make those.
  private static let syllableKeyboard: Keyboard = {
    var keyboard = Keyboard.twoSet
    keyboard.vowelCombinations = []
    return keyboard
  }()

  package init(layout: KeyboardLayout) {
    self.layout = layout
    syllable = SyllableComposer(keyboard: Self.syllableKeyboard)
    var labels: [UInt32: UInt8] = [:]
    for code in layout.mappedKeys { labels[layout.value(forKey: code)] = code }
    keyByLabel = labels
    pressesByJamo = Self.presses(of: layout)
  }

  /// The shortest presses that type each jamo, breadth first over the run
  /// states the keys reach (fewest presses, then lowest keys); a compound
  /// consonant no run types is its parts' presses.
  static func presses(of layout: KeyboardLayout) -> [UInt32: [UInt8]] {
    var table: [UInt32: [UInt8]] = [:]
    let keys = layout.mappedKeys.sorted()
    var frontier: [([UInt32], [UInt8])] = [([], [])]
    var seen: Set<[UInt32]> = [[]]
    while !frontier.isEmpty {
      var next: [([UInt32], [UInt8])] = []
      for (state, presses) in frontier {
        for key in keys {
          let reached =
            state.isEmpty ? start(key: key, on: layout) : layout.keypad.next(from: state, key: key)
          guard let reached, !seen.contains(reached) else { continue }
          seen.insert(reached)
          if isJamo(reached), table[reached[0]] == nil { table[reached[0]] = presses + [key] }
          next.append((reached, presses + [key]))
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

  /// The state a press of `key` starts a run with: by the keypad rules, else
  /// the key's label when that is a jamo; `nil` for a key that only changes
  /// what came before (획추가).
  static func start(key: UInt8, on layout: KeyboardLayout) -> [UInt32]? {
    if let state = layout.keypad.start(key: key) { return state }
    let label = layout.value(forKey: key)
    return isJamo([label]) ? [label] : nil
  }

  /// Whether a run state is one jamo (else it shows as its scalars, such as
  /// 천지인's ㆍ strokes, until it becomes one).
  static func isJamo(_ state: [UInt32]) -> Bool {
    state.count == 1 && Unicode.Scalar(state[0]).flatMap { Jamo($0) } != nil
  }

  /// Whether nothing is being composed.
  package var isEmpty: Bool { syllable.state.isEmpty && pending.isEmpty }

  /// The run state while it is not yet a jamo (천지인's ㆍ strokes).
  private var pending: [UInt32] { Self.isJamo(run) ? [] : run }

  /// What is being composed: the syllable, then any pending run state.
  package var composing: [Unicode.Scalar] {
    var shown: [Unicode.Scalar] = syllable.composing.map { [$0] } ?? []
    shown += pending.compactMap(Unicode.Scalar.init)
    return shown
  }

  /// Types one key (an ASCII code); `false` when the keypad has no such key
  /// (then nothing changed). Text the press finishes is appended to `line`.
  package mutating func press(key code: UInt8, into line: inout [UInt8]) -> Bool {
    let label = layout.value(forKey: code)
    guard label != 0 else { return false }
    save(line)
    if let reached = layout.keypad.next(from: run, key: code) {
      rewind(&line)
      run = reached
    } else if let started = Self.start(key: code, on: layout) {
      startRun(&line)
      run = started
    } else {
      return true  // a key that changes what came before, with nothing to change
    }
    if Self.isJamo(run) { type(run[0], into: &line) }
    return true
  }

  /// Ends the syllable and the cycle (the next key, U+200C) and writes them.
  package mutating func commit(into line: inout [UInt8]) {
    endRun(&line)
    if let done = syllable.commit() { append(done, to: &line) }
    history.removeAll(keepingCapacity: true)
  }

  /// Ends a multi-tap cycle (a pause): the next press starts a new run.
  /// A run that is not yet a jamo (ㆍ strokes) goes on.
  package mutating func endCycle() {
    if Self.isJamo(run) { run = [] }
  }

  /// The presses that type a scalar: its key when it is a key's first label,
  /// else the fewest presses that type the jamo; `nil` for other scalars.
  package func presses(typing scalar: Unicode.Scalar) -> [UInt8]? {
    if let key = keyByLabel[scalar.value] { return [key] }
    return pressesByJamo[scalar.value]
  }

  /// Undoes the last press (a tap of a cycle steps back, a stroke is taken
  /// off): `false` when no press since the last commit is left to undo.
  package mutating func undoPress(in line: inout [UInt8]) -> Bool {
    guard let saved = history.popLast() else { return false }
    syllable.restore(saved.syllable)
    cut(&line, at: saved.lineStart)
    line += saved.lineTail
    run = saved.run
    runStart = saved.runStart
    runLineCount = saved.runLineCount
    return true
  }

  /// How many bytes at the start of the line no press can change any more
  /// (Backspace aside): the text before the run in progress.
  package var settledCount: Int {
    run.isEmpty ? Int.max : runLineCount
  }

  /// Forgets the first `count` bytes of the line (taken out by the caller)
  /// and the presses Backspace could undo.
  package mutating func forget(firstBytes count: Int) {
    runLineCount = max(0, runLineCount - count)
    history.removeAll(keepingCapacity: true)
  }

  /// Where the bytes of the line begin that a press or Backspace may still
  /// change (those before it never change again); O(``historyLimit``).
  package func rewritableStart(lineCount: Int) -> Int {
    var start = run.isEmpty ? lineCount : min(runLineCount, lineCount)
    for saved in history { start = min(start, saved.lineStart, saved.runLineCount) }
    return start
  }

  /// Takes the first `count` bytes out of the line's positions (the caller
  /// removed them from the line; none of them is rewritable), keeping what
  /// Backspace can undo.
  package mutating func dropLineStart(_ count: Int) {
    runLineCount -= min(count, runLineCount)
    for index in history.indices {
      history[index].lineStart -= count
      history[index].runLineCount -= min(count, history[index].runLineCount)
    }
  }

  /// Empties the composer: nothing composing, no run, nothing to undo.
  package mutating func reset() {
    syllable.restore(CompositionState())
    run = []
    runStart = CompositionState()
    runLineCount = 0
    history.removeAll(keepingCapacity: true)
    edit = LineEdit(base: 0)
  }

  /// What a press's outcome depends on (the Backspace history aside): the
  /// syllable, the run, and the syllable the run began on.
  package var runState: (syllable: CompositionState, run: [UInt32], runStart: CompositionState) {
    (syllable.state, run, runStart)
  }

  /// Restores a ``runState`` whose run began at `lineCount` bytes into the
  /// line; forgets what Backspace could undo.
  package mutating func restore(
    _ state: (syllable: CompositionState, run: [UInt32], runStart: CompositionState),
    runLineCount lineCount: Int
  ) {
    syllable.restore(state.syllable)
    run = state.run
    runStart = state.runStart
    runLineCount = lineCount
    history.removeAll(keepingCapacity: true)
  }

  /// Where the run in progress began in the line (the line's length when
  /// there is no run).
  package func runStartInLine(lineCount: Int) -> Int {
    run.isEmpty ? lineCount : min(runLineCount, lineCount)
  }

  private mutating func save(_ line: [UInt8]) {
    if history.count == Self.historyLimit { history.removeFirst(Self.historyLimit / 2) }
    // A press rewinds the line no further back than the run in progress began.
    let start = run.isEmpty ? line.count : min(runLineCount, line.count)
    history.append(
      Saved(
        syllable: syllable.state, lineStart: start, lineTail: Array(line[start...]), run: run,
        runStart: runStart, runLineCount: runLineCount))
  }

  /// Goes back to where the run began, to type its next jamo there.
  private mutating func rewind(_ line: inout [UInt8]) {
    syllable.restore(runStart)
    cut(&line, at: runLineCount)
  }

  /// Removes the line's bytes from `position` on, noting in ``edit`` how
  /// many scalars of the line as it was at ``beginEdit(lineCount:)`` go.
  private mutating func cut(_ line: inout [UInt8], at position: Int) {
    let start = min(position, line.count)
    let untouched = edit.unchangedCount
    if start < untouched {
      // line[..<untouched] is still the line as it was: count what goes of it.
      for byte in line[start..<untouched] where byte & 0xC0 != 0x80 { edit.removedScalars += 1 }
      edit.lowestCut = start
      removedBytes.insert(contentsOf: line[start..<untouched], at: 0)
    }
    line.removeSubrange(start...)
  }

  /// Starts noting how presses change the line, which holds `lineCount` bytes now.
  package mutating func beginEdit(lineCount: Int) {
    edit = LineEdit(base: lineCount)
    removedBytes.removeAll(keepingCapacity: true)
  }

  private mutating func startRun(_ line: inout [UInt8]) {
    endRun(&line)
    runStart = syllable.state
    runLineCount = line.count
  }

  /// Ends the run: a state that made no jamo (ㆍ strokes) ends the syllable
  /// and stays as text.
  private mutating func endRun(_ line: inout [UInt8]) {
    let waiting = pending
    if !waiting.isEmpty {
      if let done = syllable.commit() { append(done, to: &line) }
      for value in waiting { append(Unicode.Scalar(value) ?? "\u{FFFD}", to: &line) }
    }
    run = []
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

/// How a keypad's presses changed its line since a point: the bytes before
/// ``unchangedCount`` are as they were, ``removedScalars`` scalars of the old
/// line after them are gone, and what the line holds after them is new.
package struct LineEdit: Sendable {
  /// The line's length when the edit began.
  package let base: Int
  /// The lowest position a press cut the line back to (`Int.max`: none).
  package var lowestCut = Int.max
  /// The scalars of the old line that the cuts removed.
  package var removedScalars = 0

  package init(base: Int) {
    self.base = base
  }

  /// How many bytes at the start of the line no press changed.
  package var unchangedCount: Int { min(lowestCut, base) }
}
