import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension ParsableCommand {
  /// Parses the command line, runs the command, and exits with the status of SPEC §8.
  ///
  /// Help and `--version` go to standard output as ArgumentParser writes them.
  /// Every error goes to standard error in one style, coreutils' convention:
  ///
  ///     hangul-compose: Unknown option '--bogus'
  ///     Try 'hangul-compose --help'.
  ///
  /// Usage errors exit 64; an `ExitCode` thrown by `run()` exits with its value
  /// (the command has reported its own errors); anything else exits 70.
  public static func runAsProgram() {
    let arguments = Array(CommandLine.arguments.dropFirst())
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
  }

  private static func exitReporting(_ error: any Error, arguments: [String]) -> Never {
    if let code = error as? ExitCode { Glibc.exit(code.rawValue) }
    let status = exitCode(for: error)
    if status == .success { exit(withError: error) }
    let program = configuration.commandName ?? "program"
    let subcommand = configuration.subcommands
      .map { $0._commandName }
      .first { arguments.first == $0 }
    let usage = [program, subcommand].compactMap { $0 }.joined(separator: " ")
    let isUsageError = status == .validationFailure
    var message = message(for: error)
    if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
    var text = "\(program): \(message)\n"
    if isUsageError { text += "Try '\(usage) --help'.\n" }
    StandardStream.error.write(Array(text.utf8))
    Glibc.exit(isUsageError ? 64 : 70)
  }
}
