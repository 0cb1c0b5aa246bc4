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

/// `--verify` on output with old Hangul: a syllable written as conjoining
/// jamo because it holds an old jamo or a filler is checked to be well formed.
@Suite("Verifying old Hangul output")
struct OldHangulVerificationTests {
  @Test(
    "old syllables pass, modern conjoining jamo do not",
    arguments: [
      ("\u{1100}\u{1161}\u{11F0}", true), ("\u{1100}\u{119E}", true),
      ("\u{115F}\u{1160}\u{11EE}", true), ("가\u{113C}\u{1160}나", true),
      ("\u{1100}\u{1161}", false), ("\u{1100}\u{1161}\u{11A8}", false),
      ("\u{1100}\u{119E}\u{1100}\u{1161}", false),
    ])
  func verify(text: String, passes: Bool) throws {
    let verifier = try OutputVerifier(expecting: .composed)
    #expect((verifier.check(Array(text.unicodeScalars)) == nil) == passes)
  }

  @Test(
    "every fixture line of the keyboards with old Hangul passes --verify",
    arguments: ["2y", "3y", "ahn", "3f"])
  func fixturesVerify(id: String) throws {
    let keys = Array(try fixture("libhangul-keyboards/\(id).keys"))
    var filter = VerifyingFilter(
      ComposeFilter(keys: .qwerty, keyboard: try Keyboard(id: id)),
      verifier: try OutputVerifier(expecting: .composed))
    _ = try filter.filtered(keys)
    #expect(filter.disagreementCount == 0)
    #expect(filter.firstDisagreement == nil)
  }
}
