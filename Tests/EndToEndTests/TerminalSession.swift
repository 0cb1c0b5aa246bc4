import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An interactive shell on a pseudo-terminal, as a user meets it: a private
/// tmux server (its own socket, no configuration file) runs the shell; keys go
/// in with `send-keys` and the screen comes back with `capture-pane`.
final class TerminalSession {
  /// The tmux program, or nil when it is not installed (`.ci/run` installs it).
  static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// What the shell under test prints as its prompt (set by its start-up file).
  static let prompt = "READY>"

  private let socket = "hangul-tests-\(UUID().uuidString)"

  /// Starts `command` (a shell, with its environment) in `directory` on a
  /// terminal of `width` × `height` and waits for its first prompt. The shell
  /// ends after 10 minutes, and the server with it, should the test never
  /// get to end it.
  init(_ command: String, in directory: URL, width: Int = 160, height: Int = 50) throws {
    guard let path = Self.tmux else { throw Failure(description: "tmux is not installed") }
    try Self.startServer([
      path, "-u", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y",
      "\(height)", "-c", directory.path, "timeout --foreground 600 \(command)",
    ])
    _ = try waitFor(seconds: 60) { $0.contains { $0.hasPrefix(Self.prompt) } }
  }

  deinit { _ = try? tmux(["kill-server"]) }

  /// Runs `arguments` (tmux new-session), whose server lives on after it, as
  /// a user's login would start it. Not through Process: the server would
  /// inherit the test runner's signal mask (a worker thread's, with SIGINT
  /// blocked, so that Ctrl-C would do nothing in the shell) and every
  /// descriptor open at that moment (a pipe another test is reading would
  /// then never end).
  private static func startServer(_ arguments: [String]) throws {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // bash closes the other descriptors, then becomes tmux.
    let closeAll =
      #"for fd in $(ls /proc/$$/fd); do ((fd > 2)) && eval "exec $fd>&-"; done; exec "$@""#
    let argv = (["/bin/bash", "-c", closeAll, "bash"] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv + [nil], environ)
    guard spawned == 0 else {
      throw Failure(description: "tmux: \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    guard status == 0 else { throw Failure(description: "tmux new-session failed (\(status))") }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs tmux on this session's server and returns what it printed.
  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    guard let path = Self.tmux else { throw Failure(description: "tmux is not installed") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    // -u: the terminal is UTF-8 whatever the locale of the test process.
    process.arguments = ["-u", "-L", socket] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed")
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// `line` without the spaces at its end, which a screen does not show.
  static func trimmed<Line: StringProtocol>(_ line: Line) -> String {
    String(line.reversed().drop { $0 == " " }.reversed())
  }

  /// The screen's lines, without the blank ones.
  func screen() throws -> [String] {
    try tmux(["capture-pane", "-p"]).split(separator: "\n").map(Self.trimmed).filter { !$0.isEmpty }
  }

  /// Polls the screen until `condition` holds; after `seconds`, returns the
  /// last screen (the caller's expectations then fail with it).
  func waitFor(seconds: Double, _ condition: ([String]) -> Bool) throws -> [String] {
    let end = Date().addingTimeInterval(seconds)
    var lines = try screen()
    while !condition(lines), Date() < end {
      Thread.sleep(forTimeInterval: 0.05)
      lines = try screen()
    }
    return lines
  }

  /// The screen once it has changed from `before` (within `seconds`) and then
  /// stayed the same for a little while.
  func settled(after before: [String], seconds: Double = 30) throws -> [String] {
    var lines = try waitFor(seconds: seconds) { $0 != before }
    var since = Date()
    while Date().timeIntervalSince(since) < 0.4 {
      Thread.sleep(forTimeInterval: 0.1)
      let now = try screen()
      if now != lines { (lines, since) = (now, Date()) }
    }
    return lines
  }

  /// What a TAB shows after `text` typed on an empty command line: the
  /// command line then, and the words listed below it (a description after a
  /// word, `-- …` in zsh and `(…)` in fish, left out; `unquote` removes the
  /// backslashes that zsh puts in listed names).
  func complete(_ text: String, unquote: Bool = false) throws -> (line: String, listed: [String]) {
    // An empty command line (Ctrl-U in each shell; not Ctrl-C, whose signal
    // throws away keys the shell has not read yet) at the top of a clear screen.
    let empty: ([String]) -> Bool = { $0.last { $0.hasPrefix(Self.prompt) } == Self.prompt }
    for _ in 0..<5 where !empty(try screen()) {
      try tmux(["send-keys", "End", "C-u"])
      _ = try waitFor(seconds: 5, empty)
    }
    try tmux(["send-keys", "C-l"])
    _ = try waitFor(seconds: 20) { $0 == [Self.prompt] }
    try tmux(["send-keys", "-l", text])
    let shown = Self.trimmed("\(Self.prompt) \(text)")
    let typed = try waitFor(seconds: 20) { $0.last == shown }
    try tmux(["send-keys", "Tab"])
    let lines = try settled(after: typed)
    let line = lines.last { $0.hasPrefix(Self.prompt) }.map {
      String($0.dropFirst(Self.prompt.count).drop { $0 == " " })
    }
    var listed: [String] = []
    for row in lines where !row.hasPrefix(Self.prompt) {
      for entry in row.split(separator: "  ", omittingEmptySubsequences: true) {
        let word = entry.trimmingCharacters(in: .whitespaces)
        guard !word.isEmpty, !word.hasPrefix("-- "), !word.hasPrefix("(") else { continue }
        listed.append(unquote ? word.replacingOccurrences(of: "\\", with: "") : word)
      }
    }
    return (line ?? "(no prompt on the screen: \(lines))", listed.sorted())
  }
}
