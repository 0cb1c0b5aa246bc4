import Foundation
import Testing

@testable import HangulKit

/// Random Korean lines (``BrowserGeneratorTests/lines()``: the shared corpus
/// and random syllables with compound vowels and finals) typed on a phone
/// model (``BrowserStreamGenerator``, whose preedits are the input-method
/// core's), written as a snapshot log of the field's texts, replay to the
/// last text exactly.
@Suite("Snapshot log generator")
struct SnapshotGeneratorTests {
  /// The field's texts while `presses` are typed after `prefix`.
  static func texts(typing presses: [BrowserStreamGenerator.Press], after prefix: String = "")
    -> [String]
  {
    var generator = BrowserStreamGenerator(platform: .android)
    var texts: [String] = []
    for press in presses {
      generator.type(press)
      texts.append(prefix + generator.shownText)
    }
    return texts
  }

  static func lines() -> [String] {
    BrowserGeneratorTests.lines().filter { !$0.contains("\t") && !$0.isEmpty }
  }

  @Test("typed with slips and Backspaces: the keys counted are the presses, all rebuilt")
  func typedLines() {
    var random: SeededGenerator? = SeededGenerator(seed: 0x5A5A)
    var sections: [(String, [String])] = []
    var expected = ""
    var presses = 0
    for (index, line) in Self.lines().enumerated() {
      let typed = BrowserStreamGenerator.presses(of: line, slips: &random)
      let texts = Self.texts(typing: typed)
      sections.append(("\(index)", texts))
      expected += (texts.last ?? "") + "\n"
      presses += typed.count
    }
    let result = SnapshotLogTests.run(SnapshotLogTests.log(sections))
    #expect(result.errors.isEmpty)
    Self.expectSameLines(result.output, expected)
    #expect(result.statistics.total.keystrokes == presses)
    #expect(result.statistics.total.reconstructed == presses)
  }

  @Test("deletions that reach committed text and edits in the middle give the line back")
  func editedLines() {
    var random = SeededGenerator(seed: 0x2929)
    var none: SeededGenerator? = nil
    var sections: [(String, [String])] = []
    var expected = ""
    for (index, line) in Self.lines().enumerated() {
      var texts = Self.texts(typing: BrowserStreamGenerator.presses(of: line, slips: &none))
      let typed = Array((texts.last ?? "").unicodeScalars)
      // Back over 1 to 4 characters, one at a time, then type them again.
      let kept = max(0, typed.count - Int.random(in: 1...4, using: &random))
      for end in stride(from: typed.count - 1, through: kept, by: -1) {
        texts.append(String(String.UnicodeScalarView(typed[..<end])))
      }
      let prefix = String(String.UnicodeScalarView(typed[..<kept]))
      let tail = String(String.UnicodeScalarView(typed[kept...]))
      texts += Self.texts(
        typing: BrowserStreamGenerator.presses(of: tail, slips: &none), after: prefix)
      // Tap into the middle, type a jamo there, delete the character before it, then type
      // at the end again.
      let shown = Array((texts.last ?? "").unicodeScalars)
      let middle = Int.random(in: 0...shown.count, using: &random)
      let before = String(String.UnicodeScalarView(shown[..<middle]))
      let after = String(String.UnicodeScalarView(shown[middle...]))
      let shorter = String(String.UnicodeScalarView(shown[..<max(0, middle - 1)]))
      texts += [before + "ㅋ" + after, shorter + "ㅋ" + after, shorter + "ㅋ" + after + "."]
      sections.append(("\(index)", texts))
      expected += (texts.last ?? "") + "\n"
    }
    let result = SnapshotLogTests.run(SnapshotLogTests.log(sections))
    #expect(result.errors.isEmpty)
    Self.expectSameLines(result.output, expected)
  }

  /// Expects equal texts, naming the first three lines that differ.
  static func expectSameLines(_ output: String, _ expected: String) {
    let got = output.split(separator: "\n", omittingEmptySubsequences: false)
    let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(got.count == want.count)
    var shown = 0
    for (index, (line, wanted)) in zip(got, want).enumerated() where line != wanted {
      shown += 1
      if shown <= 3 {
        Issue.record(
          "section \(index): got \(line.debugDescription), want \(wanted.debugDescription)")
      }
    }
    #expect(shown == 0)
  }
}
