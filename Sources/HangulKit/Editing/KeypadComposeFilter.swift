/// The `hangul-compose` filter for text logs typed on a phone keypad
/// (`--keyboard cheonjiin`): every character is a press of the key it names.
///
/// Under ``KeyEncoding/jamo`` a key is its first label (ㅣ ㆍ ㅡ ㄱ ㄴ ㄷ ㅂ ㅅ ㅈ
/// ㅇ); under ``KeyEncoding/qwerty`` the E.161 keypad characters `1`–`9`, `*`,
/// `0`, `#` are keys too. A compatibility jamo that no single key types counts
/// as the presses that type it (ㅋ = ㄱㄱ, ㅏ = ㅣㆍ). U+200C is the next key:
/// it ends the syllable and the cycle. BS and DEL undo one press; a newline
/// ends the line; U+2060 makes the next character text; everything else ends
/// the syllable and is copied (conjoining jamo composing with the text before
/// them, so NFD text comes out NFC, as on the other keyboards).
///
///     var filter = KeypadComposeFilter(keys: .qwerty, keyboard: try Keyboard(id: "cheonjiin"))
///     var out: [UInt8] = []
///     filter.process(Array("0125\n".utf8), into: &out)
///     // String(decoding: out, as: UTF8.self) == "안\n"
///
/// Time is O(n) in the input; memory is bounded by the line limit.
public struct KeypadComposeFilter: ByteFilter, StreamingFilter, StatisticsReporting {
  public let keys: KeyEncoding
  /// The input context that types the presses; the filter applies its
  /// edits (scalars taken back, then text committed) to ``line``.
  private var context: HangulInputContext
  /// The line so far (the syllable being composed aside), from after the
  /// last text written out.
  private var line: [UInt8] = []
  private var stream = UTF8Stream()
  private var literalPending = false
  private let maximumLineLength: Int
  private var recorder = StatisticsRecorder()
  private var counts = EditCounts()
  /// Whether each ASCII code is a key of the keypad (under ``KeyEncoding/qwerty``).
  private let isKey: [Bool]

  public init(
    keys: KeyEncoding = .jamo, keyboard: Keyboard,
    maximumLineLength: Int = EditingDefaults.maximumLineLength
  ) {
    self.keys = keys
    self.maximumLineLength = maximumLineLength
    context = HangulInputContext(keyboard: keyboard)
    isKey = (0..<128).map { keyboard.layout.value(forKey: UInt8($0)) != 0 }
  }

  /// What was typed and written so far: the whole log is one document.
  package var statistics: StatisticsReport {
    var current = recorder
    current.finishDocument(counts: counts)
    return current.report
  }

  /// The text of the current line so far, the syllable being composed included.
  package var pendingText: [UInt8] {
    var text = line
    context.writePreedit(into: &text)
    return text
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    decode(chunk, isLast: false, into: &output)
  }

  public mutating func finish(into output: inout [UInt8]) {
    decode(UnsafeBufferPointer(start: nil, count: 0), isLast: true, into: &output)
    flush(into: &output)
  }

  /// Takes each scalar and each byte that is not UTF-8 of `chunk` (a
  /// sequence cut off at its end waits for the next chunk, or with `isLast`
  /// is bytes that are not UTF-8).
  private mutating func decode(
    _ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool, into output: inout [UInt8]
  ) {
    var stream = self.stream
    stream.decode(chunk, isLast: isLast) { unit in
      switch unit {
      case .scalar(let scalar): take(scalar, into: &output)
      case .invalidByte(let byte): take(byte: byte)
      }
    }
    self.stream = stream
  }

  /// Takes one scalar of the log.
  package mutating func take(_ scalar: Unicode.Scalar, into output: inout [UInt8]) {
    if literalPending {
      literalPending = false
      recorder.current.keystrokes += 1
      commit()
      line.append(contentsOf: Self.bytes(of: scalar))
      // A newline ends the line, literal or not (as on the other keyboards):
      // no Backspace reaches back across it, so lines can go to separate threads.
      if scalar == "\n" { flush(into: &output) }
      return
    }
    switch scalar.value {
    case 0x0A:
      recorder.current.keystrokes += 1
      commit()
      line.append(0x0A)
      flush(into: &output)
      return
    case 0x08, 0x7F:
      recorder.current.keystrokes += 1
      counts.backspaces += 1
      backspace()
      return
    case KeyLogControl.separator.value:
      recorder.current.keystrokes += 1
      commit()
      return
    case KeyLogControl.literalPrefix.value:
      literalPending = true
      return
    default:
      break
    }
    if keys == .qwerty, scalar.isASCII, isKey[Int(scalar.value)] {
      recorder.current.keystrokes += 1
      press(UInt8(scalar.value))
    } else if let presses = context.keypadPresses(typing: scalar) {
      for key in presses { press(key) }
      recorder.current.keystrokes += presses.count
    } else {
      recorder.current.keystrokes += 1
      commit()
      insert(scalar)
    }
    if line.count > maximumLineLength { writeSettled(into: &output) }
  }

  /// Presses a key of the keypad.
  private mutating func press(_ key: UInt8) {
    let taken = context.process(InputKey(ascii: key))
    assert(taken, "a key of the keypad's layout")
    applyEdit()
  }

  /// Applies what the context's last call did to the line: deletes the
  /// scalars it took back (which ``writeSettled(into:)`` kept in the line),
  /// then appends what it committed.
  private mutating func applyEdit() {
    for _ in 0..<context.deleteCount { line.removeLastCharacter() }
    line.append(contentsOf: context.commitUTF8)
  }

  /// Appends text: a conjoining vowel or final composes with the text before
  /// it by the canonical algorithm (L + V → LV, LV + T → LVT), so NFD text
  /// comes out NFC, as on the other keyboards.
  private mutating func insert(_ scalar: Unicode.Scalar) {
    if let last = line.lastThreeByteScalar(),
      let joined = HangulNormalization.composition(of: last, scalar.value),
      let joinedScalar = Unicode.Scalar(joined)
    {
      line.removeLast(3)
      line.appendUTF8(joinedScalar)
    } else {
      line.append(contentsOf: Self.bytes(of: scalar))
    }
  }

  /// Takes a byte that is not UTF-8: it is text.
  package mutating func take(byte: UInt8) {
    recorder.current.keystrokes += 1
    commit()
    line.append(byte)
  }

  /// Takes out the start of the line that no press can change any more
  /// (Backspace aside), forgetting what Backspace could undo.
  package mutating func takeSettled() -> [UInt8] {
    let count = settledCount(keepingAtLeast: context.runTextCount)
    guard count > 0 else { return [] }
    let settled = Array(line[..<count])
    line.removeSubrange(..<count)
    context.settle(keepingLast: line.count)
    return settled
  }

  /// How many bytes at the start of the line can be written out when the
  /// last `kept` stay: also a last ᄀ or 가 stays, as a conjoining vowel or
  /// final may still join it.
  private func settledCount(keepingAtLeast kept: Int) -> Int {
    var count = line.count - min(kept, line.count)
    if count >= 3, let last = Array(line[(count - 3)..<count]).lastThreeByteScalar(),
      HangulNormalization.composition(of: last, 0x1161) != nil
        || HangulNormalization.composition(of: last, 0x11A8) != nil
    {
      count -= 3
    }
    return count
  }

  /// Writes out the start of an over-long line, keeping what a press or a
  /// Backspace may still take back, so that the run of presses goes on and
  /// the output is what it would be without the limit.
  private mutating func writeSettled(into output: inout [UInt8]) {
    let count = settledCount(keepingAtLeast: context.rewritableText.count)
    guard count > 0 else { return }
    let written = Array(line[..<count])
    recorder.count(output: written)
    output.append(contentsOf: written)
    line.removeSubrange(..<count)
  }

  /// Undoes one press; with none left since the last commit, deletes the
  /// last character of the line (never the newline before it).
  private mutating func backspace() {
    if context.backspace() {
      applyEdit()
      return
    }
    commit()
    // One whole character, as on the other keyboards: a syllable block of
    // conjoining jamo goes whole, a byte that is not UTF-8 alone.
    if !line.removeLastSyllableBlock() { counts.backspacesWithoutEffect += 1 }
  }

  private mutating func commit() {
    context.flush()
    applyEdit()
  }

  private mutating func flush(into output: inout [UInt8]) {
    commit()
    recorder.count(output: line)
    output.append(contentsOf: line)
    line.removeAll(keepingCapacity: true)
  }

  static func bytes(of scalar: Unicode.Scalar) -> [UInt8] {
    Array(scalar.utf8)
  }
}
