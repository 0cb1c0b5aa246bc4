import ArgumentParser
import HangulCommandLine

@main
struct HangulReviews: ParsableCommand {
  static func main() { runAsProgram() }

  static let configuration = CommandConfiguration(
    commandName: "hangul-reviews",
    abstract: "Import and export review records as JSON for bulk loading.",
    discussion: """
      Reads any sequence of JSON values (JSON Lines, pretty-printed values, arrays of \
      records, envelopes {"data":[…]} with the records anywhere among their members) \
      and streams it record by record.
      """,
    version: versionLine("hangul-reviews"),
    subcommands: [Import.self, Export.self])

  /// Without a subcommand there is nothing to do: a usage error that names them.
  func run() throws {
    throw ValidationError("a command is needed: 'import' or 'export'")
  }
}
