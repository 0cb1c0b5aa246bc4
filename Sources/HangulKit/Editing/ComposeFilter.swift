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
  private let keyboard: Keyboard
  /// Whether the last character was the literal prefix.
  private var literalPending = false

  public init(
    keys: KeyEncoding = .jamo, keyboard: Keyboard = .twoSet,
    options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength
  ) {
    self.keys = keys
    self.keyboard = keyboard
    editor = LineEditor(
      keyboard: keyboard, options: options, maximumLineLength: maximumLineLength)
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
    decoder.decode(chunk, isLast: isLast) { handle($0) }
    self.decoder = decoder
  }

  private mutating func drain(into output: inout [UInt8]) {
    output.append(contentsOf: editor.output)
    editor.output.removeAll(keepingCapacity: true)
  }

  private mutating func handle(_ unit: DecodedUnit) {
    if literalPending {
      literalPending = false
      switch unit {
      case .invalidByte(let byte): editor.insert(bytes: CollectionOfOne(byte))
      case .scalar(let scalar) where scalar == "\n": editor.endLine()
      case .scalar(let scalar): editor.insertLiteral(scalar)
      }
      return
    }
    switch unit {
    case .invalidByte(let byte):
      editor.insert(bytes: CollectionOfOne(byte))
    case .scalar(let scalar):
      switch scalar.value {
      case 0x0A: editor.endLine()
      case 0x08, 0x7F: editor.backspace()
      case 0x41...0x5A where keys == .qwerty, 0x61...0x7A where keys == .qwerty:
        if let jamo = keyboard.jamo(forASCII: UInt8(scalar.value)) {
          editor.press(jamo)
        } else {
          editor.insert(scalar)
        }
      case KeyLogControl.separator.value: editor.endSyllable()
      case KeyLogControl.literalPrefix.value: literalPending = true
      default:
        if let jamo = Jamo(scalar) {
          editor.press(jamo)
        } else {
          editor.insert(scalar)
        }
      }
    }
  }
}
