import Foundation
import HangulInput
import Testing

/// Which automaton a keyboard needs is decided in one place,
/// ``InputAutomaton`` (with the context that holds its answer), in
/// `HangulInput`: every other source file asks it for a capability instead of
/// looking at a keyboard's type or labels.
@Suite("One type decides which automaton a keyboard needs")
struct AutomatonDecisionTests {
  /// What branching on the keyboard's type looks like (the issue's `grep -E`,
  /// and any other reading of a layout's type but to show its name or to set
  /// it, such as `[.jaso, .jasoYet].contains(keyboard.layout.type)`).
  static var branching: Regex<Substring> {
    #/type == \.|\.type == |type != \.|hasJamoLabels|LayoutTyping\.isUsed|usesLayout|case \.keypad|\.isKeypad|== \.keypad|layout\.type(?!\.rawValue| = )/#
  }

  /// The Swift files under `folder` (relative to the repository) and their lines.
  static func sourceLines(under folder: String) throws -> [(path: String, line: Int, text: String)]
  {
    let root = repositoryRoot.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var lines: [(String, Int, String)] = []
    for case let path as String in walker where path.hasSuffix(".swift") {
      let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        lines.append(("\(folder)/\(path)", index + 1, String(line)))
      }
    }
    return lines
  }

  @Test("no source file outside HangulInput branches on a keyboard's type")
  func noBranchingOutsideTheDecider() throws {
    let lines = try Self.sourceLines(under: "Sources")
    #expect(lines.count > 10_000)
    let found = lines.filter { !$0.path.hasPrefix("Sources/HangulInput/") }
      .filter { $0.text.contains(Self.branching) }
    #expect(found.isEmpty, "\(found.map { "\($0.path):\($0.line): \($0.text)" })")
  }

  @Test("the pattern finds the decision where it is made")
  func patternFindsTheDecider() throws {
    let lines = try Self.sourceLines(under: "Sources/HangulInput/Context")
    let found = lines.filter { $0.text.contains(Self.branching) }
    #expect(found.contains { $0.path.hasSuffix("InputAutomaton.swift") })
  }

  @Test(
    "the capabilities follow from the automaton",
    arguments: [
      "2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn", "cheonjiin", "naratgeul", "sky2",
    ])
  func capabilities(id: String) throws {
    let keyboard = try #require(Keyboard(builtIn: id))
    let automaton = InputAutomaton(keyboard: keyboard, options: ComposerOptions())
    let decomposition = InputAutomaton.keyDecomposition(of: keyboard)
    switch automaton {
    case .syllable:
      #expect(decomposition == .jamoKeys)
      #expect(InputAutomaton.takesJamoLabels(keyboard))
    case .layout:
      #expect(decomposition == .layoutKeys)
      #expect(!InputAutomaton.takesJamoLabels(keyboard))
    case .keypad:
      #expect(decomposition == .phonePresses)
      #expect(InputAutomaton.takesJamoLabels(keyboard))
    }
    #expect(automaton.rewritesCommittedText == (decomposition == .phonePresses))
    #expect(automaton.takesNumericKeypad == automaton.rewritesCommittedText)
    #expect(automaton.keysAreLayoutPositions == (automaton != .syllable))
    #expect(InputAutomaton.spellsLatinLetters(keyboard) == (id == "ro"))
  }
}
