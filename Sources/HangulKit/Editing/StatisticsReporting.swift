/// A filter that keeps typing statistics (`--stats`).
package protocol StatisticsReporting {
  /// Statistics per document and in total, so far.
  var statistics: StatisticsReport { get }
}

extension ComposeFilter: StatisticsReporting {}
extension EventLogFilter: StatisticsReporting {}

extension NormalizingFilter: StatisticsReporting where Inner: StatisticsReporting {
  package var statistics: StatisticsReport { inner.statistics }
}

extension VerifyingFilter: StatisticsReporting where Inner: StatisticsReporting {
  package var statistics: StatisticsReport { inner.statistics }
}
