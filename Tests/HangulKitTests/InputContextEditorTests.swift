import Foundation
import HangulKit
import Testing

/// HangulInput's context against HangulKit's editors: a line editor that
/// only applies what the context says (delete, insert the commit, a key not
/// taken is text, a Backspace with nothing to undo deletes a character) ends
/// every line of random key logs as `ComposeFilter` and `KeypadComposeFilter`
/// end it, on all twelve keyboards and under the options libhangul lacks
/// (Backspace per keystroke, extended vowels), so the context honours them as
/// the editors do, and a keypad's edits (presses that retype committed text,
/// Backspace that restores it) are the ones the keypad filter makes.
@Suite("The input context agrees with the editors")
struct InputContextEditorTests {
  static let optionSets: [(name: String, options: ComposerOptions)] = [
    ("default", ComposerOptions()),
    ("keystroke", ComposerOptions(backspace: .keystroke)),
    ("keystroke, auto-reorder", ComposerOptions(backspace: .keystroke, autoReorder: true)),
    ("extended vowels", ComposerOptions(extendedVowels: true)),
    ("extended vowels, double stroke", ComposerOptions(doubleStroke: true, extendedVowels: true)),
  ]

  static var layoutCases: [(String, String)] {
    ["2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn"].flatMap { id in
      optionSets.map { (id, $0.name) }
    }
  }

  @Test("the keyboards of libhangul, on its fixtures' key lines", arguments: layoutCases)
  func layoutKeyboards(id: String, optionSet: String) throws {
    let options = try #require(Self.optionSets.first { $0.name == optionSet }).options
    let keyboard = try Keyboard(id: id)
    let keys = Array(try fixture("libhangul-keyboards/\(id).keys"))
    var filter = ComposeFilter(keys: .qwerty, keyboard: keyboard, options: options)
    var expected: [UInt8] = []
    keys.withUnsafeBufferPointer { filter.process($0, into: &expected) }
    filter.finish(into: &expected)
    let context = HangulInputContext(keyboard: keyboard, options: options)
    compare(edited(keys, on: context), expected, id: "\(id) \(optionSet)", keys: keys)
  }

  @Test("the phone keypads, on random presses", arguments: ["cheonjiin", "naratgeul", "sky2"])
  func keypads(id: String) throws {
    let keyboard = try Keyboard(id: id)
    var generator = SeededGenerator(seed: 27)
    // Keypad keys mostly, some Backspaces, spaces and letters no keypad has.
    let alphabet = Array("1234567890*#1234567890*#\u{8}\u{8}\u{8} a".utf8)
    var keys: [UInt8] = []
    for _ in 0..<3_000 {
      for _ in 0..<Int.random(in: 1...24, using: &generator) {
        keys.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
      }
      keys.append(0x0A)
    }
    var filter = KeypadComposeFilter(keys: .qwerty, keyboard: keyboard)
    var expected: [UInt8] = []
    keys.withUnsafeBufferPointer { filter.process($0, into: &expected) }
    filter.finish(into: &expected)
    let context = HangulInputContext(keyboard: keyboard)
    compare(edited(keys, on: context), expected, id: id, keys: keys)
  }

  /// The text a line editor driven by `context` makes of a key log (ASCII
  /// keys, BS and DEL, newlines), applying each call's edit.
  func edited(_ keys: [UInt8], on start: HangulInputContext) -> [UInt8] {
    var context = start
    var output: [UInt8] = []
    var line: [UInt8] = []
    func apply() {
      for _ in 0..<context.deleteCount { removeLastScalar(&line) }
      line += context.commitUTF8
    }
    for key in keys {
      switch key {
      case 0x0A:
        context.flush()
        apply()
        output += line + [0x0A]
        line.removeAll()
      case 0x08, 0x7F:
        if context.backspace() {
          apply()
        } else if context.automaton.writesConjoiningJamo {
          removeLastSyllableBlock(&line)
        } else {
          removeLastScalar(&line)
        }
      default:
        let taken = context.process(InputKey(ascii: key))
        apply()
        if !taken { line.append(key) }
      }
    }
    context.flush()
    apply()
    return output + line
  }

  func removeLastScalar(_ line: inout [UInt8]) {
    while let last = line.popLast(), last & 0xC0 == 0x80 {}
  }

  /// Removes a syllable written as conjoining jamo whole (finals, vowels,
  /// initials), or else the last scalar.
  func removeLastSyllableBlock(_ line: inout [UInt8]) {
    func lastScalar() -> UInt32? {
      String(decoding: line.suffix(3), as: UTF8.self).unicodeScalars.last?.value
    }
    let ranges: [ClosedRange<UInt32>] = [0x11A8...0x11FF, 0x1160...0x11A7, 0x1100...0x115F]
    var removed = false
    for range in ranges {
      while line.count >= 3, let last = lastScalar(),
        range.contains(last)
          || (range.lowerBound == 0x11A8 && (0xD7CB...0xD7FB).contains(last))
          || (range.lowerBound == 0x1160 && (0xD7B0...0xD7C6).contains(last))
          || (range.lowerBound == 0x1100 && (0xA960...0xA97C).contains(last))
      {
        line.removeLast(3)
        removed = true
      }
    }
    if !removed { removeLastScalar(&line) }
  }

  func compare(_ ours: [UInt8], _ expected: [UInt8], id: String, keys: [UInt8]) {
    let mine = ours.split(separator: 0x0A, omittingEmptySubsequences: false)
    let theirs = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
    let inputs = keys.split(separator: 0x0A, omittingEmptySubsequences: false)
    #expect(mine.count == theirs.count)
    #expect(inputs.count > 2_000)
    var mismatches = 0
    for (index, (line, reference)) in zip(mine, theirs).enumerated() where line != reference {
      mismatches += 1
      if mismatches <= 5 {
        Issue.record(
          """
          \(id) line \(index + 1): keys \
          \(String(decoding: inputs[index], as: UTF8.self).debugDescription): context \
          \(String(decoding: line, as: UTF8.self).debugDescription), editor \
          \(String(decoding: reference, as: UTF8.self).debugDescription)
          """)
      }
    }
    #expect(mismatches == 0)
  }
}
