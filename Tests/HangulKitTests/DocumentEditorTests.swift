import HangulKit
import Testing

/// hangul-compose(1): the document with a cursor behind event logs, and input modes.
@Suite("Document editor")
struct DocumentEditorTests {
  func replay(_ keys: [String], startMode: InputMode = .korean, maximumLineLength: Int = 1 << 20)
    -> String
  {
    let lines = keys.map { name -> String in
      name.hasPrefix("{") ? name : #"{"key":\#(JSONWriter.quoted(name))}"#
    }
    var filter = EventLogFilter(maximumLineLength: maximumLineLength, startMode: startMode) { _ in }
    let output = (try? filter.filtered(Array(lines.joined(separator: "\n").utf8))) ?? []
    return String(decoding: output, as: UTF8.self)
  }

  func jamo(_ text: String) -> [String] { text.unicodeScalars.map { String($0) } }

  /// A log written compactly: each scalar is a `"key"`, `[Name]` a named
  /// key, and `{…}` a whole event line.
  func log(_ script: String) -> [String] {
    var lines: [String] = []
    var scalars = script.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      switch scalar {
      case "[", "{":
        var word = scalar == "{" ? "{" : ""
        while let next = scalars.next(), next != "]" {
          word.unicodeScalars.append(next)
          if next == "}" { break }
        }
        lines.append(word.hasPrefix("{") ? word : #"{"key":\#(JSONWriter.quoted(word))}"#)
      default:
        lines.append(#"{"key":\#(JSONWriter.quoted(String(scalar)))}"#)
      }
    }
    return lines
  }

  static let goldenLogs: [(String, String, String)] = [
    // Cursor editing in the middle of a composed word: 감합니다 → 감사합니다.
    ("middle of a word", "ㄱㅏㅁㅎㅏㅂㄴㅣㄷㅏ[ArrowLeft][ArrowLeft][ArrowLeft]ㅅㅏ", "감사합니다"),
    // The syllable at the cursor composes with the keys after it; the text after the cursor stays.
    ("composing at the cursor", "ㅎㅏㄴㄱㅜㄱ[ArrowLeft]ㅇㅓ[Backspace]ㅏㄴ", "한안국"),
    ("Backspace in the middle", "ㅎㅏㄴㄱㅜㄱ[ArrowLeft][Backspace][Backspace]ㅇㅓ", "어국"),
    // Delete at the end of a line joins it with the next; at the end of the document it does nothing.
    ("Delete at a line end", "ㄱㅏ[Enter]ㄴㅏ[ArrowUp][End][Delete]", "가나"),
    ("Delete at the document end", "ㄱㅏ[Delete][Delete]ㄴ", "가ㄴ"),
    ("Delete before a syllable", "ㄱㅏㄴㅏ[Home][Delete]", "나"),
    // Up/Down across lines of different lengths keep the column of the first press.
    (
      "Up keeps the first column", "ㄱㅏㄴㅏㄷㅏㄹㅏ[Enter]ㅁㅏ[Enter]ㅂㅏㅅㅏㅇㅏ[ArrowUp][ArrowUp]ㅋ",
      "가나다ㅋ라\n마\n바사아"
    ),
    ("Up to a shorter line", "ㄱㅏㄴㅏㄷㅏㄹㅏ[Enter]ㅁㅏ[Enter]ㅂㅏㅅㅏㅇㅏ[ArrowUp]ㅋ", "가나다라\n마ㅋ\n바사아"),
    (
      "Down keeps the first column",
      "ㄱㅏㄴㅏㄷㅏ[Enter][Enter]ㅂㅏㅅㅏㅇㅏ[ArrowUp][ArrowUp][ArrowDown][ArrowDown]ㅋ", "가나다\n\n바사아ㅋ"
    ),
    (
      "Down to a shorter line", "ㄱㅏㄴㅏㄷㅏ[Enter]ㅁㅏ[Enter]ㅂㅏㅅㅏㅇㅏ[ArrowUp][ArrowUp][End][ArrowDown]ㅋ",
      "가나다\n마ㅋ\n바사아"
    ),
    (
      "a horizontal move resets the column",
      "ㄱㅏㄴㅏㄷㅏ[Enter]ㅁㅏ[Enter]ㅂㅏㅅㅏㅇㅏ[ArrowUp][ArrowLeft][ArrowRight][ArrowUp]ㅋ", "가ㅋ나다\n마\n바사아"
    ),
    ("Up on the first line stays", "ㄱㅏㄴㅏ[ArrowUp]ㅋ", "가나ㅋ"),
    ("Down on the last line stays", "ㄱㅏㄴㅏ[Home][ArrowDown]ㅋ", "ㅋ가나"),
    (
      "Left and Right cross line ends", "ㄱㅏ[Enter]ㄴㅏ[Home][ArrowLeft]ㅋ[ArrowRight][ArrowRight]ㅌ",
      "가ㅋ\n나ㅌ"
    ),
    ("Home and End", "ㄱㅏ[Enter]ㄴㅏㄷㅏ[Home]ㅋ[End]ㅌ", "가\nㅋ나다ㅌ"),
    ("a movement commits where the cursor cannot move", "ㄷㅏㄹ[ArrowRight]ㅏ", "달ㅏ"),
    // Mode toggling in the middle of a syllable commits it.
    (
      "HangulMode mid-syllable", #"ㄱㅏ[HangulMode]{"code":"KeyK"}[HangulMode]{"code":"KeyK"}"#, "가kㅏ"
    ),
    ("HangulMode twice mid-syllable", "ㄷㅏㄹ[HangulMode][HangulMode]ㅏ", "달ㅏ"),
    (
      "English mode: letters and jamo are text",
      #"[HangulMode][Shift]iㄱㅏ{"code":"KeyR","shiftKey":true}"#, "IㄱㅏR"
    ),
    (
      "each document starts in the start mode",
      #"{"key":"HangulMode","doc":1}{"code":"KeyR","doc":1}{"code":"KeyR","doc":2}"#, "r\nㄱ"
    ),
  ]

  @Test("golden logs", arguments: goldenLogs)
  func golden(name: String, script: String, expected: String) {
    #expect(replay(log(script)) == expected + "\n", "\(name)")
  }

  @Test("the example of DocumentEditor's documentation")
  func documentedExample() {
    var editor = DocumentEditor()
    for key in "ㄱㅏㅇㅏ".unicodeScalars.compactMap({ Jamo($0) }) { editor.press(key) }
    editor.move(.left)
    #expect(editor.column == 1)
    editor.typePosition(UInt8(ascii: "s"))
    editor.typePosition(UInt8(ascii: "k"))
    editor.finish()
    #expect(editor.output == Array("가나아".utf8))
  }

  @Test("--start-mode english types letters as themselves until HangulMode")
  func startMode() {
    let log = ["g", "o", "o", "d", " ", "HangulMode", "ㅈ", "ㅗ", "ㅎ", "ㅇ", "ㅡ", "ㄴ"]
    #expect(replay(log, startMode: .english) == "good 좋은\n")
    #expect(replay(["Shift", "g", "o"], startMode: .english) == "Go\n")
  }

  @Test("a line past --max-line is flushed before the cursor; Backspace cannot reach it")
  func maximumLine() {
    let keys =
      jamo(String(repeating: "ㄱㅏ", count: 6)) + [
        "Backspace", "Backspace", "ArrowLeft", "ArrowUp", "Home", "ㅋ",
      ]
    var filter = EventLogFilter(maximumLineLength: 8) { _ in }
    let lines = keys.map { #"{"key":\#(JSONWriter.quoted($0))}"# }
    let output = (try? filter.filtered(Array(lines.joined(separator: "\n").utf8))) ?? []
    // 가 ×6 is 18 bytes: the first three are flushed at 9 bytes, the next three at 9 again.
    // 가 ×6: each third committed 가 passes 8 bytes, and everything before the
    // cursor but the open syllable 가 is written; the Backspaces undo the
    // composed 가, ArrowLeft passes the kept one, and the rest is out of reach.
    #expect(String(decoding: output, as: UTF8.self) == "가가가가ㅋ가\n")
    #expect(filter.statistics.total.backspacesBlockedByFlush == 0)
    var blocked = EventLogFilter(maximumLineLength: 8) { _ in }
    let more = (jamo(String(repeating: "ㄱㅏ", count: 3)) + ["Next", "Backspace", "Backspace"]).map {
      #"{"key":\#(JSONWriter.quoted($0))}"#
    }
    _ = try? blocked.filtered(Array(more.joined(separator: "\n").utf8))
    #expect(blocked.statistics.total.backspacesBlockedByFlush == 1)
  }

  /// Random editing, then a cursor round trip somewhere, compared with ending
  /// the syllable at the same point: the documents must be the same.
  @Test(
    "moving away and back with no edit changes nothing but ending the syllable",
    arguments: ComposerOptions.Backspace.allCases)
  func roundTrip(mode: ComposerOptions.Backspace) {
    var generator = SeededGenerator(seed: 15)
    let jamoKeys = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅎㅏㅓㅗㅜㅡㅣㅐㅘ".unicodeScalars.compactMap { Jamo($0) }
    let movements = DocumentEditor.Movement.allCases
    for _ in 0..<400 {
      var edits: [Edit] = []
      for _ in 0..<Int.random(in: 0..<40, using: &generator) {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: edits.append(.backspace)
        case 1: edits.append(.delete)
        case 2: edits.append(.insert("\n"))
        case 3: edits.append(.insert(" "))
        case 4: edits.append(.move(movements.randomElement(using: &generator) ?? .left))
        default: edits.append(.press(jamoKeys.randomElement(using: &generator) ?? jamoKeys[0]))
        }
      }
      let split = Int.random(in: 0...edits.count, using: &generator)
      var prefix = DocumentEditor(options: ComposerOptions(backspace: mode))
      for edit in edits[..<split] { edit.apply(to: &prefix) }
      var probe = prefix
      probe.endSyllable()
      let text = documentText(probe)
      let line = text.line(at: probe.cursorOffset)
      var kind = Int.random(in: 0..<6, using: &generator)
      // After Up or Down, the next ones aim at the column of the first: then
      // Up and Down are not a round trip.
      if case .move(let last) = edits[..<split].last, last == .up || last == .down,
        kind == 2 || kind == 3
      {
        kind = 0
      }
      let distance = Int.random(in: 1..<6, using: &generator)
      let trip = roundTrip(
        kind: kind, distance: distance, offset: probe.cursorOffset, count: text.count,
        column: probe.column, line: line)
      // A move that cannot come back (Up on the first line) is no round trip.
      guard !trip.isEmpty else { continue }
      var moved = prefix
      for movement in trip { moved.move(movement) }
      var ended = prefix
      ended.endSyllable()
      #expect(moved.cursorOffset == ended.cursorOffset, "\(trip) after \(edits[..<split])")
      for edit in edits[split...] {
        edit.apply(to: &moved)
        edit.apply(to: &ended)
      }
      #expect(documentText(moved) == documentText(ended), "\(trip)")
    }
  }

  enum Edit {
    case press(Jamo)
    case insert(Unicode.Scalar)
    case backspace
    case delete
    case move(DocumentEditor.Movement)

    func apply(to editor: inout DocumentEditor) {
      switch self {
      case .press(let jamo): editor.press(jamo)
      case .insert(let scalar): editor.insert(scalar)
      case .backspace: editor.backspace()
      case .delete: editor.deleteForward()
      case .move(let movement): editor.move(movement)
      }
    }
  }

  @Test("a small --max-line changes nothing when no key reaches back, and survives any edits")
  func smallMaximumLine() {
    var generator = SeededGenerator(seed: 16)
    let jamoKeys = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅎㅏㅓㅗㅜㅡㅣㅐㅘ".unicodeScalars.compactMap { Jamo($0) }
    let movements = DocumentEditor.Movement.allCases
    for round in 0..<300 {
      var edits: [Edit] = []
      let reachesBack = round % 2 == 1
      for _ in 0..<Int.random(in: 0..<80, using: &generator) {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0 where reachesBack: edits.append(.backspace)
        case 1 where reachesBack: edits.append(.delete)
        case 2: edits.append(.insert("\n"))
        case 3: edits.append(.insert(Bool.random(using: &generator) ? " " : "\u{1161}"))
        case 4 where reachesBack:
          edits.append(.move(movements.randomElement(using: &generator) ?? .left))
        default: edits.append(.press(jamoKeys.randomElement(using: &generator) ?? jamoKeys[0]))
        }
      }
      var small = DocumentEditor(maximumLineLength: 8)
      var large = DocumentEditor()
      for edit in edits {
        edit.apply(to: &small)
        edit.apply(to: &large)
      }
      small.finish()
      large.finish()
      if !reachesBack { #expect(small.output == large.output, "\(edits)") }
      #expect(String(validating: small.output, as: UTF8.self) != nil)
    }
  }

  /// A round trip that returns to the same place: Left/Right k, Up/Down,
  /// Home then Right, End then Left.
  func roundTrip(
    kind: Int, distance: Int, offset: Int, count: Int, column: Int,
    line: (index: Int, count: Int, lengths: [Int])
  ) -> [DocumentEditor.Movement] {
    switch kind {
    case 0:
      let k = min(distance, offset)
      return Array(repeating: .left, count: k) + Array(repeating: .right, count: k)
    case 1:
      let k = min(distance, count - offset)
      return Array(repeating: .right, count: k) + Array(repeating: .left, count: k)
    case 2: return line.index > 0 ? [.up, .down] : []
    case 3: return line.index < line.count - 1 ? [.down, .up] : []
    case 4: return [.lineStart] + Array(repeating: .right, count: column)
    default:
      return [.lineEnd] + Array(repeating: .left, count: line.lengths[line.index] - column)
    }
  }

  func documentText(_ editor: DocumentEditor) -> [Unicode.Scalar] {
    var copy = editor
    copy.finish()
    return Array(String(decoding: copy.output, as: UTF8.self).unicodeScalars)
  }
}

extension Array where Element == Unicode.Scalar {
  /// The line that holds `offset`, the number of lines and each line's length.
  func line(at offset: Int) -> (index: Int, count: Int, lengths: [Int]) {
    var lengths = [0]
    var index = 0
    for (position, scalar) in enumerated() {
      if position == offset { index = lengths.count - 1 }
      if scalar == "\n" { lengths.append(0) } else { lengths[lengths.count - 1] += 1 }
    }
    if offset >= count { index = lengths.count - 1 }
    return (index, lengths.count, lengths)
  }
}
