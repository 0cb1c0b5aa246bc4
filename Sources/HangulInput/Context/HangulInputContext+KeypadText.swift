extension HangulInputContext {
  /// The end of the text this context committed that a later call may still
  /// take back (a phone keypad's press that retypes its run, or its Backspace
  /// that undoes a press): a caller that moves text out of reach (an editor
  /// that writes out an over-long line) keeps at least these bytes. Empty but
  /// on a keypad. O(the keypad's Backspace history).
  package var rewritableText: ArraySlice<UInt8> {
    guard let start = keypad?.rewritableStart(lineCount: keypadLine.count) else { return [] }
    return keypadLine[start...]
  }

  /// The bytes at the end of the committed text that the keypad's run in
  /// progress may still retype (0 with no run, and on other keyboards).
  package var runTextCount: Int {
    guard let start = keypad?.runStartInLine(lineCount: keypadLine.count) else { return 0 }
    return keypadLine.count - start
  }

  /// The presses that type `scalar` on a phone keypad: the key it labels,
  /// else the fewest presses that type the jamo; `nil` for other scalars and
  /// on other keyboards.
  package func keypadPresses(typing scalar: Unicode.Scalar) -> [UInt8]? {
    keypad?.presses(typing: scalar)
  }

  /// Forgets what Backspace could undo and all but the last `count` bytes of
  /// the committed text a keypad may retype: the caller took the rest out of
  /// reach. What is being composed stays.
  package mutating func settle(keepingLast count: Int) {
    keystrokes.clear()
    guard keypad != nil else { return }
    let dropped = max(0, keypadLine.count - count)
    keypadLine.removeSubrange(..<dropped)
    keypad?.forget(firstBytes: dropped)
  }
}
