import HangulInput
import Testing

/// libhangul's own test cases (test/test.c) for its keyboards, ported: after
/// the keys, the syllable being composed ("preedit") and what the last key
/// committed must be what libhangul's test expects. A BS in the keys is
/// Backspace. Every case runs on ``HangulInputContext`` (libhangul's
/// contract) and on the automaton itself; cases with keyboard "2" on both
/// 2-set automata.
@Suite("libhangul's test cases")
struct LibhangulSuiteTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var keyboard: String
    var keys: String
    var preedit: String?
    var commit: String?
    var options = ComposerOptions()

    var testDescription: String {
      "\(keyboard) \(keys.debugDescription) → preedit \(preedit ?? "-"), commit \(commit ?? "-")"
    }
  }

  static let doubleStroke = ComposerOptions(doubleStroke: true)
  static let reorder = ComposerOptions(autoReorder: true)

  /// test_hangul_ic_process_2y: 26 assertions.
  static let twoSetOld: [Case] = [
    Case(keyboard: "2y", keys: "g", preedit: "ㅎ"),
    Case(keyboard: "2y", keys: "h", preedit: "ㅗ"),
    Case(keyboard: "2y", keys: "x", preedit: "ㅌ"),
    Case(keyboard: "2y", keys: "qd", preedit: "\u{3178}"),
    Case(keyboard: "2y", keys: "Z", preedit: "\u{113C}\u{1160}"),
    Case(keyboard: "2y", keys: "V", preedit: "\u{1150}\u{1160}"),
    Case(keyboard: "2y", keys: "sg", preedit: "\u{115D}\u{1160}"),
    Case(keyboard: "2y", keys: "rkd", preedit: "강"),
    Case(keyboard: "2y", keys: "fo", preedit: "래"),
    Case(keyboard: "2y", keys: "gKs", preedit: "\u{1112}\u{119E}\u{11AB}"),
    Case(keyboard: "2y", keys: "QdhaT", preedit: "\u{112C}\u{1169}\u{11DE}"),
    Case(keyboard: "2y", keys: "Qdhatty", commit: "\u{112C}\u{1169}\u{11DD}"),
    Case(keyboard: "2y", keys: "Qdhatty", preedit: "쇼"),
    Case(keyboard: "2y", keys: "QdhaTy", commit: "\u{112C}\u{1169}\u{11B7}"),
    Case(keyboard: "2y", keys: "QdhaTy", preedit: "쑈"),
    Case(keyboard: "2y", keys: "rkDD", preedit: "\u{1100}\u{1161}\u{11EE}"),
    Case(keyboard: "2y", keys: "rkDDk", commit: "\u{1100}\u{1161}\u{11F0}"),
    Case(keyboard: "2y", keys: "rkDDk", preedit: "\u{114C}\u{1161}"),
    Case(
      keyboard: "2y", keys: "qqdhatt", preedit: "\u{112C}\u{1169}\u{11DE}", options: doubleStroke),
    Case(
      keyboard: "2y", keys: "qqdhatty", commit: "\u{112C}\u{1169}\u{11DD}", options: doubleStroke),
    Case(keyboard: "2y", keys: "qqdhatty", preedit: "쇼", options: doubleStroke),
    Case(
      keyboard: "2y", keys: "qqdhaTy", commit: "\u{112C}\u{1169}\u{11B7}", options: doubleStroke),
    Case(keyboard: "2y", keys: "qqdhaTy", preedit: "쑈", options: doubleStroke),
    Case(keyboard: "2y", keys: "ddkdd", commit: "\u{1147}\u{1161}\u{11BC}", options: doubleStroke),
    Case(keyboard: "2y", keys: "ddkdd", preedit: "ㅇ", options: doubleStroke),
    Case(keyboard: "2y", keys: "kkkk", preedit: "\u{115F}\u{11A2}", options: doubleStroke),
  ]

  /// test_hangul_ic_process_3f (7), _3s (1), and the 3f half of
  /// test_hangul_ic_auto_reorder (5): 13 assertions.
  static let threeSet: [Case] = [
    Case(keyboard: "3f", keys: "m", preedit: "ㅎ"),
    Case(keyboard: "3f", keys: "v", preedit: "ㅗ"),
    Case(keyboard: "3f", keys: "W", preedit: "ㅌ"),
    Case(keyboard: "3f", keys: "kfa", preedit: "강"),
    Case(keyboard: "3f", keys: "yr", preedit: "래"),
    Case(keyboard: "3f", keys: "hz", preedit: "\u{1102}\u{1160}\u{11B7}"),
    Case(keyboard: "3f", keys: "tq", preedit: "\u{115F}\u{1165}\u{11BA}"),
    Case(keyboard: "3s", keys: "mrqq", preedit: "했"),
    Case(keyboard: "3f", keys: "kf", preedit: "가", options: reorder),
    Case(keyboard: "3f", keys: "fk", preedit: "가", options: reorder),
    Case(keyboard: "3f", keys: "kf", preedit: "가"),
    Case(keyboard: "3f", keys: "fk", commit: "ㅏ"),
    Case(keyboard: "3f", keys: "fk", preedit: "ㄱ"),
  ]

  /// test_hangul_ic_process_romaja: 20 assertions (each check is a preedit
  /// and a commit; a test that goes on without a reset goes on here too).
  static let romaja: [Case] = [
    Case(keyboard: "ro", keys: "han", preedit: "한", commit: ""),
    Case(keyboard: "ro", keys: "a", preedit: "아", commit: ""),
    Case(keyboard: "ro", keys: "a\u{8}", preedit: "", commit: ""),
    Case(keyboard: "ro", keys: "a\u{8}tt", preedit: "ㅌ", commit: "트"),
    Case(keyboard: "ro", keys: "gang", preedit: "강", commit: ""),
    Case(keyboard: "ro", keys: "gangi", preedit: "이", commit: "강"),
    Case(keyboard: "ro", keys: "ganginanG", preedit: "ㄱ", commit: "난"),
    Case(keyboard: "ro", keys: "xx", preedit: "ㅈ", commit: "즈"),
    Case(keyboard: "ro", keys: "xy", preedit: "지", commit: ""),
    Case(keyboard: "ro", keys: "sexy", preedit: "시", commit: "섹"),
  ]

  /// test_hangul_ic_process_2, the 2-set half of test_hangul_ic_auto_reorder,
  /// test_hangul_ic_combi_on_double_stroke and test_hangul_ic_non_choseong_combi.
  static let twoSet: [Case] = [
    Case(keyboard: "2", keys: "rkW", commit: "가"),
    Case(keyboard: "2", keys: "rkW", preedit: "ㅉ"),
    Case(keyboard: "2", keys: "qjTm", commit: "버"),
    Case(keyboard: "2", keys: "qjTm", preedit: "쓰"),
    Case(keyboard: "2", keys: "akfr", preedit: "맑"),
    Case(keyboard: "2", keys: "akfrh", commit: "말"),
    Case(keyboard: "2", keys: "akfrh", preedit: "고"),
    Case(keyboard: "2", keys: "rt", preedit: "ㄳ"),
    Case(keyboard: "2", keys: "rtk", commit: "ㄱ"),
    Case(keyboard: "2", keys: "rtk", preedit: "사"),
    Case(keyboard: "2", keys: "rkT\u{8}", preedit: "가"),
    Case(keyboard: "2", keys: "rt\u{8}k", preedit: "가"),
    Case(keyboard: "2", keys: "akfr\u{8}", preedit: "말"),
    Case(keyboard: "2", keys: "dnp\u{8}", preedit: "우"),
    Case(keyboard: "2", keys: "qqnpfr\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}", preedit: ""),
    Case(keyboard: "2", keys: "Qnpfr\u{8}\u{8}\u{8}\u{8}\u{8}", preedit: ""),
    Case(keyboard: "2", keys: "rk", preedit: "가", options: reorder),
    Case(keyboard: "2", keys: "kr", preedit: "가", options: reorder),
    Case(keyboard: "2", keys: "rk", preedit: "가"),
    Case(keyboard: "2", keys: "kr", commit: "ㅏ"),
    Case(keyboard: "2", keys: "kr", preedit: "ㄱ"),
    Case(keyboard: "2", keys: "rrkrr", preedit: "깎", options: doubleStroke),
    Case(keyboard: "2", keys: "rrkrrk", preedit: "가", options: doubleStroke),
    Case(keyboard: "2", keys: "qjtt", preedit: "벘", options: doubleStroke),
    Case(keyboard: "2", keys: "qjttm", commit: "벗", options: doubleStroke),
    Case(keyboard: "2", keys: "qjttm", preedit: "스", options: doubleStroke),
    Case(keyboard: "2", keys: "rktt", preedit: "갔", options: doubleStroke),
    Case(keyboard: "2", keys: "rktt\u{8}", preedit: "갓", options: doubleStroke),
    Case(keyboard: "2", keys: "rr", commit: "ㄱ"),
    Case(keyboard: "2", keys: "rr", preedit: "ㄱ"),
    Case(keyboard: "2", keys: "rrk", preedit: "가"),
    Case(keyboard: "2", keys: "rrkr", preedit: "각"),
    Case(keyboard: "2", keys: "rrkrr", commit: "각"),
    Case(keyboard: "2", keys: "rrkrr", preedit: "ㄱ"),
    Case(keyboard: "2", keys: "rrkrrk", preedit: "가"),
    Case(keyboard: "2", keys: "qjtt", commit: "벗"),
    Case(keyboard: "2", keys: "qjtt", preedit: "ㅅ"),
    Case(keyboard: "2", keys: "rt", preedit: "ㄳ"),
    Case(keyboard: "2", keys: "rtk", commit: "ㄱ"),
    Case(keyboard: "2", keys: "rtk", preedit: "사"),
    Case(keyboard: "2", keys: "rt", commit: "ㄱ", options: ComposerOptions(bareClusters: false)),
    Case(keyboard: "2", keys: "rt", preedit: "ㅅ", options: ComposerOptions(bareClusters: false)),
  ]

  @Test("the input context", arguments: twoSetOld + threeSet + romaja + twoSet)
  func inputContext(_ example: Case) throws {
    let keyboard = try #require(Keyboard(builtIn: example.keyboard))
    var context = HangulInputContext(keyboard: keyboard, options: example.options)
    for key in example.keys.utf8 {
      // As hangul_ic_process does with '\b'.
      if key == 0x08 { context.backspace() } else { context.process(InputKey(ascii: key)) }
      #expect(context.deleteCount == 0)
    }
    if let expected = example.preedit {
      #expect(context.preeditString.unicodeScalars.elementsEqual(expected.unicodeScalars))
    }
    if let expected = example.commit {
      #expect(context.commitString.unicodeScalars.elementsEqual(expected.unicodeScalars))
    }
  }

  @Test("keyboards other than 2", arguments: twoSetOld + threeSet + romaja)
  func otherKeyboards(_ example: Case) throws {
    try check(example, keyboard: try #require(Keyboard(builtIn: example.keyboard)))
  }

  @Test("the 2-set keyboard, on the general automaton", arguments: twoSet)
  func twoSetOnLayoutComposer(_ example: Case) throws {
    var keyboard = Keyboard.twoSet
    keyboard.hasJamoLabels = false
    try check(example, keyboard: keyboard)
  }

  @Test("the 2-set keyboard, on the 2-set automaton", arguments: twoSet)
  func twoSetOnSyllableComposer(_ example: Case) throws {
    guard !example.options.autoReorder else { return }  // only the general automaton reorders
    let keyboard = Keyboard.twoSet
    var composer = SyllableComposer(keyboard: keyboard, options: example.options)
    var commit = ""
    for key in example.keys.utf8 {
      commit = ""
      if key == 0x08 {
        _ = composer.undoStep()
      } else if let jamo = keyboard.jamo(forASCII: key), let done = composer.press(jamo) {
        commit.unicodeScalars.append(done)
      }
    }
    let preedit = composer.composing.map { String($0) } ?? ""
    if let expected = example.preedit { #expect(preedit == expected) }
    if let expected = example.commit { #expect(commit == expected) }
  }

  /// Types the keys as libhangul's test does: the preedit after the last
  /// key, and what the last key committed.
  private func check(_ example: Case, keyboard: Keyboard) throws {
    var composer = LayoutComposer(layout: keyboard.layout, options: example.options)
    var commit: [UInt8] = []
    for key in example.keys.utf8 {
      commit = []
      if key == 0x08 {
        _ = composer.undoStep()
      } else {
        _ = composer.press(key: key, into: &commit)
      }
    }
    let preedit = String(String.UnicodeScalarView(composer.composing))
    if let expected = example.preedit {
      #expect(preedit.unicodeScalars.elementsEqual(expected.unicodeScalars))
    }
    if let expected = example.commit {
      #expect(
        String(decoding: commit, as: UTF8.self).unicodeScalars.elementsEqual(
          expected.unicodeScalars))
    }
  }
}
