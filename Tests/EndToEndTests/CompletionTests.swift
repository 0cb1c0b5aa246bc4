import Foundation
import Testing

/// The shell completion scripts in completions/: up to date with the
/// programs' options, and offering in a real shell what a TAB should offer.
@Suite("Shell completions")
struct CompletionTests {
  /// The folder that holds the built programs.
  static var binaryFolder: String {
    Executable("hangul-compose").url.deletingLastPathComponent().path
  }

  /// Runs a shell command line from samples/ and returns its output lines.
  func shell(_ command: String) throws -> [String] {
    let result = try Executable("hangul-compose").shell(
      "cd \(repositoryFile("samples").path) && \(command)")
    #expect(result.status == 0, "\(command): \(result.stderr)")
    return result.text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }

  @Test("the committed scripts are what tools/completions.py makes from the programs")
  func scriptsAreUpToDate() throws {
    let result = try Executable("hangul-compose").shell(
      "python3 \(repositoryFile("tools/completions.py").path) --check \(Self.binaryFolder)")
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// What bash offers for the words typed so far (the last one is being completed).
  func bashOffers(_ words: [String]) throws -> [String] {
    let program = words[0]
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let script = repositoryFile("completions/bash/\(program)").path
    return try shell(
      """
      bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($#-1)); \
      COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; \
      _\(program.replacingOccurrences(of: "-", with: "_")); \
      printf "%s\\n" "${COMPREPLY[@]}"' \(script) \(quoted)
      """
    ).sorted()
  }

  static let bashCases: [(words: [String], offered: [String])] = [
    // File arguments complete file names, and nothing else is offered.
    (["hangul-compose", "qw"], ["qwerty-keys.expected.txt", "qwerty-keys.txt"]),
    (["hangul-decompose", "macos"], ["macos-nfd-names.txt"]),
    (
      ["hangul-reviews", "import", "reviews-k"],
      ["reviews-keys.expected.jsonl", "reviews-keys.jsonl"]
    ),
    // A file option completes file names.
    (["hangul-reviews", "import", "--rejects", "dia"], ["diary.jsonl"]),
    // Enumerated values.
    (["hangul-compose", "--keys", ""], ["jamo", "qwerty"]),
    (["hangul-compose", "--format", "e"], ["events"]),
    (["hangul-decompose", "--to", "q"], ["qwerty"]),
    (["hangul-reviews", "export", "--to", "j"], ["jsonl"]),
    // Time zones and locales.
    (["hangul-reviews", "import", "--time-zone", "Asia/Seo"], ["Asia/Seoul"]),
    (["hangul-reviews", "export", "--locale", "ko"], ["ko_KR"]),
    // Options, and the subcommands that exist (no `help`).
    (["hangul-compose", "--ver"], ["--verify", "--version"]),
    (["hangul-reviews", ""], ["export", "import"]),
    (["hangul-reviews", "h"], []),
    // A free value (a size) offers nothing.
    (["hangul-compose", "--max-line", ""], []),
    (["hangul-normalize", "--form", "nfk"], ["nfkc", "nfkd"]),
    (["hangul-normalize", "--rename", "--recursive", "macos"], ["macos-nfd-names.txt"]),
    (["hangul-compose", "--keyboard", "3"], ["32", "39", "3f", "3s", "3y"]),
    (["hangul-compose", "--keyboard", "tiny"], ["tiny-keyboard.xml"]),
  ]

  @Test("bash offers files, values, zones and options", arguments: bashCases)
  func bash(words: [String], offered: [String]) throws {
    #expect(try bashOffers(words) == offered)
  }

  @Test("bash never offers a help subcommand")
  func noHelpWord() throws {
    for program in ["hangul-compose", "hangul-decompose"] {
      let offered = try bashOffers([program, ""])
      #expect(!offered.contains("help"))
      #expect(offered.contains("qwerty-keys.txt"))
    }
  }

  static var hasFish: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") }
  static var hasZsh: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") }

  static let fishCases: [(program: String, line: String, offered: [String])] = [
    ("hangul-compose", "hangul-compose qw", ["qwerty-keys.expected.txt", "qwerty-keys.txt"]),
    ("hangul-compose", "hangul-compose --keys ", ["jamo", "qwerty"]),
    ("hangul-reviews", "hangul-reviews ", ["export", "import"]),
    ("hangul-reviews", "hangul-reviews import --rejects dia", ["diary.jsonl"]),
    ("hangul-reviews", "hangul-reviews import --time-zone Asia/Seo", ["Asia/Seoul"]),
  ]

  @Test(
    "fish offers the same", .enabled(if: hasFish, "fish is not installed (CI installs it)"),
    arguments: fishCases)
  func fish(program: String, line: String, offered: [String]) throws {
    let script = repositoryFile("completions/fish/\(program).fish").path
    let lines = try shell("fish -c 'source \(script); complete -C \"\(line)\"'")
    let words = lines.map { String($0.split(separator: "\t").first ?? "") }.sorted()
    #expect(words == offered)
  }

  @Test("zsh reads every script", .enabled(if: hasZsh, "zsh is not installed (CI installs it)"))
  func zshSyntax() throws {
    for program in ["hangul-compose", "hangul-decompose", "hangul-normalize", "hangul-reviews"] {
      let script = repositoryFile("completions/zsh/_\(program)").path
      _ = try shell("zsh -n \(script)")
      let text = try String(contentsOfFile: script, encoding: .utf8)
      #expect(text.hasPrefix("#compdef \(program)\n"))
      #expect(text.contains("'*:file:_files'"))
      #expect(!text.contains("'help:"))
    }
  }
}
