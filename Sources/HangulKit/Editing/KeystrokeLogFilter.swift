/// The per-key view of a text keystroke log (`hangul-compose --output
/// keystrokes`): instead of the text, one JSON object a line for each key,
/// in order, saying what the input method did with it, as
/// ``HangulInputContext`` reports it (libhangul's commit and preedit strings).
///
///     var filter = KeystrokeLogFilter(keys: .qwerty)
///     try filter.filtered(Array("rk\n".utf8))
///     // {"n":1,"key":"r","commit":"","preedit":"ㄱ"}
///     // {"n":2,"key":"k","commit":"","preedit":"가"}
///     // {"n":3,"key":"Enter","commit":"가","preedit":""}
///
/// The keys are those of hangul-compose(1), as ``ComposeFilter`` reads them:
/// - a key of the keyboard goes to ``HangulInputContext/process(_:)``;
///   `commit` is what that committed;
/// - BS and DEL are `"Backspace"`: ``HangulInputContext/backspace()``, and
///   with nothing to undo the character before the cursor is deleted;
/// - a newline is `"Enter"`: it commits what is composing, and the line ends;
/// - U+200C (the separator, a keypad's next key) commits what is composing;
/// - any other character (a key the keyboard does not take, text, a character
///   after the literal prefix U+2060) commits what is composing and is itself
///   text: its `commit` holds both. U+2060 itself is no key and has no object.
///
/// `"delete"`, when not 0, is how many Unicode scalars before the cursor the
/// key deleted before inserting `commit`: a Backspace that deleted a
/// committed character, a keypad's press that retypes the jamo before it.
/// A byte that is not UTF-8 is a key of its own, written as U+FFFD in `key`
/// and `commit`, with `"byte"` its value. Keys are numbered (`n`) from 1 over
/// the whole input.
///
/// Time O(n); memory: the current line (for Backspace), at most
/// `maximumLineLength` bytes of it.
public struct KeystrokeLogFilter: ByteFilter, StreamingFilter {
  private var recorder: KeystrokeRecorder
  let keys: KeyEncoding
  /// The committed text of the current line, which Backspace may delete.
  private var line: [UInt8] = []
  let maximumLineLength: Int
  private var decoder = UTF8Stream()
  /// Whether the last character was the literal prefix.
  private var literalPending = false

  public init(
    keys: KeyEncoding = .jamo, keyboard: Keyboard = .twoSet,
    options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = EditingDefaults.maximumLineLength,
    format: KeystrokesFormat = .jsonl
  ) {
    self.keys = keys
    recorder = KeystrokeRecorder(context: HangulInputContext(keyboard: keyboard, options: options))
    recorder.writesCSV = format == .csv
    self.maximumLineLength = max(maximumLineLength, 4)
  }

  /// The number of the last key written.
  var keyCount: Int { recorder.keyCount }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    var filter = self
    decoder.decode(chunk, isLast: false) { filter.take($0, into: &output) }
    filter.decoder = decoder
    self = filter
  }

  public mutating func finish(into output: inout [UInt8]) {
    var filter = self
    decoder.decode(UnsafeBufferPointer(start: nil, count: 0), isLast: true) {
      filter.take($0, into: &output)
    }
    filter.decoder = decoder
    self = filter
    // What is still composing at the end is the last object's preedit.
    recorder.reset()
    line.removeAll()
    literalPending = false
  }

  /// Reads one unit of the log and writes its object (U+2060 has none).
  private mutating func take(_ unit: DecodedUnit, into output: inout [UInt8]) {
    recorder.begin()
    guard case .scalar(let scalar) = unit else {
      literalPending = false
      guard case .invalidByte(let byte) = unit else { return }
      recorder.insert([byte])
      applyToLine()
      recorder.write(key: Array("\u{FFFD}".utf8), byte: byte, into: &output)
      return
    }
    var name = Array(String(scalar).utf8)
    if literalPending {
      literalPending = false
      if scalar == "\n" {
        recorder.flush()
        name = Array("Enter".utf8)
      } else {
        recorder.insert(name)
      }
    } else {
      switch scalar.value {
      case 0x0A:
        recorder.flush()
        name = Array("Enter".utf8)
      case 0x08, 0x7F:
        name = Array("Backspace".utf8)
        if !recorder.backspace() { recorder.deleted += deleteLastCharacter() }
      case KeyLogControl.separator.value:
        recorder.flush()
      case KeyLogControl.literalPrefix.value:
        literalPending = true
        return
      default:
        if isKey(scalar) {
          recorder.process(InputKey(scalar), text: name)
        } else {
          recorder.insert(name)
        }
      }
    }
    applyToLine()
    if scalar == "\n" { line.removeAll(keepingCapacity: line.capacity <= maximumLineLength) }
    recorder.write(key: name, into: &output)
  }

  /// Whether the log may mean `scalar` as a key (hangul-compose(1)): a printable
  /// ASCII character under ``KeyEncoding/qwerty``, any character from U+0080
  /// on (a label: a compatibility jamo, 천지인's ㆍ). The context says
  /// whether the keyboard takes it; other control characters are text.
  private func isKey(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value >= 0x20, scalar.value <= 0x7E { return keys == .qwerty }
    return scalar.value >= 0x80
  }

  /// Applies the key at hand to the line: what the context took back, then its commit.
  private mutating func applyToLine() {
    for _ in 0..<recorder.deletedByContext { line.removeLastCharacter() }
    line.append(contentsOf: recorder.commit)
    // Past the limit the start of the line goes, as ComposeFilter flushes it.
    if line.count > maximumLineLength { line.removeAll(keepingCapacity: false) }
  }

  /// Backspace with nothing to undo: deletes the character before the
  /// cursor as LineEditor does; returns how many scalars that was.
  private mutating func deleteLastCharacter() -> Int {
    let before = line.count
    let scalarsBefore = Self.scalarCount(line)
    guard line.removeLastSyllableBlock() else { return 0 }
    assert(line.count < before, "a character was removed")
    return max(1, scalarsBefore - Self.scalarCount(line))  // a stray continuation byte is one
  }

  static func scalarCount(_ bytes: [UInt8]) -> Int {
    bytes.count { $0 & 0xC0 != 0x80 }
  }
}
