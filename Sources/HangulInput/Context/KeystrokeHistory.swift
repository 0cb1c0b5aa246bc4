/// What a Backspace per keystroke (``ComposerOptions/Backspace/keystroke``)
/// goes back to: the automaton's state before each key since the last key
/// the keyboard did not take (or the last flush), and how many scalars had
/// been committed then, so that undoing a key that committed text takes
/// that text back.
///
///     var history = KeystrokeHistory()
///     history.isKept = true
///     history.record(CompositionState())   // before a key
///     history.committed += 1               // the key committed one scalar
///     history.undoSyllable()               // (CompositionState(), deleteCount: 1)
///
/// Each step is amortized O(1); at most ``limit`` keys are kept.
struct KeystrokeHistory: Sendable {
  /// Whether keys are recorded at all.
  var isKept = false
  /// The scalars committed since the history began.
  var committed = 0
  private var syllableStates: [(state: CompositionState, committed: Int)] = []
  private var layoutStates: [(state: LayoutBuffer, committed: Int)] = []

  /// The most keys kept: past it the older half is dropped, and a Backspace
  /// that reaches back so far undoes composition steps instead.
  static let limit = 4096

  /// Records the 2-set automaton's state before a key.
  @inline(__always)
  mutating func record(_ state: CompositionState) {
    if syllableStates.count == Self.limit { syllableStates.removeFirst(Self.limit / 2) }
    syllableStates.append((state, committed))
  }

  /// Records a layout automaton's state before a key.
  @inline(__always)
  mutating func record(_ buffer: LayoutBuffer) {
    if layoutStates.count == Self.limit { layoutStates.removeFirst(Self.limit / 2) }
    layoutStates.append((buffer, committed))
  }

  /// The state before the last key and the scalars it committed, forgetting the key.
  mutating func undoSyllable() -> (state: CompositionState, deleteCount: Int)? {
    guard let last = syllableStates.popLast() else { return nil }
    defer { committed = last.committed }
    return (last.state, committed - last.committed)
  }

  /// The state before the last key and the scalars it committed, forgetting the key.
  mutating func undoLayout() -> (state: LayoutBuffer, deleteCount: Int)? {
    guard let last = layoutStates.popLast() else { return nil }
    defer { committed = last.committed }
    return (last.state, committed - last.committed)
  }

  /// Forgets every key.
  @inline(__always)
  mutating func clear() {
    committed = 0
    if !syllableStates.isEmpty { syllableStates.removeAll(keepingCapacity: true) }
    if !layoutStates.isEmpty { layoutStates.removeAll(keepingCapacity: true) }
  }
}
