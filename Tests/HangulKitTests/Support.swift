import Foundation
import HangulKit
import Testing

/// Composes a whole text with the text-format filter.
func composed(
  _ input: String, keys: KeyEncoding = .jamo, options: ComposerOptions = ComposerOptions(),
  maximumLineLength: Int = LineEditor.defaultMaximumLineLength
) -> String {
  String(
    decoding: composedBytes(
      Array(input.utf8), keys: keys, options: options,
      maximumLineLength: maximumLineLength), as: UTF8.self)
}

/// Composes bytes with the text-format filter.
func composedBytes(
  _ input: [UInt8], keys: KeyEncoding = .jamo, options: ComposerOptions = ComposerOptions(),
  maximumLineLength: Int = LineEditor.defaultMaximumLineLength
) -> [UInt8] {
  var filter = ComposeFilter(keys: keys, options: options, maximumLineLength: maximumLineLength)
  var output: [UInt8] = []
  input.withUnsafeBufferPointer { filter.process($0, into: &output) }
  filter.finish(into: &output)
  return output
}

/// A file under Tests/HangulKitTests/Fixtures.
func fixture(_ name: String) throws -> Data {
  let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  return try Data(contentsOf: here.appendingPathComponent("Fixtures").appendingPathComponent(name))
}

/// The 2-set keys that type a syllable, as compatibility jamo.
func keys(of syllable: HangulSyllable) -> [Jamo] {
  syllable.initial.keys + syllable.vowel.keys + (syllable.final?.keys ?? [])
}

/// A small deterministic random generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Expects two byte strings to be equal; on failure, reports the first
/// difference with a little context instead of both arrays whole.
func expectSameBytes(
  _ actual: [UInt8], _ expected: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
) {
  guard actual != expected else { return }
  let first =
    zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    ?? min(actual.count, expected.count)
  func around(_ bytes: [UInt8]) -> String {
    let window = bytes[max(0, first - 24)..<min(bytes.count, first + 24)]
    return String(decoding: window, as: UTF8.self).debugDescription
  }
  Issue.record(
    "bytes differ at \(first) (\(actual.count) vs \(expected.count) bytes): \(around(actual)) vs \(around(expected))",
    sourceLocation: sourceLocation)
}
