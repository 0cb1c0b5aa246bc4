/// A line editor driven by keystrokes, as a text field with a Hangul input
/// method behaves: the composer builds the syllable being typed, committed
/// text collects in the current line, Backspace edits both, and a finished
/// line moves to ``output``.
///
///     var editor = LineEditor()
///     for key in "ㅇㅏㄴㅣ".unicodeScalars.compactMap(Jamo.init) { editor.press(key) }
///     editor.backspace()
///     editor.endLine()
///     // editor.output == Array("안니\n".utf8)... with `.jamo`; "안\n" with `.keystroke`
///
/// Every operation is amortized O(1) except ``endLine()`` and the flush of an
/// over-long line, which move the line's bytes once. Memory is bounded by
/// ``maximumLineLength``.
package struct LineEditor: Sendable {
  /// The input context that types the keys: it holds the automaton the
  /// keyboard needs, the syllable being composed and the keystroke history;
  /// the editor applies what each call commits (and takes back) to ``line``.
  package internal(set) var context: HangulInputContext
  /// Bytes that are final: finished lines, and pieces of over-long lines.
  package var output: [UInt8] = []
  /// The committed text of the current line, which Backspace can still delete.
  package internal(set) var line: [UInt8] = []
  /// The longest the current line may grow before it is flushed in pieces.
  package let maximumLineLength: Int
  /// What happened so far.
  package private(set) var counts = EditCounts()

  /// Whether Backspace undoes whole keystrokes (the context keeps their
  /// history; runs of keys then go the general way).
  let undoesKeystrokes: Bool
  /// Whether part of the current line was already flushed.
  private var lineWasFlushed = false

  /// The tables that runs of keys go through (``KeyRunTables``).
  var runs: KeyRunTables

  /// The default of `--max-line`: 1 MiB.
  package static let defaultMaximumLineLength = EditingDefaults.maximumLineLength

  /// The most composing states the key-run tables keep before they start
  /// over (at most a few MB; real text reaches a few thousand).
  package static let defaultTransitionStateLimit = EditingDefaults.transitionStateLimit

  /// An editor for `keyboard`; `transitionStateLimit` bounds the tables that
  /// runs of keys go through (see ``defaultTransitionStateLimit``).
  package init(
    keyboard: Keyboard = .twoSet, options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength,
    transitionStateLimit: Int = LineEditor.defaultTransitionStateLimit
  ) {
    context = HangulInputContext(keyboard: keyboard, options: options)
    undoesKeystrokes = options.backspace == .keystroke
    self.maximumLineLength = max(maximumLineLength, 4)
    runs = KeyRunTables(
      keyboard: keyboard, options: options, transitionStateLimit: transitionStateLimit)
  }

  /// Takes over the key transition tables of `earlier`, an editor for the
  /// same keyboard and options (otherwise it does nothing): they only cache
  /// the automaton's steps, so what the editor writes stays the same, and a
  /// new piece of a parallel run need not fill them again. O(1) (the tables
  /// are shared until one of the editors adds a step).
  mutating func reuseTransitions(of earlier: LineEditor) {
    guard context.automaton == earlier.context.automaton,
      context.options == earlier.context.options,
      context.keyboard == earlier.context.keyboard
    else { return }
    runs.takeTransitions(of: earlier.runs)
  }

  /// Types a jamo key; a compound jamo (ㅘ, ㄳ) types its keys one after
  /// the other; a jamo the keyboard has no key for is text.
  @inline(__always)
  package mutating func press(_ jamo: Jamo) {
    if context.process(InputKey(jamo.scalar)) {
      applyContextOutput()
    } else {
      applyContextOutput()
      insert(jamo.scalar)
    }
  }

  /// Types a key by its ASCII code (on 2-set the jamo it carries); a key the
  /// keyboard does not take is text.
  @inline(never)
  package mutating func press(key code: UInt8) {
    let taken = context.process(InputKey(ascii: code))
    applyContextOutput()
    if !taken {
      line.append(code)
      flushIfTooLong()
    }
  }

  /// Applies what the context's last call did to the line: deletes the
  /// scalars it took back (a keystroke Backspace that undoes a key that
  /// committed text), then appends what it committed.
  @inline(__always)
  private mutating func applyContextOutput() {
    for _ in 0..<context.deleteCount { line.removeLastCharacter() }
    guard !context.commitUTF8.isEmpty else { return }
    if context.commitUTF8.count <= 4 {
      for byte in context.commitUTF8 { line.append(byte) }
    } else {
      line.append(contentsOf: context.commitUTF8)
    }
    flushIfTooLong()
  }

  /// Backspace: undoes a composition step or the last keystroke (see
  /// ``ComposerOptions/Backspace``); with nothing to undo, deletes the last
  /// character of the line; at the start of a line it deletes nothing.
  package mutating func backspace() {
    counts.backspaces += 1
    if context.backspace() {
      applyContextOutput()
      return
    }
    // One whole character (hangul-compose(1)): a syllable block of conjoining jamo
    // (written by an old-Hangul keyboard or copied from the log) goes whole.
    if !line.removeLastSyllableBlock() {
      counts.backspacesWithoutEffect += 1
      if lineWasFlushed { counts.backspacesBlockedByFlush += 1 }
    }
  }

  /// Ends the syllable being composed without writing anything (the
  /// separator key).
  package mutating func endSyllable() {
    commit()
  }

  /// Inserts a character that is not a key: it ends the syllable being
  /// composed and is copied. Conjoining jamo compose with the text before
  /// them by the canonical algorithm, so NFD text comes out NFC.
  package mutating func insert(_ scalar: Unicode.Scalar) {
    commit()
    if let last = line.lastThreeByteScalar(),
      let joined = HangulNormalization.composition(of: last, scalar.value)
    {
      // L + V → LV, LV + T → LVT: NFD input comes out NFC.
      line.removeLast(3)
      line.appendUTF8(Unicode.Scalar(joined) ?? "\u{FFFD}")
    } else {
      appendToLine(scalar)
    }
  }

  /// Inserts a character as literal text: it ends the syllable being composed
  /// and is copied without composing with the text before it.
  package mutating func insertLiteral(_ scalar: Unicode.Scalar) {
    commit()
    appendToLine(scalar)
  }

  /// Inserts a run of well-formed text that holds no key, Backspace, newline
  /// or control character, and does not start with a conjoining vowel or final:
  /// what inserting its characters one at a time (``insert(_:)``) does, when
  /// none of them composes with the one before it (a line that grows past
  /// ``maximumLineLength`` is flushed after the character that takes it past).
  package mutating func insert(text bytes: UnsafeBufferPointer<UInt8>) {
    commit()
    if line.count + bytes.count > maximumLineLength {
      // The run takes the line past the limit: flushed where one character
      // at a time would flush it (rare: once per over-long line piece).
      return appendFlushingByCharacter(bytes)
    }
    if bytes.count <= 4 {
      // Mostly a single space between words: cheaper than a block copy.
      for byte in bytes { line.append(byte) }
    } else {
      line.append(contentsOf: bytes)
    }
    flushIfTooLong()
  }

  /// Inserts bytes that are not a key (such as bytes that are not UTF-8),
  /// copied unchanged.
  package mutating func insert(bytes: some Sequence<UInt8>) {
    commit()
    line.append(contentsOf: bytes)
    flushIfTooLong()
  }

  /// Deletes the word before the cursor and the spaces after it, as Ctrl-W
  /// does: first spaces and tabs, then everything back to the previous space,
  /// tab or the start of the line. The syllable being composed is part of the word.
  package mutating func deleteWord() {
    commit()
    while line.last == 0x20 || line.last == 0x09 { line.removeLast() }
    while let last = line.last, last != 0x20, last != 0x09 { line.removeLastCharacter() }
  }

  /// Ends the line: commits, and moves the line and a newline to ``output``.
  package mutating func endLine() {
    commit()
    output.append(contentsOf: line)
    output.append(0x0A)
    line.removeAll(keepingCapacity: line.capacity <= maximumLineLength)
    lineWasFlushed = false
  }

  /// Whether nothing is being composed.
  @inline(__always)
  var isIdle: Bool { !isComposing }

  /// Whether the context may be composing something. Its automaton's state
  /// is read in place: a call on the context would copy all of it (about a
  /// kilobyte) on every commit between words. A keypad counts as composing
  /// (its line is the context's to settle).
  @inline(__always)
  private var isComposing: Bool {
    switch context.automaton {
    case .syllable: !context.syllable.state.isEmpty
    case .layout: !context.layout.buffer.isEmpty
    default: true
    }
  }

  /// Whether the editor is as a newline leaves it: nothing being composed,
  /// and the line empty with none of it flushed. From here, inserting a
  /// line's text and ending the line only appends both to ``output``.
  @inline(__always)
  var isAtLineStart: Bool { line.isEmpty && !lineWasFlushed && isIdle }

  /// Appends whole lines of text composed elsewhere, each ending in a
  /// newline and none longer than ``maximumLineLength`` before it, to
  /// ``output``: from ``isAtLineStart``, what inserting each line's text and
  /// ending it does. O(n) in the bytes.
  mutating func appendLines(_ bytes: UnsafeBufferPointer<UInt8>) {
    commit()
    output.append(contentsOf: bytes)
  }

  /// Takes text composed elsewhere that holds no key, control character or
  /// conjoining vowel or final but newlines, as inserting each line's text
  /// (``insert(text:)``) and ending each line (``endLine()``) would: the
  /// text up to the first newline ends the current line, whole lines after
  /// it go to ``output``, and the text after the last newline starts the
  /// next line. The line with all of `bytes` must fit in
  /// ``maximumLineLength`` (so that nothing is flushed). O(n) in the bytes.
  mutating func insert(lines bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    commit()
    let count = bytes.count
    var lastEnd = count
    while lastEnd > 0, base[lastEnd - 1] != 0x0A { lastEnd -= 1 }
    guard lastEnd > 0 else {
      line.append(contentsOf: bytes)
      return
    }
    var firstEnd = 1
    while base[firstEnd - 1] != 0x0A { firstEnd += 1 }
    if line.isEmpty {
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<firstEnd]))
    } else {
      line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<(firstEnd - 1)]))
      output.append(contentsOf: line)
      output.append(0x0A)
      line.removeAll(keepingCapacity: line.capacity <= maximumLineLength)
    }
    lineWasFlushed = false
    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[firstEnd..<lastEnd]))
    line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lastEnd...]))
  }

  /// Ends the input: commits, and moves the unfinished line to ``output``.
  package mutating func finish() {
    commit()
    output.append(contentsOf: line)
    line.removeAll()
    lineWasFlushed = false
  }

  @inline(__always)
  private mutating func commit() {
    // Between words nothing is composing: then a flush would only clear
    // what a keystroke Backspace or a keypad could still take back.
    guard isComposing || undoesKeystrokes else { return }
    context.flush()
    applyContextOutput()
  }

  @inline(__always)
  private mutating func appendToLine(_ scalar: Unicode.Scalar) {
    line.appendUTF8(scalar)
    if line.count > maximumLineLength { flushLine() }
  }

  @inline(__always)
  private mutating func flushIfTooLong() {
    if line.count > maximumLineLength { flushLine() }
  }

  /// Appends well-formed text a character at a time, flushing the line
  /// after each character that takes it past ``maximumLineLength`` (as
  /// ``appendToLine(_:)`` does). O(n) in the bytes, plus the flushes.
  private mutating func appendFlushingByCharacter(_ bytes: UnsafeBufferPointer<UInt8>) {
    var position = 0
    while position < bytes.count {
      let lead = bytes[position]
      let length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
      let end = min(bytes.count, position + length)
      line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<end]))
      position = end
      flushIfTooLong()
    }
  }

  /// Moves an over-long line to ``output``, keeping back a last conjoining
  /// initial or LV syllable so that a following vowel or final still composes.
  private mutating func flushLine() {
    var keep = 0
    if let last = line.lastThreeByteScalar() {
      let isInitial = (0x1100...0x1112).contains(last)
      let isOpenSyllable = HangulSyllable(Unicode.Scalar(last) ?? "\0")?.finalIndex == 0
      if isInitial || isOpenSyllable { keep = 3 }
    }
    output.append(contentsOf: line[..<(line.count - keep)])
    line.removeFirst(line.count - keep)
    context.forgetBackspaceHistory()
    lineWasFlushed = true
    counts.linesFlushed += 1
  }
}

/// Counts kept by ``LineEditor`` for `--stats`.
package struct EditCounts: Sendable, Hashable {
  /// Backspaces typed.
  package var backspaces = 0
  /// Backspaces that found nothing to delete.
  package var backspacesWithoutEffect = 0
  /// Of those, the ones that could not reach text already flushed from an over-long line.
  package var backspacesBlockedByFlush = 0
  /// Times an over-long line was flushed in pieces.
  package var linesFlushed = 0
  /// (``DocumentEditor``) Backspaces that undid a step of the syllable being composed.
  package var backspacesInSyllable = 0
  /// (``DocumentEditor``) Scalars of committed text that Backspace, Delete
  /// and Ctrl-W deleted.
  package var charactersDeleted = 0
  /// (``DocumentEditor``) Scalars committed to the document, less those the
  /// input context took back (a keypad retyping its run): with
  /// ``charactersDeleted`` subtracted, the scalars the document holds.
  package var charactersCommitted = 0

  package init() {}
}

/// The limits the composing filters take by default.
public enum EditingDefaults {
  /// The default of `--max-line`: 1 MiB.
  public static let maximumLineLength = 1 << 20
  /// The most composing states the key-run tables keep before they start
  /// over (at most a few MB; real text reaches a few thousand).
  public static let transitionStateLimit = 8192
}
