import Foundation
import HangulKit

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
