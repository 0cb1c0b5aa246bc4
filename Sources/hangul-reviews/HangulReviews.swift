import ArgumentParser
import HangulCommandLine

@main
struct HangulReviews: ParsableCommand {
  static func main() { runAsProgram() }

  static let configuration = CommandConfiguration(
    commandName: "hangul-reviews",
    abstract: "Import and export review records as JSON for bulk loading.",
    discussion: """
      Reads the review API's envelope {"data":[…]}, a bare array, or JSON Lines \
      (detected from each input) and streams it record by record.
      """,
    version: toolVersion,
    subcommands: [Import.self, Export.self])
}
