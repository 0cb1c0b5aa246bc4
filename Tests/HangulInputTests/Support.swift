import Foundation
import HangulInput

/// The folder of this test target's fixtures.
let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures")

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The bytes of a bzip2-compressed fixture, decompressed by `bzip2 -dc`
/// (Debian's bzip2, which .ci/run installs).
func decompressedFixture(_ name: String) throws -> [UInt8] {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["bzip2", "-dc", fixtureFolder.appendingPathComponent(name).path]
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    throw FixtureError(message: "bzip2 -dc \(name) failed (is bzip2 installed?)")
  }
  return Array(data)
}

struct FixtureError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// The option sets of libhangul's fixtures, by the name the files use.
let libhangulOptionSets: [(name: String, options: ComposerOptions)] = [
  ("default", ComposerOptions()),
  ("auto-reorder", ComposerOptions(autoReorder: true)),
  ("double-stroke", ComposerOptions(doubleStroke: true)),
  ("no-bare-clusters", ComposerOptions(bareClusters: false)),
]

/// Scalars as hexadecimal, for messages.
func hex(_ bytes: some Sequence<UInt8>) -> String {
  String(decoding: Array(bytes), as: UTF8.self).unicodeScalars
    .map { String($0.value, radix: 16) }.joined(separator: " ")
}

extension HangulInputContext {
  /// The preedit as UTF-8.
  var preeditUTF8: [UInt8] {
    var bytes: [UInt8] = []
    writePreedit(into: &bytes)
    return bytes
  }
}
