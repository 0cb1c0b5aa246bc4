extension JSONRecordSplitter {
  /// Where in the input the splitter is reading: the chunk's offset, the
  /// line, and a known column on that line, from which the column of any
  /// later byte on the line is counted (only when a message or a record
  /// needs one: most bytes never have their column counted).
  struct TextPosition: Sendable {
    /// The offset in the input of the current chunk's first byte.
    var chunkStart = 0
    /// The current line (1-based).
    var line = 1
    /// A known (offset in the input, column) on the current line.
    var anchorOffset = 0
    var anchorColumn = 1
    /// Whether the current line holds anything but whitespace so far.
    var lineHasContent = false

    /// The column (in characters) of the byte at `index` of the chunk,
    /// which is on the current line. O(bytes since the last column asked for).
    mutating func column(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
      let position = max(anchorOffset - chunkStart, 0)
      guard position < index, let base = bytes.baseAddress else { return anchorColumn }
      assert(index <= bytes.count, "the byte is in the chunk (or just after it)")
      let column = anchorColumn + ByteSearch.characterCount(in: base, from: position, to: index)
      anchorOffset = chunkStart + index
      anchorColumn = column
      return column
    }

    /// The byte at `index` of the chunk is a line feed.
    @inline(__always)
    mutating func newline(at index: Int) {
      line += 1
      anchorOffset = chunkStart + index + 1
      anchorColumn = 1
      lineHasContent = false
    }
  }
}
