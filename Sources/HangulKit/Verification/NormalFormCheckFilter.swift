/// `hangul-normalize --check`: reads text and writes nothing; its
/// ``NormalFormChecker`` puts the first place of each line (or record) that
/// is not in the form into its ``log``.
///
///     var filter = try NormalFormCheckFilter(form: .nfc, program: "hangul-normalize")
///     _ = try filter.filtered(Array("가\n\u{1100}\u{1161}\n".utf8))
///     filter.log.drain(shift: 0)
///     // hangul-normalize: (standard input):2:1: not NFC: "가" (U+1100 U+1161)
///     filter.lineCount   // 2
///
/// The checker is given whole lines (a line cut by a chunk is held until
/// its end comes); a line longer than ``NormalizeFilter/longestHeldRun``
/// is cut before an ASCII character, a boundary in every form. Time O(n);
/// memory: the longest line, up to that bound.
public struct NormalFormCheckFilter: ByteFilter, StreamingFilter {
  package private(set) var checker: NormalFormChecker
  public let log: NormalFormProblemLog
  /// The start of a line whose end has not come yet.
  private var carry: [UInt8] = []
  /// Whether the bytes read last do not end with the separator.
  private var insideLine = false

  /// A filter whose messages name `program`; with `write`, they are
  /// written as they come (see ``NormalFormProblemLog``).
  public init(
    form: ICUNormalizer.Form, separator: UInt8 = 0x0A, program: String,
    write: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil
  ) throws {
    checker = try NormalFormChecker(form: form, separator: separator)
    let log = NormalFormProblemLog(program: program, write: write)
    checker.recordProblem = { log.add(line: $0, column: $1, message: $2) }
    self.log = log
  }

  /// The lines read: those ended by a separator, and a last one without.
  public var lineCount: Int { checker.record + (insideLine ? 1 : 0) }

  package var takesLargeChunks: Bool { true }

  /// True: in ``NormalFormChecker/recordProblem`` mode the checker reports a
  /// byte that is not UTF-8 as the problem of its line (one whose line was
  /// reported already needs no word), so the runner need not look for one.
  package var lastChunkWasUTF8: Bool { true }

  package mutating func beginInput(named name: String) {
    // The last line of the input before ends here, separator or not.
    endLine()
    checker.beginInput(named: name)
    log.beginInput(named: name)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    guard let base = chunk.baseAddress, let last = chunk.last else { return }
    let separator = checker.separator
    var start = 0
    if !carry.isEmpty {
      guard let end = SystemCalls.firstByte(separator, from: base, count: chunk.count) else {
        carry.append(contentsOf: chunk)
        insideLine = true
        if carry.count > NormalizeFilter.longestHeldRun { checkCarryUpToBoundary() }
        return
      }
      start = UnsafeRawPointer(end) - UnsafeRawPointer(base) + 1
      carry.append(contentsOf: chunk[..<start])
      carry.withUnsafeBufferPointer { checker.check($0) }
      carry.removeAll(keepingCapacity: true)
    }
    var end = chunk.count
    while end > start, chunk[end - 1] != separator { end -= 1 }
    if end > start { checker.check(UnsafeBufferPointer(rebasing: chunk[start..<end])) }
    carry.append(contentsOf: chunk[end...])
    insideLine = last != separator
    if carry.count > NormalizeFilter.longestHeldRun { checkCarryUpToBoundary() }
  }

  public mutating func finish(into output: inout [UInt8]) {
    endLine()
  }

  /// Checks the line held, and ends it (a separator counts it) when the
  /// input ended inside a line.
  private mutating func endLine() {
    if !carry.isEmpty {
      carry.withUnsafeBufferPointer { checker.check($0) }
      carry.removeAll(keepingCapacity: true)
    }
    if insideLine {
      [checker.separator].withUnsafeBufferPointer { checker.check($0) }
      insideLine = false
    }
  }

  /// Checks the held start of a long line up to its last ASCII character
  /// (a boundary in every form), else up to its last code point.
  private mutating func checkCarryUpToBoundary() {
    var cut = carry.count - 1
    while cut > 0, carry[cut] >= 0x80 { cut -= 1 }
    if cut == 0 {
      cut = carry.count - 1
      while cut > 0, carry[cut] & 0xC0 == 0x80, carry.count - cut < 4 { cut -= 1 }
    }
    carry.withUnsafeBufferPointer { checker.check(UnsafeBufferPointer(rebasing: $0[..<cut])) }
    carry.removeFirst(cut)
  }
}
