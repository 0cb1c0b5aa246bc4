import Foundation
import HangulInput
import TestSupport
import Testing

/// The input context's contract beyond libhangul's keyboards: the example of
/// its documentation, keystroke Backspace, labels, options, phone keypads
/// (whose presses change committed text), the multi-tap timeout, and states.
@Suite("The input context")
struct InputContextTests {
  /// One call's outcome: scalars deleted, text committed, preedit after it.
  struct Step: Equatable, CustomStringConvertible {
    var delete = 0
    var commit = ""
    var preedit = ""

    var description: String { "-\(delete) \"\(commit)\" [\(preedit)]" }
  }

  /// Types `keys` (BS is Backspace) and returns each call's outcome.
  func steps(_ keys: String, on context: inout HangulInputContext) -> [Step] {
    keys.unicodeScalars.map { key in
      if key == "\u{8}" { context.backspace() } else { context.process(InputKey(key)) }
      return Step(
        delete: context.deleteCount, commit: context.commitString, preedit: context.preeditString)
    }
  }

  func context(_ id: String, _ options: ComposerOptions = ComposerOptions()) throws
    -> HangulInputContext
  {
    try #require(HangulInputContext(keyboardID: id, options: options))
  }

  @Test("the input-method loop of the documentation")
  func documentedLoop() {
    var shown: [String] = []
    // BEGIN the example of HangulInputContext and of the README, as it stands there.
    var context = HangulInputContext(keyboard: .twoSet)
    var text = ""
    func apply(_ context: HangulInputContext) {
      text.unicodeScalars.removeLast(context.deleteCount)  // 0 but on keypads
      text += context.commitString
    }
    for key in "dkssud rkt\u{8}s".unicodeScalars {
      if key == "\u{8}" {
        if context.backspace() {
          apply(context)  // undid a step of the syllable
        } else if !text.isEmpty {
          text.unicodeScalars.removeLast()  // nothing to undo: delete a character
        }
      } else {
        let taken = context.process(InputKey(key))
        apply(context)  // also when not taken: what was composing
        if !taken { text.unicodeScalars.append(key) }  // a key the keyboard does not take is text
      }
      // show text, then context.preeditString (underlined) at the cursor
      shown.append(text + "|" + context.preeditString)
    }
    context.flush()  // the field loses focus: commit
    apply(context)
    // END the example
    #expect(text == "안녕 간")
    #expect(
      shown == [
        "|ㅇ", "|아", "|안", "안|ㄴ", "안|녀", "안|녕", "안녕 |", "안녕 |ㄱ", "안녕 |가", "안녕 |갓",
        "안녕 |가", "안녕 |간",
      ])
  }

  @Test("the README's library example: labels with double stroke through the public context")
  func readmeLibraryExample() {
    var context = HangulInputContext(
      keyboard: .twoSet, options: ComposerOptions(doubleStroke: true))
    var text = ""
    for key in "ㄱㅏㅅㅅㄷㅏ".unicodeScalars {
      context.process(InputKey(key))
      text += context.commitString
    }
    context.flush()
    text += context.commitString
    #expect(text == "갔다")
  }

  @Test("the example is the same in the doc comment, the README and the test above")
  func exampleCopies() throws {
    func lines(_ text: Substring) -> [String] {
      text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }
    let readme = try String(
      contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(
      contentsOf: repositoryRoot.appendingPathComponent(
        "Sources/HangulInput/Context/HangulInputContext.swift"), encoding: .utf8)
    let test = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let first = "var context = HangulInputContext(keyboard: .twoSet)"
    let last = "apply(context)\n"
    func example(in text: String, after marker: String) throws -> [String] {
      let start = try #require(text.range(of: marker)).upperBound
      let begin = try #require(text.range(of: first, range: start..<text.endIndex)).lowerBound
      let end = try #require(text.range(of: last, range: begin..<text.endIndex)).upperBound
      return lines(text[begin..<end]).map {
        $0.hasPrefix("///") ? $0.dropFirst(3).trimmingCharacters(in: .whitespaces) : $0
      }
    }
    let inReadme = try example(in: readme, after: "An input method's loop")
    let inDoc = try example(in: source, after: "An input method's loop")
    let inTest = try example(in: test, after: "// BEGIN the example")
      .filter { !$0.hasPrefix("shown.append") }
    #expect(inReadme.count > 20)
    #expect(inReadme == inDoc)
    #expect(inReadme == inTest)
  }

  @Test("the examples of issue 27: commit and preedit after each key")
  func issueExamples() throws {
    var twoSet = try context("2")
    #expect(
      steps("dkssud", on: &twoSet).map { "\($0.commit)/\($0.preedit)" } == [
        "/ㅇ", "/아", "/안", "안/ㄴ", "/녀", "/녕",
      ])
    twoSet.flush()
    #expect(twoSet.commitString == "녕")
    #expect(twoSet.preeditString.isEmpty)
    #expect(
      steps("rkt\u{8}s", on: &twoSet).map { "\($0.commit)/\($0.preedit)" } == [
        "/ㄱ", "/가", "/갓", "/가", "/간",
      ])
    var threeSet = try context("3f")
    #expect(
      steps("jfshea", on: &threeSet).map { "\($0.commit)/\($0.preedit)" } == [
        "/ㅇ", "/아", "/안", "안/ㄴ", "/녀", "/녕",
      ])
  }

  @Test(
    "Backspace per keystroke takes back what the undone key committed",
    arguments: [
      ("2", "ㅇㅏㄴㅣ", "아", "니", "ㄴ"), ("2", "dksl", "아", "니", "ㄴ"), ("3f", "jfsd", "안", "ㅣ", ""),
    ])
  func keystrokeBackspace(
    id: String, keys: String, committed: String, preedit: String, afterStep: String
  ) throws {
    var context = try context(id, ComposerOptions(backspace: .keystroke))
    let typed = steps(keys + "\u{8}", on: &context)
    #expect(typed[3] == Step(commit: committed, preedit: preedit))
    #expect(typed[4] == Step(delete: 1, commit: "", preedit: "안"))
    // Per step, the same Backspace undoes a step of what is composing.
    var stepwise = try self.context(id)
    #expect(steps(keys + "\u{8}", on: &stepwise)[4] == Step(preedit: afterStep))
  }

  @Test("Backspace per keystroke: ㅇㅣㄹㄱㅏ⌫ → 읽, and it stops at a key not taken")
  func keystrokeBackspaceStops() throws {
    for id in ["2", "2-reorder"] {
      let options = ComposerOptions(backspace: .keystroke, autoReorder: id == "2-reorder")
      var context = try context("2", options)
      #expect(
        steps("ㅇㅣㄹㄱㅏ\u{8}", on: &context).last == Step(delete: 1, commit: "", preedit: "읽"))
      let undid = context.backspace()
      #expect(undid)
      #expect(context.preeditString == "일")
      context.reset()
      // "1" is not taken: it commits 가, and no Backspace reaches back over it.
      _ = steps("rk1rk", on: &context)
      #expect(steps("\u{8}\u{8}\u{8}", on: &context).map(\.preedit) == ["ㄱ", "", ""])
      let undidMore = context.backspace()
      #expect(!undidMore)
    }
  }

  @Test("the options: auto-reorder and extended vowels on every automaton")
  func options() throws {
    for id in ["2", "3f"] {
      var reorder = try context(id, ComposerOptions(autoReorder: true))
      #expect(reorder.automaton == .layout)
      _ = steps(id == "2" ? "kr" : "fk", on: &reorder)
      #expect(reorder.preeditString == "가")
    }
    for (id, options) in [
      ("2", ComposerOptions(extendedVowels: true)),
      ("2", ComposerOptions(extendedVowels: true, autoReorder: true)),
    ] {
      var context = try context(id, options)
      _ = steps("ㄱㅏㅣ", on: &context)
      #expect(context.preeditString == "개")
    }
    var threeSet = try context("3f", ComposerOptions(extendedVowels: true))
    _ = steps("kfd", on: &threeSet)  // ᄀ ᅡ ᅵ
    #expect(threeSet.preeditString == "개")
  }

  @Test("jamo labels: a compound is its keys; a keyboard without labels takes none")
  func labels() throws {
    for options in [ComposerOptions(), ComposerOptions(autoReorder: true)] {
      var context = try context("2", options)
      #expect(steps("ㅎㅘㄳ", on: &context).last?.preedit == "홗")
      let taken = context.process("é")
      #expect(!taken)
      #expect(context.commitString == "홗")
    }
    var threeSet = try context("3f")
    _ = threeSet.process("k")
    let taken = threeSet.process("ㄱ")
    #expect(!taken)
    #expect(threeSet.commitString == "ㄱ")
    #expect(InputAutomaton.takesJamoLabels(.twoSet))
    #expect(!InputAutomaton.takesJamoLabels(try #require(Keyboard(builtIn: "3f"))))
    #expect(InputAutomaton.takesJamoLabels(try #require(Keyboard(builtIn: "sky2"))))
  }

  @Test("flush commits, reset drops")
  func flushAndReset() throws {
    var context = try context("3y")
    _ = steps("kfz", on: &context)
    let preedit = context.preeditString
    #expect(context.isComposing)
    context.flush()
    #expect(context.commitString == preedit)
    #expect(!context.isComposing)
    _ = steps("kf", on: &context)
    context.reset()
    #expect(context.commitString.isEmpty)
    #expect(context.preeditString.isEmpty)
    let undid = context.backspace()
    #expect(!undid)
  }

  @Test("a keypad press that retypes a committed jamo is an edit, and Backspace undoes it")
  func keypadEdits() throws {
    var context = try context("cheonjiin")
    #expect(context.automaton == .keypad)
    // ㅇ ㅣ ㆍ ㄴ ㅅ ㅅ: the second ㅅ makes it ㅎ, which 안 takes as ㄶ.
    let typed = steps("0125", on: &context) + steps("88", on: &context)
    #expect(typed[3] == Step(preedit: "안"))
    #expect(typed[4] == Step(commit: "안", preedit: "ㅅ"))
    #expect(typed[5] == Step(delete: 1, commit: "", preedit: "않"))
    #expect(steps("\u{8}", on: &context) == [Step(commit: "안", preedit: "ㅅ")])
    // Labels name the same keys; ㅋ, which no single key types, is ㄱ twice.
    context.reset()
    #expect(steps("ㅋㅣㆍ", on: &context).map(\.preedit) == ["ㅋ", "키", "카"])
    // Strokes that make no vowel yet show as ㆍ and are committed so.
    context.reset()
    _ = steps("2", on: &context)
    #expect(context.preeditString == "ㆍ")
    context.flush()
    #expect(context.commitString == "ㆍ")
    // A key the keypad does not have is the caller's.
    _ = steps("01", on: &context)
    let taken = context.process("a")
    #expect(!taken)
    #expect(context.commitString == "이")
  }

  @Test("a keypad's multi-tap cycle ends after the timeout")
  func multitapTimeout() throws {
    var context = try #require(
      HangulInputContext(keyboardID: "cheonjiin", multitapTimeout: 500))
    context.process("4", at: 0)
    context.process("4", at: 400)
    #expect(context.preeditString == "ㅋ")
    context.process("4", at: 1000)
    #expect(context.commitString == "ㅋ")
    #expect(context.preeditString == "ㄱ")
    // ㄲ was committed by the press that began a new cycle; the next press
    // retypes that run, and ㄲ comes out again: the edit leaves it alone.
    context.process("4", at: 1300)
    #expect(context.deleteCount == 0)
    #expect(context.commitString.isEmpty)
    #expect(context.preeditString == "ㅋ")
    // Without times, presses cycle whatever the pause.
    var untimed = try #require(HangulInputContext(keyboardID: "cheonjiin", multitapTimeout: 500))
    _ = steps("44", on: &untimed)
    #expect(untimed.preeditString == "ㅋ")
  }

  @Test("the automaton is chosen from the keyboard type and the options")
  func automata() throws {
    let expected: [String: InputAutomaton] = [
      "2": .syllable, "2y": .layout, "32": .layout, "39": .layout, "3f": .layout, "3s": .layout,
      "3y": .layout, "ro": .layout, "ahn": .layout, "cheonjiin": .keypad, "naratgeul": .keypad,
      "sky2": .keypad,
    ]
    for id in Keyboard.builtInIDs {
      #expect(try context(id).automaton == expected[id])
    }
    #expect(try context("2", ComposerOptions(autoReorder: true)).automaton == .layout)
    #expect(InputAutomaton.layout.writesConjoiningJamo)
    #expect(InputAutomaton.keypad.rewritesCommittedText)
  }

  @Test(
    "a restored state goes on as the context it was taken from",
    arguments: ["2", "2y", "3f", "ro", "ahn", "cheonjiin", "naratgeul", "sky2"])
  func restoredStates(id: String) throws {
    var generator = SeededGenerator(seed: 27)
    let keyboard = try #require(Keyboard(builtIn: id))
    let keys = keyboard.layout.mappedKeys
    for _ in 0..<200 {
      let typed = (0..<12).map { _ in InputKey(ascii: keys[generator.below(keys.count)]) }
      var original = HangulInputContext(keyboard: keyboard)
      var states: [HangulInputContext.State] = []
      var outcomes: [Step] = []
      for key in typed {
        states.append(original.state)
        original.process(key)
        outcomes.append(
          Step(
            delete: original.deleteCount, commit: original.commitString,
            preedit: original.preeditString))
      }
      let from = generator.below(typed.count)
      var restored = HangulInputContext(keyboard: keyboard)
      restored.restore(states[from])
      for (index, key) in typed.enumerated().dropFirst(from) {
        restored.process(key)
        let step = Step(
          delete: restored.deleteCount, commit: restored.commitString,
          preedit: restored.preeditString)
        #expect(step == outcomes[index], "\(id) keys \(typed.map(\.value)) from \(from)")
        #expect(restored.state == states[safe: index + 1] ?? original.state)
      }
    }
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
