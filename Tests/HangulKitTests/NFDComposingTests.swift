import HangulKit
import Testing

/// The fast path that composes Korean NFD text (initial, vowel, optional
/// final in conjoining jamo, and ASCII between them), in `hangul-normalize`
/// (against ICU) and in `hangul-compose` (against its own general path), on
/// random and adversarial text cut into chunks everywhere.
@Suite("Composing NFD Korean")
struct NFDComposingTests {
  /// What the text is made of, heavy on whole NFD syllables so that long runs
  /// reach the fast path, with everything that must stop it or pass through
  /// it: old jamo, lone vowels and finals, a final after a precomposed open
  /// syllable, fillers, combining marks (the Hangul tone mark among them),
  /// compatibility jamo, controls, and bytes that are not UTF-8 (cut-off and
  /// broken jamo too).
  static let pieces: [[UInt8]] = {
    var pieces: [[UInt8]] = []
    for _ in 0..<6 {
      pieces += [
        "\u{1112}\u{1161}\u{11AB}", "\u{1100}\u{1173}\u{11AF}", "\u{110B}\u{1175}",
        "\u{1102}\u{1161}",
        "\u{1112}\u{1175}\u{11C2}", "\u{1100}\u{1161}\u{11A8}", "\u{1110}\u{1169}\u{11BF}",
        "\u{1109}\u{1165}\u{11C0}", " ", ". ",
      ].map { Array($0.utf8) }
    }
    pieces += [
      "\u{1100}", "\u{1112}", "\u{1161}", "\u{1175}", "\u{11A8}", "\u{11C2}", "\u{1113}",
      "\u{115E}",
      "\u{115F}", "\u{1160}", "\u{1176}", "\u{11A7}", "\u{11C3}", "\u{11FF}", "\u{A960}",
      "\u{A97C}",
      "\u{D7B0}", "\u{D7C6}", "\u{D7CB}", "\u{D7FB}", "가", "각", "힣", "가\u{11A8}",
      "\u{1100}\u{1161}\u{1176}",
      "\u{1100}\u{1161}\u{11C3}", "\u{1100}\u{1176}\u{11A8}", "\u{1100}\u{1161}\u{11A8}\u{11A8}",
      "\u{1100}\u{1161}\u{301}\u{11A8}", "\u{1100}\u{302E}\u{1161}", "\u{301}", "\u{323}",
      "\u{302E}",
      "\u{3099}", "ㄱ", "ㅏ", "ㄳ", "é", "漢", "😀", "\u{200C}", "\u{2060}", "abcdefghijklmnop", "\n",
      "\t", "\u{8}", "\u{7F}", "\0", "~",
      // Next to what a composer's text copy must not take (keys, jamo, controls).
      "\u{85}", "\u{3130}", "\u{3164}", "\u{10FF}", "\u{1200}", "\u{A95F}", "\u{A980}",
      "\u{D7AF}", "\u{E000}", "\u{200B}", "\u{200D}", "\u{205F}", "\u{2061}", "\u{10FFFF}",
    ].map { Array($0.utf8) }
    pieces += [
      [0xFF], [0x80], [0xE1], [0xE1, 0x84], [0xE1, 0x85], [0xE1, 0x86], [0xE1, 0x84, 0xC0],
      [0xE1, 0x85, 0x41], [0xE1, 0x86, 0xE1], [0xE1, 0x87, 0x41], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
    ]
    return pieces
  }()

  static func randomText(_ generator: inout SeededGenerator, pieces count: Int) -> [UInt8] {
    var text: [UInt8] = []
    for _ in 0..<count {
      text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
    }
    return text
  }

  /// Runs `text` through `filter` in chunks whose sizes `size` picks, and
  /// checks that the filter's word on each chunk's UTF-8 lets a runner's
  /// validator find the same first fault as one that scans everything.
  static func feed<Filter: ByteFilter>(
    _ text: [UInt8], to filter: inout Filter, sizes size: () -> Int
  ) throws -> [UInt8] {
    var output: [UInt8] = []
    var full = UTF8Validator()
    var shortcut = UTF8Validator()
    var start = 0
    while start < text.count {
      let end = min(text.count, start + size())
      try Array(text[start..<end]).withUnsafeBufferPointer { chunk in
        full.scan(chunk)
        try filter.process(chunk, into: &output)
        if filter.lastChunkWasUTF8 { shortcut.skipValid(chunk) } else { shortcut.scan(chunk) }
      }
      start = end
    }
    try filter.finish(into: &output)
    full.finish()
    shortcut.finish()
    #expect(shortcut.firstInvalid == full.firstInvalid)
    return output
  }

  static func icuNFC(_ text: [UInt8], form: ICUNormalizer.Form = .nfc) throws -> [UInt8] {
    var output: [UInt8] = []
    let normalizer = try ICUNormalizer(form)
    text.withUnsafeBufferPointer { normalizer.normalize(utf8: $0, into: &output) }
    return output
  }

  /// Expects `hangul-normalize`'s filter, fed `text` in chunks of 1 to
  /// `largest` bytes, to write what ICU writes.
  static func expectNormalizesAsICU(
    _ text: [UInt8], form: ICUNormalizer.Form = .nfc, largest: Int,
    _ generator: inout SeededGenerator, round: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let expected = try icuNFC(text, form: form)
    var filter = try NormalizeFilter(form: form)
    let output = try feed(text, to: &filter) { Int.random(in: 1...largest, using: &generator) }
    expectSameBytes(output, expected, sourceLocation: sourceLocation)
    if output != expected { Issue.record("round \(round)", sourceLocation: sourceLocation) }
  }

  /// NFKC too: there a compatibility jamo after an initial and vowel joins them (ㄳ is a final).
  @Test(
    "hangul-normalize: random NFD Korean equals ICU in chunks of every size",
    arguments: [ICUNormalizer.Form.nfc, .nfkc])
  func normalizeAgreesWithICU(form: ICUNormalizer.Form) throws {
    var generator = SeededGenerator(seed: 2026 + UInt64(form.rawValue))
    for round in 0..<300 {
      let text = Self.randomText(&generator, pieces: Int.random(in: 1...300, using: &generator))
      try Self.expectNormalizesAsICU(
        text, form: form, largest: [4, 20, 64, 600, 1 << 20][round % 5], &generator, round: round)
    }
  }

  /// Adversarial text: every piece after a run long enough for the fast
  /// path, so each stops it at its own place.
  static let adversarialText: [UInt8] = {
    var text: [UInt8] = []
    for piece in pieces {
      text += Array("\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF} \u{110B}\u{1175}".utf8)
      text += piece
    }
    return text + Array("\u{1100}\u{1161}".utf8)
  }()

  @Test("hangul-normalize: adversarial NFD text equals ICU NFC wherever two chunk cuts fall")
  func normalizeEveryCut() throws {
    let text = Self.adversarialText
    let expected = try Self.icuNFC(text)
    for cut in 0...text.count {
      for second in [cut, min(text.count, cut + 17)] {
        var filter = try NormalizeFilter(form: .nfc)
        var sizes = [cut, second - cut, text.count - second].makeIterator()
        let output = try Self.feed(text, to: &filter) { max(1, sizes.next() ?? text.count) }
        expectSameBytes(output, expected)
        if output != expected { Issue.record("cuts at \(cut) and \(second)") }
      }
    }
  }

  /// `hangul-compose`'s filter on `text`: the output and the keystrokes counted.
  static func composed(_ text: [UInt8], sizes size: () -> Int) throws -> ([UInt8], Int) {
    var filter = ComposeFilter()
    let output = try feed(text, to: &filter, sizes: size)
    return (output, filter.statistics.total.keystrokes)
  }

  /// Chunks shorter than the 16 bytes the fast path looks ahead never reach
  /// it: fed so, `ComposeFilter` takes the general path, the reference.
  static let generalPathChunk = 15

  /// Expects `hangul-compose`'s filter, fed `text` in chunks of 16 to
  /// `largest` bytes (the fast path's), to compose it as in chunks shorter
  /// than ``generalPathChunk`` (the general path's), keystrokes counted too.
  static func expectComposesAsGeneralPath(
    _ text: [UInt8], largest: Int, _ generator: inout SeededGenerator, round: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let reference = try composed(text) {
      Int.random(in: 1...generalPathChunk, using: &generator)
    }
    let fast = try composed(text) { Int.random(in: 16...largest, using: &generator) }
    expectSameBytes(fast.0, reference.0, sourceLocation: sourceLocation)
    #expect(fast.1 == reference.1, "keystrokes, round \(round)", sourceLocation: sourceLocation)
  }

  @Test("hangul-compose: NFD text composes as the general path does, in chunks of every size")
  func composeAgreesWithGeneralPath() throws {
    var generator = SeededGenerator(seed: 1707)
    for round in 0..<300 {
      let text = Self.randomText(&generator, pieces: Int.random(in: 1...300, using: &generator))
      try Self.expectComposesAsGeneralPath(
        text, largest: [20, 64, 600, 1 << 20][round % 4], &generator, round: round)
    }
  }

  @Test("hangul-compose: adversarial NFD text composes as the general path does at every cut")
  func composeEveryCut() throws {
    let text = Self.adversarialText
    let reference = try Self.composed(text) { Self.generalPathChunk }
    // Whole, it is NFC where the jamo are modern (ICU agrees on this text's Hangul).
    for cut in 0...text.count {
      var sizes = [cut, text.count - cut].makeIterator()
      let fast = try Self.composed(text) { max(1, sizes.next() ?? text.count) }
      expectSameBytes(fast.0, reference.0)
      #expect(fast.1 == reference.1, "keystrokes, cut at \(cut)")
    }
  }

  /// Line-heavy text: NFD lines (some with ASCII), empty lines, and lines
  /// that hold any piece (keys left composing at the newline, Backspaces at
  /// a line start, old jamo, bytes that are not UTF-8), so that whole lines
  /// go straight to the output and lines the kernel stops in do not.
  /// With `clean`, only NFD syllables, spaces and full stops: then a line
  /// longer than the editor's limit comes out the same wherever the general
  /// path flushes it (the reference, fed in short chunks, flushes it in other
  /// places than a long chunk does).
  static func randomLines(_ generator: inout SeededGenerator, lines count: Int, clean: Bool)
    -> [UInt8]
  {
    var text: [UInt8] = []
    for _ in 0..<count {
      let kind = clean ? 0 : Int.random(in: 0..<10, using: &generator)
      let length = Int.random(in: 0...(kind == 1 ? 2 : 30), using: &generator)
      for _ in 0..<length {
        let piece =
          kind < 7
          ? pieces[Int.random(in: 0..<60, using: &generator)]
          : pieces[Int.random(in: 0..<pieces.count, using: &generator)]
        text += piece
      }
      text.append(0x0A)
    }
    return text
  }

  /// `hangul-compose`'s filter with `options` and a line limit on `text`: the
  /// output and the whole statistics report.
  static func composedLines(
    _ text: [UInt8], keyboard: Keyboard, options: ComposerOptions, maximumLineLength: Int,
    sizes size: () -> Int
  ) throws -> ([UInt8], StatisticsReport) {
    var filter = ComposeFilter(
      keyboard: keyboard, options: options, maximumLineLength: maximumLineLength)
    let output = try feed(text, to: &filter, sizes: size)
    return (output, filter.statistics)
  }

  /// Lines longer than a small limit (clean text there) go the general way.
  @Test(
    "hangul-compose: whole NFD lines written straight out equal the general path, statistics too",
    arguments: [
      ("2", ComposerOptions(), 1 << 20), ("2", ComposerOptions(), 40),
      ("2", ComposerOptions(), 4), ("2", ComposerOptions(backspace: .keystroke), 1 << 20),
      ("2", ComposerOptions(backspace: .keystroke), 25), ("3f", ComposerOptions(), 1 << 20),
      ("2", ComposerOptions(autoReorder: true), 30),
    ])
  func composeLinesAgreeWithGeneralPath(
    keyboard id: String, options: ComposerOptions, maximumLineLength: Int
  ) throws {
    let keyboard = try Keyboard(id: id)
    var generator = SeededGenerator(seed: 4242 + UInt64(maximumLineLength))
    for round in 0..<120 {
      let text = Self.randomLines(
        &generator, lines: Int.random(in: 1...60, using: &generator),
        clean: maximumLineLength < 1 << 20)
      let reference = try Self.composedLines(
        text, keyboard: keyboard, options: options, maximumLineLength: maximumLineLength
      ) { Int.random(in: 1...Self.generalPathChunk, using: &generator) }
      let largest = [24, 100, 700, 1 << 20][round % 4]
      let fast = try Self.composedLines(
        text, keyboard: keyboard, options: options, maximumLineLength: maximumLineLength
      ) { Int.random(in: 16...largest, using: &generator) }
      expectSameBytes(fast.0, reference.0)
      #expect(fast.1 == reference.1, "statistics, round \(round)")
    }
  }

  /// Long text that is mostly NFD Korean between spaces and newlines, with a
  /// rare piece of any kind: runs long enough that the kernel walks them as
  /// two halves, whose first half stops early now and then (then the
  /// second's work is dropped) or ends past the split in ASCII.
  static func longRuns(_ generator: inout SeededGenerator) -> [UInt8] {
    var text: [UInt8] = []
    let length = Int.random(in: 1_000...12_000, using: &generator)
    let rare = Int.random(in: 20...2_000, using: &generator)
    while text.count < length {
      if Int.random(in: 0..<rare, using: &generator) == 0 {
        text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      } else if Int.random(in: 0..<40, using: &generator) == 0 {
        text += Array("\n".utf8)
      } else if Int.random(in: 0..<30, using: &generator) == 0 {
        text += Array("ASCII text, with more of it: 0123456789 ".utf8)
      } else {
        text += pieces[Int.random(in: 0..<60, using: &generator)]
      }
    }
    return text
  }

  @Test("hangul-normalize: long NFD runs, walked in two halves, equal ICU in chunks of any size")
  func longRunsNormalize() throws {
    var generator = SeededGenerator(seed: 31337)
    for round in 0..<150 {
      let text = Self.longRuns(&generator)
      try Self.expectNormalizesAsICU(
        text, largest: [64, 2_000, 9_000, 1 << 20][round % 4], &generator, round: round)
    }
  }

  @Test("hangul-compose: long NFD runs, walked in two halves, equal the general path")
  func longRunsCompose() throws {
    var generator = SeededGenerator(seed: 4711)
    for round in 0..<150 {
      let text = Self.longRuns(&generator)
      try Self.expectComposesAsGeneralPath(
        text, largest: [64, 2_000, 9_000, 1 << 20][round % 4], &generator, round: round)
    }
  }

  @Test("hangul-compose: a long NFD line comes out as ICU's NFC of it")
  func composeLongLineIsNFC() throws {
    var text: [UInt8] = []
    var generator = SeededGenerator(seed: 99)
    let syllables = Array(Self.pieces.prefix(60))
    while text.count < 5_000 {
      text += syllables[Int.random(in: 0..<syllables.count, using: &generator)]
    }
    let output = try Self.composed(text) { text.count }.0
    expectSameBytes(output, try Self.icuNFC(text))
  }

  @Test("a chunk with a byte that is not UTF-8 is not reported as checked")
  func invalidChunkIsNotChecked() throws {
    let clean = Array(String(repeating: "\u{1112}\u{1161}\u{11AB} ", count: 8).utf8)
    let broken = clean + [0xE1, 0x86, 0x41] + clean
    var normalize = try NormalizeFilter(form: .nfc)
    var compose = ComposeFilter()
    var output: [UInt8] = []
    for (bytes, isUTF8) in [(clean, true), (broken, false), (clean, true)] {
      bytes.withUnsafeBufferPointer { normalize.process($0, into: &output) }
      bytes.withUnsafeBufferPointer { compose.process($0, into: &output) }
      #expect(normalize.lastChunkWasUTF8 == isUTF8)
      #expect(compose.lastChunkWasUTF8 == isUTF8)
    }
  }
}
