/// `hangul-decompose --to keys|qwerty --keyboard cheonjiin`: writes the
/// presses that type the text on a phone keypad, so that `hangul-compose`
/// with the same keyboard and `--keys` gives the text back byte for byte.
///
/// Each character is tried, in order, as its presses, as the next key
/// (U+200C) and its presses, as itself, and as U+2060 and itself; the first
/// that a ``KeypadComposeFilter`` run alongside turns back into the text so
/// far is written. So U+200C comes only where the next press would otherwise
/// cycle or combine (안녕 → ㅇㅣㆍㄴ‌ㄴㆍㆍㅣㅇ).
///
///     var filter = KeypadDecomposeFilter(keys: .qwerty, keyboard: try Keyboard(id: "cheonjiin"))
///     var out: [UInt8] = []
///     filter.process(Array("닭\n".utf8), into: &out)
///     // String(decoding: out, as: UTF8.self) == "612554\n"
///
/// O(1) work per character (a few trial copies of a small state).
public struct KeypadDecomposeFilter: ByteFilter, StreamingFilter {
  public let keys: KeyEncoding
  private var simulator: KeypadComposeFilter
  private let composer: KeypadComposer
  private let labels: [UInt8: UInt32]
  /// The text not yet settled in the simulator.
  private var expected: [UInt8] = []
  private var stream = UTF8Stream()

  public init(keys: KeyEncoding, keyboard: Keyboard) {
    self.keys = keys
    simulator = KeypadComposeFilter(keys: keys, keyboard: keyboard, maximumLineLength: Int.max)
    composer = KeypadComposer(layout: keyboard.layout)
    var labels: [UInt8: UInt32] = [:]
    for code in keyboard.layout.mappedKeys { labels[code] = keyboard.layout.value(forKey: code) }
    self.labels = labels
  }

  /// One way to write a character: log items, each a key press, a scalar or a byte.
  private enum Item {
    case press(UInt8)
    case scalar(Unicode.Scalar)
    case byte(UInt8)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    decode(chunk, isLast: false, into: &output)
  }

  public mutating func finish(into output: inout [UInt8]) {
    decode(UnsafeBufferPointer(start: nil, count: 0), isLast: true, into: &output)
  }

  /// Writes the keys of each scalar of `chunk`, and each byte that is not
  /// UTF-8 as itself (a sequence cut off at its end waits for the next
  /// chunk, or with `isLast` is bytes that are not UTF-8).
  private mutating func decode(
    _ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool, into output: inout [UInt8]
  ) {
    var stream = self.stream
    stream.decode(chunk, isLast: isLast) { unit in
      switch unit {
      case .scalar(let scalar):
        decompose(scalar, KeypadComposeFilter.bytes(of: scalar), into: &output)
      case .invalidByte(let byte):
        write([.byte(byte)], text: [byte], into: &output)
      }
    }
    self.stream = stream
  }

  private mutating func decompose(
    _ scalar: Unicode.Scalar, _ text: [UInt8], into output: inout [UInt8]
  ) {
    // The candidates in order, each made only when the one before fails
    // (the first nearly always does it).
    if let keys = keys(typing: scalar) {
      let items = keys.map(Item.press)
      if write(items, text: text, into: &output) { return }
      if write([.scalar(KeyLogControl.separator)] + items, text: text, into: &output) { return }
    }
    if write([.scalar(scalar)], text: text, into: &output) { return }
    write([.scalar(KeyLogControl.literalPrefix), .scalar(scalar)], text: text, into: &output)
  }

  /// The presses that type a syllable, a compatibility jamo or a key's
  /// label (ㆍ), or `nil`.
  private func keys(typing scalar: Unicode.Scalar) -> [UInt8]? {
    guard let syllable = HangulSyllable(scalar) else { return composer.presses(typing: scalar) }
    var keys: [UInt8] = []
    for jamo in [syllable.initial, syllable.vowel] + (syllable.final.map { [$0] } ?? []) {
      guard let typed = composer.pressesByJamo[jamo.scalar.value] else { return nil }
      keys += typed
    }
    return keys
  }

  /// Writes `items` if the simulator then gives back the text so far; returns
  /// whether it did. A candidate that fails leaves everything as it was.
  ///
  /// The simulator takes the items in place, and only a failed candidate
  /// puts back the copy kept before: a trial copy that replaced the
  /// simulator on success cost two copies of all it holds (its input
  /// context, tables included) per character, a third of the run.
  @discardableResult
  private mutating func write(_ items: [Item], text: [UInt8], into output: inout [UInt8]) -> Bool {
    let before = simulator
    var flushed: [UInt8] = []
    for item in items {
      switch item {
      case .press(let key):
        if keys == .jamo, let label = labels[key], let scalar = Unicode.Scalar(label) {
          simulator.take(scalar, into: &flushed)
        } else {
          simulator.take(Unicode.Scalar(key), into: &flushed)
        }
      case .scalar(let scalar): simulator.take(scalar, into: &flushed)
      case .byte(let byte): simulator.take(byte: byte)
      }
    }
    let wanted = expected + text
    let settled = simulator.takeSettled()
    guard flushed + settled + simulator.pendingText == wanted else {
      simulator = before
      return false
    }
    expected = Array(wanted[(flushed.count + settled.count)...])
    for item in items {
      switch item {
      case .press(let key):
        if keys == .jamo, let label = labels[key], let scalar = Unicode.Scalar(label) {
          output.append(contentsOf: KeypadComposeFilter.bytes(of: scalar))
        } else {
          output.append(key)
        }
      case .scalar(let scalar): output.append(contentsOf: KeypadComposeFilter.bytes(of: scalar))
      case .byte(let byte): output.append(byte)
      }
    }
    return true
  }
}
