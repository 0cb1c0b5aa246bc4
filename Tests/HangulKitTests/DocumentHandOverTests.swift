import HangulKit
import Testing

/// A document that ends with the input leaves a part at a time
/// (`finish(into:handingOver:)`): the same bytes as through `output`, in
/// several parts, never the whole text at once.
@Suite("Document text handed over in parts")
struct DocumentHandOverTests {
  /// Lines of Hangul and ASCII of many lengths, one longer than a part.
  static let lines: [String] = (0..<600).map { index in
    let length = index == 300 ? 30_000 : (index * 37) % 250
    return String(repeating: index % 3 == 0 ? "가나 다" : "ab\u{E9}한", count: length / 4 + 1)
  }

  /// `filter`'s output through `finish(into:)`, and through
  /// `finish(into:handingOver:)` with its parts (kept by `take` or not).
  static func bothWays<Filter: ByteFilter>(
    _ log: String, _ makeFilter: () -> Filter, keepsParts: Bool
  ) -> (whole: [UInt8], parted: [UInt8], parts: [Int]) {
    var plain = makeFilter()
    let whole = (try? plain.filtered(Array(log.utf8))) ?? []
    var filter = makeFilter()
    var parted: [UInt8] = []
    var parts: [Int] = []
    try? filter.process(Array(log.utf8), into: &parted)
    var output: [UInt8] = []
    if !parted.isEmpty { return (whole, parted, parts) }
    try? filter.finish(into: &output) { sink in
      parted += Array(sink.bytes)
      parts.append(sink.count)
      return keepsParts
    }
    return (whole, parted + output, parts)
  }

  @Test(arguments: [EventLogFilter.Output.text, .jsonl], [false, true])
  func eventLog(output: EventLogFilter.Output, keepsParts: Bool) {
    let log = Self.lines.map { line in
      #"{"doc":"d","text":\#(JSONWriter.quoted(line))}"# + "\n" + #"{"key":"Enter"}"# + "\n"
    }.joined()
    let run = Self.bothWays(
      log, { EventLogFilter(output: output) { _ in } }, keepsParts: keepsParts)
    #expect(run.whole.count > 200_000)
    expectSameBytes(run.parted, run.whole)
    #expect(run.parts.count > 2)
    #expect(run.parts.allSatisfy { $0 <= (1 << 16) + 30_000 * 3 })
  }

  @Test(arguments: [false, true])
  func translogLog(keepsParts: Bool) {
    var log = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<LogFile>\n  <Events>\n"
    for (index, line) in Self.lines.enumerated() {
      log += #"    <Key Time="\#(2 * index)" Type="insert" Value="\#(line)" />"# + "\n"
      log += #"    <Key Time="\#(2 * index + 1)" Type="return" Value="[Return]" />"# + "\n"
    }
    log += "  </Events>\n</LogFile>\n"
    let run = Self.bothWays(
      log,
      {
        var filter = TranslogLogFilter(replaying: EventLogFilter { _ in }) { _ in }
        filter.beginInput(named: "log.xml")
        return filter
      }, keepsParts: keepsParts)
    #expect(run.whole.count > 200_000)
    expectSameBytes(run.parted, run.whole)
    #expect(run.parts.count > 2)
  }
}
