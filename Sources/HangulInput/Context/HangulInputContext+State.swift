extension HangulInputContext {
  /// What the outcome of the next keys depends on: the syllable being
  /// composed (and on a keypad the run of presses and the text it may still
  /// retype), apart from the Backspace history. A small value, so that a
  /// caller can tabulate the context's steps (state and key → next state and
  /// what the step commits) and replay them without calling the automaton:
  ///
  ///     var context = HangulInputContext(keyboard: .twoSet)
  ///     let start = context.state
  ///     context.process("r")                   // ㄱ
  ///     let afterR = context.state
  ///     context.restore(start)
  ///     context.process("r")
  ///     context.state == afterR                // true
  public struct State: Hashable, Sendable {
    enum Storage: Hashable, Sendable {
      case syllable(CompositionState)
      case layout(LayoutBuffer)
      case keypad(
        syllable: CompositionState, run: [UInt32], runStart: CompositionState, retypable: [UInt8])
    }

    let storage: Storage
  }

  /// The state now (see ``State``).
  public var state: State {
    switch automaton {
    case .syllable:
      return State(storage: .syllable(syllable.state))
    case .layout:
      return State(storage: .layout(layout.buffer))
    case .keypad:
      guard let keypad else { return State(storage: .syllable(CompositionState())) }
      let run = keypad.runState
      let start = keypad.runStartInLine(lineCount: keypadLine.count)
      return State(
        storage: .keypad(
          syllable: run.syllable, run: run.run, runStart: run.runStart,
          retypable: Array(keypadLine[start...])))
    }
  }

  /// Puts the context in `state` (taken from a context for the same keyboard
  /// and options): the next keys act as they would have then. The last
  /// call's commit is cleared and the Backspace history forgotten (a keypad
  /// then deletes characters instead of undoing presses); the text that a
  /// keypad may still retype is taken to be what it was in `state`.
  public mutating func restore(_ state: State) {
    clearCommit()
    deleteCount = 0
    keystrokes.clear()
    switch state.storage {
    case .syllable(let composition):
      syllable.restore(composition)
    case .layout(let buffer):
      layout.restore(buffer)
    case .keypad(let composition, let run, let runStart, let retypable):
      keypadLine.removeAll(keepingCapacity: true)
      keypadLine.append(contentsOf: retypable)
      keypad?.restore((composition, run, runStart), runLineCount: 0)
    }
  }
}
