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
public struct ComposeFilter: ByteFilter, StreamingFilter {
  package private(set) var editor: LineEditor
  public let keys: KeyEncoding
  /// Whether characters and syllables written are counted (for `--stats`).
  package let countsOutput: Bool
  private var decoder = UTF8Stream()
  private var interpreter: KeyInterpreter
  private var recorder = StatisticsRecorder()
  /// What each ASCII byte does (``AsciiKeyAction``).
  private let asciiActions: [AsciiKeyAction]
  /// Where a run of text or keys is composed before it goes into the line at once.
  private var scratch: [UInt8] = []
  /// Whether every printable ASCII character is text (not a key), so that
  /// NFD text and ASCII go through ``ConjoiningSyllableKernel``.
  private let composesNFDFast: Bool
  /// Whether the last chunk was UTF-8 (but for a sequence cut off at its end).
  package private(set) var lastChunkWasUTF8 = false

  public init(
    keys: KeyEncoding = .jamo, keyboard: Keyboard = .twoSet,
    options: ComposerOptions = ComposerOptions(),
    maximumLineLength: Int = EditingDefaults.maximumLineLength, countsOutput: Bool = true,
    transitionStateLimit: Int = EditingDefaults.transitionStateLimit
  ) {
    self.keys = keys
    self.countsOutput = countsOutput
    interpreter = KeyInterpreter(keys: keys, keyboard: keyboard)
    editor = LineEditor(
      keyboard: keyboard, options: options, maximumLineLength: maximumLineLength,
      transitionStateLimit: transitionStateLimit)
    let keysArePositions = editor.context.automaton.keysAreLayoutPositions
    asciiActions = (0..<128).map { code in
      switch code {
      case 0x0A, 0x08, 0x7F: return .other
      case 0x20...0x7E where keys == .qwerty && keysArePositions:
        return keyboard.layout.value(forKey: UInt8(code)) != 0 ? .layoutKey : .text
      case 0x41...0x5A where keys == .qwerty, 0x61...0x7A where keys == .qwerty:
        guard let jamo = keyboard.jamo(forASCII: UInt8(code)) else { return .text }
        // A key typing a compound jamo (two steps) goes the general way.
        return JamoTables.compoundParts[Int(jamo.offset)] == nil ? .jamoKey(jamo) : .other
      default: return .text
      }
    }
    composesNFDFast = asciiActions[0x20...0x7E].allSatisfy { $0 == .text }
  }

  /// What was typed and written so far: the whole log is one document.
  package var statistics: StatisticsReport {
    var current = recorder
    current.finishDocument(editor: editor)
    return current.report
  }

  /// Takes over `earlier`'s key transition tables (see
  /// ``LineEditor/reuseTransitions(of:)``): a piece of a parallel run starts
  /// with the steps the piece before it on its thread learned.
  package mutating func reuseCaches(of earlier: ComposeFilter) {
    editor.reuseTransitions(of: earlier.editor)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    lastChunkWasUTF8 = true
    var position = 0
    if decoder.isCarrying {
      // A sequence cut off at the end of the last chunk: finish it slowly,
      // with just the bytes it needs.
      let head = min(decoder.bytesNeeded, chunk.count)
      decode(UnsafeBufferPointer(rebasing: chunk[..<head]), isLast: false)
      position = head
      if decoder.isCarrying {
        // Still cut off (a tiny chunk, or bytes that are not UTF-8): the rest
        // of this chunk goes the slow way too.
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
      if composesNFDFast, lead == 0xE1 || lead &- 0x20 < 0x5F || lead == 0x0A,
        count - position >= ConjoiningSyllableKernel.lookahead, editor.isIdle,
        composeLines(chunk, &position)
      {
        continue
      }
      if lead < 0x80 {
        let action = asciiActions[Int(lead)]
        // Keys and text: typed as a run, written through a pointer (not with
        // a keystroke Backspace, which needs the state before every key: the
        // run would take nothing, and only asking costs a fifth of the time).
        if action != .other, !editor.undoesKeystrokes {
          let run = editor.typeKeyRun(
            chunk, from: position, actions: asciiActions, scratch: &scratch)
          if run.end > position {
            recorder.current.keystrokes += run.keystrokes
            position = run.end
            continue
          }
        }
        if action == .layoutKey {
          editor.press(key: lead)
          recorder.current.keystrokes += 1
          position += 1
        } else if let jamo = action.jamo {
          editor.press(jamo)
          recorder.current.keystrokes += 1
          position += 1
        } else if action == .text {
          var end = position + 1
          while end < count, chunk[end] < 0x80, asciiActions[Int(chunk[end])] == .text {
            end += 1
          }
          if end < count, chunk[end] >= 0x80 {
            // Text goes on past ASCII: compose it as one run.
            insertTextRun(chunk, &position)
          } else {
            editor.insert(text: UnsafeBufferPointer(rebasing: chunk[position..<end]))
            recorder.current.keystrokes += end - position
            position = end
          }
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
          // A compatibility jamo key: with the keys after it as a run where it can.
          let run =
            editor.undoesKeystrokes
            ? (end: position, keystrokes: 0)
            : editor.typeKeyRun(chunk, from: position, actions: asciiActions, scratch: &scratch)
          if run.end > position {
            recorder.current.keystrokes += run.keystrokes
            position = run.end
            continue
          }
          let jamo = Jamo(offset: UInt8(value - Jamo.firstScalarValue))
          editor.press(jamo)
          recorder.current.keystrokes += JamoTables.compoundParts[Int(jamo.offset)] == nil ? 1 : 2
          position += 3
          continue
        }
        if Self.isText(value, lead: lead, chunk, at: position) {
          // Text (syllables, NFD, other characters): composed as a run.
          insertTextRun(chunk, &position)
          continue
        }
      } else if lead >= 0xC2, lead < 0xE0 || lead >= 0xF0,
        Self.isText(0, lead: lead, chunk, at: position)
      {
        insertTextRun(chunk, &position)
        continue
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
      lastChunkWasUTF8 = false
    case .incomplete:
      decode(UnsafeBufferPointer(rebasing: chunk[position...]), isLast: false)
      position = chunk.count
    }
  }

  /// Composes NFD Korean, ASCII text and newlines from `position` (nothing
  /// being composed) with ``ConjoiningSyllableKernel`` straight into one
  /// buffer, and hands it to the editor at once
  /// (``LineEditor/insert(lines:)``): where the line cannot outgrow
  /// ``LineEditor/maximumLineLength`` before the chunk ends, text runs and
  /// newlines only append to the line and the output. Under a shorter limit
  /// only whole lines no longer than it go, from a line start (a longer line
  /// is flushed in pieces by the general path). Returns whether it took
  /// anything.
  ///
  /// O(n): the kernel's steps (a newline test per line under a short
  /// limit), one copy per call.
  private mutating func composeLines(_ chunk: UnsafeBufferPointer<UInt8>, _ position: inout Int)
    -> Bool
  {
    let count = chunk.count
    let room = count - position + ConjoiningSyllableKernel.outputSlack
    if scratch.count < room {
      scratch = [UInt8](
        repeating: 0, count: max(room, count + ConjoiningSyllableKernel.outputSlack))
    }
    let limit = count - ConjoiningSyllableKernel.lookahead
    let maximum = editor.maximumLineLength
    let start = position
    if editor.line.count + (count - start) <= maximum {
      // Nothing this chunk holds can make the line too long: one run, its
      // lines ended and its last line started as the general path would.
      let stop = scratch.withUnsafeMutableBufferPointer { buffer in
        guard let out = buffer.baseAddress, let input = chunk.baseAddress else {
          return ConjoiningSyllableKernel.Stop(position: start, written: 0, asciiBytes: 0)
        }
        return ConjoiningSyllableKernel.runTakingNewlines(
          input, from: start, limit: limit, out, written: 0)
      }
      guard stop.position > start else { return false }
      scratch.withUnsafeBufferPointer {
        editor.insert(lines: UnsafeBufferPointer(rebasing: $0[..<stop.written]))
      }
      // Each ASCII byte (a newline too) is a keystroke, and so is each conjoining jamo.
      recorder.current.keystrokes +=
        stop.characters(from: start)
      position = stop.position
      return true
    }
    guard editor.isAtLineStart else { return false }
    // Where the last whole line ends: input, buffer, keystrokes so far.
    var lineEnd = (position: start, written: 0, keystrokes: 0)
    scratch.withUnsafeMutableBufferPointer { buffer in
      guard let out = buffer.baseAddress, let input = chunk.baseAddress else { return }
      var stop = lineEnd
      while stop.position <= limit {
        let run = ConjoiningSyllableKernel.runStoppingAtControls(
          input, from: stop.position, limit: limit, out, written: stop.written)
        stop.keystrokes += run.characters(from: stop.position)
        stop.position = run.position
        stop.written = run.written
        guard stop.position < count, input[stop.position] == 0x0A,
          stop.written - lineEnd.written <= maximum
        else { break }
        out[stop.written] = 0x0A
        stop.written += 1
        stop.position += 1
        stop.keystrokes += 1
        lineEnd = stop
      }
    }
    guard lineEnd.written > 0 else { return false }
    scratch.withUnsafeBufferPointer {
      editor.appendLines(UnsafeBufferPointer(rebasing: $0[..<lineEnd.written]))
    }
    recorder.current.keystrokes += lineEnd.keystrokes
    position = lineEnd.position
    return true
  }

  /// Whether the scalar at `position` (`value`, for a three-byte sequence)
  /// starts text that a text run can take: not a key, not a control character,
  /// not a conjoining vowel or final (those compose with what is before
  /// them). Two- and four-byte sequences are text when well formed.
  @inline(__always)
  private static func isText(
    _ value: UInt32, lead: UInt8, _ chunk: UnsafeBufferPointer<UInt8>, at position: Int
  ) -> Bool {
    if lead < 0xE0 || lead >= 0xF0 {
      if case .scalar = UTF8Stream.step(chunk, at: position) { return true }
      return false
    }
    switch value {
    case 0x1160...0x11FF, 0xD7B0...0xD7FF: return false  // vowels and finals
    case 0x3131...0x3163: return false  // compatibility jamo: keys
    case KeyLogControl.separator.value, KeyLogControl.literalPrefix.value: return false
    case 0xD800...0xDFFF, ..<0x800: return false  // not well formed
    default: return true
    }
  }

  /// Composes a run of text from `position` into the scratch buffer (NFD
  /// initial + vowel (+ final) sequences become syllables; everything else is
  /// copied) and inserts it into the line at once. The run ends at a key, a
  /// Backspace, a newline, a control character, a conjoining vowel or final
  /// that does not follow an initial, an ill-formed or cut-off sequence, or
  /// where the line could grow past ``LineEditor/maximumLineLength``: the
  /// run never flushes, so a character that takes the line past the limit
  /// goes the slow way and the line is flushed after it, whatever the chunks.
  private mutating func insertTextRun(_ chunk: UnsafeBufferPointer<UInt8>, _ position: inout Int) {
    // The text ends the syllable first; then the run writes at most the
    // bytes it reads, so it reads no more than the line has room for.
    editor.endSyllable()
    let lineRoom = editor.maximumLineLength - editor.line.count
    let whole = chunk
    let chunk =
      chunk.count - position <= lineRoom
      ? chunk : UnsafeBufferPointer(rebasing: chunk[..<(position + max(lineRoom, 0))])
    let room = chunk.count + ConjoiningSyllableKernel.outputSlack
    if scratch.count < room { scratch = [UInt8](repeating: 0, count: room) }
    var buffer: [UInt8] = []
    swap(&buffer, &scratch)
    defer { swap(&buffer, &scratch) }
    var written = 0
    var characters = 0
    let start = position
    let actions = asciiActions
    let composesNFDFast = composesNFDFast
    buffer.withUnsafeMutableBufferPointer { pointer in
      guard let out = pointer.baseAddress, let input = chunk.baseAddress else { return }
      let count = chunk.count
      while position < count {
        let lead = chunk[position]
        if composesNFDFast, lead == 0xE1 || lead < 0x80,
          position + ConjoiningSyllableKernel.lookahead <= count
        {
          // NFD syllables and ASCII text, as the steps below take them, by
          // the kernel (which writes at most what it reads: the buffer is as
          // long as the chunk and the kernel's slack).
          let stop = ConjoiningSyllableKernel.runStoppingAtControls(
            input, from: position, limit: count - ConjoiningSyllableKernel.lookahead, out,
            written: written)
          if stop.position > position {
            characters += stop.characters(from: position)
            written = stop.written
            position = stop.position
            continue
          }
        }
        if lead < 0x80 {
          guard actions[Int(lead)] == .text else { return }
          out[written] = lead
          written += 1
          position += 1
          characters += 1
          continue
        }
        if lead >= 0xEA, lead <= 0xED, position + 2 < count {
          // A precomposed syllable, copied as it is.
          let second = chunk[position + 1]
          let third = chunk[position + 2]
          let value = UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
          if second & 0xC0 == 0x80, third & 0xC0 == 0x80,
            value &- HangulSyllable.firstScalarValue < UInt32(HangulSyllable.count)
          {
            out[written] = lead
            out[written + 1] = second
            out[written + 2] = third
            written += 3
            position += 3
            characters += 1
            continue
          }
        }
        if lead == 0xE1, position + 5 < count, chunk[position + 1] == 0x84,
          chunk[position + 2] & 0xC0 == 0x80, chunk[position + 2] < 0x93
        {
          // NFD: an initial (U+1100–U+1112) and, if one follows, its vowel and final.
          let initial = 0x1100 | UInt32(chunk[position + 2] & 0x3F)
          if let syllable = Self.conjoinedSyllable(initial, chunk, after: position + 3) {
            Self.writeThreeBytes(syllable.value, to: out, at: &written)
            position += syllable.length
            characters += syllable.length / 3
            continue
          }
        }
        guard case .scalar(let value, let length) = UTF8Stream.step(chunk, at: position) else {
          return
        }
        if length == 3, value &- 0x1100 < 19,
          let syllable = Self.conjoinedSyllable(value, chunk, after: position + 3)
        {
          Self.writeThreeBytes(syllable.value, to: out, at: &written)
          position += syllable.length
          characters += syllable.length / 3
          continue
        }
        guard length != 3 || Self.isText(value, lead: lead, chunk, at: position) else { return }
        for offset in 0..<length { out[written + offset] = chunk[position + offset] }
        written += length
        position += length
        characters += 1
      }
    }
    if position == start {
      // Nothing a run can take here (an initial cut off from its vowel, a
      // character with no room left in the line): the slow way.
      slowStep(whole, &position)
      return
    }
    buffer.withUnsafeBufferPointer {
      editor.insert(text: UnsafeBufferPointer(rebasing: $0[..<written]))
    }
    recorder.current.keystrokes += characters
  }

  /// Writes a scalar of U+0800–U+FFFF as its three UTF-8 bytes.
  @inline(__always)
  private static func writeThreeBytes(
    _ value: UInt32, to out: UnsafeMutablePointer<UInt8>, at written: inout Int
  ) {
    out[written] = UInt8(0xE0 | value >> 12)
    out[written + 1] = UInt8(0x80 | value >> 6 & 0x3F)
    out[written + 2] = UInt8(0x80 | value & 0x3F)
    written += 3
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
      if case .invalidByte = unit { lastChunkWasUTF8 = false }
      recorder.current.keystrokes += interpreter.apply(unit, to: &editor)
    }
    self.decoder = decoder
  }

  private mutating func drain(into output: inout [UInt8]) {
    if countsOutput { recorder.count(output: editor.output) }
    if output.isEmpty, output.capacity <= 4 * editor.output.capacity {
      // The usual case (the runner empties its buffer after each write):
      // hand over the editor's buffer instead of copying it. A buffer with
      // room for many blocks (a parallel piece's, reserved for the whole
      // piece) is kept: given to the editor, it would leave the piece's
      // output to grow by copies into fresh pages.
      swap(&output, &editor.output)
    } else {
      output.append(contentsOf: editor.output)
    }
    editor.output.removeAll(keepingCapacity: true)
  }
}
