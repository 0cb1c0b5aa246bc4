import Foundation
import Testing

/// Replays the fuzzers' kept corpus (fuzz/corpus/TARGET) through the same
/// checks the fuzz targets make, so what fuzzing found stays fixed.
@Suite("Fuzz corpus regressions")
struct FuzzRegressionTests {
  static func corpus(_ target: String) -> [[UInt8]] {
    let folder = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("fuzz/corpus/\(target)")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().compactMap {
      try? Array(Data(contentsOf: folder.appendingPathComponent($0)))
    }
  }

  @Test("every kept input passes its target's check", arguments: FuzzChecks.targets.keys.sorted())
  func corpus(target: String) throws {
    let check = try #require(FuzzChecks.targets[target])
    let inputs = Self.corpus(target)
    #expect(!inputs.isEmpty, "fuzz/corpus/\(target) is empty")
    for input in inputs {
      if let problem = check(input) { Issue.record("\(target): \(problem) for \(input)") }
    }
  }
}
