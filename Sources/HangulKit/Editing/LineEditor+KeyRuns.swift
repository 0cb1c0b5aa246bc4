/// What a text log's ASCII byte does, as ``ComposeFilter`` tabulates it per
/// keyboard and key encoding (128 entries) for ``LineEditor/typeKeyRun(_:from:actions:scratch:)``.
enum AsciiKeyAction {
  /// Text that composes with nothing: it ends the syllable and is copied.
  static let text: UInt8 = 0
  /// Anything else (newline, Backspace): through the ``KeyInterpreter``.
  static let other: UInt8 = 1
  /// A jamo key of the 2-set automaton: the jamo's offset + 2 (never a
  /// compound jamo such as ㅘ, which takes two steps: that key is `other`).
  static let firstKey: UInt8 = 2
  /// A key of a keyboard run by ``LayoutTyping`` (``LineEditor/press(key:)``).
  static let layoutKey: UInt8 = 0xFF
}

extension LineEditor {
  /// The most input bytes one run takes (it bounds the scratch buffer).
  static let keyRunLength = 4096

  /// Types a run of keys and ASCII text from `start`, as ``press(_:)``,
  /// ``press(key:)`` and ``insert(text:)`` would one at a time, but writing
  /// what it commits through a pointer into `scratch` and appending that to
  /// the line at once. The run ends before a newline, a Backspace, any
  /// character other than ASCII and (on the 2-set automaton) compatibility
  /// jamo, a sequence cut off at the end of the chunk, or where the line could
  /// grow past ``maximumLineLength`` (so a long line is flushed exactly where
  /// the slow path flushes it). `actions` holds an ``AsciiKeyAction`` per
  /// ASCII code. Returns where the run ended (`start` when it took nothing:
  /// with `--backspace keystroke` it takes nothing) and the keystrokes typed.
  ///
  ///     var editor = LineEditor()
  ///     var scratch: [UInt8] = []
  ///     // actions from ComposeFilter: "rk" are keys ㄱ ㅏ
  ///     _ = Array("rk".utf8).withUnsafeBufferPointer {
  ///       editor.typeKeyRun($0, from: 0, actions: actions, scratch: &scratch)
  ///     }   // (end: 2, keystrokes: 2), 가 being composed
  ///
  /// O(n) in the run, with no per-key call, allocation or capacity check.
  mutating func typeKeyRun(
    _ chunk: UnsafeBufferPointer<UInt8>, from start: Int, actions: [UInt8],
    scratch: inout [UInt8]
  ) -> (end: Int, keystrokes: Int) {
    // What one input byte can write at most: a syllable of three conjoining
    // jamo and a symbol on a layout keyboard; a syllable and a byte on 2-set.
    let bytesPerInputByte = usesLayout ? 16 : 4
    let room = (maximumLineLength - line.count) / bytesPerInputByte
    let end = min(chunk.count, start + min(room, Self.keyRunLength))
    guard end > start, !undoesKeystrokes, let input = chunk.baseAddress else { return (start, 0) }
    let needed = (end - start) * bytesPerInputByte
    if scratch.count < needed { scratch = [UInt8](repeating: 0, count: needed) }
    var position = start
    var keystrokes = 0
    var written = 0
    scratch.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var out = ByteCursor(base)
      actions.withUnsafeBufferPointer { table in
        if usesLayout {
          Self.typeLayoutRun(input, &position, end, table, &layoutTyping, &out)
          keystrokes = position - start
        } else {
          // The syllable works on a local copy, so that it stays in
          // registers: writes through `out` cannot alias a local.
          var state = composer.state
          keystrokes = Self.typeJamoRun(
            input, &position, end, table, compoundMask, composer.machine, &state, &out)
          composer.restore(state)
        }
      }
      written = out.count
    }
    scratch.withUnsafeBufferPointer {
      line.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<written]))
    }
    return (position, keystrokes)
  }

  /// The run loop of the 2-set automaton (``SyllableComposer``): ASCII keys
  /// and text, and compatibility jamo keys. Returns the keystrokes typed.
  @inline(__always)
  private static func typeJamoRun(
    _ input: UnsafePointer<UInt8>, _ position: inout Int, _ end: Int,
    _ table: UnsafeBufferPointer<UInt8>, _ compoundMask: UInt64,
    _ machine: SyllableComposer.Machine, _ state: inout CompositionState, _ out: inout ByteCursor
  ) -> Int {
    var keystrokes = 0
    while position < end {
      let byte = input[position]
      if byte < 0x80 {
        let action = table[Int(byte)]
        if action >= AsciiKeyAction.firstKey {
          // Never a compound jamo (see `AsciiKeyAction.firstKey`).
          let key = Jamo(offset: action &- AsciiKeyAction.firstKey)
          if let done = machine.press(key, &state) { out.appendUTF8(done) }
        } else if action == AsciiKeyAction.text {
          if let done = machine.commit(&state) { out.appendUTF8(done) }
          out.append(byte)
        } else {
          break
        }
        keystrokes += 1
        position += 1
        continue
      }
      // A compatibility jamo key (U+3131–U+3163), whole in the chunk.
      guard byte == 0xE3, position + 2 < end else { break }
      let second = input[position + 1]
      let third = input[position + 2]
      guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { break }
      let offset =
        (0x3000 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)) &- Jamo.firstScalarValue
      guard offset < UInt32(Jamo.count) else { break }
      keystrokes += pressFast(UInt8(offset), compoundMask, machine, &state, &out)
      position += 3
    }
    return keystrokes
  }

  /// ``press(_:)`` on the 2-set automaton, writing to `out`; returns the keys
  /// the jamo took (a compound jamo such as ㅘ is two).
  @inline(__always)
  private static func pressFast(
    _ offset: UInt8, _ compoundMask: UInt64, _ machine: SyllableComposer.Machine,
    _ state: inout CompositionState, _ out: inout ByteCursor
  ) -> Int {
    if compoundMask >> UInt64(offset) & 1 != 0, let parts = JamoTables.compoundParts[Int(offset)] {
      if let done = machine.press(parts.0, &state) { out.appendUTF8(done) }
      if let done = machine.press(parts.1, &state) { out.appendUTF8(done) }
      return 2
    }
    if let done = machine.press(Jamo(offset: offset), &state) { out.appendUTF8(done) }
    return 1
  }

  /// The run loop of a keyboard run by ``LayoutTyping``: ASCII keys and text.
  @inline(__always)
  private static func typeLayoutRun(
    _ input: UnsafePointer<UInt8>, _ position: inout Int, _ end: Int,
    _ table: UnsafeBufferPointer<UInt8>, _ layoutTyping: inout LayoutTyping,
    _ out: inout ByteCursor
  ) {
    while position < end {
      let byte = input[position]
      guard byte < 0x80 else { break }
      let action = table[Int(byte)]
      if action == AsciiKeyAction.layoutKey {
        if !layoutTyping.press(key: byte, at: 0, into: &out) { out.append(byte) }
      } else if action == AsciiKeyAction.text {
        layoutTyping.commit(into: &out)
        out.append(byte)
      } else {
        break
      }
      position += 1
    }
  }
}
