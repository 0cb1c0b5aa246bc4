/// A document with a cursor, driven by keystrokes as a plain text field with
/// a Hangul input method behaves (hangul-compose(1), the editor behind event logs):
/// text is inserted at the cursor, Backspace deletes before it, Delete after
/// it, the arrows, Home and End move it, and every movement commits the
/// syllable being composed. Every keyboard types through a
/// ``HangulInputContext``, as in ``LineEditor``: what each call commits goes
/// in before the cursor, after deleting what it takes back (a phone keypad
/// retyping the jamo before it, a keystroke Backspace).
///
///     var editor = DocumentEditor()
///     for key in "ㄱㅏㅇㅏ".unicodeScalars.compactMap(Jamo.init) { editor.press(key) }
///     editor.move(.left)                       // 가|아: the syllable 아 is committed
///     editor.typePosition(UInt8(ascii: "s"))   // ㄴ (s on 2-set) starts a syllable at the cursor
///     editor.typePosition(UInt8(ascii: "k"))   // ㅏ
///     editor.finish()                          // editor.output == Array("가나아".utf8)
///
/// The cursor's line is a gap buffer of UTF-8 (``GapLine``) whose gap
/// moves only when the line is edited; the lines above it and those below
/// it are two stacks of lines packed in blocks (``LineStack``: UTF-8 with a
/// Hangul syllable in two bytes, no object a line). Typing, Backspace and
/// Delete take O(1) amortized time plus, at the first edit after a move,
/// the distance from the line's last edit (a block copy); a movement within
/// the line takes O(1) time, one onto another line (and a line break or
/// join) copies the lines it leaves and enters. Memory is bounded by the
/// document (its packed text and a newline a line, the cursor's line in
/// UTF-8 and an eighth more at most): text is written to ``output``
/// only when the document ends (a part at a time, see
/// ``finish(partSize:_:)``), or when the part of a line before the cursor
/// grows past ``maximumLineLength`` bytes; then everything before the
/// cursor is written and can no longer be reached.
package struct DocumentEditor: Sendable {
  /// Where a movement key takes the cursor.
  package enum Movement: Sendable, Hashable, CaseIterable {
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

  /// The input context that types the keys at the cursor: the automaton
  /// the keyboard needs, the syllable being composed, the keystroke history.
  package private(set) var context: HangulInputContext
  /// Bytes that are final: the document's text once it ends, or the text
  /// before the cursor flushed from an over-long line.
  package var output: [UInt8] = []
  /// The most UTF-8 bytes the part of a line before the cursor may hold
  /// before everything before the cursor is flushed.
  package let maximumLineLength: Int
  /// What happened so far (Delete counts as a Backspace).
  package private(set) var counts = EditCounts()

  /// The lines above the cursor's line, first line at the bottom.
  private var linesAbove: LineStack
  /// The cursor's line.
  private var current = GapLine()
  /// The lines below the cursor's line, last line at the bottom.
  private var linesBelow: LineStack
  /// The cursor's column in ``current`` (not counting flushed scalars).
  private var cursorColumn = 0
  /// Scalars flushed from the start of the first line still held.
  private var flushedColumn = 0
  /// Whether text before the first line held was flushed (it cannot be reached).
  private var wasFlushed = false
  /// The column consecutive ArrowUp/ArrowDown presses aim at.
  private var goalColumn: Int?

  /// `blockSize`: the bytes of text each block of the lines away from the
  /// cursor holds (``LineStack``; small in tests, to cross blocks often).
  package init(
    keyboard: Keyboard = .twoSet, options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength,
    blockSize: Int = LineStack.defaultBlockSize
  ) {
    context = HangulInputContext(keyboard: keyboard, options: options)
    self.maximumLineLength = max(maximumLineLength, 4)
    linesAbove = LineStack(blockSize: blockSize)
    linesBelow = LineStack(blockSize: blockSize)
  }

  /// The cursor's column in scalars from the start of its line.
  package var column: Int { cursorColumn + (linesAbove.isEmpty ? flushedColumn : 0) }

  /// How many scalars of committed text stand before the cursor, newlines
  /// included (text flushed by ``maximumLineLength`` not counted).
  package var cursorOffset: Int {
    linesAbove.scalarCount + linesAbove.lineCount + cursorColumn
  }

  /// Whether the document holds no text and nothing is being composed.
  package var isEmpty: Bool {
    linesAbove.isEmpty && linesBelow.isEmpty && current.count == 0 && !context.isComposing
  }

  // MARK: Typing

  /// Types a jamo key; a compound jamo (ㅘ, ㄳ) types its keys one after
  /// the other (on a keypad, the presses that type it); a jamo the keyboard
  /// has no key for is text.
  package mutating func press(_ jamo: Jamo) {
    goalColumn = nil
    let taken = context.process(InputKey(jamo.scalar))
    applyContextOutput()
    if !taken { insert(jamo.scalar) }
  }

  /// Types the key at a position of the QWERTY board (its ASCII character,
  /// Shift included: `R` is Shift+R) through the keyboard's layout: the jamo
  /// the layout puts there, or the character itself where it puts none. This
  /// is the one place where the event format maps a key position to a key.
  package mutating func typePosition(_ ascii: UInt8) {
    goalColumn = nil
    let taken = context.process(InputKey(ascii: ascii))
    applyContextOutput()
    if !taken { insert(Unicode.Scalar(ascii)) }
  }

  /// Applies what the context's last call did before the cursor: deletes
  /// the scalars it took back, then puts in what it committed.
  private mutating func applyContextOutput() {
    if context.deleteCount > 0 {
      let column = max(0, cursorColumn - context.deleteCount)
      counts.charactersCommitted -= cursorColumn - column
      deleteBeforeCursor(backTo: column)
    }
    guard !context.commitUTF8.isEmpty else { return }
    current.moveGap(to: cursorColumn)
    if current.headBytes + context.commitUTF8.count <= maximumLineLength,
      !context.commitUTF8.contains(0x0A)
    {
      // No flush nor line break can come in between: the bytes (whole
      // scalars, as the context commits them) go in as they are.
      let added = current.pushHead(utf8: context.commitUTF8)
      cursorColumn += added
      counts.charactersCommitted += added
      return
    }
    var bytes = context.commitUTF8.makeIterator()
    var decoder = UTF8()
    while case .scalarValue(let scalar) = decoder.decode(&bytes) {
      // A keyboard file's newline breaks the line: no line holds one.
      if scalar == "\n" { breakLine() } else { append(scalar) }
      counts.charactersCommitted += 1
    }
  }

  /// Inserts a character that is not a key at the cursor: it ends the
  /// syllable being composed. A conjoining vowel or final composes with the
  /// text before it by the canonical algorithm; a newline starts a new line.
  package mutating func insert(_ scalar: Unicode.Scalar) {
    goalColumn = nil
    commit()
    if scalar == "\n" {
      counts.charactersCommitted += 1
      breakLine()
      return
    }
    current.moveGap(to: cursorColumn)
    if let last = current.lastBeforeGap,
      let joined = HangulNormalization.composition(of: last.value, scalar.value),
      let joinedScalar = Unicode.Scalar(joined)
    {
      current.popHead()
      cursorColumn -= 1
      append(joinedScalar)
    } else {
      counts.charactersCommitted += 1
      append(scalar)
    }
  }

  /// Ends a phone keypad's multi-tap cycle (a pause longer than
  /// `--multitap-timeout`): the next press of the same key types a new jamo.
  /// Strokes that are not yet a jamo (천지인's ㆍ) wait on.
  package mutating func endCycle() {
    context.endCycle()
  }

  /// The key of a phone keypad whose first label is `scalar` (ㆍ on 천지인,
  /// `*` for 나랏글's 획추가), or `nil` (also on other keyboards).
  package func keypadKey(labelled scalar: Unicode.Scalar) -> UInt8? {
    context.key(labelled: scalar)
  }

  /// Ends the syllable being composed without writing anything (the
  /// separator key, `Next`).
  package mutating func endSyllable() {
    goalColumn = nil
    commit()
  }

  // MARK: Deleting

  /// Backspace: undoes a composition step or the last keystroke (see
  /// ``ComposerOptions/Backspace``); with nothing being composed, deletes the
  /// character before the cursor (at the start of a line the newline, so the
  /// lines join; at the start of the document nothing).
  package mutating func backspace() {
    goalColumn = nil
    counts.backspaces += 1
    if context.backspace() {
      counts.backspacesInSyllable += 1
      applyContextOutput()
      return
    }
    // Nothing to undo (a keypad's strokes that are no jamo yet go in first).
    commit()
    if cursorColumn > 0 {
      current.moveGap(to: cursorColumn)
      // One whole character: a syllable block of conjoining jamo goes whole.
      let before = cursorColumn
      if !deleteSyllableBlockBeforeCursor() {
        current.popHead()
        cursorColumn -= 1
      }
      counts.charactersDeleted += before - cursorColumn
    } else if let above = linesAbove.popLast() {
      cursorColumn = above.count
      current = GapLine.joined(above, current)
      counts.charactersDeleted += 1
    } else {
      counts.backspacesWithoutEffect += 1
      if wasFlushed { counts.backspacesBlockedByFlush += 1 }
    }
  }

  /// Deletes the scalars between `column` and the cursor.
  private mutating func deleteBeforeCursor(backTo column: Int) {
    current.moveGap(to: cursorColumn)
    while cursorColumn > column {
      current.popHead()
      cursorColumn -= 1
    }
  }

  /// Deletes the conjoining jamo before the cursor that make one syllable
  /// block (finals, then vowels, then initials); `false` when there are none.
  private mutating func deleteSyllableBlockBeforeCursor() -> Bool {
    var deleted = false
    for isPart in [ConjoiningJamo.isFinal, ConjoiningJamo.isVowel, ConjoiningJamo.isInitial] {
      while let last = current.lastBeforeGap, isPart(last.value) {
        current.popHead()
        cursorColumn -= 1
        deleted = true
      }
    }
    return deleted
  }

  /// Delete: commits, then deletes the character after the cursor (at the
  /// end of a line the newline, so the lines join; at the end of the
  /// document nothing).
  package mutating func deleteForward() {
    goalColumn = nil
    counts.backspaces += 1
    commit()
    if cursorColumn < current.count {
      current.moveGap(to: cursorColumn)
      current.popTail()
      counts.charactersDeleted += 1
    } else if let below = linesBelow.popLast() {
      current = GapLine.joined(current, below)
      counts.charactersDeleted += 1
    } else {
      counts.backspacesWithoutEffect += 1
    }
  }

  /// Deletes the word before the cursor and the spaces after it, as Ctrl-W
  /// does: first spaces and tabs, then everything back to the previous
  /// space, tab or the start of the line.
  package mutating func deleteWord() {
    goalColumn = nil
    commit()
    current.moveGap(to: cursorColumn)
    let before = cursorColumn
    defer { counts.charactersDeleted += before - cursorColumn }
    while let last = current.lastBeforeGap, last == " " || last == "\t" {
      current.popHead()
      cursorColumn -= 1
    }
    while let last = current.lastBeforeGap, last != " ", last != "\t" {
      current.popHead()
      cursorColumn -= 1
    }
  }

  // MARK: Moving

  /// Moves the cursor; it commits the syllable being composed, even where
  /// the cursor cannot move. Consecutive ArrowUp/ArrowDown presses keep
  /// aiming at the column where the first one started.
  package mutating func move(_ movement: Movement) {
    commit()
    switch movement {
    case .left:
      goalColumn = nil
      if cursorColumn > 0 {
        cursorColumn -= 1
      } else if !linesAbove.isEmpty {
        linesBelow.push(current)
        linesAbove.popLast(into: &current)
        cursorColumn = current.count
      }
    case .right:
      goalColumn = nil
      if cursorColumn < current.count {
        cursorColumn += 1
      } else if !linesBelow.isEmpty {
        linesAbove.push(current)
        linesBelow.popLast(into: &current)
        cursorColumn = 0
      }
    case .lineStart:
      goalColumn = nil
      cursorColumn = 0
    case .lineEnd:
      goalColumn = nil
      cursorColumn = current.count
    case .up:
      let goal = goalColumn ?? column
      goalColumn = goal
      // No line above, or its start was flushed: the cursor stays.
      guard !linesAbove.isEmpty else { return }
      linesBelow.push(current)
      linesAbove.popLast(into: &current)
      let offset = linesAbove.isEmpty ? flushedColumn : 0
      cursorColumn = max(0, min(goal, offset + current.count) - offset)
    case .down:
      let goal = goalColumn ?? column
      goalColumn = goal
      guard !linesBelow.isEmpty else { return }
      linesAbove.push(current)
      linesBelow.popLast(into: &current)
      cursorColumn = min(goal, current.count)
    }
  }

  /// Commits the syllable being composed (as the 한/영 key does).
  package mutating func commitSyllable() {
    goalColumn = nil
    commit()
  }

  /// Ends the document: commits, and moves its whole text to ``output``.
  /// The editor is then empty and ready for the next document.
  package mutating func finish() {
    finish { _ in }
  }

  /// Ends the document as ``finish()`` does, a part at a time: whenever
  /// ``output`` holds `partSize` bytes or more after a line, and at the
  /// end, `take` gets it to empty; each block of lines is released once it
  /// is written, so that the text need not be held twice whole.
  package mutating func finish(
    partSize: Int = 1 << 16, _ take: (inout [UInt8]) throws -> Void
  ) rethrows {
    commit()
    try linesAbove.drain(into: &output, partSize: partSize, take)
    current.write(to: &output)
    current = GapLine()
    while !linesBelow.isEmpty {
      if output.count >= partSize { try take(&output) }
      output.append(0x0A)
      linesBelow.popLast(appendingTo: &output)
    }
    if !output.isEmpty { try take(&output) }
    cursorColumn = 0
    flushedColumn = 0
    wasFlushed = false
    goalColumn = nil
  }

  // MARK: Editing at the cursor

  private mutating func commit() {
    context.flush()
    applyContextOutput()
  }

  /// Puts a scalar (not a newline) before the cursor.
  private mutating func append(_ scalar: Unicode.Scalar) {
    current.moveGap(to: cursorColumn)
    current.pushHead(scalar)
    cursorColumn += 1
    if current.headBytes > maximumLineLength { flush() }
  }

  /// Splits the cursor's line at the cursor: the text after it starts the next line.
  private mutating func breakLine() {
    current.moveGap(to: cursorColumn)
    linesAbove.push(head: current)
    current.dropHead()
    cursorColumn = 0
  }

  /// Writes everything before the cursor to ``output``, keeping back a last
  /// conjoining initial or open syllable so that a following vowel or final
  /// still composes. The written text can no longer be reached.
  private mutating func flush() {
    current.moveGap(to: cursorColumn)
    var keep = 0
    if let last = current.lastBeforeGap {
      let isInitial = (0x1100...0x1112).contains(last.value)
      let isOpenSyllable = HangulSyllable(last)?.finalIndex == 0
      if isInitial || isOpenSyllable { keep = 1 }
    }
    // What a keypad may still take back (its run retyped, a press undone)
    // stays too, so the run goes on as it would without the limit.
    if context.automaton.rewritesCommittedText {
      let rewritable = HangulInputContext.scalarCount(context.rewritableText)
      keep = max(keep, min(rewritable, current.headCount))
    }
    let written = current.headCount - keep
    flushedColumn = (linesAbove.isEmpty ? flushedColumn : 0) + written
    linesAbove.drain(into: &output) { _ in }
    current.flushHead(keeping: keep, to: &output)
    cursorColumn = keep
    context.forgetBackspaceHistory()
    wasFlushed = true
    counts.linesFlushed += 1
  }
}
