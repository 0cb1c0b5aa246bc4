import Foundation
import Testing

/// Whether the long randomized runs are on: `HANGUL_LONG_TESTS=1 swift test`,
/// as `.ci/run` runs it. Without it, a test with a long run makes a short one
/// (a sample of the same cases) or is skipped with a message, so that a plain
/// `swift test` takes about ten minutes on two cores (README, Tests).
let longRuns = ProcessInfo.processInfo.environment["HANGUL_LONG_TESTS"] == "1"

extension Trait where Self == ConditionTrait {
  /// Runs the test only under HANGUL_LONG_TESTS=1.
  static var longRun: Self {
    .enabled(if: longRuns, "a long randomized run: HANGUL_LONG_TESTS=1 runs it (.ci/run does)")
  }
}
