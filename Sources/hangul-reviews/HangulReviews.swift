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
    version: toolVersion,
    subcommands: [Import.self, Export.self])
}
