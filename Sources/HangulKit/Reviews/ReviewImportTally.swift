/// What the filter of one piece of a parallel import found (rejects and
/// problems with an array or envelope, in input order), kept until the
/// pieces before it are written.
///
///     let log = ReviewImportLog()
///     var filter = try ReviewImportFilter(log: log)
///
/// Memory: the rejects of the filter's pieces (each record compacted) until drained.
package final class ReviewImportLog {
  /// One finding, as the filter reported it (record indexes from the filter's first record).
  package enum Entry: Sendable, Equatable {
    case reject(ReviewReject)
    case structureProblem(PositionedError)
  }

  private var entries: [Entry] = []

  package init() {}

  package func add(_ entry: Entry) {
    entries.append(entry)
  }

  /// Hands the entries kept since the last drain to `body`, in order, each
  /// reject's index moved by `indexShift`. O(entries).
  package func drain(indexShift: Int, _ body: (Entry) -> Void) {
    for entry in entries {
      if case .reject(var reject) = entry {
        reject.index += indexShift
        body(.reject(reject))
      } else {
        body(entry)
      }
    }
    entries.removeAll(keepingCapacity: true)
  }
}

/// The totals of a parallel `hangul-reviews import` and its findings in
/// input order, merged from the filters of its pieces as
/// ``ParallelFilterRunner`` hands them over (each filter reads pieces of one
/// input; its record indexes move by the records of the filters before it
/// in that input).
///
///     var tally = ReviewImportTally()
///     // merge: { filter, _, finished in tally.merge(&filter, finished: finished) { print($0) } }
///
/// O(findings).
package struct ReviewImportTally {
  package private(set) var recordsRead = 0
  package private(set) var recordsImported = 0
  package private(set) var recordsRejected = 0
  package private(set) var structureProblemCount = 0
  package private(set) var bytesRead = 0
  /// Records of the current input that the finished filters read.
  private var recordsOfInputBefore = 0

  package init() {}

  /// Takes what `filter` found since it was last merged; called in input
  /// order after each piece it read, and once more, `finished`, after its end.
  package mutating func merge(
    _ filter: inout ReviewImportFilter, finished: Bool, _ body: (ReviewImportLog.Entry) -> Void
  ) {
    let firstIndex = filter.firstIndex ?? (filter.beganAtInputStart ? 0 : recordsOfInputBefore)
    filter.firstIndex = firstIndex
    filter.log?.drain(indexShift: firstIndex, body)
    guard finished else { return }
    recordsOfInputBefore = firstIndex + filter.recordsReadInInput
    recordsRead += filter.recordsRead
    recordsImported += filter.recordsImported
    recordsRejected += filter.recordsRejected
    structureProblemCount += filter.structureProblemCount
    bytesRead += filter.bytesRead
  }
}
