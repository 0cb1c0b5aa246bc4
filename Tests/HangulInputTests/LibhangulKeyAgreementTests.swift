import HangulInput
import Testing

/// Agreement with libhangul key by key: for the nine keyboards libhangul has
/// and the four option sets of the line fixtures, 3,000 random key strings
/// each (with Backspaces, symbols and spaces), and after every key what
/// `hangul_ic_process` or `hangul_ic_backspace` returned, the commit string
/// and the preedit string, and at the end of each string what
/// `hangul_ic_flush` committed. tools/libhangul-oracle/make-key-fixtures.sh
/// regenerates the fixtures (format: tools/libhangul-oracle/libhangul-keys.c).
@Suite("Agreement with libhangul, key by key")
struct LibhangulKeyAgreementTests {
  static let keyboards = ["2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn"]

  static var cases: [(String, String)] {
    keyboards.flatMap { id in libhangulOptionSets.map { (id, $0.name) } }
  }

  @Test("every key's result, commit and preedit are libhangul's", arguments: cases)
  func agreement(id: String, optionSet: String) throws {
    let options = try #require(libhangulOptionSets.first { $0.name == optionSet }).options
    let keyboard = try #require(Keyboard(builtIn: id))
    let checked = try check(keyboard: keyboard, options: options, fixture: "\(id).\(optionSet)")
    #expect(checked.keys > 30_000)
    #expect(checked.strings == 3_000)
  }

  @Test(
    "the layout automaton agrees on the 2-set keyboard too",
    arguments: ["default", "double-stroke", "no-bare-clusters"])
  func layoutAutomatonOnTwoSet(optionSet: String) throws {
    var keyboard = Keyboard.twoSet
    keyboard.hasJamoLabels = false  // the layout automaton types it
    let options = try #require(libhangulOptionSets.first { $0.name == optionSet }).options
    #expect(InputAutomaton(keyboard: keyboard, options: options) == .layout)
    let checked = try check(keyboard: keyboard, options: options, fixture: "2.\(optionSet)")
    #expect(checked.keys > 30_000)
  }

  /// Types every key string of a fixture on one context and compares each
  /// step; returns how many keys and strings it checked.
  private func check(keyboard: Keyboard, options: ComposerOptions, fixture: String) throws
    -> (keys: Int, strings: Int)
  {
    let bytes = try decompressedFixture("libhangul-keys/\(fixture).txt.bz2")
    var context = HangulInputContext(keyboard: keyboard, options: options)
    var keys = 0
    var strings = 0
    var mismatches = 0
    var typed: [UInt8] = []
    for record in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
      let fields = record.split(separator: 0x09, omittingEmptySubsequences: false)
      let expectedCommit = Array(fields[1])
      var expectedPreedit: [UInt8] = []
      var expectedResult = true
      var result = true
      if fields[0].isEmpty {
        // The end of a key string: what flush commits.
        context.flush()
        strings += 1
      } else {
        #expect(fields.count == 3)
        let key = fields[0][fields[0].startIndex]
        expectedResult = fields[0].last == UInt8(ascii: "1")
        expectedPreedit = Array(fields[2])
        typed.append(key)
        result =
          key == 0x08 || key == 0x7F ? context.backspace() : context.process(InputKey(ascii: key))
        keys += 1
      }
      let preedit = context.preeditUTF8
      if result != expectedResult || context.commitUTF8 != expectedCommit
        || preedit != expectedPreedit || context.deleteCount != 0
      {
        mismatches += 1
        if mismatches <= 5 {
          Issue.record(
            """
            \(fixture) string \(strings + 1) after \
            \(String(decoding: typed, as: UTF8.self).debugDescription): \
            result \(result) commit [\(hex(context.commitUTF8))] preedit [\(hex(preedit))] \
            delete \(context.deleteCount); libhangul \(expectedResult) \
            [\(hex(expectedCommit))] [\(hex(expectedPreedit))]
            """)
        }
      }
      if fields[0].isEmpty { typed.removeAll() }
    }
    #expect(mismatches == 0)
    return (keys, strings)
  }
}
