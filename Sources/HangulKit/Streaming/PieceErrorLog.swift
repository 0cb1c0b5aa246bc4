/// The errors that the filter of one piece of a parallel run reported, kept
/// until the pieces before it are written, then reported in input order:
/// the first ``limit`` of them since the last ``drain(shift:report:)``, and
/// how many there were in all.
///
///     let log = PieceErrorLog()
///     var filter = ErrorLoggingFilter(log: log, EventLogFilter { log.add($0) })
///     // … the filter runs a piece that starts after 120 lines of its input …
///     let unshown = log.drain(shift: 120) { print($0) }
///
/// Memory: at most ``limit`` errors.
package final class PieceErrorLog {
  /// How many errors are kept between drains (no more are ever shown).
  package let limit: Int
  private var kept: [(error: PositionedError, input: Int)] = []
  private var dropped = 0
  /// The index of the input being read among those the filter began.
  private var inputIndex = -1
  /// Where errors go at once, on one thread (nothing is kept then).
  private let immediate: ((PositionedError) -> Void)?

  /// A log that keeps `limit` errors between drains or, with `immediate`,
  /// passes each error on at once (a run on one thread streams its errors).
  package init(limit: Int = 100, immediate: ((PositionedError) -> Void)? = nil) {
    self.limit = limit
    self.immediate = immediate
  }

  /// Notes that the filter began its next input.
  package func beginInput() {
    inputIndex += 1
  }

  /// Keeps an error (or counts it, past the limit).
  package func add(_ error: PositionedError) {
    if let immediate { return immediate(error) }
    if kept.count < limit {
      kept.append((error, max(inputIndex, 0)))
    } else {
      dropped += 1
    }
  }

  /// Hands the errors kept since the last drain to `report`, the lines of
  /// those in the filter's first input moved by `shift`; returns how many
  /// more there were. O(errors).
  package func drain(shift: Int, report: (PositionedError) -> Void) -> Int {
    for (error, input) in kept {
      var moved = error
      if input == 0 { moved.line += shift }
      report(moved)
    }
    kept.removeAll(keepingCapacity: true)
    defer { dropped = 0 }
    return dropped
  }
}

/// Wraps a filter whose errors go to a ``PieceErrorLog``, telling the log
/// when each input begins (so that only the lines of the first move).
///
///     let log = PieceErrorLog()
///     var filter = ErrorLoggingFilter(log: log, EventLogFilter { log.add($0) })
///
/// O(1) per chunk on top of the filter.
package struct ErrorLoggingFilter<Inner: ByteFilter>: ByteFilterWrapper {
  package var inner: Inner
  package let log: PieceErrorLog

  package init(log: PieceErrorLog, _ inner: Inner) {
    self.log = log
    self.inner = inner
  }

  package mutating func beginInput(named name: String) {
    log.beginInput()
    inner.beginInput(named: name)
  }

  package mutating func beginPiece(named name: String, atInputStart: Bool) {
    log.beginInput()
    inner.beginPiece(named: name, atInputStart: atInputStart)
  }

  package mutating func beginPiece(named name: String, resumingAt point: Inner.ResumePoint) {
    log.beginInput()
    inner.beginPiece(named: name, resumingAt: point)
  }

  package mutating func finish(
    into output: inout [UInt8], handingOver take: (ByteSink) throws -> Bool
  ) throws {
    try inner.finish(into: &output, handingOver: take)
  }
}
