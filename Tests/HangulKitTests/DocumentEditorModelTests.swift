import HangulKit
import Testing

/// The document editor's lines (UTF-8 gap buffers whose positions are
/// columns of scalars) against a plain model: an array of lines of scalars,
/// on random edits and movements with scalars of one to four bytes, and
/// lines that grow past the editor's maximum line length (flushes); the
/// lines away from the cursor in blocks of 8 bytes (a line a block and
/// longer), 100 bytes (a few lines a block) and 64 KiB, and runs of up to
/// 30 Up or Down presses that take the cursor far away and back.
@Suite("Document editor against a model")
struct DocumentEditorModelTests {
  /// Scalars of 1, 2, 3 and 4 UTF-8 bytes; 가 is an open syllable (a flush
  /// keeps it back), none is a conjoining jamo (nothing composes); the
  /// syllables include the first and last and one whose packed second
  /// byte skips the newline (``PackedText``), and U+D7A4 follows the last.
  static let scalars: [Unicode.Scalar] = [
    "a", " ", "\u{E9}", "\u{4E2D}", "\u{1F600}", "가", "각", "\u{AC0A}", "\u{D7A3}", "\u{D7A4}",
  ]

  /// The document as lines of scalars, with what the editor wrote early.
  struct Model {
    var lines: [[Unicode.Scalar]] = [[]]
    var line = 0
    var column = 0
    var goal: Int?
    var flushedColumn = 0
    var output: [UInt8] = []
    let maximumLineLength: Int

    var visibleColumn: Int { column + (line == 0 ? flushedColumn : 0) }
    var cursorOffset: Int { lines[..<line].reduce(0) { $0 + $1.count + 1 } + column }

    mutating func insert(_ scalar: Unicode.Scalar) {
      goal = nil
      if scalar == "\n" {
        let rest = Array(lines[line][column...])
        lines[line].removeSubrange(column...)
        lines.insert(rest, at: line + 1)
        line += 1
        column = 0
        return
      }
      lines[line].insert(scalar, at: column)
      column += 1
      let head = lines[line][..<column]
      guard head.reduce(0, { $0 + String($1).utf8.count }) > maximumLineLength else { return }
      let last = head[head.index(before: head.endIndex)]
      let keep = HangulSyllable(last)?.finalIndex == 0 ? 1 : 0
      for above in lines[..<line] { output += Self.utf8(above) + [0x0A] }
      let written = column - keep
      output += Self.utf8(head.prefix(written))
      flushedColumn = (line == 0 ? flushedColumn : 0) + written
      lines.removeSubrange(..<line)
      line = 0
      lines[0].removeSubrange(..<written)
      column = keep
    }

    mutating func backspace() {
      goal = nil
      if column > 0 {
        lines[line].remove(at: column - 1)
        column -= 1
      } else if line > 0 {
        column = lines[line - 1].count
        lines[line - 1] += lines.remove(at: line)
        line -= 1
      }
    }

    mutating func deleteForward() {
      goal = nil
      if column < lines[line].count {
        lines[line].remove(at: column)
      } else if line + 1 < lines.count {
        lines[line] += lines.remove(at: line + 1)
      }
    }

    mutating func move(_ movement: DocumentEditor.Movement) {
      switch movement {
      case .left:
        goal = nil
        if column > 0 {
          column -= 1
        } else if line > 0 {
          line -= 1
          column = lines[line].count
        }
      case .right:
        goal = nil
        if column < lines[line].count {
          column += 1
        } else if line + 1 < lines.count {
          line += 1
          column = 0
        }
      case .lineStart:
        goal = nil
        column = 0
      case .lineEnd:
        goal = nil
        column = lines[line].count
      case .up:
        let target = goal ?? visibleColumn
        goal = target
        guard line > 0 else { return }
        line -= 1
        let offset = line == 0 ? flushedColumn : 0
        column = max(0, min(target, offset + lines[line].count) - offset)
      case .down:
        let target = goal ?? visibleColumn
        goal = target
        guard line + 1 < lines.count else { return }
        line += 1
        column = min(target, lines[line].count)
      }
    }

    var text: [UInt8] {
      output + Array(lines.map(Self.utf8).joined(separator: [0x0A]))
    }

    static func utf8(_ scalars: some Sequence<Unicode.Scalar>) -> [UInt8] {
      Array(String(String.UnicodeScalarView(scalars)).utf8)
    }
  }

  @Test(arguments: 0..<90)
  func agreesWithModel(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed))
    let maximumLineLength = [12, 40, 1 << 20][seed % 3]
    let blockSize = [8, 100, 1 << 16][seed / 3 % 3]
    var editor = DocumentEditor(maximumLineLength: maximumLineLength, blockSize: blockSize)
    var model = Model(maximumLineLength: maximumLineLength)
    var steps: [String] = []
    for step in 0..<500 {
      switch Int.random(in: 0..<20, using: &generator) {
      case 0..<9:
        let scalar = Self.scalars.randomElement(using: &generator) ?? "a"
        editor.insert(scalar)
        model.insert(scalar)
        steps.append("insert \(scalar)")
      case 9:
        editor.insert("\n")
        model.insert("\n")
        steps.append("newline")
      case 10, 11:
        editor.backspace()
        model.backspace()
        steps.append("backspace")
      case 12:
        editor.deleteForward()
        model.deleteForward()
        steps.append("delete")
      case 13:
        let movement: DocumentEditor.Movement = Bool.random(using: &generator) ? .up : .down
        let presses = Int.random(in: 2...30, using: &generator)
        for _ in 0..<presses {
          editor.move(movement)
          model.move(movement)
        }
        steps.append("\(movement) × \(presses)")
      default:
        let movement = DocumentEditor.Movement.allCases.randomElement(using: &generator) ?? .left
        editor.move(movement)
        model.move(movement)
        steps.append("\(movement)")
      }
      #expect(editor.column == model.visibleColumn, "\(steps)")
      #expect(editor.cursorOffset == model.cursorOffset, "\(steps)")
      if step % 50 == 49 {
        var copy = editor
        copy.finish()
        #expect(copy.output == model.text, "\(steps)")
      }
      if editor.column != model.visibleColumn { return }
    }
    // The whole text at once, and in parts of a few bytes (at line ends).
    var parted = editor
    var parts: [UInt8] = []
    parted.finish(partSize: 5) { part in
      parts += part
      part.removeAll()
    }
    editor.finish()
    #expect(editor.output == model.text, "\(steps)")
    #expect(parts == model.text, "\(steps)")
    #expect(editor.isEmpty)
  }
}
