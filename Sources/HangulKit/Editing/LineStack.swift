/// The lines of a ``DocumentEditor`` on one side of the cursor's line: a
/// stack of lines kept packed (``PackedText``: UTF-8 with a Hangul syllable
/// in two bytes), each followed by a newline, in blocks of about
/// ``defaultBlockSize`` bytes that hold whole lines.
///
/// One object a line (a ``GapLine`` and its array, about 100 bytes with
/// the allocator's headers and rounding) would cost as much as the text of
/// a line of prose; here a line costs its packed bytes and its newline, and
/// a block at most one line's worth of room at its end. Blocks rather than
/// one array, so that growing never copies the text (the old and the new
/// array would both be live at the peak). A line that leaves the stack
/// becomes a ``GapLine`` again: pushing and popping copy the line, which
/// moving the cursor onto another line costs once.
struct LineStack: Sendable {
  /// Bytes of 64 KiB: a line of prose is about a thousandth of it.
  static let defaultBlockSize = 1 << 16

  /// The lines, bottom first: each block holds whole lines, each followed
  /// by a newline (0x0A, which no packed line holds), and no block is empty.
  private var blocks: [[UInt8]] = []
  /// How many bytes a new block has room for (a longer line gets a block of its own).
  let blockSize: Int
  /// How many lines the stack holds.
  private(set) var lineCount = 0
  /// How many scalars its lines hold, newlines not counted.
  private(set) var scalarCount = 0

  init(blockSize: Int = defaultBlockSize) {
    self.blockSize = max(blockSize, 1)
  }

  var isEmpty: Bool { lineCount == 0 }

  /// Puts a copy of `line` on top.
  mutating func push(_ line: GapLine) {
    line.withParts { head, tail in
      push(bytes: head.count + tail.count, scalars: line.count) { block in
        PackedText.append(packing: head, to: &block)
        PackedText.append(packing: tail, to: &block)
      }
    }
  }

  /// Puts a copy of the part of `line` before its gap on top.
  mutating func push(head line: GapLine) {
    line.withParts { head, _ in
      push(bytes: head.count, scalars: line.headCount) { block in
        PackedText.append(packing: head, to: &block)
      }
    }
  }

  /// Appends a line of at most `bytes` bytes packed, and its newline, to
  /// the top block, or to a new one when the top block has not the room:
  /// appending never grows a block.
  private mutating func push(bytes: Int, scalars: Int, write: (inout [UInt8]) -> Void) {
    let needed = bytes + 1
    if blocks.last.map({ $0.capacity - $0.count < needed }) ?? true {
      var block: [UInt8] = []
      block.reserveCapacity(max(blockSize, needed))
      blocks.append(block)
    }
    let top = blocks.count - 1
    write(&blocks[top])
    blocks[top].append(0x0A)
    lineCount += 1
    scalarCount += scalars
  }

  /// Takes the top line off as a ``GapLine`` with its gap at its end.
  mutating func popLast() -> GapLine? {
    var utf8: [UInt8] = []
    guard popLast(appendingTo: &utf8) != nil else { return nil }
    return utf8.withUnsafeBufferPointer { GapLine(utf8: $0) }
  }

  /// Takes the top line off into `line`, in its storage, with its gap at
  /// its end (the cursor's line, just pushed onto the other stack); `false`
  /// when the stack is empty.
  @discardableResult
  mutating func popLast(into line: inout GapLine) -> Bool {
    guard !isEmpty else { return false }
    line.refill { storage in popLast(appendingTo: &storage) ?? 0 }
    return true
  }

  /// Takes the top line off and appends its UTF-8 (without its newline) to
  /// `output`; returns how many scalars, or `nil` when the stack is empty.
  @discardableResult
  mutating func popLast(appendingTo output: inout [UInt8]) -> Int? {
    guard !blocks.isEmpty else { return nil }
    let top = blocks.count - 1
    // Read in place: no second reference, so that the block is not copied
    // when its last line is removed below.
    let (start, scalars) = blocks[top].withUnsafeBufferPointer { bytes in
      assert(bytes.last == 0x0A, "the top block ends with a line's newline")
      let end = bytes.count - 1
      var start = end
      while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
      let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
      return (start, PackedText.append(unpacking: line, to: &output))
    }
    if start == 0 {
      blocks.removeLast()
    } else {
      blocks[top].removeSubrange(start...)
    }
    lineCount -= 1
    scalarCount -= scalars
    return scalars
  }

  /// Empties the stack bottom first into `output` as UTF-8 (the lines in
  /// their order, each followed by a newline): `take` gets `output`
  /// whenever it holds `partSize` bytes or more after a line, and each
  /// block is released once written.
  mutating func drain(
    into output: inout [UInt8], partSize: Int = .max, _ take: (inout [UInt8]) throws -> Void
  ) rethrows {
    for index in blocks.indices {
      try blocks[index].withUnsafeBufferPointer { bytes in
        assert(bytes.last == 0x0A, "a block ends with its last line's newline")
        var start = 0
        while start < bytes.count {
          var end = start
          while bytes[end] != 0x0A { end += 1 }
          // The newline is packed as itself: the line unpacks with it.
          PackedText.append(
            unpacking: UnsafeBufferPointer(rebasing: bytes[start...end]), to: &output)
          start = end + 1
          if output.count >= partSize { try take(&output) }
        }
      }
      blocks[index] = []
    }
    blocks = []
    lineCount = 0
    scalarCount = 0
  }
}
