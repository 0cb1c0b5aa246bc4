/// The lines `hangul-normalize --check` found out of the form, kept as the
/// bytes of their messages until their piece's turn: ``drain(shift:to:)``
/// writes `PROGRAM: FILE:LINE:COLUMN: MESSAGE` lines, the line numbers of
/// the first input moved by the lines before the piece. With `write`, the
/// lines go out as they come, 64 KiB at a time (a run on one thread).
///
///     let log = NormalFormProblemLog(program: "hangul-normalize")
///     log.beginInput(named: "a.txt")
///     Array("not NFC: …".utf8).withUnsafeBufferPointer { log.add(line: 2, column: 1, message: $0) }
///     log.drain(shift: 10) { print(String(decoding: $0, as: UTF8.self)) }
///     // hangul-normalize: a.txt:12:1: not NFC: …
///
/// A file in NFD has a problem on every line: nothing is allocated per
/// line. O(1) amortized per line; memory: the lines kept.
public final class NormalFormProblemLog {
  // Used from one thread at a time (the filter's): no exclusivity checks.
  /// How many lines were added.
  @exclusivity(unchecked) public private(set) var count = 0
  private let program: [UInt8]
  private let write: ((UnsafeBufferPointer<UInt8>) -> Void)?
  /// `PROGRAM: NAME:` of each input begun, one after another, and where each ends.
  private let inputNames = ByteSink(capacity: 256)
  @exclusivity(unchecked) private var inputEnds: [Int] = []
  @exclusivity(unchecked) private var kept: [(input: Int, line: Int, column: Int, end: Int)] = []
  private let messages = ByteSink(capacity: 1024)
  /// The lines formatted and not written yet.
  private let lines = ByteSink(capacity: 1 << 16)

  public init(program: String, write: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil) {
    self.program = Array("\(program): ".utf8)
    self.write = write
  }

  /// Notes that what comes next is from the input `name`.
  public func beginInput(named name: String) {
    for byte in program + Array(name.utf8) + [UInt8(ascii: ":")] { inputNames.append(byte) }
    inputEnds.append(inputNames.count)
  }

  /// Adds the first problem of a line of the input begun last.
  public func add(line: Int, column: Int, message: UnsafeBufferPointer<UInt8>) {
    count += 1
    if write != nil {
      // Written as it comes: formatted at once.
      append(input: inputEnds.count - 1, line: line, column: column, message)
      if lines.count >= 1 << 16 { flush() }
      return
    }
    if let base = message.baseAddress { messages.append(base, count: message.count) }
    kept.append((max(inputEnds.count - 1, 0), line, column, messages.count))
  }

  /// Hands the lines kept to `write`, those of the first input moved by
  /// `shift`, and empties the log.
  public func drain(shift: Int, to write: (UnsafeBufferPointer<UInt8>) -> Void) {
    var start = 0
    for (input, line, column, end) in kept {
      let message = UnsafeBufferPointer(start: messages.base + start, count: end - start)
      append(input: input, line: input == 0 ? line + shift : line, column: column, message)
      start = end
    }
    kept.removeAll(keepingCapacity: true)
    messages.count = 0
    if lines.count > 0 { write(lines.bytes) }
    lines.count = 0
  }

  /// Writes the lines not written yet (with `write`), before another message is.
  public func flush() {
    guard let write, lines.count > 0 else { return }
    write(lines.bytes)
    lines.count = 0
  }

  /// `PROGRAM: FILE:LINE:COLUMN: MESSAGE` and a newline.
  private func append(
    input: Int, line: Int, column: Int, _ message: UnsafeBufferPointer<UInt8>
  ) {
    if inputEnds.indices.contains(input) {
      let start = input == 0 ? 0 : inputEnds[input - 1]
      lines.append(inputNames.base + start, count: inputEnds[input] - start)
    } else {
      for byte in program + Self.standardInput { lines.append(byte) }
    }
    appendDecimal(line)
    lines.append(UInt8(ascii: ":"))
    appendDecimal(column)
    lines.append(UInt8(ascii: ":"))
    lines.append(UInt8(ascii: " "))
    if let base = message.baseAddress { lines.append(base, count: message.count) }
    lines.append(0x0A)
  }

  private static let standardInput = Array("(standard input):".utf8)

  /// `value` (not negative) in decimal.
  private func appendDecimal(_ value: Int) {
    assert(value >= 0, "line and column numbers start at 1")
    var digits = 1
    var limit = 10
    while value >= limit, digits < 19 {
      digits += 1
      limit &*= 10
    }
    lines.reserve(digits)
    // Two digits at a time from the end (a file in NFD has a problem on
    // every line: this runs twice a line).
    var rest = UInt(value)
    var end = lines.base + lines.count + digits
    let pairs = Self.digitPairs.utf8Start
    while rest >= 100 {
      let pair = Int(rest % 100) &* 2
      rest /= 100
      end -= 2
      end[0] = pairs[pair]
      end[1] = pairs[pair &+ 1]
    }
    if rest >= 10 {
      end[-2] = pairs[Int(rest) &* 2]
      end[-1] = pairs[Int(rest) &* 2 &+ 1]
    } else {
      end[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
    }
    lines.count += digits
  }

  /// "00" to "99", one after another (static text: no lazy initialization).
  private static let digitPairs: StaticString = """
    0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546\
    4748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293\
    949596979899
    """
}
