import HangulKit
import Testing

/// A line past `--max-line` is flushed in pieces (hangul-compose(1)): the
/// flush points must be those of typing the log one character at a time,
/// whatever the chunks the input arrives in (1 byte … all of it), so that
/// the text and the `--stats` report (Backspaces that could not reach
/// flushed text) are one and the same for every chunking, on the fast paths
/// (key runs, text runs, the NFD kernel) as on the general one.
@Suite("--max-line: flush points do not depend on the chunks")
struct MaxLineChunkingTests {
  /// A random log of long lines: keys, runs of spaces and other text
  /// (precomposed syllables, NFD syllables and lone initials, two- and
  /// four-byte characters), runs of Backspaces, and newlines.
  static func randomLog(
    _ generator: inout SeededGenerator, keys: KeyEncoding, keyboard: Keyboard, limit: Int
  ) -> [Unicode.Scalar] {
    let keyCodes = keys == .qwerty ? keyboard.layout.mappedKeys.map { Unicode.Scalar($0) } : []
    let jamo: [Unicode.Scalar] = keyboard.hasJamoLabels ? Jamo.all.map(\.scalar) : []
    let alphabet = keyCodes + jamo
    let texts: [[Unicode.Scalar]] = [
      [" "], [" ", " "], [" ", " ", " "], ["."], ["1", "2"], ["가"], ["각"], ["é"], ["😀"],
      ["\u{1100}", "\u{1161}"], ["\u{1100}", "\u{1161}", "\u{11A8}"], ["\u{1112}"],
      ["\u{110B}", "\u{1175}", " "], ["\t"], ["a", "b", "c", "d", "e"],
    ]
    var log: [Unicode.Scalar] = []
    for _ in 0..<4 {
      let length = Int.random(in: (limit / 2)...(limit * 5), using: &generator)
      var line: [Unicode.Scalar] = []
      while line.count < length {
        let pick = Int.random(in: 0..<10, using: &generator)
        if pick < 5, !alphabet.isEmpty {
          for _ in 0..<Int.random(in: 1...6, using: &generator) {
            line.append(alphabet.randomElement(using: &generator) ?? "a")
          }
        } else if pick < 8 {
          line += texts.randomElement(using: &generator) ?? [" "]
        } else {
          let backspace: Unicode.Scalar = pick == 8 ? "\u{8}" : "\u{7F}"
          line += Array(repeating: backspace, count: Int.random(in: 1...9, using: &generator))
        }
      }
      log += line + ["\n"]
    }
    return log
  }

  /// The filter's output, its `--stats` report and its editor's counts for
  /// `bytes` cut into chunks of the given sizes (repeated to the end).
  static func filtered(
    _ bytes: [UInt8], sizes: [Int], keys: KeyEncoding, keyboard: Keyboard,
    options: ComposerOptions, limit: Int
  ) -> (output: [UInt8], report: StatisticsReport, counts: EditCounts) {
    var filter = ComposeFilter(
      keys: keys, keyboard: keyboard, options: options, maximumLineLength: limit)
    var output: [UInt8] = []
    var start = 0
    var index = 0
    while start < bytes.count {
      let end = min(bytes.count, start + sizes[index % sizes.count])
      bytes[start..<end].withUnsafeBufferPointer { filter.process($0, into: &output) }
      start = end
      index += 1
    }
    filter.finish(into: &output)
    return (output, filter.statistics, filter.editor.counts)
  }

  static let cases: [(id: String, keys: KeyEncoding, options: ComposerOptions)] = [
    ("2", .jamo, ComposerOptions()), ("2", .qwerty, ComposerOptions()),
    ("2", .qwerty, ComposerOptions(autoReorder: true)),
    ("2", .jamo, ComposerOptions(autoReorder: true)),
    ("2", .jamo, ComposerOptions(backspace: .keystroke)),
    ("2", .qwerty, ComposerOptions(backspace: .keystroke, autoReorder: true)),
    ("3f", .qwerty, ComposerOptions()), ("3f", .qwerty, ComposerOptions(autoReorder: true)),
    ("3f", .qwerty, ComposerOptions(backspace: .keystroke)),
    ("39", .qwerty, ComposerOptions()), ("39", .qwerty, ComposerOptions(autoReorder: true)),
    ("3s", .qwerty, ComposerOptions()), ("32", .qwerty, ComposerOptions()),
    ("3y", .qwerty, ComposerOptions()), ("2y", .qwerty, ComposerOptions(autoReorder: true)),
    ("ro", .qwerty, ComposerOptions()), ("ahn", .qwerty, ComposerOptions()),
  ]

  @Test(
    "random long lines with Backspaces: one output and one report for every chunking",
    arguments: cases)
  func chunkings(id: String, keys: KeyEncoding, options: ComposerOptions) throws {
    let keyboard = try Keyboard(id: id)
    var generator = SeededGenerator(
      seed: 0x3A_714E &+ UInt64(id.utf8.reduce(0) { $0 &* 31 &+ Int($1) })
        &+ (options.autoReorder ? 7 : 0) &+ (options.backspace == .keystroke ? 13 : 0))
    let limits = [4, 5, 7, 9, 16, 33, 100, 1000]
    for round in 0..<24 {
      let limit = limits[round % limits.count]
      let log = Self.randomLog(&generator, keys: keys, keyboard: keyboard, limit: limit)
      let bytes = Array(String(String.UnicodeScalarView(log)).utf8)
      // The reference: the editor typed one character at a time.
      let expected = KeyRunTests.keyByKey(
        log, keys: keys, keyboard: keyboard, options: options, maximumLineLength: limit)
      let chunkings: [[Int]] = [
        [bytes.count], [1], [2], [3], [7, 1, 64],
        (0..<16).map { _ in Int.random(in: 1...97, using: &generator) },
        (0..<4).map { _ in Int.random(in: 1...bytes.count, using: &generator) },
      ]
      let whole = Self.filtered(
        bytes, sizes: chunkings[0], keys: keys, keyboard: keyboard, options: options, limit: limit)
      expectSameBytes(whole.output, expected)
      for sizes in chunkings.dropFirst() {
        let result = Self.filtered(
          bytes, sizes: sizes, keys: keys, keyboard: keyboard, options: options, limit: limit)
        expectSameBytes(result.output, whole.output)
        #expect(result.report == whole.report, "limit \(limit), chunks \(sizes)")
        #expect(result.counts == whole.counts, "limit \(limit), chunks \(sizes)")
      }
      #expect(whole.report.total.keystrokes == KeyRunTests.keystrokes(log))
    }
  }

  /// Lines of NFD Korean and ASCII text (the whole-line kernel's input, with
  /// now and then a key or Backspaces) from a little under the limit to three
  /// times it: whole lines that fit go through the kernel, longer ones are
  /// flushed where typing one character at a time flushes them.
  @Test(
    "NFD text lines around the limit: one output and one report for every chunking",
    arguments: [ComposerOptions(), ComposerOptions(autoReorder: true)])
  func nfdLines(options: ComposerOptions) {
    var generator = SeededGenerator(seed: options.autoReorder ? 0xAF0 : 0xAF1)
    let words: [[Unicode.Scalar]] = [
      ["\u{1100}", "\u{1161}"], ["\u{1100}", "\u{1161}", "\u{11A8}"],
      ["\u{110B}", "\u{1175}"], ["\u{1112}", "\u{1161}", "\u{11AB}"], [" "], [" ", " "],
      ["a", "b"], ["."], ["가"], ["\u{1100}"], ["ㄱ"], ["ㅏ"], ["\u{8}"], ["\u{8}", "\u{8}", "\u{8}"],
    ]
    for round in 0..<30 {
      let limit = [16, 17, 30, 64, 200][round % 5]
      var log: [Unicode.Scalar] = []
      for _ in 0..<12 {
        let bytes = Int.random(in: (limit - 6)...(limit * 3), using: &generator)
        var line: [Unicode.Scalar] = []
        var length = 0
        while length < bytes {
          // Mostly text; keys and Backspaces are rare.
          let kinds = Int.random(in: 0..<4, using: &generator) == 0 ? words.count : 10
          let pick = Int.random(in: 0..<kinds, using: &generator)
          let word = words[pick]
          line += word
          length += word.reduce(0) { $0 + $1.utf8.count }
        }
        log += line + ["\n"]
      }
      let bytes = Array(String(String.UnicodeScalarView(log)).utf8)
      let expected = KeyRunTests.keyByKey(
        log, keys: .jamo, keyboard: .twoSet, options: options, maximumLineLength: limit)
      let chunkings: [[Int]] = [
        [bytes.count], [1], [5], [17], [64], [200],
        (0..<16).map { _ in Int.random(in: 1...300, using: &generator) },
      ]
      let whole = Self.filtered(
        bytes, sizes: chunkings[0], keys: .jamo, keyboard: .twoSet, options: options,
        limit: limit)
      expectSameBytes(whole.output, expected)
      for sizes in chunkings.dropFirst() {
        let result = Self.filtered(
          bytes, sizes: sizes, keys: .jamo, keyboard: .twoSet, options: options, limit: limit)
        expectSameBytes(result.output, whole.output)
        #expect(result.report == whole.report, "limit \(limit), chunks \(sizes)")
        #expect(result.counts == whole.counts, "limit \(limit), chunks \(sizes)")
      }
    }
  }
}
