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
  private var decoder = UTF8Stream()
  private var interpreter: KeyInterpreter
  private var recorder = StatisticsRecorder()

  public init(
    keys: KeyEncoding = .jamo, keyboard: Keyboard = .twoSet,
    options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength
  ) {
    self.keys = keys
    interpreter = KeyInterpreter(keys: keys, keyboard: keyboard)
    editor = LineEditor(
      keyboard: keyboard, options: options, maximumLineLength: maximumLineLength)
  }

  /// What was typed and written so far: the whole log is one document.
  public var statistics: StatisticsReport {
    var current = recorder
    current.finishDocument(editor: editor)
    return StatisticsReport(documents: [], total: current.total)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    decode(chunk, isLast: false)
    drain(into: &output)
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
    recorder.count(output: editor.output)
    output.append(contentsOf: editor.output)
    editor.output.removeAll(keepingCapacity: true)
  }
}
