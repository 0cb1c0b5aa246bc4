/// Where the interval before a key falls (hangul-keylog(5), MEASURES).
package enum IntervalPlace: Int, Sendable, Hashable, CaseIterable {
  /// The key goes on with the syllable being composed.
  case withinSyllable
  /// Every other interval inside a word: a key that starts a new syllable,
  /// and keys that type no jamo (punctuation, the space ending a word).
  case betweenSyllables
  /// The key before typed a space, tab or line break.
  case betweenWords
  /// The key, or the key before, is part of a revision episode.
  case aroundRevision

  /// The name in `--stats json` and the column prefix in `--stats-format csv`.
  package var name: String {
    switch self {
    case .withinSyllable: "withinSyllable"
    case .betweenSyllables: "betweenSyllables"
    case .betweenWords: "betweenWords"
    case .aroundRevision: "aroundRevision"
    }
  }
}

/// Counts of intervals by whole milliseconds, for an exact median in bounded
/// memory: one counter for each millisecond from 0 up to the largest interval
/// seen below ``bound`` (at most 240 KB), and one for everything at or past
/// it. An interval is rounded to the nearest millisecond (halves away from 0).
package struct MillisecondHistogram: Sendable, Equatable {
  /// Intervals of this many milliseconds or more are counted together.
  package static let bound = 60_000
  private var counts: [UInt32] = []
  private var beyond = 0
  private(set) var total = 0

  package init() {}

  package mutating func add(_ milliseconds: Double) {
    total += 1
    let rounded = milliseconds.rounded()
    guard rounded < Double(Self.bound) else {
      beyond += 1
      return
    }
    let index = max(0, Int(rounded))
    if index >= counts.count { counts += repeatElement(0, count: index + 1 - counts.count) }
    counts[index] += 1
  }

  package mutating func add(_ other: MillisecondHistogram) {
    if other.counts.count > counts.count {
      counts += repeatElement(0, count: other.counts.count - counts.count)
    }
    for (index, count) in other.counts.enumerated() { counts[index] += count }
    beyond += other.beyond
    total += other.total
  }

  /// The `rank`-th smallest interval (from 0), ``bound`` when it is past it.
  private func value(atRank rank: Int) -> Int {
    var seen = 0
    for (index, count) in counts.enumerated() {
      seen += Int(count)
      if seen > rank { return index }
    }
    return Self.bound
  }

  /// The median: the middle value, or the mean of the two middle values;
  /// `nil` when empty. O(``bound``).
  package var median: Double? {
    guard total > 0 else { return nil }
    if total % 2 == 1 { return Double(value(atRank: total / 2)) }
    return Double(value(atRank: total / 2 - 1) + value(atRank: total / 2)) / 2
  }
}

/// The intervals of one place (or all): how many, their sum, their median.
package struct IntervalTally: Sendable, Equatable {
  package private(set) var count = 0
  /// The sum in whole microseconds (so that sums merge exactly in any
  /// order), saturating at `Int64.max`.
  private var microseconds: Int64 = 0
  /// `nil` once ``compact()`` kept only the median (a finished document).
  private var histogram: MillisecondHistogram? = MillisecondHistogram()
  private var keptMedian: Double?

  /// Without `median`, only the count and the sum are kept.
  package init(median: Bool = true) {
    if !median { histogram = nil }
  }

  package mutating func add(_ milliseconds: Double) {
    count += 1
    microseconds = Self.sum(microseconds, Self.microseconds(milliseconds))
    histogram?.add(milliseconds)
  }

  package mutating func add(_ other: IntervalTally) {
    count += other.count
    microseconds = Self.sum(microseconds, other.microseconds)
    if let theirs = other.histogram { histogram?.add(theirs) } else { histogram = nil }
  }

  /// The sum in milliseconds.
  package var total: Double { Double(microseconds) / 1000 }

  package var mean: Double? { count > 0 ? total / Double(count) : nil }

  package var median: Double? { histogram?.median ?? keptMedian }

  /// Keeps the median and drops the histogram (a document kept for the report).
  package mutating func compact() {
    keptMedian = median
    histogram = nil
  }

  static func microseconds(_ milliseconds: Double) -> Int64 {
    let scaled = (milliseconds * 1000).rounded()
    return scaled >= 9.2e18 ? Int64.max : Int64(max(0, scaled))
  }

  static func sum(_ first: Int64, _ second: Int64) -> Int64 {
    let (result, overflow) = first.addingReportingOverflow(second)
    return overflow ? Int64.max : result
  }
}
