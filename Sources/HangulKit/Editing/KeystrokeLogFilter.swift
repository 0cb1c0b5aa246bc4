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
/// The keys are those of SPEC §3.1, as ``ComposeFilter`` reads them:
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
public struct KeystrokeLogFilter: ByteFilter {
  private var context: HangulInputContext
  let keys: KeyEncoding
  /// The committed text of the current line, which Backspace may delete.
  private var line: [UInt8] = []
  let maximumLineLength: Int
  /// The number of the last key written.
  private(set) var keyCount = 0
  private var decoder = UTF8Stream()
  /// Whether the last character was the literal prefix.
  private var literalPending = false
  /// What the key at hand committed (the context's commit, then text).
  private var commit: [UInt8] = []

  public init(
    keys: KeyEncoding = .jamo, keyboard: Keyboard = .twoSet,
    options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = LineEditor.defaultMaximumLineLength
  ) {
    self.keys = keys
    context = HangulInputContext(keyboard: keyboard, options: options)
    self.maximumLineLength = max(maximumLineLength, 4)
  }

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
    context.reset()
    line.removeAll()
    literalPending = false
  }

  /// Reads one unit of the log and writes its object (U+2060 has none).
  private mutating func take(_ unit: DecodedUnit, into output: inout [UInt8]) {
    commit.removeAll(keepingCapacity: true)
    var deleted = 0
    guard case .scalar(let scalar) = unit else {
      literalPending = false
      guard case .invalidByte(let byte) = unit else { return }
      insertText([byte])
      write(key: Array("\u{FFFD}".utf8), deleted: 0, byte: byte, into: &output)
      return
    }
    var name = Array(String(scalar).utf8)
    if literalPending {
      literalPending = false
      if scalar == "\n" {
        endLine()
        name = Array("Enter".utf8)
      } else {
        insertText(name)
      }
      return write(key: name, deleted: 0, into: &output)
    }
    switch scalar.value {
    case 0x0A:
      endLine()
      name = Array("Enter".utf8)
    case 0x08, 0x7F:
      deleted = backspace()
      name = Array("Backspace".utf8)
    case KeyLogControl.separator.value:
      flush()
    case KeyLogControl.literalPrefix.value:
      literalPending = true
      return
    default:
      if isKey(scalar) {
        let taken = context.process(InputKey(scalar))
        deleted = context.deleteCount
        apply(deleting: deleted)
        if !taken { insertText(name) }
      } else {
        flush()
        insertText(name)
      }
    }
    write(key: name, deleted: deleted, into: &output)
  }

  /// Whether the log may mean `scalar` as a key (SPEC §3.1): a printable
  /// ASCII character under ``KeyEncoding/qwerty``, any character from U+0080
  /// on (a label: a compatibility jamo, 천지인's ㆍ). The context says
  /// whether the keyboard takes it; other control characters are text.
  private func isKey(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value >= 0x20, scalar.value <= 0x7E { return keys == .qwerty }
    return scalar.value >= 0x80
  }

  /// Takes what the context's last call committed, after deleting what it took back.
  private mutating func apply(deleting count: Int) {
    for _ in 0..<count { line.removeLastCharacter() }
    commit.append(contentsOf: context.commitUTF8)
    appendToLine(context.commitUTF8)
  }

  /// Commits what is composing.
  private mutating func flush() {
    context.flush()
    apply(deleting: context.deleteCount)
  }

  /// Text that is no key: it follows what was composing.
  private mutating func insertText(_ bytes: [UInt8]) {
    flush()
    commit.append(contentsOf: bytes)
    appendToLine(bytes)
  }

  /// Backspace; returns how many scalars it deleted before the cursor.
  private mutating func backspace() -> Int {
    if context.backspace() {
      let count = context.deleteCount
      apply(deleting: count)
      return count
    }
    // Nothing to undo: the character before the cursor, as LineEditor deletes it.
    let before = line.count
    let scalarsBefore = Self.scalarCount(line)
    let removed =
      context.automaton == .syllable ? line.removeLastCharacter() : line.removeLastSyllableBlock()
    guard removed else { return 0 }
    assert(line.count < before, "a character was removed")
    return max(1, scalarsBefore - Self.scalarCount(line))  // a stray continuation byte is one
  }

  /// Ends the line: commits what is composing; Backspace no longer reaches it.
  private mutating func endLine() {
    flush()
    line.removeAll(keepingCapacity: line.capacity <= maximumLineLength)
  }

  private mutating func appendToLine(_ bytes: [UInt8]) {
    line.append(contentsOf: bytes)
    // Past the limit the start of the line goes, as ComposeFilter flushes it.
    if line.count > maximumLineLength { line.removeAll(keepingCapacity: false) }
  }

  /// Writes the object of the key at hand.
  private mutating func write(
    key: [UInt8], deleted: Int, byte: UInt8? = nil, into output: inout [UInt8]
  ) {
    keyCount += 1
    output.append(contentsOf: Array("{\"n\":\(keyCount),\"key\":\"".utf8))
    JSONWriter.appendEscaped(utf8: key, to: &output)
    output.append(contentsOf: Array("\",\"commit\":\"".utf8))
    JSONWriter.appendEscaped(utf8: Self.wellFormed(commit), to: &output)
    output.append(contentsOf: Array("\",\"preedit\":\"".utf8))
    var preedit: [UInt8] = []
    context.writePreedit(into: &preedit)
    JSONWriter.appendEscaped(utf8: preedit, to: &output)
    output.append(0x22)
    if deleted > 0 { output.append(contentsOf: Array(",\"delete\":\(deleted)".utf8)) }
    if let byte { output.append(contentsOf: Array(",\"byte\":\(byte)".utf8)) }
    output.append(contentsOf: [0x7D, 0x0A])
  }

  /// The bytes with each byte that is not UTF-8 as U+FFFD (JSON holds text only).
  static func wellFormed(_ bytes: [UInt8]) -> [UInt8] {
    var stream = UTF8Stream()
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    stream.decode(bytes, isLast: true) { unit in
      switch unit {
      case .scalar(let scalar): result.appendUTF8(scalar)
      case .invalidByte: result.appendUTF8("\u{FFFD}")
      }
    }
    return result
  }

  static func scalarCount(_ bytes: [UInt8]) -> Int {
    bytes.count { $0 & 0xC0 != 0x80 }
  }
}
