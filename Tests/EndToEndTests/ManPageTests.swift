import Foundation
import Testing

/// Keeps the man pages honest: every option is documented, every example
/// runs and prints what the page shows, and the pages are lint-clean.
@Suite("Man pages")
struct ManPageTests {
  static let pages: [(program: String, page: String)] = [
    ("hangul-compose", "man/hangul-compose.1"), ("hangul-decompose", "man/hangul-decompose.1"),
    ("hangul-reviews", "man/hangul-reviews.1"), ("hangul-normalize", "man/hangul-normalize.1"),
    ("hangul-wrongmode", "man/hangul-wrongmode.1"),
  ]

  static let allPages = [
    "man/hangul-compose.1", "man/hangul-decompose.1", "man/hangul-reviews.1", "man/hangul-keylog.5",
    "man/hangul-reviews.5", "man/hangul-keyboard.5", "man/hangul-normalize.1",
    "man/hangul-wrongmode.1",
  ]

  /// The long option names a program accepts, from ArgumentParser's help dump.
  func options(of program: String) throws -> Set<String> {
    let result = try Executable(program).run(["--experimental-dump-help"])
    let dump = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
    var names = Set<String>()
    func walk(_ command: [String: Any]) {
      for argument in command["arguments"] as? [[String: Any]] ?? [] {
        for name in argument["names"] as? [[String: Any]] ?? []
        where name["kind"] as? String == "long" {
          if let value = name["name"] as? String { names.insert(value) }
        }
      }
      for subcommand in command["subcommands"] as? [[String: Any]] ?? []
      where subcommand["commandName"] as? String != "help" {
        walk(subcommand)
      }
    }
    walk(dump?["command"] as? [String: Any] ?? [:])
    return names
  }

  @Test("every option the program accepts appears in its page", arguments: pages)
  func optionsAreDocumented(program: String, page: String) throws {
    let source = try String(contentsOf: repositoryFile(page), encoding: .utf8)
    let names = try options(of: program)
    #expect(names.count >= 3)
    for name in names {
      #expect(
        source.contains("Fl -\(name) ") || source.contains("Fl -\(name)\n"),
        "--\(name) is not in \(page)")
    }
  }

  /// The examples of a page, wherever they stand: each command (a line
  /// starting with `$ ` in a literal display) with the output lines that follow it.
  func examples(in page: String) throws -> [(command: String, output: String)] {
    let section = try String(contentsOf: repositoryFile(page), encoding: .utf8)
    var examples: [(String, String)] = []
    var inDisplay = false
    var command: String?
    var output: [String] = []
    func flush() {
      if let command { examples.append((command, output.map { $0 + "\n" }.joined())) }
      command = nil
      output = []
    }
    for line in section.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix(".Bd -literal") {
        inDisplay = true
      } else if line == ".Ed" {
        flush()
        inDisplay = false
      } else if inDisplay, line.hasPrefix("$ ") {
        flush()
        command = Self.unescaped(String(line.dropFirst(2)))
      } else if inDisplay, command != nil {
        output.append(Self.unescaped(line))
      }
    }
    return examples
  }

  static func unescaped(_ line: String) -> String {
    line.replacingOccurrences(of: "\\e", with: "\\").replacingOccurrences(of: "\\-", with: "-")
      .replacingOccurrences(of: "\\(aq", with: "'").replacingOccurrences(of: "\\&", with: "")
  }

  @Test("every example runs and prints what the page shows", arguments: allPages)
  func examplesRun(page: String) throws {
    let binaries = Executable("hangul-compose").url.deletingLastPathComponent().path
    for example in try examples(in: page) {
      let result = try Executable("hangul-compose").shell(
        "cd '\(repositoryRoot.path)' && PATH='\(binaries)':\"$PATH\" && \(example.command)")
      #expect(result.text == example.output, "\(page): $ \(example.command)\n\(result.stderr)")
    }
  }

  @Test("the section 1 pages have examples, and every sample is used by a page or the README")
  func samplesAreUsed() throws {
    for (_, page) in Self.pages { #expect(try !examples(in: page).isEmpty) }
    var text = try String(contentsOf: repositoryFile("README.md"), encoding: .utf8)
    for page in Self.allPages {
      text += try String(contentsOf: repositoryFile(page), encoding: .utf8)
    }
    let samples = try FileManager.default.contentsOfDirectory(
      atPath: repositoryFile("samples").path)
    for sample in samples where !sample.contains(".expected.") {
      #expect(text.contains("samples/\(sample)"), "samples/\(sample) is not used")
    }
  }

  @Test(
    "mandoc -T lint finds nothing at style level but long lines (Korean is 3 bytes a character)",
    arguments: allPages)
  func lint(page: String) throws {
    let which = try Executable("hangul-compose").shell("command -v mandoc")
    // .ci/run installs mandoc; a machine without it skips this check.
    guard which.status == 0 else { return }
    // Index our own pages, so that their cross references resolve.
    let index = try temporaryFolder()
    let result = try Executable("hangul-compose").shell(
      """
      mkdir -p '\(index.path)/man1' '\(index.path)/man5' && \
      cp '\(repositoryRoot.path)'/man/*.1 '\(index.path)/man1' && \
      cp '\(repositoryRoot.path)'/man/*.5 '\(index.path)/man5' && \
      makewhatis '\(index.path)' && \
      MANPATH='\(index.path)':/usr/share/man mandoc -T lint -W style '\(repositoryFile(page).path)' \
        2>&1 | grep -E 'STYLE|WARNING|ERROR|UNSUPP' | grep -v 'line longer than'
      """)
    #expect(result.text.isEmpty, "\(result.text)")
  }

  @Test(
    "make install-files puts binaries, pages and completions under PREFIX; make uninstall removes them"
  )
  func install() throws {
    let prefix = try temporaryFolder()
    let binaries = Executable("hangul-compose").url.deletingLastPathComponent().path
    let make = try Executable("hangul-compose").shell(
      "cd '\(repositoryRoot.path)' && make -s install-files PREFIX='\(prefix.path)' BUILD_DIR='\(binaries)'"
    )
    #expect(make.status == 0, "\(make.stderr)")
    let files = [
      "bin/hangul-compose", "bin/hangul-decompose", "bin/hangul-reviews", "bin/hangul-normalize",
      "share/man/man1/hangul-compose.1",
      "share/man/man5/hangul-keylog.5", "share/man/man5/hangul-reviews.5",
      "share/bash-completion/completions/hangul-compose",
      "share/zsh/site-functions/_hangul-reviews",
      "share/fish/vendor_completions.d/hangul-decompose.fish",
    ]
    for file in files {
      #expect(
        FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)")
    }
    let help = try Executable("hangul-compose").shell("'\(prefix.path)/bin/hangul-compose' --help")
    #expect(help.status == 0)
    #expect(help.text.contains("--keys"))
    let completion = try String(
      contentsOf: prefix.appendingPathComponent("share/bash-completion/completions/hangul-compose"),
      encoding: .utf8)
    #expect(completion.contains("--double-stroke"))
    let uninstall = try Executable("hangul-compose").shell(
      "cd '\(repositoryRoot.path)' && make -s uninstall PREFIX='\(prefix.path)'")
    #expect(uninstall.status == 0)
    for file in files {
      #expect(
        !FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)"
      )
    }
  }
}
