import Testing

@testable import HangulKit

/// The lines of a document away from the cursor: packed text (a Hangul
/// syllable in two bytes) in blocks of whole lines.
@Suite("Line stack and packed text")
struct LineStackTests {
  static func packed(_ text: String) -> [UInt8] {
    var packed: [UInt8] = []
    Array(text.utf8).withUnsafeBufferPointer { PackedText.append(packing: $0, to: &packed) }
    return packed
  }

  static func unpacked(_ packed: [UInt8]) -> (text: String, scalars: Int) {
    var utf8: [UInt8] = []
    let scalars = packed.withUnsafeBufferPointer { PackedText.append(unpacking: $0, to: &utf8) }
    return (String(decoding: utf8, as: UTF8.self), scalars)
  }

  /// Worked by hand: a syllable's index from U+AC00 is 255 × (lead − 0x80)
  /// plus its second byte, which skips 0x0A; everything else is its UTF-8.
  @Test(
    arguments: [
      ("\u{AC00}", [0x80, 0x00]),  // 가, index 0
      ("\u{AC09}", [0x80, 0x09]),  // index 9
      ("\u{AC0A}", [0x80, 0x0B]),  // index 10: 0x0A skipped
      ("\u{AC0B}", [0x80, 0x0C]),
      ("\u{ACFE}", [0x80, 0xFF]),  // index 254, the last of the first lead
      ("\u{ACFF}", [0x81, 0x00]),  // index 255
      ("\u{D7A3}", [0xAB, 0xCF]),  // 힣, index 11,171 = 43 × 255 + 206
      ("\u{D7A4}", [0xED, 0x9E, 0xA4]),  // after the syllables: UTF-8
      ("\u{ABFF}", [0xEA, 0xAF, 0xBF]),  // before them: UTF-8
      ("\u{1100}", [0xE1, 0x84, 0x80]),  // a conjoining jamo
      ("a", [0x61]),
      ("\u{E9}", [0xC3, 0xA9]),
      ("\u{1F600}", [0xF0, 0x9F, 0x98, 0x80]),
    ] as [(String, [UInt8])])
  func packsByHand(text: String, bytes: [UInt8]) {
    #expect(Self.packed(text) == bytes)
    #expect(Self.unpacked(bytes) == (text, 1))
  }

  @Test func everySyllableComesBackInTwoBytesWithoutANewline() {
    let syllables = String(
      String.UnicodeScalarView((0xAC00...0xD7A3).compactMap(Unicode.Scalar.init)))
    let packed = Self.packed(syllables)
    #expect(packed.count == 2 * 11_172)
    #expect(!packed.contains(0x0A))
    #expect(Self.unpacked(packed) == (syllables, 11_172))
  }

  static func line(_ text: String) -> GapLine {
    Array(text.utf8).withUnsafeBufferPointer { GapLine(utf8: $0) }
  }

  static func text(_ line: GapLine) -> String {
    var bytes: [UInt8] = []
    line.write(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  static let lines = ["", "가나다", "abc", "한글 \u{1F600}\u{E9}", "", "\u{D7A3}\u{AC0A}\u{AC0A}", "x"]

  /// Blocks of 1, 8 and 64 KiB bytes: a line per block and longer, several, all in one.
  @Test(arguments: [1, 8, 1 << 16])
  func popsWhatWasPushedLastFirst(blockSize: Int) {
    var stack = LineStack(blockSize: blockSize)
    for text in Self.lines { stack.push(Self.line(text)) }
    #expect(stack.lineCount == Self.lines.count)
    #expect(stack.scalarCount == Self.lines.reduce(0) { $0 + $1.unicodeScalars.count })
    var popped: [String] = []
    while let line = stack.popLast() {
      #expect(line.count == line.headCount, "the gap at the end")
      popped.append(Self.text(line))
    }
    #expect(popped == Self.lines.reversed())
    #expect(stack.isEmpty && stack.scalarCount == 0)
  }

  @Test(arguments: [1, 8, 1 << 16])
  func pushesAndPopsInTurns(blockSize: Int) {
    var stack = LineStack(blockSize: blockSize)
    var model: [String] = []
    for (step, text) in (Self.lines + Self.lines).enumerated() {
      stack.push(Self.line(text))
      model.append(text)
      if step % 3 == 2 {
        var bytes: [UInt8] = []
        let scalars = stack.popLast(appendingTo: &bytes)
        #expect(scalars == model.last?.unicodeScalars.count)
        #expect(String(decoding: bytes, as: UTF8.self) == model.removeLast())
      }
    }
    var whole: [UInt8] = []
    stack.drain(into: &whole) { _ in }
    #expect(String(decoding: whole, as: UTF8.self) == model.map { $0 + "\n" }.joined())
    let poppedFromEmpty = stack.popLast(appendingTo: &whole)
    #expect(stack.isEmpty && poppedFromEmpty == nil)
  }

  /// The cursor's line leaves for one stack and the top of the other
  /// takes its place in the same storage, its gap at its end.
  @Test(arguments: [8, 1 << 16])
  func popsIntoTheCursorLine(blockSize: Int) {
    var above = LineStack(blockSize: blockSize)
    var below = LineStack(blockSize: blockSize)
    for text in Self.lines { above.push(Self.line(text)) }
    var current = Self.line("커서 cursor")
    current.moveGap(to: 3)
    var seen: [String] = []
    while !above.isEmpty {
      below.push(current)
      let popped = above.popLast(into: &current)
      #expect(popped)
      #expect(current.headCount == current.count)
      seen.append(Self.text(current))
    }
    let poppedFromEmpty = above.popLast(into: &current)
    #expect(!poppedFromEmpty)
    #expect(seen == Self.lines.reversed())
    current.pushHead("!")
    var whole: [UInt8] = []
    current.write(to: &whole)
    while !below.isEmpty {
      whole.append(0x0A)
      below.popLast(appendingTo: &whole)
    }
    #expect(
      String(decoding: whole, as: UTF8.self)
        == "!" + Self.lines.dropFirst().map { "\n" + $0 }.joined() + "\n커서 cursor")
  }

  @Test func pushesTheHeadOfALine() {
    var line = Self.line("가나다라")
    line.moveGap(to: 2)
    var stack = LineStack()
    stack.push(head: line)
    #expect(stack.scalarCount == 2)
    let head = stack.popLast()
    #expect(head.map(Self.text) == "가나")
  }

  /// The lines come out in order, a part whenever `partSize` bytes are
  /// reached at a line's end, and the whole text is the same.
  @Test(arguments: [1, 8, 1 << 16], [1, 10, 1 << 20])
  func drainsInPartsAtLineEnds(blockSize: Int, partSize: Int) {
    var stack = LineStack(blockSize: blockSize)
    for text in Self.lines { stack.push(Self.line(text)) }
    var output: [UInt8] = []
    var parts: [[UInt8]] = []
    stack.drain(into: &output, partSize: partSize) { part in
      parts.append(part)
      part.removeAll()
    }
    let whole = parts.joined() + output
    #expect(String(decoding: whole, as: UTF8.self) == Self.lines.map { $0 + "\n" }.joined())
    #expect(parts.allSatisfy { $0.count >= partSize && $0.last == 0x0A })
    #expect(output.count < partSize)
    #expect(stack.isEmpty)
  }
}
