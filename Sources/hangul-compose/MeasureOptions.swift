import ArgumentParser
import HangulCommandLine
import HangulKit

/// What hangul-compose reports of the typing besides the text, and how:
/// `--stats` (its format, the `--target` of its error rates), what a pause
/// is, `--output keystrokes`' table and the `--plot` of the writing process.
/// Their checks against `--format` and `--output` are the program's
/// (``HangulCompose/validate()``).
struct MeasureOptions: ParsableArguments {
  @Flag(
    help:
      "Write typing statistics to standard error after the output (events: with the writing-process measures of hangul-keylog(5))."
  )
  var stats = false

  @Option(
    help:
      "How --stats writes: text (aligned tables), json, or csv (one row a document, for R and pandas)."
  )
  var statsFormat: HangulCompose.StatisticsFormat = .text

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Events: an interval between keys of this many milliseconds or more is a pause (--stats, --output keystrokes).",
      valueName: "ms"))
  var pause: Double = 2000

  @Option(
    help: ArgumentHelp(
      "Events --stats: the text each document should have been, one line a document in order (error rates).",
      valueName: "file"),
    completion: .file())
  var target: FilePath?

  @Option(help: "How --output keystrokes writes: jsonl (an object a key) or csv (a table).")
  var keystrokesFormat: HangulCompose.KeystrokesTable = .jsonl

  @Option(
    help: ArgumentHelp(
      "Events: draw each document's writing process (keys, length, cursor over time; pauses, revisions) as SVG.",
      valueName: "file.svg"),
    completion: .file(extensions: ["svg"]))
  var plot: FilePath?
}
