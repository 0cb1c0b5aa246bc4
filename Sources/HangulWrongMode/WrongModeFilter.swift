import HangulKit

/// Finds text typed in the wrong 한/영 mode, line by line, as a
/// ``ByteFilter``: in ``Mode/fix`` it writes the text with each span replaced
/// by what it meant and every other byte as it came (bytes that are not
/// UTF-8 included); in ``Mode/check`` it writes nothing. Either way the spans
/// go to ``findings``, with their line and column, for the program to write.
///
///     let lexicon = try WrongModeLexicon(typing: WrongModeTyping(keyboard: .twoSet))
///     var filter = WrongModeFilter(lexicon: lexicon, mode: .fix)
///     try filter.filtered(Array("iPhone 15 dkssud gktpdy!\n".utf8))
///     // "iPhone 15 안녕 하세요!\n"; filter.findings.take(): two spans, columns 11 and 18
///
/// A line starts afresh (nothing is judged across a newline), so a
/// ``ParallelFilterRunner`` may cut the input at any newline. Memory: the
/// line being read, up to ``segmentLimit`` bytes; a longer line is judged in
/// pieces cut at white space (or, with none, at a character boundary).
public struct WrongModeFilter: ByteFilter {
  public enum Mode: Sendable {
    /// Find the spans; write no text.
    case check
    /// Write the text with the spans replaced.
    case fix
  }

  public static let segmentLimit = 64 * 1024

  public let mode: Mode
  /// The spans found, until the program takes them.
  public let findings: WrongModeFindings
  private var scanner: WrongModeScanner
  /// The bytes of the current line not judged yet.
  private var pending: [UInt8] = []
  private var line = 1
  /// The column of the first character of `pending`.
  private var column = 1
  private var file = "(standard input)"

  public init(
    lexicon: WrongModeLexicon, options: WrongModeOptions = WrongModeOptions(), mode: Mode,
    findings: WrongModeFindings = WrongModeFindings()
  ) {
    self.mode = mode
    self.findings = findings
    scanner = WrongModeScanner(judge: WrongModeJudge(lexicon: lexicon, options: options))
  }

  public mutating func beginInput(named name: String) {
    file = name
    line = 1
    column = 1
    pending.removeAll(keepingCapacity: true)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8])
    throws
  {
    var start = 0
    while start < chunk.count {
      guard let newline = Self.index(of: 0x0A, in: chunk, from: start) else {
        pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start...]))
        if pending.count > Self.segmentLimit { judgeHead(into: &output) }
        return
      }
      let rest = UnsafeBufferPointer(rebasing: chunk[start..<newline])
      if pending.isEmpty {
        judge(rest, into: &output)
      } else {
        pending.append(contentsOf: rest)
        judgePending(upTo: pending.count, into: &output)
      }
      if mode == .fix { output.append(0x0A) }
      line += 1
      column = 1
      start = newline + 1
    }
  }

  public mutating func finish(into output: inout [UInt8]) throws {
    judgePending(upTo: pending.count, into: &output)
  }

  public mutating func reuseCaches(of earlier: WrongModeFilter) {
    scanner.judge.englishCache.adopt(earlier.scanner.judge.englishCache)
    scanner.judge.koreanCache.adopt(earlier.scanner.judge.koreanCache)
  }

  /// Judges a piece of the current line.
  private mutating func judge(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    column += scanner.scan(
      bytes, line: line, column: column, file: file, findings: findings,
      writesText: mode == .fix, into: &output)
  }

  /// Judges the head of a long line held in `pending`, up to its last white
  /// space (or a character boundary near its end), and keeps the rest.
  private mutating func judgeHead(into output: inout [UInt8]) {
    var cut = pending.lastIndex { $0 == 0x20 || $0 == 0x09 }.map { $0 + 1 } ?? pending.count
    if cut == pending.count {
      // No white space: back to the start of the last character.
      while cut > 0, pending.count - cut < 4, pending[cut - 1] & 0xC0 == 0x80 { cut -= 1 }
      if cut > 0, pending[cut - 1] >= 0xC0 { cut -= 1 }
      if cut == 0 { cut = pending.count }
    }
    judgePending(upTo: cut, into: &output)
  }

  /// Judges the first `count` bytes of `pending` and drops them.
  private mutating func judgePending(upTo count: Int, into output: inout [UInt8]) {
    guard count > 0 else { return }
    var held: [UInt8] = []
    swap(&held, &pending)
    held.withUnsafeBufferPointer {
      judge(UnsafeBufferPointer(rebasing: $0[..<count]), into: &output)
    }
    held.removeFirst(count)
    swap(&held, &pending)
  }

  private static func index(
    of byte: UInt8, in chunk: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> Int? {
    guard let base = chunk.baseAddress, start < chunk.count,
      let found = SystemCalls.firstByte(byte, from: base + start, count: chunk.count - start)
    else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }
}
