/// The layout half of an editor: the ``LayoutComposer`` of a keyboard
/// without jamo labels (or of any keyboard under `--auto-reorder`), the key
/// that types each jamo, and for `--backspace keystroke` the state before
/// each key. ``LineEditor`` (text logs) and ``DocumentEditor`` (event logs)
/// both type through it, so the two formats compose alike on every keyboard.
///
///     var typing = LayoutTyping(keyboard: try Keyboard(id: "3f"))
///     var text: [UInt8] = []
///     for key in "kf".utf8 { _ = typing.press(key: key, at: text.count, into: &text) }
///     typing.commit(into: &text)   // text == Array("가".utf8)
///
/// Each key, Backspace and commit takes O(1) amortized time.
public struct LayoutTyping: Sendable {
  /// What Backspace did to the syllable being composed.
  public enum BackspaceEffect: Sendable, Hashable {
    /// Undid a whole keystroke: the editor cuts its text back to `position`.
    case restoredKeystroke(position: Int)
    /// Undid one composition step.
    case undidStep
    /// Nothing was being composed: the editor deletes text.
    case nothing
  }

  /// The automaton.
  public private(set) var composer: LayoutComposer
  /// For each compatibility jamo, the ASCII key that types it on a keyboard
  /// with jamo labels (empty on a keyboard without them; 0: no key).
  private let keyOfJamo: [UInt8]
  /// Whether Backspace undoes whole keystrokes (then ``history`` is kept).
  private let undoesKeystrokes: Bool
  /// For `--backspace keystroke`: the state before each key since the last
  /// commit, and where the editor's text ended then.
  private var history: [(state: LayoutBuffer, position: Int)] = []

  /// Whether an editor types through a ``LayoutTyping`` rather than the
  /// 2-set ``SyllableComposer``: on a keyboard without jamo labels, or with `--auto-reorder`.
  public static func isUsed(keyboard: Keyboard, options: ComposerOptions) -> Bool {
    !keyboard.hasJamoLabels || options.autoReorder
  }

  public init(keyboard: Keyboard, options: ComposerOptions = ComposerOptions()) {
    composer = LayoutComposer(layout: keyboard.layout, options: options)
    keyOfJamo =
      keyboard.hasJamoLabels ? Jamo.all.map { keyboard.key(typing: $0) ?? 0 } : []
    undoesKeystrokes = options.backspace == .keystroke
  }

  /// Whether nothing is being composed.
  @inline(__always) public var isEmpty: Bool { composer.isEmpty }

  /// Whether the layout puts anything on a key (an ASCII code); a key it
  /// leaves empty is text.
  @inline(__always) public func takes(key code: UInt8) -> Bool {
    composer.layout.value(forKey: code) != 0
  }

  /// The keys that type a jamo (a compound jamo: its parts' keys in order),
  /// or `nil` when the keyboard has no key for one of them.
  public func keys(typing jamo: Jamo) -> [UInt8]? {
    guard !keyOfJamo.isEmpty else { return nil }
    let keys = jamo.keys.map { keyOfJamo[Int($0.offset)] }
    return keys.contains(0) ? nil : keys
  }

  /// Types one key (an ASCII code) and writes what it finishes to `text`;
  /// `position` is where the editor's text ends now, which a keystroke
  /// Backspace returns. Returns `false` when the keyboard does not take the
  /// key: the syllable has been written and the key is text.
  @inline(__always)
  public mutating func press(key code: UInt8, at position: Int, into text: inout some ByteAppending)
    -> Bool
  {
    if undoesKeystrokes { history.append((composer.buffer, position)) }
    guard composer.press(key: code, into: &text) else {
      forgetHistory()
      return false
    }
    return true
  }

  /// Backspace on the syllable being composed: undoes the last keystroke
  /// (`--backspace keystroke`) or composition step, if there is one.
  public mutating func backspace() -> BackspaceEffect {
    if undoesKeystrokes, let previous = history.popLast() {
      composer.restore(previous.state)
      return .restoredKeystroke(position: previous.position)
    }
    return composer.undoStep() ? .undidStep : .nothing
  }

  /// Ends the syllable and writes it to `text`.
  @inline(__always)
  public mutating func commit(into text: inout some ByteAppending) {
    forgetHistory()
    composer.commit(into: &text)
  }

  /// Sets the syllable being composed (a run of keys composed it elsewhere).
  mutating func restore(_ buffer: LayoutBuffer) {
    composer.restore(buffer)
  }

  /// Drops the keystroke history (the text it points into changed).
  @inline(__always)
  public mutating func forgetHistory() {
    if undoesKeystrokes, !history.isEmpty { history.removeAll(keepingCapacity: true) }
  }
}
