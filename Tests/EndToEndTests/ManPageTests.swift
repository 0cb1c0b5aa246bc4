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

  static var hasMandoc: Bool {
    ["/usr/bin/mandoc", "/usr/local/bin/mandoc"].contains {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// A page as a reader sees it: `mandoc -T utf8` at 80 columns, without the
  /// overstrikes that make bold and underlined text on a terminal.
  static func rendered(_ page: String) throws -> String {
    let result = try Executable("hangul-compose").shell(
      "mandoc -T utf8 -O width=80 '\(repositoryFile(page).path)'")
    return withoutOverstrikes(result.text)
  }

  /// `text` with each overstruck character (X BS X, _ BS X) as that character.
  static func withoutOverstrikes(_ rendered: String) -> String {
    var text = String.UnicodeScalarView()
    var afterBackspace = false
    for scalar in rendered.unicodeScalars {
      if scalar == "\u{8}" {
        // X BS X (bold) or _ BS X (underline): X stays.
        if !afterBackspace, !text.isEmpty { text.removeLast() }
        afterBackspace = true
      } else {
        text.append(scalar)
        afterBackspace = false
      }
    }
    return String(text)
  }

  /// The examples of a page as it reads rendered (roff escapes such as `\e`
  /// and `\(aq` resolved by the renderer, as a reader copies them): each line
  /// starting with `$ ` in an indented display is a command, and the lines
  /// after it at the same indentation, up to the next command, a blank line or
  /// text less indented, are what it prints.
  static func examples(in page: String) throws -> [(command: String, output: String)] {
    let lines = try rendered(page).split(separator: "\n", omittingEmptySubsequences: false)
    func indentation(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }
    var examples: [(String, String)] = []
    var index = 0
    while index < lines.count {
      let margin = indentation(lines[index])
      guard lines[index].dropFirst(margin).hasPrefix("$ ") else {
        index += 1
        continue
      }
      let command = String(lines[index].dropFirst(margin + 2))
      var output = ""
      index += 1
      while index < lines.count, !lines[index].isEmpty, indentation(lines[index]) >= margin,
        !lines[index].dropFirst(margin).hasPrefix("$ ")
      {
        output += lines[index].dropFirst(margin) + "\n"
        index += 1
      }
      examples.append((command, output))
    }
    return examples
  }

  /// How many commands the source of a page shows: lines starting with `$ `
  /// in its literal displays.
  static func commandCount(in page: String) throws -> Int {
    let source = try String(contentsOf: repositoryFile(page), encoding: .utf8)
    var inDisplay = false
    var count = 0
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix(".Bd -literal") {
        inDisplay = true
      } else if line == ".Ed" {
        inDisplay = false
      } else if inDisplay, line.hasPrefix("$ ") {
        count += 1
      }
    }
    return count
  }

  @Test(
    "every example, as mandoc renders it, runs and prints what the page shows",
    .enabled(if: hasMandoc, "mandoc is not installed (CI installs it)"), arguments: allPages)
  func examplesRun(page: String) throws {
    let examples = try Self.examples(in: page)
    #expect(examples.count == (try Self.commandCount(in: page)), "\(page): an example is lost")
    let binaries = Executable("hangul-compose").url.deletingLastPathComponent().path
    for example in examples {
      let result = try Executable("hangul-compose").shell(
        "cd '\(repositoryRoot.path)' && PATH='\(binaries)':\"$PATH\" && \(example.command)")
      #expect(result.text == example.output, "\(page): $ \(example.command)\n\(result.stderr)")
    }
  }

  static var hasMan: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/man") }

  /// The words of a rendered page between its header and footer line, for
  /// comparing two renderers: a word broken at a line end joined again, and
  /// what groff's terminal output cannot draw left out of both (combining
  /// marks and conjoining vowels and finals: NFD café shows as cafe).
  static func words(_ rendered: String) -> [String] {
    let lines = withoutOverstrikes(rendered).split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }.dropFirst().dropLast()
    var text = ""
    for line in lines {
      if text.hasSuffix("\u{2010}") {
        text.removeLast()
      } else if text.hasSuffix("-"), text.dropLast().last?.isLetter == true {
        // A break after the hyphen of a compound word (top-level).
      } else if !text.isEmpty {
        text += " "
      }
      text += line
    }
    return text.split(whereSeparator: \.isWhitespace).map(String.init)
  }

  /// A word as both renderers draw it (what groff cannot draw left out).
  static func drawn(_ word: String) -> String {
    let scalars = word.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
      !(0x0300...0x036F).contains($0.value) && !(0x1160...0x11FF).contains($0.value)
    }.map { $0 == "\u{2014}" || $0 == "\u{2013}" ? "-" : Character($0) }
    return String(scalars)
  }

  @Test(
    "man (groff, 80 columns) renders each page without a warning and with mandoc's words",
    .enabled(if: hasMan, "man is not installed (CI installs man-db)"),
    .enabled(if: hasMandoc, "mandoc is not installed (CI installs it)"), arguments: allPages)
  func groffAgrees(page: String) throws {
    let man = try Executable("hangul-compose").shell(
      "MANWIDTH=80 LANG=C.UTF-8 man -l '\(repositoryFile(page).path)'")
    #expect(man.status == 0)
    #expect(man.stderr.isEmpty, "\(page): \(man.stderr)")
    let groff = Self.words(man.text).filter { !Self.drawn($0).isEmpty }
    let mandoc = Self.words(try Self.rendered(page)).filter { !Self.drawn($0).isEmpty }
    let common = min(groff.count, mandoc.count)
    guard
      let first = (0..<common).first(where: { Self.drawn(groff[$0]) != Self.drawn(mandoc[$0]) })
        ?? (groff.count == mandoc.count ? nil : common)
    else { return }
    let context = { (words: [String]) in
      words[max(0, first - 5)..<min(words.count, first + 5)].joined(separator: " ")
    }
    Issue.record("\(page): groff shows “\(context(groff))”, mandoc “\(context(mandoc))”")
  }

  @Test("the section 1 pages have examples, and every sample is used by a page or the README")
  func samplesAreUsed() throws {
    for (_, page) in Self.pages { #expect(try Self.commandCount(in: page) > 0) }
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
    .enabled(if: hasMandoc, "mandoc is not installed (CI installs it)"), arguments: allPages)
  func lint(page: String) throws {
    // Index our own pages, so that their cross references resolve. Another
    // program's page (convmv(1), uconv(1)) is there only where that program
    // is installed: not finding it is not an error of ours.
    let index = try temporaryFolder()
    let result = try Executable("hangul-compose").shell(
      """
      mkdir -p '\(index.path)/man1' '\(index.path)/man5' && \
      cp '\(repositoryRoot.path)'/man/*.1 '\(index.path)/man1' && \
      cp '\(repositoryRoot.path)'/man/*.5 '\(index.path)/man5' && \
      makewhatis '\(index.path)' && \
      MANPATH='\(index.path)':/usr/share/man mandoc -T lint -W style '\(repositoryFile(page).path)' 2>&1
      """)
    let problems = result.text.split(separator: "\n").filter { line in
      ["STYLE", "WARNING", "ERROR", "UNSUPP"].contains { line.contains(": \($0): ") }
        && !line.contains("line longer than")
        && !(line.contains("referenced manual not found: Xr ")
          && !line.contains("referenced manual not found: Xr hangul-"))
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test(
    "Package.swift pins swift-argument-parser exactly; no machine's Package.resolved is committed")
  func pinnedPackages() throws {
    let manifest = try String(contentsOf: repositoryFile("Package.swift"), encoding: .utf8)
    #expect(
      manifest.contains(
        #".package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2")"#))
    // Its commit ids are those of the copy this machine resolved from.
    let git = try Executable("hangul-compose").shell(
      "cd '\(repositoryRoot.path)' && git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0; "
        + "! git ls-files --error-unmatch Package.resolved >/dev/null 2>&1")
    #expect(git.status == 0, "Package.resolved is tracked by git")
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
    // Installed without debug information (install -s).
    let sections = try Executable("hangul-compose").shell(
      "readelf -S '\(prefix.path)/bin/hangul-compose' | grep -c debug_info")
    #expect(sections.text == "0\n", "the installed program keeps its debug information")
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
