import Foundation
import Testing

/// Every example a user can copy, in the README and in every `--help`, runs
/// and prints what it shows. (The man pages' examples: ManPageTests.)
///
/// README: in each ```sh block, a line starting with `$ ` is a command and the
/// lines after it, up to the next command, are what it prints (standard output
/// and standard error together). A line `…` stands for any further lines, and
/// a line ending in `…` for any line that starts with the text before it.
/// Blocks without `$ ` lines (how to build, synopses) are not run.
///
/// `--help`: every line under `Examples:` is a command that must succeed; a
/// comment `# → TEXT` after it is what it prints.
@Suite("Documentation examples")
struct DocumentationTests {
  /// A folder to run examples in, with the repository's samples and tools at hand.
  static func workspace() throws -> URL {
    let folder = try temporaryFolder()
    for name in ["samples", "man", "bench", "tools", "completions", "spark"] {
      try FileManager.default.createSymbolicLink(
        at: folder.appendingPathComponent(name), withDestinationURL: repositoryFile(name))
    }
    return folder
  }

  /// Runs `command` with the built programs first on PATH, then PySpark's
  /// `spark-submit` (in `.venv-ci`); returns what it printed.
  static func run(_ command: String, in folder: URL) throws -> (status: Int32, text: String) {
    let binaries = Executable("hangul-compose").url.deletingLastPathComponent().path
    let spark = repositoryFile(".venv-ci/bin").path
    let result = try Executable("hangul-compose").shell(
      "cd '\(folder.path)' && PATH='\(binaries)':'\(spark)':\"$PATH\" && { \(command)\n} 2>&1")
    return (result.status, result.text)
  }

  struct Example: CustomStringConvertible {
    var command: String
    var expected: [String]
    var description: String { command }
  }

  /// The README's runnable blocks, each a list of examples run in order.
  static func readmeBlocks() throws -> [[Example]] {
    let text = try String(contentsOf: repositoryFile("README.md"), encoding: .utf8)
    var blocks: [[Example]] = []
    var current: [Example]?
    for line in text.components(separatedBy: "\n") {
      if line.hasPrefix("```") {
        if let block = current {
          if !block.isEmpty { blocks.append(block) }
          current = nil
        } else if line == "```sh" {
          current = []
        }
        continue
      }
      guard current != nil else { continue }
      if line.hasPrefix("$ ") {
        current?.append(Example(command: String(line.dropFirst(2)), expected: []))
      } else if let last = current?.indices.last {
        current?[last].expected.append(line)
      }
    }
    return blocks
  }

  /// Whether `output` is what `expected` shows, with its `…` lines.
  static func matches(_ output: String, _ expected: [String]) -> Bool {
    var lines = output.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    for (index, line) in expected.enumerated() {
      if line == "…" { return true }
      guard index < lines.count else { return false }
      if line.hasSuffix("…") {
        guard lines[index].hasPrefix(String(line.dropLast())) else { return false }
      } else if lines[index] != line {
        return false
      }
    }
    return lines.count == expected.count
  }

  @Test("every README example runs and prints what the README shows")
  func readme() throws {
    let blocks = try Self.readmeBlocks()
    #expect(blocks.count >= 4)
    for block in blocks {
      if let missing = sparkMissing, block.contains(where: { $0.command.contains("spark-submit") })
      {
        print("README: the Spark example is not run: \(missing)")
        continue
      }
      let folder = try Self.workspace()
      for example in block {
        let result = try Self.run(example.command, in: folder)
        #expect(
          Self.matches(result.text, example.expected),
          "README: $ \(example.command)\n--- printed:\n\(result.text)--- shows:\n\(example.expected.joined(separator: "\n"))"
        )
      }
    }
  }

  static let commands: [[String]] = [
    ["hangul-compose"], ["hangul-decompose"], ["hangul-normalize"], ["hangul-reviews"],
    ["hangul-reviews", "import"], ["hangul-reviews", "export"],
  ]

  /// The example lines of a command's help.
  static func helpExamples(_ command: [String]) throws -> [String] {
    let help = try Executable(command[0]).run(Array(command.dropFirst()) + ["--help"]).text
    guard let start = help.range(of: "Examples:\n") else { return [] }
    var examples: [String] = []
    var continued = false
    for line in help[start.upperBound...].components(separatedBy: "\n") {
      guard line.hasPrefix("  ") else { break }
      let text = line.trimmingCharacters(in: .whitespaces)
      // A line ending in a backslash goes on on the next one.
      if continued, let last = examples.indices.last {
        examples[last] = String(examples[last].dropLast()) + text
      } else {
        examples.append(text)
      }
      continued = text.hasSuffix("\\")
    }
    return examples
  }

  @Test("every --help example runs; a # → comment is what it prints", arguments: commands)
  func help(command: [String]) throws {
    let examples = try Self.helpExamples(command)
    if command != ["hangul-reviews"] { #expect(!examples.isEmpty) }
    let folder = try Self.workspace()
    for example in examples {
      let parts = example.components(separatedBy: "# → ")
      let result = try Self.run(parts[0], in: folder)
      #expect(
        result.status == 0, "\(command.joined(separator: " ")) --help: \(example)\n\(result.text)")
      if parts.count == 2 {
        #expect(result.text == parts[1] + "\n", "\(example)\n\(result.text)")
      }
    }
  }

  @Test("the README names every man page in its list of them")
  func pageList() throws {
    let readme = try String(contentsOf: repositoryFile("README.md"), encoding: .utf8)
    let list = readme.components(separatedBy: "\n\n").first {
      $0.contains("The pages are in `man/`")
    }
    let pages = try FileManager.default.contentsOfDirectory(atPath: repositoryFile("man").path)
    #expect(pages.count >= 7)
    for page in pages {
      let name = page.split(separator: ".").dropLast().joined(separator: ".")
      let section = page.split(separator: ".").last ?? ""
      #expect(
        list?.contains("`\(name)(\(section))`") == true, "README: \(name)(\(section)) is not listed"
      )
    }
  }

  @Test("the README names the Debian package of every system library the build needs")
  func buildDependencies() throws {
    let manifest = try String(contentsOf: repositoryFile("Package.swift"), encoding: .utf8)
    let readme = try String(contentsOf: repositoryFile("README.md"), encoding: .utf8)
    let quickStart = readme.components(separatedBy: "## Quick start").dropFirst().first ?? ""
    let packages = manifest.components(separatedBy: ".apt([\"").dropFirst().map {
      $0.prefix { $0 != "\"" }
    }
    #expect(packages.count >= 2)
    for package in packages {
      #expect(quickStart.contains("`\(package)`"), "README's quick start does not name \(package)")
    }
  }

  @Test("--help gives every listed value a description, and defaults as values, not numbers")
  func helpValues() throws {
    for command in Self.commands {
      let help = try Executable(command[0]).run(Array(command.dropFirst()) + ["--help"]).text
      for line in help.components(separatedBy: "\n") {
        let words = line.split(separator: " ")
        #expect(
          !(words.count == 2 && words[1] == "-"),
          "\(command.joined(separator: " ")) --help: “\(line)” has no description")
      }
    }
    let normalize = try Executable("hangul-normalize").run(["--help"]).text
    #expect(normalize.contains("(default: nfc)"))
    #expect(!normalize.contains("(default: 0)"))
  }

  @Test("no --help example line is wrapped: each fits in 80 columns")
  func helpLinesFit() throws {
    for command in Self.commands {
      let help = try Executable(command[0]).run(Array(command.dropFirst()) + ["--help"]).text
      let examples = help.components(separatedBy: "Examples:\n").dropFirst().first ?? ""
      for line in examples.components(separatedBy: "\n") where line.hasPrefix("  ") {
        #expect(line.count <= 80, "\(line)")
      }
    }
  }
}
