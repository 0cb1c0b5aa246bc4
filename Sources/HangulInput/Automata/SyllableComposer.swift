/// The 2-set Hangul automaton: takes jamo keys one at a time and commits
/// finished syllables.
///
/// By default it behaves exactly as libhangul's keyboard "2" with its default
/// options; ``ComposerOptions`` turns on double strokes, extended vowels or
/// turns off bare clusters. All decisions come from the keyboard's tables.
///
///     var composer = SyllableComposer()
///     var text = ""
///     for key in "ㄷㅏㄹㄱㅏ".unicodeScalars.compactMap(Jamo.init) {
///       if let done = composer.press(key) { text.unicodeScalars.append(done) }
///     }
///     if let rest = composer.commit() { text.unicodeScalars.append(rest) }
///     // text == "달가"
///
/// Each key and each Backspace takes O(1) time.
package struct SyllableComposer: Sendable {
  package let keyboard: Keyboard
  package let options: ComposerOptions
  /// The rules, apart from the state they act on (so that a run of keys can
  /// keep the state in a local).
  package let machine: Machine
  /// The syllable being composed.
  package private(set) var state = CompositionState()

  package init(keyboard: Keyboard = .twoSet, options: ComposerOptions = ComposerOptions()) {
    self.keyboard = keyboard
    self.options = options
    machine = Machine(
      table: CombinationTable(keyboard: keyboard, options: options),
      bareClusters: options.bareClusters)
  }

  /// What the syllable being composed shows now, or `nil` when nothing is being composed.
  package var composing: Unicode.Scalar? {
    machine.table.text(initial: state.initialCode, vowel: state.vowelCode, final: state.finalCode)
  }

  /// Ends the syllable being composed and returns its text.
  @inline(__always)
  package mutating func commit() -> Unicode.Scalar? {
    machine.commit(&state)
  }

  /// Restores a state saved from ``state`` (used to undo whole keystrokes).
  package mutating func restore(_ saved: CompositionState) {
    state = saved
  }

  /// Undoes one composition step (뷁 → 뷀 → 붸 → 부 → ㅂ → nothing); returns
  /// `false` when nothing was being composed.
  package mutating func undoStep() -> Bool {
    state.undoStep()
  }

  /// Types one key: a jamo that one key types (not a compound such as ㅘ or ㄳ:
  /// type their ``Jamo/keys`` instead). Returns the syllable this key finished, if any.
  @inline(__always)
  package mutating func press(_ key: Jamo) -> Unicode.Scalar? {
    machine.press(key, &state)
  }

  /// Types any jamo, splitting compounds into their keys, and returns what was committed.
  package mutating func type(_ jamo: Jamo) -> [Unicode.Scalar] {
    jamo.keys.compactMap { press($0) }
  }

  /// The state machine: the keyboard's tables and options, acting on a
  /// ``CompositionState``.
  package struct Machine: Sendable {
    let table: CombinationTable
    let bareClusters: Bool

    /// Ends the syllable in `state` and returns its text.
    @inline(__always)
    package func commit(_ state: inout CompositionState) -> Unicode.Scalar? {
      guard !state.isEmpty else { return nil }
      let text = table.text(
        initial: state.initialCode, vowel: state.vowelCode, final: state.finalCode)
      state = CompositionState()
      return text
    }

    /// Types one key (see ``SyllableComposer/press(_:)``).
    @inline(__always)
    package func press(_ key: Jamo, _ state: inout CompositionState) -> Unicode.Scalar? {
      key.isVowel ? pressVowel(key, &state) : pressConsonant(key, &state)
    }

    @inline(__always)
    private func startOver(
      with key: Jamo, as role: CombinationTable.Role, _ state: inout CompositionState
    ) -> Unicode.Scalar? {
      let done = commit(&state)
      state.push(key, as: role)
      return done
    }

    @inline(__always)
    private func pressConsonant(_ key: Jamo, _ state: inout CompositionState) -> Unicode.Scalar? {
      if let final = state.final {
        // A second consonant after the final: a compound final if the two combine.
        if let combined = table.combine(final, key, as: .final) {
          state.push(combined, as: .final)
          return nil
        }
        return startOver(with: key, as: .initial, &state)
      }
      if state.vowel != nil {
        // A consonant after a vowel becomes the final if it can be one.
        if state.initial != nil, table.canBeFinal(key) {
          state.push(key, as: .final)
          return nil
        }
        return startOver(with: key, as: .initial, &state)
      }
      if let initial = state.initial {
        if let combined = table.combine(initial, key, as: .initial) {
          state.push(combined, as: .initial)
          return nil
        }
        if bareClusters, table.canBeFinal(initial),
          let cluster = table.combine(initial, key, as: .final)
        {
          // Two consonants with no vowel make a bare cluster: both become final
          // steps (as in libhangul), so a vowel later takes the second one.
          state = CompositionState()
          state.push(initial, as: .final)
          state.push(cluster, as: .final)
          return nil
        }
        return startOver(with: key, as: .initial, &state)
      }
      state.push(key, as: .initial)
      return nil
    }

    @inline(__always)
    private func pressVowel(_ key: Jamo, _ state: inout CompositionState) -> Unicode.Scalar? {
      if let final = state.final {
        // The vowel takes the last consonant typed as the initial of a new syllable.
        let nextInitial: Jamo
        if let previous = state.finalBeforeLastFinal,
          let second = table.secondPart(ofFinal: final, after: previous)
        {
          state.setFinal(previous)
          nextInitial = second
        } else {
          state.removeFinal()
          nextInitial = final
        }
        let done = commit(&state)
        state.push(nextInitial, as: .initial)
        state.push(key, as: .vowel)
        return done
      }
      if let vowel = state.vowel {
        if let combined = table.combine(vowel, key, as: .vowel) {
          state.push(combined, as: .vowel)
          return nil
        }
        return startOver(with: key, as: .vowel, &state)
      }
      state.push(key, as: .vowel)
      return nil
    }
  }
}
