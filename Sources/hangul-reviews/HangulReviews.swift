import ArgumentParser

@main
struct HangulReviews: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hangul-reviews",
    abstract: "Import and export review records as JSON for bulk loading.",
    discussion: """
      Reads the review API's envelope {"data":[…]}, a bare array, or JSON Lines \
      (detected from each input) and streams it record by record.
      """,
    subcommands: [Import.self, Export.self])
}
