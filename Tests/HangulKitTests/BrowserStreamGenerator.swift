import Foundation
@testable import HangulKit

/// Writes the events a browser fires while a line is typed on the 2-set
/// keyboard, on each platform model of hangul-keylog(5), with the composition
/// data from ``HangulInputContext`` (whose preedits are libhangul's).
///
/// A typed line is a list of ``Press``es: a jamo key, a Backspace, or a
/// character the input method does not take (it ends the composition).
struct BrowserStreamGenerator {
  enum Platform: String, CaseIterable {
    /// Chrome on Windows: `Process`, the physical `code`, keyCode 229; the
    /// keyup says `Process` too.
    case chromeWindows
    /// Chrome on macOS: the jamo in `key`, `code`, keyCode 229; at a syllable
    /// boundary the old syllable's update and end come after the next keydown.
    case chromeMac
    /// Safari on macOS: the jamo in `key`, no `code`; the key that ends a
    /// composition fires its keydown (keyCode 229) after `compositionend`.
    case safari
    /// Android: every key `Unidentified`, keyCode 229, empty `code`; one
    /// composition spans syllables (`가나`).
    case android
  }

  enum Press: Equatable {
    case jamo(Jamo)
    case backspace
    case character(Unicode.Scalar)
  }

  let platform: Platform
  private var context = HangulInputContext(keyboard: .twoSet)
  /// The field's text before the cursor, without the preedit.
  private(set) var text: [Unicode.Scalar] = []
  /// Whether a composition is open, and the text committed in it so far.
  private var composing = false
  private var committedInComposition = ""
  private(set) var lines: [String] = []
  private var time = 0

  init(platform: Platform) {
    self.platform = platform
  }

  /// The text the field shows (the preedit committed).
  var shownText: String {
    String(String.UnicodeScalarView(text)) + context.preeditString
  }

  private mutating func emit(_ type: String, _ members: [(String, Any)] = []) {
    time += 40
    var parts = ["\"type\":\(JSONWriter.quoted(type))"]
    for (name, value) in members {
      let spelled: String =
        switch value {
        case let string as String: JSONWriter.quoted(string)
        case let flag as Bool: flag ? "true" : "false"
        default: "\(value)"
        }
      parts.append("\(JSONWriter.quoted(name)):\(spelled)")
    }
    parts.append("\"timeStamp\":\(time)")
    lines.append("{" + parts.joined(separator: ",") + "}")
  }

  private var isAndroid: Bool { platform == .android }

  mutating func type(_ press: Press) {
    switch press {
    case .jamo(let jamo): typeJamo(jamo)
    case .backspace: typeBackspace()
    case .character(let scalar): typeCharacter(scalar)
    }
  }

  private mutating func keyMembers(_ jamo: Jamo, ascii: UInt8) -> [(String, Any)] {
    let upper = ascii >= 0x61 ? ascii - 0x20 : ascii
    let code = "Key" + String(Unicode.Scalar(upper))
    let shifted = ascii < 0x61
    switch platform {
    case .chromeWindows:
      return [("key", "Process"), ("code", code), ("keyCode", 229), ("shiftKey", shifted)]
    case .chromeMac:
      return [
        ("key", String(jamo.scalar)), ("code", code), ("keyCode", 229), ("shiftKey", shifted),
      ]
    case .safari: return [("key", String(jamo.scalar)), ("keyCode", 229)]
    case .android: return [("key", "Unidentified"), ("code", ""), ("keyCode", 229)]
    }
  }

  private mutating func typeJamo(_ jamo: Jamo) {
    guard let ascii = Keyboard.twoSet.key(typing: jamo) else { return }
    let members = keyMembers(jamo, ascii: ascii)
    emit("keydown", members)
    let before = context.preeditString
    context.process(InputKey(ascii: ascii))
    let commit = context.commitString
    text += commit.unicodeScalars
    let preedit = context.preeditString
    if !composing {
      emit("compositionstart", [("data", "")])
      composing = true
      committedInComposition = ""
    }
    if isAndroid {
      committedInComposition += commit
      let data = committedInComposition + preedit
      emit("compositionupdate", [("data", data)])
      emit("beforeinput", [("inputType", "insertCompositionText"), ("data", data)])
      emit("input", [("inputType", "insertCompositionText"), ("data", data)])
    } else {
      if !commit.isEmpty {
        // The old syllable is shown once more and ended; a new composition starts.
        if platform != .chromeWindows { emit("compositionupdate", [("data", before)]) }
        emit("compositionend", [("data", commit)])
        emit("compositionstart", [("data", "")])
      }
      emit("compositionupdate", [("data", preedit)])
      emit("input", [("inputType", "insertCompositionText"), ("data", preedit)])
    }
    var up = members
    if platform == .chromeMac { up[2] = ("keyCode", Int(ascii >= 0x61 ? ascii - 0x20 : ascii)) }
    emit("keyup", up)
  }

  private mutating func typeBackspace() {
    let inPreedit = !context.preeditString.isEmpty
    switch platform {
    case .android: emit("keydown", [("key", "Unidentified"), ("code", ""), ("keyCode", 229)])
    case .chromeWindows where inPreedit:
      emit("keydown", [("key", "Process"), ("code", "Backspace"), ("keyCode", 229)])
    default:
      emit(
        "keydown",
        [("key", "Backspace"), ("code", "Backspace"), ("keyCode", inPreedit ? 229 : 8)])
    }
    if inPreedit {
      context.backspace()
      let preedit = context.preeditString
      let data = (isAndroid ? committedInComposition : "") + preedit
      emit("compositionupdate", [("data", data)])
      emit("input", [("inputType", "insertCompositionText"), ("data", data)])
      if preedit.isEmpty {
        // An emptied syllable ends the composition.
        emit("compositionend", [("data", data)])
        composing = false
      }
    } else {
      if !text.isEmpty { text.removeLast() }
      emit("beforeinput", [("inputType", "deleteContentBackward")])
      emit("input", [("inputType", "deleteContentBackward")])
    }
    emit("keyup", [("key", isAndroid ? "Unidentified" : "Backspace"), ("keyCode", 8)])
  }

  private mutating func typeCharacter(_ scalar: Unicode.Scalar) {
    let character = String(scalar)
    let preedit = context.preeditString
    context.flush()
    text += preedit.unicodeScalars
    let ended = composing
    let endData = (isAndroid ? committedInComposition : "") + preedit
    composing = false
    let code = scalar == " " ? "Space" : ""
    switch platform {
    case .safari:
      if ended { emit("compositionend", [("data", endData)]) }
      emit("keydown", [("key", character), ("keyCode", ended ? 229 : 0)])
    case .android:
      emit("keydown", [("key", "Unidentified"), ("code", ""), ("keyCode", 229)])
      if ended { emit("compositionend", [("data", endData)]) }
    case .chromeWindows, .chromeMac:
      let key = platform == .chromeWindows && ended && scalar == " " ? "Process" : character
      emit("keydown", [("key", key), ("code", code), ("keyCode", ended ? 229 : 32)])
      if ended {
        if platform == .chromeMac { emit("compositionupdate", [("data", preedit)]) }
        emit("compositionend", [("data", preedit)])
      }
    }
    emit("beforeinput", [("inputType", "insertText"), ("data", character)])
    emit("input", [("inputType", "insertText"), ("data", character)])
    text.append(scalar)
    emit("keyup", [("key", isAndroid ? "Unidentified" : character), ("keyCode", 0)])
  }

  /// The jamo a 2-set key types.
  static let typable = Jamo.all.filter { Keyboard.twoSet.key(typing: $0) != nil }

  /// The presses that type `line` (its syllables as the jamo keys that type
  /// them), with random slips corrected by Backspace when `slips` is given.
  static func presses(of line: String, slips: inout SeededGenerator?) -> [Press] {
    var presses: [Press] = []
    for scalar in line.unicodeScalars {
      let keys = Decomposer.keys(of: scalar)
      if keys.isEmpty {
        presses.append(.character(scalar))
        continue
      }
      for key in keys {
        if var random = slips, Int.random(in: 0..<6, using: &random) == 0 {
          presses.append(.jamo(typable[Int.random(in: 0..<typable.count, using: &random)]))
          presses.append(.backspace)
          slips = random
        }
        presses.append(.jamo(key))
      }
    }
    return presses
  }
}
