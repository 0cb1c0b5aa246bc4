/// The W3C UI Events stream of a browser's text field (SPEC 3.6,
/// hangul-keylog(5)): turns each event of a line with a `"type"` into the
/// steps it asks of the document, so that ``EventLogFilter`` replays what the
/// person typed once, whatever order and doubling the platform used.
///
/// - `keydown` is a press. A key the input method took (`keyCode` 229,
///   `Process`, or a jamo in `key`) is its physical `code` typed through the
///   keyboard, or its jamo; a key the input method did not take types its
///   `key`. A press with neither (Android's `Unidentified`) waits: its
///   `keyup` may name it, else the composition data that follow say what it
///   typed (``reconstruct(to:)``).
/// - Composition and input events only check, or supply, what presses typed;
///   text no press explains (a paste, dictation) is text, not keys.
///
///     var stream = UIEventStream()
///     stream.take(keydown Process code KeyR)   // [.press(.code(r))]
///     stream.take(compositionupdate "ㄱ")       // [] (the key said it)
///
/// Memory: the composition's keys and one held event; time O(length of the
/// composition data) an event.
struct UIEventStream {
  /// What one event asks of the document.
  enum Step {
    /// A key press, counted as a keystroke.
    case press(EventLogFilter.Action)
    /// A press rebuilt from composition or input data, counted as a keystroke.
    case reconstructed(EventLogFilter.Action)
    /// Text that no key typed: inserted, counted as text.
    case text(String)
    /// The syllable being composed is committed (a click, a blur, the end of
    /// a composition whose keys were rebuilt).
    case commit
  }

  /// The composition as the log showed it, in keys (a syllable as the jamo
  /// that type it; anything else as itself), and what our presses typed of it.
  var composition = Composition()
  /// A press whose key is not known yet (its `keyup` or the next
  /// composition data will say).
  private var waiting = false
  /// Whether a press with a known key came since the last input event: the
  /// input event is that key's doing.
  private var keyedSinceInput = false
  /// Whether the keys of the composition at hand are rebuilt from its data.
  private var rebuilding = false
  /// An input event without a press before it, held for one event: WebKit
  /// fires the keydown (keyCode 229) after the input it caused.
  private var held: InputEdit?
  /// Whether the log fires the input before the keydown that caused it
  /// (WebKit without composition events): seen once a keydown claimed a held input.
  private var inputLeadsKeys = false
  /// The last `beforeinput`, whose `input` twin is not taken again.
  private var announced: InputEdit?
  /// The `code` of the last keydown when it had keyCode 229, and whether a
  /// `compositionend` came since: macOS redispatches that key once more.
  private var endingKey: EndingKey?
  /// The event types and input types warned about (one warning each).
  private(set) var warned: Set<String> = []
  /// The composition data of the event at hand when the keys before it
  /// were known: what our preedit should show (``EventLogFilter/checkComposition()``).
  private(set) var shownComposition: String?
  /// The key positions (ASCII) of the last known presses, to find the
  /// keyboard whose preedit the log shows; empty after a key without a position.
  private(set) var recentPositions: [UInt8] = []
  /// Whether a disagreement was reported (once a log), and how many there were.
  var disagreed = false
  var disagreements = 0

  /// The composition as the log showed it, in keys, and what our presses typed of it.
  struct Composition {
    var shown: [Unicode.Scalar] = []
    var typed: [Unicode.Scalar] = []
  }

  /// An input event's edit: its `inputType` and `data`.
  struct InputEdit {
    var inputType: String
    var data: String
  }

  /// A keydown with keyCode 229: its `code`, and whether a `compositionend` came since.
  struct EndingKey {
    var code: String
    var compositionEnded: Bool
  }

  /// The steps of one event, and a warning about it when it is the first of an
  /// unknown type.
  mutating func take(_ event: JSONValue, type: String) -> (steps: [Step], warning: String?) {
    var steps: [Step] = []
    shownComposition = nil
    if let held {
      self.held = nil
      // A keydown the input method took is the press behind the held input.
      if type == "keydown" && Self.number(event["keyCode"]) == 229 {
        inputLeadsKeys = true
      } else {
        steps += text(held.data, inputType: held.inputType)
      }
    }
    var warning: String?
    switch type {
    case "keydown":
      steps += settle()
      steps += keydown(event)
    case "keyup":
      steps += keyup(event)
    case "keypress":
      break
    case "compositionstart":
      composition = Composition()
    case "compositionupdate":
      steps += composed(event["data"]?.stringValue)
    case "compositionend":
      steps += settle()
      endingKey?.compositionEnded = true
      if rebuilding { steps.append(.commit) }
      rebuilding = false
      composition = Composition()
    case "beforeinput", "input":
      let inputType = event["inputType"]?.stringValue ?? ""
      let data = event["data"]?.stringValue
      // An input after its beforeinput is the same edit (iOS prints no inputType on it).
      if type == "input", let announced,
        inputType.isEmpty || announced.inputType == inputType, data == nil || announced.data == data
      {
        self.announced = nil
        break
      }
      announced = type == "beforeinput" ? InputEdit(inputType: inputType, data: data ?? "") : nil
      let taken = input(inputType, data: data)
      steps += taken.steps
      warning = taken.warning
    case "select", "selectionchange", "mousedown", "mouseup", "click", "focus", "blur",
      "pointerdown":
      steps += settle()
      steps.append(.commit)
      if rebuilding { composition = Composition() }
      rebuilding = false
    default:
      if warned.insert(type).inserted {
        warning = "event type \(JSONWriter.quoted(type)) is not one hangul-keylog(5) knows: ignored"
      }
    }
    return (steps, warning)
  }

  /// What is left at the end of the log or of a document.
  mutating func finish() -> [Step] {
    var steps: [Step] = []
    if let held {
      self.held = nil
      steps += text(held.data, inputType: held.inputType)
    }
    steps += settle()
    let (leads, disagreed, disagreements) = (inputLeadsKeys, self.disagreed, self.disagreements)
    self = UIEventStream(warned: warned)
    inputLeadsKeys = leads
    self.disagreed = disagreed
    self.disagreements = disagreements
    return steps
  }

  private init(warned: Set<String>) {
    self.warned = warned
  }

  init() {}

  // MARK: Keys

  /// Modifier and lock keys: the key they modify carries `shiftKey`.
  private static let modifiers: Set<String> = [
    "Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock", "Fn", "OS", "NumLock",
    "ScrollLock", "ShiftLeft", "ShiftRight", "ControlLeft", "ControlRight", "AltLeft",
    "AltRight", "MetaLeft", "MetaRight", "OSLeft", "OSRight",
  ]

  /// The keys macOS sends once more after the composition they ended (T7).
  private static let redispatched: Set<String> = [
    "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown",
  ]

  private static func number(_ value: JSONValue?) -> Double? {
    value?.numberSpelling.flatMap(Double.init)
  }

  private static func flag(_ value: JSONValue?) -> Bool {
    if case .bool(true) = value { return true }
    return false
  }

  private mutating func keydown(_ event: JSONValue) -> [Step] {
    let key = event["key"]?.stringValue ?? ""
    let code = event["code"]?.stringValue ?? ""
    let keyCode = Self.number(event["keyCode"])
    keyedSinceInput = false
    let previous = endingKey
    endingKey =
      keyCode == 229 && !code.isEmpty ? EndingKey(code: code, compositionEnded: false) : nil
    if let previous, previous.compositionEnded, previous.code == code, keyCode != 229,
      Self.redispatched.contains(code)
    {
      return []  // macOS redispatches the key that ended a composition
    }
    if Self.modifiers.contains(key) || Self.modifiers.contains(code) { return [] }
    if key == "HangulMode" || code == "Lang1" || key == "HanjaMode" || code == "Lang2" {
      return []  // the system's input mode: keyCode 229 says which keys it took
    }
    let jamoKey =
      key.unicodeScalars.count == 1 && key.unicodeScalars.first.flatMap { Jamo($0) } != nil
    let taken = keyCode == 229 || key == "Process" || jamoKey
    let shifted = Self.flag(event["shiftKey"])
    if Self.flag(event["ctrlKey"]) || Self.flag(event["metaKey"]) {
      switch code.isEmpty ? key : code {
      case "ArrowLeft", "Home": return known(.named(.home))
      case "ArrowRight", "End": return known(.named(.end))
      case "Backspace": return known(.named(.deleteWord))
      default: return []  // a shortcut: what it did comes as input events
      }
    }
    if taken, let physical = KeyCode(name: code) {
      return known(.code(physical, shifted: shifted))
    }
    if jamoKey { return known(.character(key)) }
    if key == "Process" || key == "Unidentified" || key.isEmpty {
      if let physical = KeyCode(name: code) { return known(.code(physical, shifted: shifted)) }
      waiting = true
      return []
    }
    if let named = EventLogFilter.NamedKey(rawValue: key) { return known(.named(named)) }
    if key == " " { return known(.named(.space)) }
    if key.count == 1 { return known(.text(key)) }
    return []  // F1, Escape, Dead and the like type nothing
  }

  private mutating func known(_ action: EventLogFilter.Action) -> [Step] {
    if case .code(.position(let plain, let upper), let shifted) = action {
      if recentPositions.count == 8 { recentPositions.removeFirst() }
      recentPositions.append(shifted ? upper : plain)
    } else {
      recentPositions.removeAll()
    }
    keyedSinceInput = true
    rebuilding = false
    return [.press(action)]
  }

  /// A keyup names the key of a press that had none.
  private mutating func keyup(_ event: JSONValue) -> [Step] {
    guard waiting else { return [] }
    let key = event["key"]?.stringValue ?? ""
    let code = event["code"]?.stringValue ?? ""
    var action: EventLogFilter.Action?
    if let physical = KeyCode(name: code) {
      action = .code(physical, shifted: Self.flag(event["shiftKey"]))
    } else if key.unicodeScalars.count == 1, let scalar = key.unicodeScalars.first {
      if (0x21..<0x7F).contains(scalar.value) {
        let ascii = UInt8(scalar.value)
        action = .code(.position(plain: ascii, shifted: ascii), shifted: false)
      } else if Jamo(scalar) != nil {
        action = .character(key)
      }
    } else if let named = EventLogFilter.NamedKey(rawValue: key), named != .process {
      action = .named(named)
    }
    guard let action else { return settle() }
    waiting = false
    composition.typed = composition.shown
    keyedSinceInput = false
    return [.press(action)]
  }

  // MARK: Composition and input

  /// The composition's data changed (a `compositionupdate`, an
  /// `insertCompositionText`).
  /// A `"data"` that is absent says nothing (a logger that printed none).
  private mutating func composed(_ data: String?) -> [Step] {
    guard let data else { return [] }
    composition.shown = Self.keys(of: data)
    if waiting { return [] }
    if keyedSinceInput, !rebuilding {
      composition.typed = composition.shown
      shownComposition = data
      return []
    }
    return reconstruct(to: composition.shown)
  }

  private mutating func input(_ inputType: String, data: String?) -> (
    steps: [Step], warning: String?
  ) {
    let keyed = keyedSinceInput
    keyedSinceInput = false
    switch inputType {
    case "insertCompositionText":
      keyedSinceInput = keyed
      return (composed(data), nil)
    case "deleteContentBackward", "deleteContentForward", "insertLineBreak", "insertParagraph",
      "deleteWordBackward":
      if keyed { return ([], nil) }
      waiting = false
      let action: EventLogFilter.Action =
        switch inputType {
        case "deleteContentBackward": .named(.backspace)
        case "deleteContentForward": .named(.delete)
        case "deleteWordBackward": .named(.deleteWord)
        default: .named(.enter)
        }
      if inputType == "deleteContentBackward", rebuilding, !composition.typed.isEmpty {
        composition.typed.removeLast()
        composition.shown = composition.typed
      }
      return ([.reconstructed(action)], nil)
    case "insertText", "insertReplacementText", "insertFromPaste", "insertFromDrop",
      "insertFromYank", "insertTranspose", "insertFromComposition", "":
      // A paste or drop is never a typed key's doing (Ctrl+V is a shortcut).
      let pasted = inputType.hasPrefix("insertFrom") && inputType != "insertFromComposition"
      guard !keyed || pasted || inputLeadsKeys, let data, !data.isEmpty else { return ([], nil) }
      if waiting { return (text(data, inputType: inputType), nil) }
      held = InputEdit(inputType: inputType, data: data)
      return ([], nil)
    default:
      guard warned.insert("inputType " + inputType).inserted else { return ([], nil) }
      return (
        [], "input type \(JSONWriter.quoted(inputType)) is not one hangul-keylog(5) knows: ignored"
      )
    }
  }

  /// Text from an input event that no known press explains: WebKit's
  /// composition (a jamo `insertText` begins it, `insertReplacementText`
  /// refines it) is rebuilt as keys, a press waiting for its key typed a
  /// single character, anything else is text.
  private mutating func text(_ data: String, inputType: String) -> [Step] {
    let keys = Self.keys(of: data)
    let isHangul = !keys.isEmpty && keys.allSatisfy { Jamo($0) != nil }
    if inputType == "insertReplacementText", rebuilding, isHangul {
      return reconstruct(to: keys)
    }
    if inputType == "insertText" || inputType == "", isHangul,
      data.unicodeScalars.count == 1 || waiting
    {
      var steps: [Step] = rebuilding ? [.commit] : []
      composition = Composition()
      steps += reconstruct(to: keys)
      return steps
    }
    if waiting, data.count == 1 {
      waiting = false
      return [.reconstructed(.text(data))]
    }
    waiting = false
    return [.text(data)]
  }

  /// Gives the press waiting for its key the keys the composition data say
  /// it typed (none when they did not change).
  private mutating func settle() -> [Step] {
    // Until the data change, the press may still be explained by input events.
    guard waiting, composition.shown != composition.typed else { return [] }
    return reconstruct(to: composition.shown)
  }

  /// The keys that turn what our presses typed of the composition into
  /// `target`: Backspaces for the keys past their common start, then the
  /// keys of `target` after it.
  mutating func reconstruct(to target: [Unicode.Scalar]) -> [Step] {
    waiting = false
    rebuilding = true
    var common = 0
    let typed = composition.typed
    while common < typed.count, common < target.count, typed[common] == target[common] {
      common += 1
    }
    var steps: [Step] = Array(
      repeating: .reconstructed(.named(.backspace)), count: typed.count - common)
    for scalar in target[common...] {
      steps.append(
        .reconstructed(Jamo(scalar) != nil ? .character(String(scalar)) : .text(String(scalar))))
    }
    composition.typed = target
    composition.shown = target
    return steps
  }

  /// A text as the keys that type it: each syllable and jamo as its key
  /// jamo (닭 → ㄷㅏㄹㄱ), everything else as itself.
  static func keys(of text: String) -> [Unicode.Scalar] {
    keys(ofScalars: text.unicodeScalars)
  }

  /// ``keys(of:)`` of a text's scalars.
  static func keys(ofScalars text: some Sequence<Unicode.Scalar>) -> [Unicode.Scalar] {
    var keys: [Unicode.Scalar] = []
    for scalar in text {
      let jamo = Decomposer.keys(of: scalar)
      if jamo.isEmpty { keys.append(scalar) } else { keys += jamo.map(\.scalar) }
    }
    return keys
  }
}
