/// `--output keystrokes` on event logs: each event's object, from the
/// filter's ``KeystrokeRecorder``. The keys are read by the rules of
/// ``EventLogFilter/perform(_:)`` (Shift, 한/영, `--keys`, literal text);
/// the editor performs each event too, so that a Backspace with nothing to
/// undo says how much of the document it deleted.
extension EventLogFilter {
  /// Records the object of one event, then performs it on the editor.
  mutating func record(
    _ action: Action, of event: JSONValue, at time: Double?, before: KeySnapshot? = nil
  ) {
    guard var recorder = keystrokes else { return perform(action) }
    keystrokes = nil
    recorder.begin()
    var deletesBefore = false
    switch action {
    case .named(let named), .code(.named(let named), _):
      deletesBefore = record(named, on: &recorder, at: time)
    case .character(let character):
      var literal = typing.literal
      for scalar in character.unicodeScalars {
        let typed = typing.shift ? shifted(scalar) : scalar
        deletesBefore = record(typed, literal: &literal, on: &recorder, at: time) || deletesBefore
      }
    case .code(.position(let plain, let upper), let shiftKey):
      let ascii = typing.shift || shiftKey ? upper : plain
      if typing.mode == .korean {
        recorder.process(InputKey(ascii: ascii), text: [ascii], at: time)
      } else {
        recorder.insert([ascii])
      }
    case .code(.keypad(let scalar), _):
      if editor.context.automaton.takesNumericKeypad, typing.mode == .korean, scalar.isASCII {
        recorder.process(InputKey(scalar), text: Array(String(scalar).utf8), at: time)
      } else {
        recorder.insert(Array(String(scalar).utf8))
      }
    case .phoneKey(let code):
      if typing.mode == .korean {
        recorder.process(InputKey(ascii: code), text: [code], at: time)
      } else {
        recorder.insert([code])
      }
    case .text(let phrase):
      recorder.insert(Array(phrase.utf8))
    }
    let offset = deletesBefore ? editor.cursorOffset : 0
    perform(action)
    if deletesBefore { recorder.deleted += max(0, offset - editor.cursorOffset) }
    let columns = before.flatMap { measure(action, since: $0, at: time) }
    var name: [UInt8]?
    var text: [UInt8]?
    if case .text(let phrase) = action {
      text = Array(phrase.utf8)
    } else {
      name = (event["code"]?.stringValue ?? event["key"]?.stringValue).map { Array($0.utf8) }
    }
    recorder.write(
      key: name, text: text, document: documents.current?.json, time: event["t"]?.numberSpelling,
      measures: columns, into: &ready)
    keystrokes = recorder
  }

  /// A named key; returns whether the editor deletes before the cursor
  /// what the context does not (a Backspace with nothing to undo, Ctrl-W).
  private func record(
    _ named: NamedKey, on recorder: inout KeystrokeRecorder, at time: Double?
  ) -> Bool {
    switch named {
    case .shift, .process: return false
    case .backspace: return !recorder.backspace()
    case .deleteWord:
      recorder.flush()
      return true
    case .space:
      if typing.mode == .korean {
        recorder.process(InputKey(ascii: 0x20), text: [0x20], at: time)
      } else {
        recorder.insert([0x20])
      }
    case .tab: recorder.insert([0x09])
    case .enter, .delete, .next, .arrowLeft, .arrowRight, .arrowUp, .arrowDown, .home, .end,
      .hangulMode:
      recorder.flush()
    }
    return false
  }

  /// One character of a `"key"`, as ``EventLogFilter`` types it; returns
  /// whether it is a Backspace the context had nothing to undo for.
  private func record(
    _ scalar: Unicode.Scalar, literal: inout Bool, on recorder: inout KeystrokeRecorder,
    at time: Double?
  ) -> Bool {
    let text = Array(String(scalar).utf8)
    if literal {
      literal = false
      recorder.insert(text)
      return false
    }
    switch scalar.value {
    case 0x08, 0x7F: return !recorder.backspace()
    case KeyLogControl.separator.value: recorder.flush()
    case KeyLogControl.literalPrefix.value: literal = true
    case 0x20...0x7E where typing.mode == .korean && keys == .qwerty:
      recorder.process(InputKey(scalar), text: text, at: time)
    default:
      if typing.mode == .korean, editor.keypadKey(labelled: scalar) != nil || Jamo(scalar) != nil {
        recorder.process(InputKey(scalar), text: text, at: time)
      } else {
        recorder.insert(text)
      }
    }
    return false
  }
}
