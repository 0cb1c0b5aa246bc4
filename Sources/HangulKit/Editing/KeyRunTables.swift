/// The tables that runs of keys go through (``LineEditor/typeKeyRun(_:from:actions:scratch:)``):
/// the steps of the context's automata as ``KeyTransitionTable``s, filled
/// from the automata as keys need them, and the columns each key takes.
/// Built once per editor from its keyboard and options.
struct KeyRunTables: Sendable {
  /// The steps of the context's 2-set automaton as a table for runs of keys: column 0
  /// commits (text), the others press one key (see ``jamoKeyClasses``).
  var jamoTransitions: KeyTransitionTable<CompositionState>
  /// For each ``AsciiKeyAction/column`` (a row for each jamo), the column
  /// of ``jamoTransitions`` that types it: 0 for text, 0xFF for none; for a
  /// compound jamo, 64 rows further on, the column of its second key.
  let jamoKeyClasses: [UInt8]
  /// The jamo offset that each column of ``jamoTransitions`` presses (0: text).
  let jamoOfKeyClass: [UInt8]
  /// The steps of the context's layout automaton as a table for runs of keys:
  /// column 0 commits, the others are the keys in ``layoutKeyClasses``.
  var layoutTransitions: KeyTransitionTable<LayoutBuffer>
  /// The column of each ASCII code in ``layoutTransitions`` (0: the layout
  /// leaves the key empty), and the code of each column.
  let layoutKeyClasses: [UInt8]
  let layoutClassCodes: [UInt8]
  /// For a key that only types a symbol on a jaso (3-set) keyboard, which
  /// commits and writes the symbol whatever the syllable: the symbol's
  /// UTF-8 (count in the top byte); such a key takes column 0.
  let layoutSymbolWrites: [UInt32]
  /// For a run on ``layoutTransitions``, per ASCII code: its column (0 for
  /// text and keys that only type a symbol, 0xFF where the run ends), and
  /// what it writes after its step (the text byte or the symbol; count in
  /// the top byte). Worked out from the run's actions on the first run.
  var layoutRunClasses: [UInt8] = []
  var layoutRunWrites: [UInt32] = []
  /// The table row where the last run of keys ended: the next one most
  /// likely starts there.
  var lastTransitionState = 0

  /// The tables for `keyboard` and `options`, with no steps yet;
  /// `transitionStateLimit` bounds the states they keep.
  init(keyboard: Keyboard, options: ComposerOptions, transitionStateLimit: Int) {
    // One column per jamo that one key types; a compound jamo takes two steps.
    var jamoClasses = [UInt8](repeating: 0xFF, count: 256)
    jamoClasses[Int(AsciiKeyAction.text.column)] = 0
    var keyCount: UInt8 = 1
    var jamoOfClass: [UInt8] = [0]
    for offset in 0..<Jamo.count where JamoTables.compoundParts[offset] == nil {
      jamoClasses[AsciiKeyAction.row(ofJamoOffset: offset)] = keyCount
      jamoOfClass.append(UInt8(offset))
      keyCount += 1
    }
    jamoOfKeyClass = jamoOfClass
    for offset in 0..<Jamo.count {
      guard let parts = JamoTables.compoundParts[offset] else { continue }
      let row = AsciiKeyAction.row(ofJamoOffset: offset)
      jamoClasses[row] = jamoClasses[AsciiKeyAction.row(ofJamoOffset: Int(parts.0.offset))]
      jamoClasses[row + 64] = jamoClasses[AsciiKeyAction.row(ofJamoOffset: Int(parts.1.offset))]
    }
    jamoKeyClasses = jamoClasses
    jamoTransitions = KeyTransitionTable(
      width: Int(keyCount), start: CompositionState(), stateLimit: transitionStateLimit)
    var classes = [UInt8](repeating: 0, count: 128)
    var codes: [UInt8] = [0]
    var symbols = [UInt32](repeating: 0, count: 128)
    let automaton = LayoutComposer(layout: keyboard.layout, options: options)
    for code in keyboard.layout.mappedKeys {
      if let symbol = automaton.symbolTyped(byKey: code), symbol.utf8.count <= 3 {
        // pressJaso: commit, then the symbol.
        symbols[Int(code)] = symbol.utf8.enumerated().reduce(UInt32(symbol.utf8.count) << 24) {
          $0 | UInt32($1.element) << (8 * UInt32($1.offset))
        }
        continue
      }
      classes[Int(code)] = UInt8(codes.count)
      codes.append(code)
    }
    layoutKeyClasses = classes
    layoutClassCodes = codes
    layoutSymbolWrites = symbols
    layoutTransitions = KeyTransitionTable(
      width: codes.count, start: LayoutBuffer(), stateLimit: transitionStateLimit)
  }

  /// Takes over the transition tables of `earlier`, tables for the same
  /// keyboard and options (otherwise it does nothing): they only cache the
  /// automaton's steps. O(1) (shared until one of them adds a step).
  mutating func takeTransitions(of earlier: KeyRunTables) {
    guard jamoKeyClasses == earlier.jamoKeyClasses, layoutClassCodes == earlier.layoutClassCodes,
      jamoTransitions.width == earlier.jamoTransitions.width,
      layoutTransitions.width == earlier.layoutTransitions.width,
      jamoTransitions.stateLimit == earlier.jamoTransitions.stateLimit,
      layoutTransitions.stateLimit == earlier.layoutTransitions.stateLimit
    else { return }
    jamoTransitions = earlier.jamoTransitions
    layoutTransitions = earlier.layoutTransitions
  }
}
