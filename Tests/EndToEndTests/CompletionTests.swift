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

  // MARK: A TAB in a real shell

  /// The shells a user types in, each set up as a user's shell is after
  /// `make install`: the scripts where that shell looks for them.
  enum Shell: String, CustomStringConvertible {
    /// bash with bash-completion, which loads a script from XDG_DATA_DIRS on first use.
    case bash
    /// bash with each script sourced by hand and no bash-completion.
    case bashAlone = "bash without bash-completion"
    /// zsh with the scripts in $fpath and compinit.
    case zsh
    /// fish with the scripts in a vendor_completions.d of XDG_DATA_DIRS.
    case fish

    var description: String { rawValue }

    static let bashCompletion = "/usr/share/bash-completion/bash_completion"
  }

  /// Files of the folder the shells start in: a name with a space and Hangul
  /// (as macOS users send them), and a folder with a space.
  static let files = ["회의록_2024년 3월.docx", "notes.txt", "keys.txt", "tiny keyboard.xml"]

  /// Starts `shell` under tmux in a fresh home whose share/ holds the
  /// completions/ folder as `make install` lays it out, with the programs on PATH.
  func session(_ shell: Shell) throws -> TerminalSession {
    let home = try temporaryFolder()
    let share = home.appendingPathComponent("share")
    let manager = FileManager.default
    for (folder, scripts) in [
      ("bash-completion/completions", "bash"), ("zsh/site-functions", "zsh"),
      ("fish/vendor_completions.d", "fish"),
    ] {
      let link = share.appendingPathComponent(folder)
      try manager.createDirectory(
        at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
      try manager.createSymbolicLink(
        at: link, withDestinationURL: repositoryFile("completions/\(scripts)"))
    }
    let work = home.appendingPathComponent("work")
    try manager.createDirectory(
      at: work.appendingPathComponent("my docs"), withIntermediateDirectories: true)
    for file in Self.files {
      try Data().write(to: work.appendingPathComponent(file))
    }
    func write(_ text: String, _ path: String) throws {
      let url = home.appendingPathComponent(path)
      try manager.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let environment = [
      "env -i HOME='\(home.path)' PATH='\(Self.binaryFolder)':/usr/bin:/bin LANG=C.UTF-8",
      "TERM=screen XDG_DATA_DIRS='\(share.path)':/usr/share",
      "XDG_CONFIG_HOME='\(home.path)/config' XDG_DATA_HOME='\(home.path)/data'",
    ].joined(separator: " ")
    let command: String
    switch shell {
    case .bash, .bashAlone:
      // A list as soon as a TAB is ambiguous (not on a second TAB), never paged.
      try write(
        "set show-all-if-ambiguous on\nset completion-query-items 0\nset page-completions off\n",
        "inputrc")
      let load =
        shell == .bash
        ? "source \(Self.Shell.bashCompletion)"
        : "for script in '\(share.path)'/bash-completion/completions/*; do source \"$script\"; done"
      try write("PS1='\(TerminalSession.prompt) '\n\(load)\n", "bashrc")
      command =
        "\(environment) INPUTRC='\(home.path)/inputrc' bash --rcfile '\(home.path)/bashrc' -i"
    case .zsh:
      try write(
        """
        fpath=('\(share.path)/zsh/site-functions' $fpath)
        autoload -U compinit && compinit -u -D
        bindkey -e
        PS1='\(TerminalSession.prompt) '

        """, "zdot/.zshrc")
      command = "\(environment) ZDOTDIR='\(home.path)/zdot' zsh -i"
    case .fish:
      // No suggestion after the cursor: the screen shows only what was typed.
      try write(
        """
        function fish_prompt; echo -n '\(TerminalSession.prompt) '; end
        set -g fish_greeting
        set -g fish_autosuggestion_enabled 0

        """, "config/fish/config.fish")
      command = "\(environment) fish"
    }
    return try TerminalSession(command, in: work)
  }

  /// What one TAB must give: the command line after it (`line`, for a word
  /// only one completion fits, with no list below), or the words listed.
  struct Tab: CustomStringConvertible {
    var typed: String
    var line: String? = nil
    var listed: [String]? = nil
    var description: String { typed }
  }

  static let tabs: [Tab] = [
    // File names, one word whatever they hold, quoted on the command line.
    Tab(typed: "hangul-compose 회", line: #"hangul-compose 회의록_2024년\ 3월.docx"#),
    Tab(
      typed: "hangul-compose ",
      listed: ["keys.txt", "my docs/", "notes.txt", "tiny keyboard.xml", "회의록_2024년 3월.docx"]),
    Tab(typed: "hangul-decompose my", line: #"hangul-decompose my\ docs/"#),
    Tab(
      typed: "hangul-normalize --rename --recursive my",
      line: #"hangul-normalize --rename --recursive my\ docs/"#),
    Tab(
      typed: "hangul-reviews import --rejects 회",
      line: #"hangul-reviews import --rejects 회의록_2024년\ 3월.docx"#),
    // A built-in keyboard or a keyboard file.
    Tab(
      typed: "hangul-compose --keyboard ti", line: #"hangul-compose --keyboard tiny\ keyboard.xml"#),
    Tab(typed: "hangul-compose --keyboard 3", listed: ["32", "39", "3f", "3s", "3y"]),
    // Options, values, subcommands, encodings, time zones, locales.
    Tab(typed: "hangul-compose --key", listed: ["--keyboard", "--keys", "--keystrokes-format"]),
    Tab(typed: "hangul-compose --keys ", listed: ["jamo", "qwerty"]),
    Tab(typed: "hangul-normalize --form nfk", listed: ["nfkc", "nfkd"]),
    Tab(typed: "hangul-decompose --from-code utf-16", listed: ["utf-16", "utf-16be", "utf-16le"]),
    Tab(typed: "hangul-compose --from-code cp9", line: "hangul-compose --from-code cp949"),
    Tab(typed: "hangul-reviews ", listed: ["export", "import"]),
    Tab(typed: "hangul-reviews export --to c", line: "hangul-reviews export --to csv"),
    Tab(
      typed: "hangul-reviews import --time-zone Asia/Seo",
      line: "hangul-reviews import --time-zone Asia/Seoul"),
    Tab(typed: "hangul-reviews export --locale ko", line: "hangul-reviews export --locale ko_KR"),
  ]

  /// Types each of `tabs` in `shell` and presses TAB.
  func pressTabs(in shell: Shell) throws {
    let session = try session(shell)
    for tab in Self.tabs {
      let shown = try session.complete(tab.typed, unquote: shell == .zsh)
      if let line = tab.line {
        #expect(shown.line == line, "\(shell): \(tab.typed)⇥")
        #expect(shown.listed.isEmpty, "\(shell): \(tab.typed)⇥")
      }
      if let listed = tab.listed {
        #expect(shown.listed == listed, "\(shell): \(tab.typed)⇥")
      }
    }
  }

  static var hasTmux: Bool { TerminalSession.tmux != nil }
  static var hasBashCompletion: Bool {
    FileManager.default.fileExists(atPath: Shell.bashCompletion)
  }

  @Test(
    "a TAB in bash with bash-completion, on a terminal",
    .enabled(if: hasTmux, "tmux is not installed (CI installs it)"),
    .enabled(if: hasBashCompletion, "bash-completion is not installed (CI installs it)"))
  func tabInBash() throws { try pressTabs(in: .bash) }

  @Test(
    "a TAB in bash without bash-completion, on a terminal",
    .enabled(if: hasTmux, "tmux is not installed (CI installs it)"))
  func tabInBashAlone() throws { try pressTabs(in: .bashAlone) }

  @Test(
    "a TAB in zsh with compinit, on a terminal",
    .enabled(if: hasTmux, "tmux is not installed (CI installs it)"),
    .enabled(if: hasZsh, "zsh is not installed (CI installs it)"))
  func tabInZsh() throws { try pressTabs(in: .zsh) }

  @Test(
    "a TAB in fish, on a terminal",
    .enabled(if: hasTmux, "tmux is not installed (CI installs it)"),
    .enabled(if: hasFish, "fish is not installed (CI installs it)"))
  func tabInFish() throws { try pressTabs(in: .fish) }

  @Test("every encoding a TAB offers for --from-code opens")
  func offeredEncodingsOpen() throws {
    let encodings = try bashOffers(["hangul-compose", "--from-code", ""])
    #expect(encodings.count > 10)
    for encoding in encodings {
      let result = try Executable("hangul-compose").run(["--from-code", encoding])
      #expect(result.status == 0, "--from-code \(encoding): \(result.stderr)")
    }
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
