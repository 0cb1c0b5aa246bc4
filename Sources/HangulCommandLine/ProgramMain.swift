import ArgumentParser
import HangulKit

extension ParsableCommand {
  /// Parses the command line, runs the command, and exits with the status its man page gives (EXIT STATUS).
  ///
  /// Before anything is opened, descriptors 0–2 are made open
  /// (``StandardStream/openClosedStandardDescriptors()``). Arguments are the
  /// exact bytes given (``ProgramArguments``). Help and `--version` go to
  /// standard output; a failure to write them is an error (74). Every error
  /// goes to standard error in one style, coreutils' convention, lower case,
  /// without a final period:
  ///
  ///     hangul-compose: unknown option '--bogus'
  ///     Try 'hangul-compose --help'.
  ///
  /// Usage errors exit 64; an `ExitCode` thrown by `run()` exits with its value
  /// (the command has reported its own errors); anything else exits 70. A run
  /// that would exit 0 exits 74 when a message or report could not be
  /// written to standard error.
  package static func runAsProgram() {
    StandardStream.openClosedStandardDescriptors()
    // Before any input is mapped: a file truncated meanwhile is an error (74).
    MappedInputGuard.install(program: configuration.commandName ?? "program")
    let arguments = ProgramArguments.forParser
    if let error = subcommandError(arguments) { exitReporting(error, arguments: arguments) }
    let command: ParsableCommand
    do {
      command = try parseAsRoot(arguments)
    } catch {
      exitReporting(error, arguments: arguments)
    }
    var running = command
    do {
      try running.run()
    } catch {
      exitReporting(error, arguments: arguments)
    }
    exitWith(0)
  }

  /// Exits with `status`, or 74 instead of 0 when standard error could not be written.
  private static func exitWith(_ status: Int32) -> Never {
    SystemCalls.exit(status == 0 && StandardStream.errorOutputFailed ? 74 : status)
  }

  private static func exitReporting(_ error: any Error, arguments: [String]) -> Never {
    if let code = error as? ExitCode { exitWith(code.rawValue) }
    var status = exitCode(for: error)
    var error = error
    if status == .success, let notHelp = clusterMistakenForHelp(arguments) {
      (error, status) = (notHelp, .validationFailure)
    }
    if status == .success { writeHelp(for: error) }
    let program = configuration.commandName ?? "program"
    let subcommand = configuration.subcommands
      .map { $0._commandName }
      .first { arguments.first == $0 }
    let usage = [program, subcommand].compactMap { $0 }.joined(separator: " ")
    let isUsageError = status == .validationFailure
    var text = "\(program): \(messageText(for: error))\n"
    if isUsageError { text += "Try '\(usage) --help'.\n" }
    StandardStream.error.write(Array(text.utf8))
    exitWith(isUsageError ? 64 : 70)
  }

  /// Writes help or the version to standard output and exits: 0, or 74 with
  /// a message when it cannot be written (a closed or full descriptor).
  private static func writeHelp(for request: any Error) -> Never {
    let text = fullMessage(for: request)
    let output = StandardStream(descriptor: 1)
    if !text.isEmpty, let failure = output.writeReportingFailure(Array((text + "\n").utf8)) {
      let program = configuration.commandName ?? "program"
      StandardStream.error.write(Array("\(program): \(failure.description)\n".utf8))
      exitWith(failure.exitStatus)
    }
    exitWith(0)
  }

  /// The message of a usage or other error in the programs' style: lower
  /// case, no final period, arguments that are not UTF-8 as `\xHH`, long
  /// values cut.
  private static func messageText(for error: any Error) -> String {
    var message = message(for: error)
    if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
    message = message.replacing(". Please provide one of ", with: "; use one of ")
      .replacing(". Did you mean ", with: "; did you mean ")
    if message.hasPrefix("Unknown option '-"), !message.hasPrefix("Unknown option '--"),
      let name = message.split(separator: "'").dropFirst().first
    {
      message += " (a file whose name starts with -: write ./\(name), or put -- before it)"
    }
    return ProgramArguments.display(lowerCaseSentence(message))
  }

  /// A cluster of short options with an `h` in it (`-dash.txt`, a file name
  /// more likely than a request for help) whose other letters are not
  /// options: the error for those letters, which ArgumentParser would leave
  /// for the help it shows.
  private static func clusterMistakenForHelp(_ arguments: [String]) -> (any Error)? {
    var shortened: [String: String] = [:]
    let options = arguments.prefix { $0 != "--" }
    let isCluster = { (argument: String) in
      argument.hasPrefix("-") && !argument.hasPrefix("--") && argument.count > 2
        && argument.contains("h")
    }
    guard options.contains(where: isCluster) else { return nil }
    var withoutHelp: [String] = []
    for (index, argument) in arguments.enumerated() {
      guard index < options.count, isCluster(argument) else {
        withoutHelp.append(argument)
        continue
      }
      let rest = argument.filter { $0 != "h" }
      if rest != "-" { withoutHelp.append(rest) }
      shortened[rest] = argument
    }
    do {
      _ = try parseAsRoot(withoutHelp)
      return nil
    } catch {
      guard exitCode(for: error) == .validationFailure else { return nil }
      // The message names the cluster as it was given.
      var text = message(for: error)
      for (rest, argument) in shortened {
        text = text.replacing("'\(rest)'", with: "'\(argument)'")
      }
      return ValidationError(text)
    }
  }

  /// For a command with subcommands: a usage error when its first argument
  /// is neither an option nor a subcommand (naming the closest one).
  private static func subcommandError(_ arguments: [String]) -> (any Error)? {
    let names = configuration.subcommands.map { $0._commandName } + ["help"]
    guard names.count > 1, let first = arguments.first, !first.hasPrefix("-"),
      !names.contains(first)
    else { return nil }
    let real = names.dropLast()
    let shown = ProgramArguments.shortened(first)
    if let close = real.min(by: { editDistance($0, first) < editDistance($1, first) }),
      editDistance(close, first) <= 2
    {
      return ValidationError("unknown command '\(shown)'; did you mean '\(close)'?")
    }
    let quoted = real.map { "'\($0)'" }
    let list = quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
    return ValidationError("unknown command '\(shown)'; the commands are \(list)")
  }
}

/// `message` as the programs write messages: a first word that is not an
/// acronym in lower case, no final period.
func lowerCaseSentence(_ message: String) -> String {
  var text = message
  while text.hasSuffix("."), !text.hasSuffix("..") { text.removeLast() }
  let start = Array(text.prefix(2))
  if start.count == 2, start[0].isUppercase, !start[1].isUppercase {
    text = start[0].lowercased() + text.dropFirst()
  }
  return text
}

/// The Levenshtein distance of two words (in characters).
func editDistance(_ first: String, _ second: String) -> Int {
  let (a, b) = (Array(first), Array(second))
  var previous = Array(0...b.count)
  for i in a.indices {
    var current = [i + 1]
    for j in b.indices {
      current.append(
        Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1)))
    }
    previous = current
  }
  return previous[b.count]
}
