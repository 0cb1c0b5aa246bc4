import ArgumentParser

/// The `--jobs N` option of the filters (hangul-compose(1)): how many threads run
/// the pieces of a regular file.
///
///     hangul-normalize --jobs 0 big.txt   # one thread per core
package struct JobsOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Split regular files at line boundaries and run the pieces on n threads (0: one per core).",
      valueName: "n"))
  package var jobs = 1

  package init() {}

  package func validate() throws {
    guard jobs >= 0 else { throw ValidationError("--jobs takes a number of threads, 0 or more") }
  }
}
