/// How keys are written in a keystroke log.
public enum KeyEncoding: String, Sendable, CaseIterable {
  /// Compatibility jamo (ㄱ, ㅏ, …) are keys.
  case jamo
  /// ASCII letters are 2-set key positions; compatibility jamo are keys too.
  case qwerty
}

/// The `hangul-compose` filter for text logs: every character is a key, and
/// the result is composed Hangul text.
///
/// Compatibility jamo (and under ``KeyEncoding/qwerty`` ASCII letters) are
/// keys; BS and DEL are Backspace; a newline ends the line; the
/// ``KeyLogControl`` characters separate syllables and quote literal text;
/// everything else, bytes that are not UTF-8 included, ends the syllable and
/// is copied.
///
///     var filter = ComposeFilter(keys: .qwerty)
///     var out: [UInt8] = []
///     filter.process(Array("dkssudgktpdy\n".utf8), into: &out)
///     // String(decoding: out, as: UTF8.self) == "안녕하세요\n"
///
/// Time is O(n) in the input; memory is bounded by the editor's line limit.
public struct ComposeFilter: ByteFilter {
  public private(set) var editor: LineEditor
  public let keys: KeyEncoding
  /// Whether characters and syllables written are counted (for `--stats`).
  public let countsOutput: Bool
  private var decoder = UTF8Stream()
  private var interpreter: KeyInterpreter
  private var recorder = StatisticsRecorder()
  /// What each ASCII byte does (``AsciiAction``).
  private let asciiActions: [UInt8]

  /// The fast path's view of an ASCII byte.
  private enum AsciiAction {
    /// Text that composes with nothing: copied in runs.
    static let text: UInt8 = 0
    /// Anything else (newline, Backspace): through the interpreter.
    static let other: UInt8 = 1
    /// A key: the jamo's offset + 2.
    static let firstKey: UInt8 = 2
  }

  public init(
    keys: KeyEncoding = .jamo, keyboard: Keyboard = .twoSet,
    options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength, countsOutput: Bool = true
  ) {
    self.keys = keys
    self.countsOutput = countsOutput
    interpreter = KeyInterpreter(keys: keys, keyboard: keyboard)
    editor = LineEditor(
      keyboard: keyboard, options: options, maximumLineLength: maximumLineLength)
    asciiActions = (0..<128).map { code in
      switch code {
      case 0x0A, 0x08, 0x7F: return AsciiAction.other
      case 0x41...0x5A where keys == .qwerty, 0x61...0x7A where keys == .qwerty:
        return keyboard.jamo(forASCII: UInt8(code)).map { $0.offset + AsciiAction.firstKey }
          ?? AsciiAction.text
      default: return AsciiAction.text
      }
    }
  }

  /// What was typed and written so far: the whole log is one document.
  public var statistics: StatisticsReport {
    var current = recorder
    current.finishDocument(editor: editor)
    return StatisticsReport(documents: [], total: current.total)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    var position = 0
    if decoder.isCarrying {
      // A sequence cut off at the end of the last chunk: finish it slowly.
      let head = min(4, chunk.count)
      decode(UnsafeBufferPointer(rebasing: chunk[..<head]), isLast: false)
      position = head
      if decoder.isCarrying {
        // Cut off again (a chunk of a few bytes): the rest goes the slow way too.
        decode(UnsafeBufferPointer(rebasing: chunk[head...]), isLast: false)
        return drain(into: &output)
      }
    }
    let count = chunk.count
    while position < count {
      let lead = chunk[position]
      if interpreter.literalPending {
        // After U+2060 the next character is literal text: the slow way.
        slowStep(chunk, &position)
        continue
      }
      if lead < 0x80 {
        let action = asciiActions[Int(lead)]
        if action >= AsciiAction.firstKey {
          editor.press(Jamo(offset: action - AsciiAction.firstKey))
          recorder.current.keystrokes += 1
          position += 1
        } else if action == AsciiAction.text {
          var end = position + 1
          while end < count, chunk[end] < 0x80, asciiActions[Int(chunk[end])] == AsciiAction.text {
            end += 1
          }
          editor.insert(asciiText: UnsafeBufferPointer(rebasing: chunk[position..<end]))
          recorder.current.keystrokes += end - position
          position = end
        } else {
          recorder.current.keystrokes += interpreter.apply(
            .scalar(Unicode.Scalar(lead)), to: &editor)
          position += 1
        }
        continue
      }
      if position + 2 < count, chunk[position + 1] & 0xC0 == 0x80,
        chunk[position + 2] & 0xC0 == 0x80
      {
        let value =
          UInt32(lead & 0x0F) << 12 | UInt32(chunk[position + 1] & 0x3F) << 6
          | UInt32(chunk[position + 2] & 0x3F)
        if lead == 0xE3, value &- Jamo.firstScalarValue < UInt32(Jamo.count) {
          // A compatibility jamo key.
          let jamo = Jamo(offset: UInt8(value - Jamo.firstScalarValue))
          editor.press(jamo)
          recorder.current.keystrokes += jamo.keys.count
          position += 3
          continue
        }
        if lead >= 0xEA, lead <= 0xED,
          value &- HangulSyllable.firstScalarValue < UInt32(HangulSyllable.count)
        {
          // A precomposed syllable: text that composes with nothing before it.
          editor.insert(starter: Unicode.Scalar(value) ?? "\u{FFFD}")
          recorder.current.keystrokes += 1
          position += 3
          continue
        }
        if lead == 0xE1, value &- 0x1100 < 19,
          let syllable = Self.conjoinedSyllable(value, chunk, after: position + 3)
        {
          // NFD: an initial with its vowel (and final) at once.
          editor.insert(starter: Unicode.Scalar(syllable.value) ?? "\u{FFFD}")
          recorder.current.keystrokes += syllable.length / 3
          position += syllable.length
          continue
        }
      }
      slowStep(chunk, &position)
    }
    drain(into: &output)
  }

  /// Takes one unit through the interpreter; a sequence cut off at the end of
  /// the chunk is carried to the next.
  private mutating func slowStep(_ chunk: UnsafeBufferPointer<UInt8>, _ position: inout Int) {
    switch UTF8Stream.step(chunk, at: position) {
    case .scalar(let value, let length):
      recorder.current.keystrokes += interpreter.apply(
        .scalar(Unicode.Scalar(value) ?? "\u{FFFD}"), to: &editor)
      position += length
    case .invalid:
      recorder.current.keystrokes += interpreter.apply(.invalidByte(chunk[position]), to: &editor)
      position += 1
    case .incomplete:
      decode(UnsafeBufferPointer(rebasing: chunk[position...]), isLast: false)
      position = chunk.count
    }
  }

  /// The syllable that an initial (`initial`, already read) and the conjoining
  /// vowel and optional final after it make, with the bytes they take.
  @inline(__always)
  private static func conjoinedSyllable(
    _ initial: UInt32, _ chunk: UnsafeBufferPointer<UInt8>, after position: Int
  ) -> (value: UInt32, length: Int)? {
    guard let vowel = conjoining(chunk, at: position), vowel &- 0x1161 < 21 else { return nil }
    var value = HangulSyllable.firstScalarValue + ((initial - 0x1100) * 21 + vowel - 0x1161) * 28
    var length = 6
    if let final = conjoining(chunk, at: position + 3), final &- 0x11A8 < 27 {
      value += final - 0x11A7
      length = 9
    }
    return (value, length)
  }

  /// The conjoining jamo (U+1100–U+11FF) at `position`, if one is there whole.
  @inline(__always)
  private static func conjoining(_ chunk: UnsafeBufferPointer<UInt8>, at position: Int) -> UInt32? {
    guard position + 2 < chunk.count, chunk[position] == 0xE1 else { return nil }
    let second = chunk[position + 1]
    let third = chunk[position + 2]
    guard second >= 0x84, second <= 0x87, third & 0xC0 == 0x80 else { return nil }
    return 0x1000 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
  }

  public mutating func finish(into output: inout [UInt8]) {
    decode(UnsafeBufferPointer(start: nil, count: 0), isLast: true)
    editor.finish()
    drain(into: &output)
  }

  private mutating func decode(_ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool) {
    // The decoder is moved out while it calls back into the filter.
    var decoder = self.decoder
    decoder.decode(chunk, isLast: isLast) { unit in
      recorder.current.keystrokes += interpreter.apply(unit, to: &editor)
    }
    self.decoder = decoder
  }

  private mutating func drain(into output: inout [UInt8]) {
    if countsOutput { recorder.count(output: editor.output) }
    output.append(contentsOf: editor.output)
    editor.output.removeAll(keepingCapacity: true)
  }
}
