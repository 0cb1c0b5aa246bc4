import Foundation
import HangulKit
import TestSupport
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

/// The seeded generator of every test target, named here once so that the
/// suites of this target need not each import TestSupport.
typealias SeededGenerator = TestSupport.SeededGenerator

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

/// Writes `input` to a file in a new temporary folder, calls `body` with its
/// path and the descriptor of an empty output file there, and returns what
/// `body` returned and what it wrote; the folder is removed afterwards.
func withInputFile<Result>(
  _ input: [UInt8], prefix: String,
  _ body: (_ path: String, _ output: Int32) throws -> Result
) throws -> (result: Result, output: [UInt8]) {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let path = folder.appendingPathComponent("in.txt").path
  try Data(input).write(to: URL(fileURLWithPath: path))
  let outputURL = folder.appendingPathComponent("out")
  _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
  let handle = try FileHandle(forWritingTo: outputURL)
  let result = try body(path, handle.fileDescriptor)
  try handle.close()
  return (result, Array(try Data(contentsOf: outputURL)))
}
