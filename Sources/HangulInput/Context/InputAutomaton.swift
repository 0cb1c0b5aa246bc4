/// Which automaton types a keyboard, and what follows from it for a program
/// that types on the keyboard or turns text back into its keys: the one
/// place that looks at a keyboard's type and labels. Every editor, filter
/// and program asks this type (or a ``HangulInputContext``, which holds the
/// answer) for the capability it needs instead of looking at the keyboard.
///
///     InputAutomaton(keyboard: .twoSet, options: ComposerOptions())   // .syllable
///     InputAutomaton(keyboard: Keyboard(builtIn: "3f")!, options: ComposerOptions())   // .layout
///     InputAutomaton(keyboard: Keyboard(builtIn: "cheonjiin")!, options: ComposerOptions())   // .keypad
///     InputAutomaton.takesJamoLabels(Keyboard(builtIn: "3f")!)   // false: no --keys jamo
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

  /// How text is turned back into the keys of a keyboard.
  public enum KeyDecomposition: Sendable, Hashable, CaseIterable {
    /// Each syllable is its jamo, each jamo one key (or two for a compound):
    /// keys are jamo labels or the ASCII keys that carry them (``Decomposer``).
    case jamoKeys
    /// Each syllable is the shortest ASCII keys that type it alone on the
    /// keyboard's layout (3-set, old Hangul, romaja).
    case layoutKeys
    /// Each syllable is the presses of a phone keypad that retype it.
    case phonePresses
  }

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
  /// log may name keys by their jamo, `--keys jamo`): the 2-set keyboards and
  /// the keypads.
  public static func takesJamoLabels(_ keyboard: Keyboard) -> Bool {
    keyboard.hasJamoLabels || keyboard.layout.type == .keypad
  }

  /// How text is turned back into `keyboard`'s keys (see ``KeyDecomposition``).
  public static func keyDecomposition(of keyboard: Keyboard) -> KeyDecomposition {
    switch InputAutomaton(keyboard: keyboard, options: ComposerOptions()) {
    case .syllable: .jamoKeys
    case .layout: .layoutKeys
    case .keypad: .phonePresses
    }
  }

  /// Whether `keyboard`'s keys spell sounds in Latin letters (romaja): a
  /// lone vowel is typed without the silent initial ㅇ, a capital letter
  /// after the first starts a new syllable, and among keys that type the
  /// same jamo the ones a person spells are preferred.
  public static func spellsLatinLetters(_ keyboard: Keyboard) -> Bool {
    keyboard.layout.type == .romaja
  }

  /// Whether a syllable the automaton commits can be conjoining jamo (old
  /// Hangul, fillers) rather than one precomposed character or compatibility
  /// jamo: then a Backspace that deletes text takes the whole syllable block.
  public var writesConjoiningJamo: Bool { self == .layout }

  /// Whether the automaton may change text it already committed (a keypad's
  /// multi-tap or stroke retyping the jamo before it): an editor must apply
  /// ``HangulInputContext/deleteCount`` on every key, and a filter must keep
  /// the line until the keypad can no longer change it.
  public var rewritesCommittedText: Bool { self == .keypad }

  /// Whether every printable ASCII key that the layout maps is a key of the
  /// keyboard (digits and punctuation too, as on 3-set and the keypads),
  /// rather than only the letters that carry jamo (the 2-set automaton).
  public var keysAreLayoutPositions: Bool { self != .syllable }

  /// Whether pressing a key again cycles through its jamo (multi-tap), so
  /// that a pause between presses matters (``HangulInputContext/process(_:at:)``).
  public var hasMultitapCycles: Bool { self == .keypad }

  /// Whether the numeric keypad's digit, `*` and `#` keys are keys of the
  /// keyboard (a phone keypad) rather than text.
  public var takesNumericKeypad: Bool { self == .keypad }
}
