import ArgumentParser
import HangulCommandLine
import HangulKit

/// How `hangul-reviews export --to csv, tsv or sql` writes its table: the
/// columns, the SQL dialect and table, what a value holding U+0000 does.
/// Their checks against `--to` are the subcommand's (``HangulReviews/Export/validate()``).
struct TableOutputOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "With csv, tsv or sql: the member paths to write, comma-separated (user.userName).",
      valueName: "list"))
  var columns: String?

  @Option(help: "With --to sql: write SQL for sqlite or postgresql.")
  var dialect: SQLDialect?

  @Option(help: ArgumentHelp("With --to sql: the table to create and fill.", valueName: "name"))
  var table: String?

  @Option(
    help: ArgumentHelp(
      "With csv, tsv or sql: a value holding U+0000 skips its record (reject) or is written with U+FFFD (replace).",
      valueName: "policy"))
  var nul: ReviewTableWriter.NULPolicy = .reject

  /// The paths of --columns.
  var columnPaths: [String]? {
    columns.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
  }
}
