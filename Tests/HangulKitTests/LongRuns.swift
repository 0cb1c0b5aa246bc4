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

/// The shared corpus (`../shared/corpus/ko-prose.txt` beside the clone) when
/// present: all of it (3 MB) under HANGUL_LONG_TESTS=1, else its first 200 KB
/// of whole lines.
func sharedCorpusText() -> [UInt8]? {
  let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../shared/corpus/ko-prose.txt")
  guard let data = try? Data(contentsOf: corpus) else { return nil }
  let part = longRuns ? data : data.prefix(200_000)
  return Array(part.prefix(through: part.lastIndex(of: 0x0A) ?? part.startIndex))
}
