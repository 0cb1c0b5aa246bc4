import Foundation
import Testing

/// Whether GNU parallel is installed (Debian `parallel`; `.ci/run` installs it).
let parallelIsInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/parallel")

/// The README's GNU parallel recipes, run with two local job slots and blocks
/// small enough to cut the input many times: the output is byte for byte the
/// output of one process.
@Suite(
  "GNU parallel recipes (skipped where GNU parallel is not installed: apt-get install parallel)",
  .enabled(if: parallelIsInstalled))
struct ParallelRecipeTests {
  /// The sample files repeated into an input of several blocks.
  static func input(_ kind: String, in folder: URL) throws -> URL {
    var text = ""
    switch kind {
    case "keys":
      let sample = try String(
        contentsOf: repositoryFile("samples/qwerty-keys.txt"), encoding: .utf8)
      text = String(repeating: sample, count: 300)
    case "text":
      let sample = try String(
        contentsOf: repositoryFile("samples/qwerty-keys.expected.txt"), encoding: .utf8)
      text = String(repeating: sample, count: 300)
    case "names":
      let sample = try String(
        contentsOf: repositoryFile("samples/macos-nfd-names.txt"), encoding: .utf8)
      text = String(repeating: sample, count: 300).replacingOccurrences(of: "\n", with: "\0")
    case "events":
      // Documents separated by a blank line (an event log skips blank lines).
      let sample = try String(
        contentsOf: repositoryFile("samples/events-two-docs.jsonl"), encoding: .utf8)
      for copy in 1...40 {
        var previous: Substring?
        for line in sample.split(separator: "\n") {
          guard let range = line.range(of: "\"doc\": \"") else { continue }
          let rest = line[range.upperBound...]
          let name = rest.prefix { $0 != "\"" }
          if let previous, previous != name { text += "\n" }
          previous = name
          var event = String(line).replacingOccurrences(
            of: "\"doc\": \"\(name)\"", with: "\"doc\": \"\(name)-\(copy)\"")
          if let time = event.range(of: #""t": [0-9]+, "#, options: .regularExpression) {
            event.removeSubrange(time)
          }
          text += event + "\n"
        }
        text += "\n"
      }
    default:
      let sample = try String(
        contentsOf: repositoryFile("samples/reviews-keys.jsonl"), encoding: .utf8)
      text = String(repeating: sample, count: 200)
    }
    let url = folder.appendingPathComponent("input.\(kind)")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  static let recipes: [(input: String, command: String, parallelOptions: String)] = [
    ("keys", "hangul-compose --keys qwerty", ""),
    ("text", "hangul-decompose --to qwerty", ""),
    ("text", "hangul-normalize --form nfd", ""),
    ("names", "hangul-normalize -z", "--recend '\\0'"),
    ("events", "hangul-compose --format events", "--recend '\\n\\n'"),
    ("events", "hangul-compose --format events --output jsonl", "--recend '\\n\\n'"),
    (
      "reviews", "hangul-reviews import --content keys --keys qwerty",
      "--recend '}\\n' --recstart '{'"
    ),
  ]

  @Test(
    "parallel --pipe-part -a FILE --keep-order writes what one process writes",
    arguments: recipes.indices)
  func pipePartRecipe(index: Int) throws {
    try recipe(index: index, cutting: "--pipe-part -a '{input}'", from: "")
  }

  @Test("parallel --pipe --keep-order writes what one process writes", arguments: recipes.indices)
  func pipeRecipe(index: Int) throws {
    try recipe(index: index, cutting: "--pipe", from: "< '{input}'")
  }

  /// Runs recipe `index` with parallel cutting the input by `cutting` and
  /// reading it by `from` (`{input}` stands for the input's path).
  func recipe(index: Int, cutting: String, from: String) throws {
    let (kind, command, options) = Self.recipes[index]
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try Self.input(kind, in: folder)
    let binaries = Executable("hangul-compose").url.deletingLastPathComponent().path
    let path = "PATH='\(binaries)':\"$PATH\""
    let single = try Executable("hangul-compose").shell("\(path) \(command) < '\(input.path)'")
    let parallel =
      "parallel \(cutting) --keep-order -j 2 --block 1k \(options) \(command) \(from)"
      .replacingOccurrences(of: "{input}", with: input.path)
    let split = try Executable("hangul-compose").shell("\(path) \(parallel)")
    #expect(single.status == 0)
    let inputSize = try FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int
    #expect((inputSize ?? 0) > 8 * 1024, "the input is cut into several blocks")
    #expect(!single.stdout.isEmpty)
    #expect(split.status == 0, "\(split.stderr)")
    #expect(split.stdout == single.stdout, "\(command)")
  }
}
