import Foundation
import HangulKit
import Testing

/// Agreement with libhangul on every built-in keyboard: the fixtures hold
/// random key lines for each keyboard (with Backspaces, symbols and spaces)
/// and what libhangul's hangul_ic_process in a line editor made of them
/// under each option; tools/libhangul-oracle/make-layout-fixtures.sh
/// regenerates them.
@Suite("Agreement with libhangul on every keyboard")
struct KeyboardAgreementTests {
  static let keyboards = ["2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn"]
  static let optionSets: [(name: String, options: ComposerOptions)] = [
    ("default", ComposerOptions()),
    ("auto-reorder", ComposerOptions(autoReorder: true)),
    ("double-stroke", ComposerOptions(doubleStroke: true)),
    ("no-bare-clusters", ComposerOptions(bareClusters: false)),
  ]

  static var cases: [(String, String)] {
    keyboards.flatMap { id in optionSets.map { (id, $0.name) } }
  }

  @Test("every fixture line composes as libhangul composed it", arguments: cases)
  func agreement(id: String, optionSet: String) throws {
    let options = try #require(Self.optionSets.first { $0.name == optionSet }).options
    try check(keyboard: try Keyboard(id: id), options: options, id: id, optionSet: optionSet)
  }

  @Test(
    "the general automaton also agrees on the 2-set keyboard",
    arguments: ["default", "double-stroke", "no-bare-clusters"])
  func generalAutomatonOnTwoSet(optionSet: String) throws {
    var keyboard = try Keyboard(id: "2")
    #expect(keyboard.hasJamoLabels)
    keyboard.hasJamoLabels = false  // forces LayoutComposer
    let options = try #require(Self.optionSets.first { $0.name == optionSet }).options
    try check(keyboard: keyboard, options: options, id: "2", optionSet: optionSet)
  }

  private func check(keyboard: Keyboard, options: ComposerOptions, id: String, optionSet: String)
    throws
  {
    let keys = Array(try fixture("libhangul-keyboards/\(id).keys"))
    let expected = Array(try fixture("libhangul-keyboards/\(id).\(optionSet).txt"))
    var filter = ComposeFilter(keys: .qwerty, keyboard: keyboard, options: options)
    var output: [UInt8] = []
    keys.withUnsafeBufferPointer { filter.process($0, into: &output) }
    filter.finish(into: &output)
    let inputs = keys.split(separator: 0x0A, omittingEmptySubsequences: false)
    let ours = output.split(separator: 0x0A, omittingEmptySubsequences: false)
    let theirs = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
    #expect(inputs.count > 2_000)
    #expect(ours.count == theirs.count)
    var mismatches = 0
    for (index, (mine, reference)) in zip(ours, theirs).enumerated() where mine != reference {
      mismatches += 1
      if mismatches <= 5 {
        Issue.record(
          """
          \(id) \(optionSet) line \(index + 1): keys \
          \(String(decoding: inputs[index], as: UTF8.self).debugDescription) gave \
          \(String(decoding: mine, as: UTF8.self).unicodeScalars.map { String($0.value, radix: 16) }), \
          libhangul \(String(decoding: reference, as: UTF8.self).unicodeScalars.map { String($0.value, radix: 16) })
          """)
      }
    }
    #expect(mismatches == 0)
  }
}
