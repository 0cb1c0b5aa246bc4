import Foundation
import Testing

/// The synopses a user reads (each man page's SYNOPSIS as mandoc renders it,
/// the README's, and a --help USAGE written by hand) name exactly the options
/// that --help lists: an option added to a program cannot be missing from its
/// synopses, nor can a synopsis keep an option the program has dropped.
@Suite("Synopses")
struct SynopsisTests {
  struct Command: CustomStringConvertible, Sendable {
    var program: String
    var subcommand: String?
    var page: String
    var words: [String] { [program] + (subcommand.map { [$0] } ?? []) }
    var description: String { words.joined(separator: " ") }
  }

  static let commands = [
    Command(program: "hangul-compose", page: "man/hangul-compose.1"),
    Command(program: "hangul-decompose", page: "man/hangul-decompose.1"),
    Command(program: "hangul-normalize", page: "man/hangul-normalize.1"),
    Command(program: "hangul-reviews", subcommand: "import", page: "man/hangul-reviews.1"),
    Command(program: "hangul-reviews", subcommand: "export", page: "man/hangul-reviews.1"),
  ]

  /// The options --help lists in its OPTIONS sections (`OPTIONS:`, `COMPOSE
  /// OPTIONS (WITH --CONTENT KEYS):`), each as all its names (`-z,
  /// --zero-terminated`), but for --help and --version.
  static func helpOptions(_ command: Command) throws -> [Set<String>] {
    let help = try Executable(command.program).run(command.words.dropFirst() + ["--help"]).text
    var options: [Set<String>] = []
    var inOptions = false
    for line in help.split(separator: "\n") {
      if line.first?.isUppercase == true, line.hasSuffix(":") {
        inOptions = line.contains("OPTIONS")
      } else if inOptions, line.hasPrefix("  -") {
        let names = Set(optionNames(in: line.prefix { $0 != "<" }.split(separator: "  ")[0]))
        if names.isDisjoint(with: ["--help", "--version"]) { options.append(names) }
      }
    }
    return options
  }

  /// The option names (`-z`, `--from-code`) a text shows.
  static func optionNames<Text: StringProtocol>(in text: Text) -> [String] {
    var names: [String] = []
    var word = ""
    for character in text + " " {
      if character.isLetter || character.isNumber || character == "-" {
        word.append(character)
        continue
      }
      let letters = word.drop { $0 == "-" }
      if word.hasPrefix("-"), word.count - letters.count <= 2, letters.first?.isLetter == true {
        names.append(word)
      }
      word = ""
    }
    return names
  }

  /// The forms of a synopsis (a line starting with the program, and the more
  /// indented lines that go on with it) that are forms of `command`.
  static func forms(_ lines: [Substring], of command: Command) -> String {
    var text = ""
    var inForm = false
    for line in lines {
      let words = line.split(separator: " ")
      if words.first.map(String.init) == command.program {
        let subcommand = words.dropFirst().first.map(String.init)
        inForm = command.subcommand == nil || subcommand == command.subcommand
      }
      if inForm { text += line + "\n" }
    }
    return text
  }

  /// Compares the options a synopsis names with those --help lists.
  static func check(_ synopsis: String, of command: Command, in place: String) throws {
    let options = try helpOptions(command)
    #expect(options.count >= 3, "\(command) --help lists no options")
    let named = Set(optionNames(in: synopsis))
    #expect(!synopsis.isEmpty, "\(place) has no synopsis of \(command)")
    for option in options where option.isDisjoint(with: named) {
      Issue.record(
        "\(place): the synopsis of \(command) lacks \(option.sorted().joined(separator: ", "))")
    }
    let known = options.reduce(Set(["--help", "-h", "--version"])) { $0.union($1) }
    for name in named.subtracting(known).sorted() {
      Issue.record("\(place): the synopsis of \(command) names \(name), which --help does not list")
    }
  }

  @Test(
    "each man page's SYNOPSIS names the options --help lists",
    .enabled(if: ManPageTests.hasMandoc, "mandoc is not installed (CI installs it)"),
    arguments: commands)
  func manPage(command: Command) throws {
    let lines = try ManPageTests.rendered(command.page).split(separator: "\n")
    let section = lines.drop { $0 != "SYNOPSIS" }.dropFirst().prefix { $0.hasPrefix(" ") }
    let synopsis = Self.forms(section.map { $0.drop { $0 == " " } }, of: command)
    try Self.check(synopsis, of: command, in: command.page)
  }

  @Test("the README's synopsis names the options --help lists", arguments: commands)
  func readme(command: Command) throws {
    let readme = try String(contentsOf: repositoryFile("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
    // The first block without a language after the program's heading.
    let section = lines.drop { $0 != "## \(command.program)" }.dropFirst()
    let block = section.drop { $0 != "```" }.dropFirst().prefix { $0 != "```" }
    let synopsis = Self.forms(block.map { $0.drop { $0 == " " } }, of: command)
    try Self.check(synopsis, of: command, in: "README.md")
  }

  @Test("a USAGE written by hand in --help names the options --help lists", arguments: commands)
  func usage(command: Command) throws {
    let help = try Executable(command.program).run(command.words.dropFirst() + ["--help"]).text
    guard let start = help.range(of: "USAGE: ") else {
      Issue.record("\(command) --help has no USAGE")
      return
    }
    let usage = String(help[start.upperBound...]).components(separatedBy: "\n\n")[0]
    // ArgumentParser's own USAGE ends in [<options>] when it lists not all of them.
    guard !usage.contains("[<options>]") else { return }
    let lines = usage.split(separator: "\n").map { $0.drop { $0 == " " } }
    try Self.check(Self.forms(lines, of: command), of: command, in: "\(command) --help USAGE")
  }
}
