/// What a text log's ASCII byte does, as ``ComposeFilter`` tabulates it per
/// keyboard and key encoding (128 entries) for ``LineEditor/typeKeyRun(_:from:actions:scratch:)``:
///
///     let actions: [AsciiKeyAction] = …        // for --keys qwerty on the 2-set keyboard
///     actions[0x72] == .jamoKey(Jamo("ㄱ"))    // r
///     actions[0x20] == .text                   // a space
///
/// One byte, so that the table costs one load per key; its ``column`` is
/// the row of ``KeyRunTables/jamoKeyClasses`` that gives the key's column.
struct AsciiKeyAction: Equatable {
  /// The row in the key-class table: 0 text, 1 other, 2 + a jamo's offset,
  /// 0xFF a layout key.
  let column: UInt8

  private init(column: UInt8) { self.column = column }

  /// Text that composes with nothing: it ends the syllable and is copied.
  static let text = AsciiKeyAction(column: 0)
  /// Anything else (newline, Backspace): through the ``KeyInterpreter``.
  static let other = AsciiKeyAction(column: 1)
  /// A key of a keyboard whose keys are layout positions (``LineEditor/press(key:)``).
  static let layoutKey = AsciiKeyAction(column: 0xFF)

  /// A jamo key of the 2-set automaton (never a compound jamo such as ㅘ,
  /// which takes two steps: that key is ``other``).
  static func jamoKey(_ jamo: Jamo) -> AsciiKeyAction { AsciiKeyAction(column: jamo.offset + 2) }

  /// The row of the jamo key of `offset`, which may be a compound jamo's
  /// (its second key's row is 64 further on).
  static func row(ofJamoOffset offset: Int) -> Int { offset + 2 }

  /// The jamo a ``jamoKey(_:)`` types; `nil` for the other actions.
  var jamo: Jamo? { column >= 2 && column != 0xFF ? Jamo(offset: column - 2) : nil }
}

extension LineEditor {
  /// The most input bytes one run takes (it bounds the scratch buffer).
  static let keyRunLength = 4096

  /// Types a run of keys and ASCII text from `start`, as ``press(_:)``,
  /// ``press(key:)`` and ``insert(text:)`` would one at a time, but through
  /// the automaton's ``KeyTransitionTable`` (one load per key), writing what
  /// it commits through a pointer into `scratch` and appending that to the
  /// line at once. The run ends before a newline, a Backspace, any character
  /// other than ASCII and (on the 2-set automaton) compatibility jamo, a
  /// sequence cut off at the end of the chunk, or where the line could grow
  /// past ``maximumLineLength`` (so a long line is flushed exactly where the
  /// slow path flushes it). `actions` holds an ``AsciiKeyAction`` per ASCII
  /// code, the same on every call. Returns where the run ended (`start` when it took nothing: with
  /// `--backspace keystroke` it takes nothing) and the keystrokes typed.
  ///
  ///     var editor = LineEditor()
  ///     var scratch: [UInt8] = []
  ///     // actions from ComposeFilter: "rk" are keys ㄱ ㅏ
  ///     _ = Array("rk".utf8).withUnsafeBufferPointer {
  ///       editor.typeKeyRun($0, from: 0, actions: actions, scratch: &scratch)
  ///     }   // (end: 2, keystrokes: 2), 가 being composed
  ///
  /// O(n) in the run, with no per-key call, allocation or capacity check; a
  /// step the table does not know yet runs the automaton once.
  mutating func typeKeyRun(
    _ chunk: UnsafeBufferPointer<UInt8>, from start: Int, actions: [AsciiKeyAction],
    scratch: inout [UInt8]
  ) -> (end: Int, keystrokes: Int) {
    guard !undoesKeystrokes else { return (start, 0) }
    // What one input byte can write at most: a syllable of three conjoining
    // jamo and a symbol on a layout keyboard; a syllable and a byte on 2-set.
    let bytesPerInputByte = context.automaton.writesConjoiningJamo ? 16 : 4
    let room = (maximumLineLength - line.count) / bytesPerInputByte
    let end = min(chunk.count, start + min(room, Self.keyRunLength))
    guard end > start, let input = chunk.baseAddress else { return (start, 0) }
    // A table entry stores its bytes as one 4-byte word: room for the last one.
    let needed = (end - start) * bytesPerInputByte + 4
    if scratch.count < needed { scratch = [UInt8](repeating: 0, count: needed) }
    var position = start
    var keystrokes = 0
    var written = 0
    // The tables hold the states of the automaton the context runs (a
    // keypad, which may retype committed text, has none: it goes the general way).
    switch context.automaton {
    case .syllable:
      keystrokes = typeJamoRun(input, &position, end, actions, &scratch, &written)
    case .layout:
      typeLayoutRun(input, &position, end, actions, &scratch, &written)
      keystrokes = position - start
    default:
      return (start, 0)
    }
    scratch.withUnsafeBufferPointer {
      line.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<written]))
    }
    return (position, keystrokes)
  }

  /// A run on the 2-set automaton (``SyllableComposer``): ASCII keys and
  /// text, and compatibility jamo keys, through ``jamoTransitions``. Returns
  /// the keystrokes typed.
  private mutating func typeJamoRun(
    _ input: UnsafePointer<UInt8>, _ position: inout Int, _ end: Int, _ actions: [AsciiKeyAction],
    _ scratch: inout [UInt8], _ written: inout Int
  ) -> Int {
    var state = runs.jamoTransitions.index(
      of: context.syllable.state, hint: runs.lastTransitionState)
    var keystrokes = 0
    while true {
      // A step the table does not know yet: its state and column.
      var missingState = state
      let missing = scratch.withUnsafeMutableBufferPointer { buffer in
        runs.jamoTransitions.entries.withUnsafeBufferPointer { entries in
          runs.jamoTransitions.writes.withUnsafeBufferPointer { writes in
            runs.jamoTransitions.longWrites.withUnsafeBufferPointer { longWrites in
              actions.withUnsafeBufferPointer { table in
                runs.jamoKeyClasses.withUnsafeBufferPointer { classes in
                  Self.runJamoTable(
                    input, &position, end, table, classes,
                    Tables(
                      entries: entries, writes: writes, longWrites: longWrites,
                      width: runs.jamoTransitions.width),
                    &state, &missingState, buffer, &written, &keystrokes)
                }
              }
            }
          }
        }
      }
      guard missing >= 0 else { break }
      let machine = context.syllable.machine
      let jamo = Jamo(offset: runs.jamoOfKeyClass[missing])
      let current = runs.jamoTransitions.state(at: state)
      let stored = runs.jamoTransitions.resolve(state: &missingState, keyClass: missing) {
        syllable, bytes in
        if missing == 0 {
          // Text: the run writes the byte itself.
          if let done = machine.commit(&syllable) { bytes.appendUTF8(done) }
        } else if let done = machine.press(jamo, &syllable) {
          bytes.appendUTF8(done)
        }
      }
      // The table may have started over: the run goes on from the state's new row.
      state = runs.jamoTransitions.index(of: current, hint: state)
      // A step the table cannot hold ends the run: it goes the general way.
      guard stored else { break }
    }
    context.syllable.restore(runs.jamoTransitions.state(at: state))
    runs.lastTransitionState = state
    return keystrokes
  }

  /// The tables a run reads, as pointers.
  private struct Tables {
    let entries: UnsafeBufferPointer<UInt16>
    let writes: UnsafeBufferPointer<UInt32>
    let longWrites: UnsafeBufferPointer<UInt8>
    let width: Int
  }

  /// One known step from `state` on `keyClass`: writes, moves to the next
  /// state and returns `true`; `false` when the table does not know it.
  @inline(__always)
  private static func step(
    _ state: inout Int, _ keyClass: Int, _ entries: UnsafePointer<UInt16>,
    _ writes: UnsafePointer<UInt32>, _ longWrites: UnsafePointer<UInt8>, _ width: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ written: inout Int
  ) -> Bool {
    let entry = entries[state &* width &+ keyClass]
    if entry == 0 { return false }
    let slot = Int(truncatingIfNeeded: entry >> 13 & 3)
    KeyTransitionTable<CompositionState>.put(
      writes[state &<< 2 &+ slot], longWrites: longWrites, to: out, at: &written)
    state = Int(truncatingIfNeeded: entry & 0x1FFF)
    return true
  }

  /// The loop of ``typeJamoRun``: returns the column of a step the table does
  /// not know yet (from `missingState`, with `position` at its key), or -1
  /// where the run ends.
  @inline(__always)
  private static func runJamoTable(
    _ input: UnsafePointer<UInt8>, _ position: inout Int, _ end: Int,
    _ actions: UnsafeBufferPointer<AsciiKeyAction>, _ classes: UnsafeBufferPointer<UInt8>,
    _ tables: Tables, _ state: inout Int, _ missingState: inout Int,
    _ buffer: UnsafeMutableBufferPointer<UInt8>, _ written: inout Int, _ keystrokes: inout Int
  ) -> Int {
    guard let entries = tables.entries.baseAddress, let writes = tables.writes.baseAddress,
      let longs = tables.longWrites.baseAddress, let action = actions.baseAddress,
      let keyClasses = classes.baseAddress, let out = buffer.baseAddress
    else { return -1 }
    let width = tables.width
    var start = position
    defer { keystrokes &+= position &- start }
    while position < end {
      let byte = input[position]
      if byte < 0x80 {
        let keyClass = Int(keyClasses[Int(action[Int(byte)].column)])
        guard keyClass != 0xFF else { return -1 }
        missingState = state
        guard step(&state, keyClass, entries, writes, longs, width, out, &written) else {
          return keyClass
        }
        if keyClass == 0 {
          out[written] = byte
          written &+= 1
        }
        position &+= 1
        continue
      }
      // A compatibility jamo key (U+3131–U+3163), whole in the run.
      guard byte == 0xE3, position + 2 < end else { return -1 }
      let second = input[position + 1]
      let third = input[position + 2]
      guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return -1 }
      let offset =
        (0x3000 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)) &- Jamo.firstScalarValue
      guard offset < UInt32(Jamo.count) else { return -1 }
      let index = AsciiKeyAction.row(ofJamoOffset: Int(offset))
      let first = Int(keyClasses[index])
      let next = Int(keyClasses[index &+ 64])
      // Both steps of a compound jamo must be known before either is taken.
      missingState = state
      let firstEntry = entries[state &* width &+ first]
      if firstEntry == 0 { return first }
      if next != 0xFF {
        let middle = Int(
          truncatingIfNeeded: firstEntry & KeyTransitionTable<CompositionState>.stateMask)
        if entries[middle &* width &+ next] == 0 {
          missingState = middle
          return next
        }
        _ = step(&state, first, entries, writes, longs, width, out, &written)
        _ = step(&state, next, entries, writes, longs, width, out, &written)
        // Three bytes, two keystrokes.
        start &-= 1
      } else {
        _ = step(&state, first, entries, writes, longs, width, out, &written)
      }
      // Three bytes, one keystroke.
      start &+= 2
      position &+= 3
    }
    return -1
  }

  /// A run on the layout automaton (``LayoutComposer``): ASCII keys and text,
  /// through ``layoutTransitions``.
  private mutating func typeLayoutRun(
    _ input: UnsafePointer<UInt8>, _ position: inout Int, _ end: Int, _ actions: [AsciiKeyAction],
    _ scratch: inout [UInt8], _ written: inout Int
  ) {
    if runs.layoutRunClasses.isEmpty { prepareLayoutRuns(actions) }
    var state = runs.layoutTransitions.index(
      of: context.layout.buffer, hint: runs.lastTransitionState)
    while true {
      let missing = scratch.withUnsafeMutableBufferPointer { buffer in
        runs.layoutTransitions.entries.withUnsafeBufferPointer { entries in
          runs.layoutTransitions.writes.withUnsafeBufferPointer { writes in
            runs.layoutTransitions.longWrites.withUnsafeBufferPointer { longWrites in
              runs.layoutRunClasses.withUnsafeBufferPointer { classes in
                runs.layoutRunWrites.withUnsafeBufferPointer { afterWrites in
                  Self.runLayoutTable(
                    input, &position, end, classes, afterWrites,
                    Tables(
                      entries: entries, writes: writes, longWrites: longWrites,
                      width: runs.layoutTransitions.width),
                    &state, buffer, &written)
                }
              }
            }
          }
        }
      }
      guard missing >= 0 else { break }
      var composer = context.layout
      let code = runs.layoutClassCodes[missing]
      let stored = runs.layoutTransitions.resolve(state: &state, keyClass: missing) {
        buffer, bytes in
        composer.restore(buffer)
        if missing == 0 {
          // Text, or a key that only types a symbol: the run writes it.
          composer.commit(into: &bytes)
        } else if !composer.press(key: code, into: &bytes) {
          bytes.append(code)
        }
        buffer = composer.buffer
      }
      // A step the table cannot hold ends the run: it goes the general way.
      guard stored else { break }
    }
    context.layout.restore(runs.layoutTransitions.state(at: state))
    runs.lastTransitionState = state
  }

  /// Works out ``layoutRunClasses`` and ``layoutRunWrites`` from the
  /// ``AsciiKeyAction`` of each ASCII code (once: a filter's actions never
  /// change), so that a key of a layout run costs one load for its column.
  private mutating func prepareLayoutRuns(_ actions: [AsciiKeyAction]) {
    var classes = [UInt8](repeating: 0xFF, count: 128)
    var afterWrites = [UInt32](repeating: 0, count: 128)
    for code in 0..<min(128, actions.count) {
      switch actions[code] {
      case .layoutKey:
        classes[code] = runs.layoutKeyClasses[code]
        // Column 0: a key that only types a symbol (commit, then the symbol).
        if classes[code] == 0 { afterWrites[code] = runs.layoutSymbolWrites[code] }
      case .text:
        classes[code] = 0
        afterWrites[code] = 1 << 24 | UInt32(code)
      default: break
      }
    }
    runs.layoutRunClasses = classes
    runs.layoutRunWrites = afterWrites
  }

  /// The loop of ``typeLayoutRun``: returns the column of a step the table
  /// does not know yet (with `position` at its key), or -1 where the run ends.
  /// Per key: its column, the entry, the write of the entry and the write
  /// after it (0 bytes but for column 0), with no branch on the kind of key.
  @inline(__always)
  private static func runLayoutTable(
    _ input: UnsafePointer<UInt8>, _ position: inout Int, _ end: Int,
    _ classes: UnsafeBufferPointer<UInt8>, _ afterWrites: UnsafeBufferPointer<UInt32>,
    _ tables: Tables, _ state: inout Int, _ buffer: UnsafeMutableBufferPointer<UInt8>,
    _ written: inout Int
  ) -> Int {
    guard let entries = tables.entries.baseAddress, let writes = tables.writes.baseAddress,
      let longs = tables.longWrites.baseAddress, let keyClasses = classes.baseAddress,
      let after = afterWrites.baseAddress, let out = buffer.baseAddress
    else { return -1 }
    let width = tables.width
    while position < end {
      let byte = input[position]
      guard byte < 0x80 else { return -1 }
      let keyClass = Int(keyClasses[Int(byte)])
      guard keyClass != 0xFF else { return -1 }
      guard step(&state, keyClass, entries, writes, longs, width, out, &written) else {
        return keyClass
      }
      // What column 0 (commit) writes after the syllable: the text byte, or
      // the symbol of a key that only types one; nothing after other keys.
      let word = after[Int(byte)]
      UnsafeMutableRawPointer(out + written).storeBytes(of: word.littleEndian, as: UInt32.self)
      written &+= Int(truncatingIfNeeded: word >> 24)
      position &+= 1
    }
    return -1
  }
}
