/// A Hangul input context with libhangul's contract (`hangul_ic_process` and
/// friends): keys go in one at a time, and after each call the context says
/// what the call committed (text to insert at the cursor) and what is being
/// composed (the preedit, shown at the cursor until it is committed). It types
/// every keyboard: the built-in ones (2-set, 3-set, old Hangul, romaja, the
/// phone keypads) and any keyboard file, under every ``ComposerOptions``.
///
/// An input method's loop, for a text field whose text before the cursor is `text`:
///
///     var context = HangulInputContext(keyboard: .twoSet)
///     var text = ""
///     func apply(_ context: HangulInputContext) {
///       text.unicodeScalars.removeLast(context.deleteCount)  // 0 but on keypads
///       text += context.commitString
///     }
///     for key in "dkssud rkt\u{8}s".unicodeScalars {
///       if key == "\u{8}" {
///         if context.backspace() {
///           apply(context)  // undid a step of the syllable
///         } else if !text.isEmpty {
///           text.unicodeScalars.removeLast()  // nothing to undo: delete a character
///         }
///       } else {
///         let taken = context.process(InputKey(key))
///         apply(context)  // also when not taken: what was composing
///         if !taken { text.unicodeScalars.append(key) }  // a key the keyboard does not take is text
///       }
///       // show text, then context.preeditString (underlined) at the cursor
///     }
///     context.flush()  // the field loses focus: commit
///     apply(context)
///     // text == "안녕 간"
///
/// The contract, as libhangul's:
/// - ``process(_:)`` returns `false` when the keyboard does not take the key:
///   what was composing is committed (``commitString``) and the key is left
///   to the caller, who inserts it as text or acts on it.
/// - ``backspace()`` undoes one composition step (or, with
///   ``ComposerOptions/Backspace/keystroke``, the last keystroke; on a phone
///   keypad the last press); `false` when there was nothing to undo, and the
///   caller deletes a character itself.
/// - ``flush()`` commits what is being composed; ``reset()`` drops it.
/// - ``commitString`` and ``preeditString`` are exactly libhangul's
///   (`hangul_ic_get_commit_string`, `hangul_ic_get_preedit_string`) for its
///   nine keyboards: precomposed syllables, a lone jamo as compatibility
///   jamo, old Hangul as conjoining jamo with fillers.
/// - Where a call takes back text it committed earlier, ``deleteCount`` says
///   how many Unicode scalars before the cursor to delete first: a phone
///   keypad's press that retypes the jamo before it (ㅇㅣㆍㄴㅅ commits 안, the
///   next ㅅ makes it 않), its Backspace, and a keystroke Backspace that
///   undoes a key that committed text. Otherwise it is 0.
///
/// Each call takes O(1) time (a keypad's Backspace history aside) and
/// allocates nothing once its buffers have grown; the context is a value.
public struct HangulInputContext: Sendable {
  /// The keyboard the keys are typed on.
  public let keyboard: Keyboard
  /// The options (all of them honoured here).
  public let options: ComposerOptions
  /// A keypad's multi-tap timeout in milliseconds: a press more than this
  /// after the one before (``process(_:at:)``) starts a new cycle.
  public let multitapTimeout: Double?
  /// The automaton that types the keyboard.
  public let automaton: InputAutomaton

  /// The automata: ``automaton`` says which one types (the other of the
  /// first two stays empty; the keypad is set on a keypad only). Stored
  /// plainly, not as optionals, so that a caller reads a state in place
  /// (reading through an optional copies the whole automaton). A key-run
  /// fast path (``HangulKit``'s line editor) tabulates their steps and sets
  /// their state after a run; it does so only without a Backspace history.
  package var syllable: SyllableComposer
  package var layout: LayoutComposer
  var keypad: KeypadComposer?
  /// A keypad's committed text that a press may still change: the end of
  /// the caller's text, as the keypad wrote it.
  var keypadLine: [UInt8] = []
  /// On ``InputAutomaton/layout`` with jamo labels: the ASCII key that types
  /// each compatibility jamo (by offset; 0: none). Empty without labels.
  let keyOfJamo: [UInt8]
  /// For ``ComposerOptions/Backspace/keystroke``: the state before each key
  /// since the last one not taken, and the scalars committed since then.
  var keystrokes = KeystrokeHistory()
  /// What the last call committed, as UTF-8.
  public internal(set) var commitUTF8: [UInt8] = []
  /// How many Unicode scalars before the cursor the last call took back,
  /// to delete before inserting ``commitString`` (see the contract above).
  public internal(set) var deleteCount = 0
  /// The time of the last key given one (``process(_:at:)``).
  var lastKeyTime: Double?
  /// ``JamoTables/compoundParts``, read on every key: held here, a read
  /// needs no check that the global table is made (`swift_once`, 1.5 % of
  /// a run of keys).
  private let compoundParts = JamoTables.compoundParts

  /// A context for `keyboard` with `options`; `multitapTimeout` (milliseconds)
  /// ends a keypad's multi-tap cycle after a pause (see ``process(_:at:)``).
  public init(
    keyboard: Keyboard, options: ComposerOptions = ComposerOptions(),
    multitapTimeout: Double? = nil
  ) {
    self.keyboard = keyboard
    self.options = options
    self.multitapTimeout = multitapTimeout
    automaton = InputAutomaton(keyboard: keyboard, options: options)
    syllable = SyllableComposer(keyboard: keyboard, options: options)
    layout = LayoutComposer(layout: keyboard.layout, options: options)
    if automaton == .keypad { keypad = KeypadComposer(layout: keyboard.layout) }
    keyOfJamo =
      automaton == .layout && InputAutomaton.takesJamoLabels(keyboard)
      ? Jamo.all.map { keyboard.key(typing: $0) ?? 0 } : []
    keystrokes.isKept = options.backspace == .keystroke && automaton != .keypad
  }

  /// A context for the built-in keyboard `id` ("2", "3f", "cheonjiin" …),
  /// or `nil` when there is none of that id.
  public init?(
    keyboardID id: String, options: ComposerOptions = ComposerOptions(),
    multitapTimeout: Double? = nil
  ) {
    guard let keyboard = Keyboard(builtIn: id) else { return nil }
    self.init(keyboard: keyboard, options: options, multitapTimeout: multitapTimeout)
  }

  /// Whether something is being composed (the preedit is not empty).
  public var isComposing: Bool {
    switch automaton {
    // Read in place: no copy of the automaton's tables.
    case .syllable: !syllable.state.isEmpty
    case .layout: !layout.isEmpty
    case .keypad: keypad?.isEmpty == false
    }
  }

  /// What the last call committed: the text to insert at the cursor (after
  /// deleting ``deleteCount`` scalars).
  public var commitString: String { String(decoding: commitUTF8, as: UTF8.self) }

  /// What is being composed, to show at the cursor.
  public var preeditString: String {
    var bytes: [UInt8] = []
    writePreedit(into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the preedit's UTF-8 to `bytes` (no allocation of its own).
  public func writePreedit(into bytes: inout some ByteAppending) {
    switch automaton {
    case .syllable:
      if let scalar = syllable.composing { bytes.appendUTF8(scalar) }
    case .layout:
      if !layout.isEmpty { layout.buffer.write(into: &bytes) }
    case .keypad:
      for scalar in keypad?.composing ?? [] { bytes.appendUTF8(scalar) }
    }
  }

  /// Types one key. Returns `false` when the keyboard does not take it:
  /// then what was composing is committed and the key is the caller's.
  /// A label (ㅘ, ㄳ; ㅋ on 천지인) that no single key types is the keys
  /// that type it.
  @discardableResult
  public mutating func process(_ key: InputKey) -> Bool {
    clearCommit()
    deleteCount = 0
    switch automaton {
    case .syllable: return processOnSyllable(key)
    case .layout: return processOnLayout(key)
    case .keypad: return processOnKeypad(key)
    }
  }

  /// Types one key pressed at `time` (milliseconds, from any origin): on a
  /// keypad with a ``multitapTimeout``, a press more than the timeout after
  /// the last key with a time starts a new cycle (ㄱ, pause, ㄱ is ㄱㄱ, not ㅋ).
  @discardableResult
  public mutating func process(_ key: InputKey, at time: Double) -> Bool {
    if let multitapTimeout, let lastKeyTime, time - lastKeyTime > multitapTimeout {
      keypad?.endCycle()
    }
    lastKeyTime = time
    return process(key)
  }

  /// Ends a phone keypad's multi-tap cycle (a pause): the next press of the
  /// same key types a new jamo. Strokes that are not yet a jamo (천지인's ㆍ)
  /// wait on; on other keyboards it does nothing.
  public mutating func endCycle() {
    keypad?.endCycle()
  }

  /// Backspace: undoes one composition step of the syllable being composed
  /// (뷁 → 뷀 → 붸 → 부 → ㅂ), or with ``ComposerOptions/Backspace/keystroke``
  /// the last keystroke as if it had never been typed, or on a keypad the
  /// last press. Returns `false` when there was nothing to undo: the caller
  /// deletes the character before the cursor.
  @discardableResult
  public mutating func backspace() -> Bool {
    clearCommit()
    deleteCount = 0
    switch automaton {
    case .syllable:
      if let undone = keystrokes.undoSyllable() {
        syllable.restore(undone.state)
        deleteCount = undone.deleteCount
        return true
      }
      return syllable.undoStep()
    case .layout:
      if let undone = keystrokes.undoLayout() {
        layout.restore(undone.state)
        deleteCount = undone.deleteCount
        return true
      }
      return layout.undoStep()
    case .keypad:
      return editKeypadLine { composer, line in composer?.undoPress(in: &line) ?? false }
    }
  }

  /// Commits what is being composed (``commitString``); also ends a keypad's
  /// cycle. libhangul's `hangul_ic_flush`.
  public mutating func flush() {
    clearCommit()
    deleteCount = 0
    commitComposing()
  }

  /// Forgets what a keystroke Backspace could undo, keeping what is being
  /// composed: the caller's text before the cursor changed (an editor
  /// flushed it), so a ``deleteCount`` could no longer be applied.
  package mutating func forgetBackspaceHistory() {
    keystrokes.clear()
  }

  /// The key whose first label is `scalar` on a keyboard that names its keys
  /// by label (a phone keypad: ㆍ on 천지인, `*` for 나랏글's 획추가), or `nil`.
  public func key(labelled scalar: Unicode.Scalar) -> UInt8? {
    keypad?.keyByLabel[scalar.value]
  }

  /// Drops what is being composed, committing nothing; libhangul's `hangul_ic_reset`.
  public mutating func reset() {
    clearCommit()
    deleteCount = 0
    keystrokes.clear()
    syllable.restore(CompositionState())
    layout.restore(LayoutBuffer())
    keypad?.reset()
    keypadLine.removeAll(keepingCapacity: true)
  }

  // MARK: The three automata

  private mutating func processOnSyllable(_ key: InputKey) -> Bool {
    let jamo: Jamo
    if let code = key.ascii {
      guard let typed = keyboard.jamo(forASCII: code) else { return notTaken() }
      jamo = typed
    } else {
      guard let scalar = Unicode.Scalar(key.value), let label = Jamo(scalar) else {
        return notTaken()
      }
      jamo = label
    }
    if let parts = compoundParts[Int(jamo.offset)] {
      pressSyllable(parts.0)
      pressSyllable(parts.1)
    } else {
      pressSyllable(jamo)
    }
    return true
  }

  @inline(__always)
  private mutating func pressSyllable(_ jamo: Jamo) {
    if keystrokes.isKept { keystrokes.record(syllable.state) }
    if let done = syllable.press(jamo) {
      commitUTF8.appendUTF8(done)
      if keystrokes.isKept { keystrokes.committed += 1 }
    }
  }

  private mutating func processOnLayout(_ key: InputKey) -> Bool {
    if let code = key.ascii { return pressLayout(code) }
    // A jamo label on a 2-set keyboard under auto-reorder: the keys that type it.
    guard !keyOfJamo.isEmpty, let scalar = Unicode.Scalar(key.value), let jamo = Jamo(scalar) else {
      return notTaken()
    }
    guard let parts = compoundParts[Int(jamo.offset)] else {
      let code = keyOfJamo[Int(jamo.offset)]
      return code == 0 ? notTaken() : pressLayout(code)
    }
    let first = keyOfJamo[Int(parts.0.offset)]
    let second = keyOfJamo[Int(parts.1.offset)]
    guard first != 0, second != 0 else { return notTaken() }
    return pressLayout(first) && pressLayout(second)
  }

  @inline(__always)
  private mutating func pressLayout(_ code: UInt8) -> Bool {
    if keystrokes.isKept { keystrokes.record(layout.buffer) }
    let start = commitUTF8.count
    guard layout.press(key: code, into: &commitUTF8) else {
      keystrokes.clear()
      return false
    }
    if keystrokes.isKept { keystrokes.committed += Self.scalarCount(commitUTF8[start...]) }
    return true
  }

  private mutating func processOnKeypad(_ key: InputKey) -> Bool {
    // The keypad is read in place (`keypad?.`): binding it with `guard let`
    // would copy all of it, tables included, on every press.
    if let code = key.ascii {
      guard let label = keypad?.layout.value(forKey: code), label != 0 else { return notTaken() }
      return editKeypadLine { composer, line in composer?.press(key: code, into: &line) ?? false }
    }
    guard let scalar = Unicode.Scalar(key.value), let presses = keypad?.presses(typing: scalar)
    else { return notTaken() }
    return editKeypadLine { composer, line in
      for code in presses { _ = composer?.press(key: code, into: &line) }
      return true
    }
  }

  /// Runs `change` on the keypad and its line, and makes its effect on the
  /// line this call's edit: the scalars it cut from what the caller has, and
  /// what it wrote after them. Returns what `change` returned.
  private mutating func editKeypadLine(
    _ change: (inout KeypadComposer?, inout [UInt8]) -> Bool
  ) -> Bool {
    // Changed and read in place (`keypad?.`): taking it out of the
    // optional or binding it copies all of it, tables included.
    guard keypad != nil else { return false }
    keypad?.beginEdit(lineCount: keypadLine.count)
    let result = change(&keypad, &keypadLine)
    guard let edit = keypad?.edit, let removed = keypad?.removedBytes else { return result }
    // The new text after the unchanged start, less what it shares with the
    // text it replaces (a retyped syllable that comes out the same).
    let unchanged = edit.unchangedCount
    var common = 0
    while common < min(removed.count, keypadLine.count - unchanged),
      removed[common] == keypadLine[unchanged + common]
    {
      common += 1
    }
    while common > 0,
      common < removed.count && removed[common] & 0xC0 == 0x80
        || unchanged + common < keypadLine.count && keypadLine[unchanged + common] & 0xC0 == 0x80
    {
      common -= 1  // back to the start of a scalar
    }
    deleteCount = edit.removedScalars - Self.scalarCount(removed[..<common])
    commitUTF8.append(contentsOf: keypadLine[(unchanged + common)...])
    trimKeypadLine()
    return result
  }

  /// Drops the start of the keypad's line that no press or Backspace can
  /// change any more, once the line has grown (amortized O(1) per press).
  private mutating func trimKeypadLine() {
    guard keypadLine.count > 1024,
      let settled = keypad?.rewritableStart(lineCount: keypadLine.count), settled > 0
    else { return }
    keypadLine.removeSubrange(..<settled)
    self.keypad?.dropLineStart(settled)
  }

  /// Empties ``commitUTF8`` before a call, keeping its storage. A commit is
  /// mostly a syllable, and taking its few bytes off the end is a count
  /// decrement each; `removeAll(keepingCapacity:)` goes through the general
  /// `replaceSubrange` (about 80 instructions, 6 % of a 2-set run with a
  /// Backspace per keystroke, where a key commits a syllable every few keys).
  @inline(__always)
  mutating func clearCommit() {
    guard commitUTF8.count <= 8 else { return commitUTF8.removeAll(keepingCapacity: true) }
    while !commitUTF8.isEmpty { commitUTF8.removeLast() }
  }

  /// A key the keyboard does not take: commits, and forgets the keystrokes.
  private mutating func notTaken() -> Bool {
    commitComposing()
    return false
  }

  /// Commits the syllable (and a keypad's pending strokes) into ``commitUTF8``.
  private mutating func commitComposing() {
    keystrokes.clear()
    switch automaton {
    case .syllable:
      if let done = syllable.commit() { commitUTF8.appendUTF8(done) }
    case .layout:
      layout.commit(into: &commitUTF8)
    case .keypad:
      let before = keypadLine.count
      keypad?.commit(into: &keypadLine)
      commitUTF8.append(contentsOf: keypadLine[before...])
      // After a commit no press can change the line: it is all the caller's.
      keypad?.forget(firstBytes: keypadLine.count)
      keypadLine.removeAll(keepingCapacity: true)
    }
  }

  /// The number of Unicode scalars in well-formed UTF-8.
  package static func scalarCount(_ bytes: some Collection<UInt8>) -> Int {
    var count = 0
    for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
    return count
  }
}
