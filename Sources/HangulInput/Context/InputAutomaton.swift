/// Which automaton types a keyboard: the one place that decides it, from the
/// keyboard's layout type and the options. Every editor asks this type (or a
/// ``HangulInputContext``, which holds the answer) instead of looking at the
/// keyboard itself.
///
///     InputAutomaton(keyboard: .twoSet, options: ComposerOptions())   // .syllable
///     InputAutomaton(keyboard: Keyboard(builtIn: "3f")!, options: ComposerOptions())   // .layout
///     InputAutomaton(keyboard: Keyboard(builtIn: "cheonjiin")!, options: ComposerOptions())   // .keypad
public enum InputAutomaton: Sendable, Hashable, CaseIterable {
  /// The 2-set automaton on compatibility jamo (``SyllableComposer``): a
  /// keyboard with jamo labels (the 2-set keyboard and files like it),
  /// unless auto-reorder is on, which only ``layout`` does.
  case syllable
  /// The automaton of a keyboard file's type (``LayoutComposer``: jamo, jaso,
  /// romaja and the old-Hangul variants): 3-set, old Hangul, romaja, and
  /// 2-set under auto-reorder.
  case layout
  /// The phone-keypad automaton (``KeypadComposer``): multi-tap cycles and
  /// strokes, whose presses may change text already committed.
  case keypad

  /// The automaton that types `keyboard` under `options`.
  public init(keyboard: Keyboard, options: ComposerOptions) {
    if keyboard.layout.type == .keypad {
      self = .keypad
    } else if keyboard.hasJamoLabels, !options.autoReorder {
      self = .syllable
    } else {
      self = .layout
    }
  }

  /// Whether the keyboard's keys carry compatibility-jamo labels, which a
  /// ``HangulInputContext`` takes as keys besides the ASCII positions (so a
  /// log may name keys by their jamo): the 2-set keyboards and the keypads.
  public static func takesJamoLabels(_ keyboard: Keyboard) -> Bool {
    keyboard.hasJamoLabels || keyboard.layout.type == .keypad
  }

  /// Whether a syllable the automaton commits can be conjoining jamo (old
  /// Hangul, fillers) rather than one precomposed character or compatibility
  /// jamo: then a Backspace that deletes text takes the whole syllable block.
  public var writesConjoiningJamo: Bool { self == .layout }

  /// Whether the automaton may change text it already committed (a keypad's
  /// multi-tap or stroke retyping the jamo before it).
  public var rewritesCommittedText: Bool { self == .keypad }
}
