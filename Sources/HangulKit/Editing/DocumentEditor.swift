/// A document with a cursor, driven by keystrokes as a plain text field with
/// a Hangul input method behaves (SPEC §3.1, the editor behind event logs):
/// text is inserted at the cursor, Backspace deletes before it, Delete after
/// it, the arrows, Home and End move it, and every movement commits the
/// syllable being composed.
///
///     var editor = DocumentEditor()
///     for key in "ㄱㅏㅇㅏ".unicodeScalars.compactMap(Jamo.init) { editor.press(key) }
///     editor.move(.left)                       // 가|아 (the syllable 아 is committed)
///     editor.typePosition(UInt8(ascii: "s"))   // 간|아 (s is ㄴ on 2-set)
///     editor.finish()                          // editor.output == Array("간아".utf8)
///
/// The text before the cursor and the text after it are two stacks of
/// scalars, so typing, Backspace, Delete and the horizontal arrows take O(1)
/// amortized time; Home, End, ArrowUp and ArrowDown take time proportional to
/// the lines they cross. Memory is bounded by the document: text is written
/// to ``output`` only when the document ends, or when the part of a line
/// before the cursor grows past ``maximumLineLength`` bytes; then everything
/// before the cursor is written and can no longer be reached.
public struct DocumentEditor: Sendable {
  /// Where a movement key takes the cursor.
  public enum Movement: Sendable, Hashable, CaseIterable {
    /// One character back (across a line start too).
    case left
    /// One character forward (across a line end too).
    case right
    /// To the same column on the line above, or its end if it is shorter.
    case up
    /// To the same column on the line below, or its end if it is shorter.
    case down
    /// To the start of the line.
    case lineStart
    /// To the end of the line.
    case lineEnd
  }

  /// The automaton for the syllable being composed at the cursor.
  public private(set) var composer: SyllableComposer
  /// Bytes that are final: the document's text once it ends, or the text
  /// before the cursor flushed from an over-long line.
  public var output: [UInt8] = []
  /// The most UTF-8 bytes the part of a line before the cursor may hold
  /// before everything before the cursor is flushed.
  public let maximumLineLength: Int
  /// What happened so far (Delete counts as a Backspace).
  public private(set) var counts = EditCounts()

  /// The committed text before the cursor, in order.
  private var before: [Unicode.Scalar] = []
  /// The text after the cursor, last scalar first (``after.last`` is the
  /// scalar just after the cursor).
  private var after: [Unicode.Scalar] = []
  /// For each newline in ``before``: its index and the UTF-8 length of the
  /// line it ends.
  private var newlinesBefore: [(index: Int, lineBytes: Int)] = []
  /// The indices of the newlines in ``after``.
  private var newlinesAfter: [Int] = []
  /// UTF-8 bytes of the current line before the cursor (flushed ones excluded).
  private var lineBytesBeforeCursor = 0
  /// Scalars of the first line in ``before`` that were already flushed.
  private var flushedColumn = 0
  /// Whether text before ``before`` was flushed (it cannot be reached).
  private var wasFlushed = false
  /// The column consecutive ArrowUp/ArrowDown presses aim at.
  private var goalColumn: Int?
  /// Whether Backspace undoes whole keystrokes (then ``history`` is kept).
  private let undoesKeystrokes: Bool
  /// For `--backspace keystroke`: the state before each jamo key since the
  /// last other key, and the length of ``before`` then.
  private var history: [(state: CompositionState, beforeCount: Int)] = []

  public init(
    keyboard: Keyboard = .twoSet, options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength
  ) {
    composer = SyllableComposer(keyboard: keyboard, options: options)
    undoesKeystrokes = options.backspace == .keystroke
    self.maximumLineLength = max(maximumLineLength, 4)
  }

  /// The cursor's column in scalars from the start of its line.
  public var column: Int {
    if let last = newlinesBefore.last { return before.count - last.index - 1 }
    return flushedColumn + before.count
  }

  /// How many scalars of committed text stand before the cursor (text
  /// flushed by ``maximumLineLength`` not counted).
  public var cursorOffset: Int { before.count }

  /// Whether the document holds no text and nothing is being composed.
  public var isEmpty: Bool { before.isEmpty && after.isEmpty && composer.state.isEmpty }

  // MARK: Typing

  /// Types a jamo key; a compound jamo (ㅘ, ㄳ) types its keys one after the other.
  public mutating func press(_ jamo: Jamo) {
    goalColumn = nil
    for key in jamo.keys {
      if undoesKeystrokes { history.append((composer.state, before.count)) }
      if let done = composer.press(key) { append(done) }
    }
  }

  /// Types the key at a position of the QWERTY board (its ASCII character,
  /// Shift included: `R` is Shift+R) through the keyboard's layout: the jamo
  /// the layout puts there, or the character itself where it puts none. This
  /// is the one place where the event format maps a key position to a key.
  public mutating func typePosition(_ ascii: UInt8) {
    if let jamo = composer.keyboard.jamo(forASCII: ascii) {
      press(jamo)
    } else {
      insert(Unicode.Scalar(ascii))
    }
  }

  /// Inserts a character that is not a key at the cursor: it ends the
  /// syllable being composed. A conjoining vowel or final composes with the
  /// text before it by the canonical algorithm; a newline starts a new line.
  public mutating func insert(_ scalar: Unicode.Scalar) {
    goalColumn = nil
    commit()
    if let last = before.last,
      let joined = HangulNormalization.composition(of: last.value, scalar.value),
      let joinedScalar = Unicode.Scalar(joined)
    {
      popBefore()
      append(joinedScalar)
    } else {
      append(scalar)
    }
  }

  /// Ends the syllable being composed without writing anything (the
  /// separator key, `Next`).
  public mutating func endSyllable() {
    goalColumn = nil
    commit()
  }

  // MARK: Deleting

  /// Backspace: undoes a composition step or the last keystroke (see
  /// ``ComposerOptions/Backspace``); with nothing being composed, deletes the
  /// character before the cursor (at the start of a line the newline, so the
  /// lines join; at the start of the document nothing).
  public mutating func backspace() {
    goalColumn = nil
    counts.backspaces += 1
    if undoesKeystrokes, let previous = history.popLast() {
      composer.restore(previous.state)
      while before.count > previous.beforeCount { popBefore() }
      return
    }
    if composer.undoStep() { return }
    if before.isEmpty {
      counts.backspacesWithoutEffect += 1
      if wasFlushed { counts.backspacesBlockedByFlush += 1 }
    } else {
      popBefore()
    }
  }

  /// Delete: commits, then deletes the character after the cursor (at the
  /// end of a line the newline, so the lines join; at the end of the
  /// document nothing).
  public mutating func deleteForward() {
    goalColumn = nil
    counts.backspaces += 1
    commit()
    if after.isEmpty {
      counts.backspacesWithoutEffect += 1
    } else {
      popAfter()
    }
  }

  /// Deletes the word before the cursor and the spaces after it, as Ctrl-W
  /// does: first spaces and tabs, then everything back to the previous
  /// space, tab or the start of the line.
  public mutating func deleteWord() {
    goalColumn = nil
    commit()
    while let last = before.last, last == " " || last == "\t" { popBefore() }
    while let last = before.last, last != " ", last != "\t", last != "\n" { popBefore() }
  }

  // MARK: Moving

  /// Moves the cursor; it commits the syllable being composed, even where
  /// the cursor cannot move. Consecutive ArrowUp/ArrowDown presses keep
  /// aiming at the column where the first one started.
  public mutating func move(_ movement: Movement) {
    commit()
    switch movement {
    case .left:
      goalColumn = nil
      if !before.isEmpty { moveLeft() }
    case .right:
      goalColumn = nil
      if !after.isEmpty { moveRight() }
    case .lineStart:
      goalColumn = nil
      moveToLineStart()
    case .lineEnd:
      goalColumn = nil
      moveToLineEnd()
    case .up:
      let goal = goalColumn ?? column
      goalColumn = goal
      // No line above, or its start was flushed: the cursor stays.
      guard !newlinesBefore.isEmpty else { return }
      moveToLineStart()
      moveLeft()  // over the newline, to the end of the line above
      let lineStartIndex = newlinesBefore.last.map { $0.index + 1 } ?? 0
      let reachable = before.count - lineStartIndex
      let target = min(goal, column)
      for _ in 0..<min(column - target, reachable) { moveLeft() }
    case .down:
      let goal = goalColumn ?? column
      goalColumn = goal
      guard !newlinesAfter.isEmpty else { return }
      moveToLineEnd()
      moveRight()  // over the newline, to the start of the line below
      var moved = 0
      while moved < goal, let next = after.last, next != "\n" {
        moveRight()
        moved += 1
      }
    }
  }

  /// Commits the syllable being composed (as the 한/영 key does).
  public mutating func commitSyllable() {
    goalColumn = nil
    commit()
  }

  /// Ends the document: commits, and moves its whole text to ``output``.
  /// The editor is then empty and ready for the next document.
  public mutating func finish() {
    commit()
    for scalar in before { output.appendUTF8(scalar) }
    for scalar in after.reversed() { output.appendUTF8(scalar) }
    before.removeAll()
    after.removeAll()
    newlinesBefore.removeAll()
    newlinesAfter.removeAll()
    lineBytesBeforeCursor = 0
    flushedColumn = 0
    wasFlushed = false
    goalColumn = nil
  }

  // MARK: The two stacks

  private mutating func commit() {
    if undoesKeystrokes, !history.isEmpty { history.removeAll(keepingCapacity: true) }
    if let done = composer.commit() { append(done) }
  }

  /// Pushes a scalar before the cursor.
  private mutating func append(_ scalar: Unicode.Scalar) {
    pushBefore(scalar)
    if lineBytesBeforeCursor > maximumLineLength { flush() }
  }

  private mutating func pushBefore(_ scalar: Unicode.Scalar) {
    before.append(scalar)
    if scalar == "\n" {
      newlinesBefore.append((before.count - 1, lineBytesBeforeCursor))
      lineBytesBeforeCursor = 0
    } else {
      lineBytesBeforeCursor += Self.utf8Length(scalar)
    }
  }

  @discardableResult
  private mutating func popBefore() -> Unicode.Scalar? {
    guard let scalar = before.popLast() else { return nil }
    if scalar == "\n", let last = newlinesBefore.popLast() {
      lineBytesBeforeCursor = last.lineBytes
    } else {
      lineBytesBeforeCursor -= Self.utf8Length(scalar)
    }
    return scalar
  }

  private mutating func pushAfter(_ scalar: Unicode.Scalar) {
    if scalar == "\n" { newlinesAfter.append(after.count) }
    after.append(scalar)
  }

  @discardableResult
  private mutating func popAfter() -> Unicode.Scalar? {
    guard let scalar = after.popLast() else { return nil }
    if scalar == "\n" { newlinesAfter.removeLast() }
    return scalar
  }

  private mutating func moveLeft() {
    if let scalar = popBefore() { pushAfter(scalar) }
  }

  private mutating func moveRight() {
    if let scalar = popAfter() { pushBefore(scalar) }
  }

  private mutating func moveToLineStart() {
    let lineStartIndex = newlinesBefore.last.map { $0.index + 1 } ?? 0
    while before.count > lineStartIndex { moveLeft() }
  }

  private mutating func moveToLineEnd() {
    while let next = after.last, next != "\n" { moveRight() }
  }

  /// Writes everything before the cursor to ``output``, keeping back a last
  /// conjoining initial or open syllable so that a following vowel or final
  /// still composes. The written text can no longer be reached.
  private mutating func flush() {
    var keep = 0
    if let last = before.last {
      let isInitial = (0x1100...0x1112).contains(last.value)
      let isOpenSyllable = HangulSyllable(last)?.finalIndex == 0
      if isInitial || isOpenSyllable { keep = 1 }
    }
    let written = before.count - keep
    for scalar in before[..<written] { output.appendUTF8(scalar) }
    let kept = Array(before[written...])
    flushedColumn = column - kept.count
    before.removeAll(keepingCapacity: true)
    newlinesBefore.removeAll()
    lineBytesBeforeCursor = 0
    for scalar in kept { pushBefore(scalar) }
    history.removeAll(keepingCapacity: true)
    wasFlushed = true
    counts.linesFlushed += 1
  }

  private static func utf8Length(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.value {
    case ..<0x80: 1
    case ..<0x800: 2
    case ..<0x1_0000: 3
    default: 4
    }
  }
}
