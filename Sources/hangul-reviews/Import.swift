import ArgumentParser
import HangulCommandLine
import HangulKit

extension ReviewImportFilter.Dates: ExpressibleByArgument {}

extension HangulReviews {
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Validate review records and write them as JSON Lines with normalized content.",
      discussion: """
        Reads any sequence of JSON values: records, arrays of records, and envelopes \
        (objects whose --records-field member is an array of records), as JSON Lines, \
        pretty-printed, or joined one after another, with or without a byte order mark. \
        Writes one record a line. Every content member is normalized to NFC (--content \
        text) or composed from keystrokes (--content keys, with the compose options); \
        every other member is kept exactly as it came. A record that is not an object, \
        has no string content, has a createdAt that is not a date, or is not valid JSON \
        or UTF-8 is reported with its position, written to --rejects, and skipped; a \
        broken array or envelope is reported; the exit status is then 65.

        Examples:
          hangul-reviews import samples/reviews-keys.expected.jsonl > reviews.jsonl
          hangul-reviews import --content keys --keys qwerty samples/reviews-keys.jsonl
          hangul-reviews import --content-field body samples/diary.jsonl
        """)

    enum ContentMode: String, NamedOptionValue {
      case text
      case keys
    }

    @Option(
      help: "How content is written: text (normalized to NFC) or keys (composed from keystrokes).")
    var content: ContentMode = .text

    @OptionGroup(title: "Compose options (with --content keys)") var compose: ComposeOptions

    @Option(
      help: ArgumentHelp("Write rejected records here as JSON Lines.", valueName: "file"),
      completion: .file())
    var rejects: FilePath?

    @Option(help: ArgumentHelp("The member that holds the text.", valueName: "name"))
    var contentField = "content"

    @Option(
      help: ArgumentHelp("The member of an envelope that holds the records.", valueName: "name"))
    var recordsField = "data"

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Read dates without a zone in this time zone (default: $TZ, else the system's).",
        valueName: "tz"),
      completion: .timeZones)
    var timeZone: String?

    @Option(
      help: ArgumentHelp(
        "How createdAt is written: keep (as it came) or iso (ISO 8601 in UTC with milliseconds, 2022-07-21T11:53:58.652Z).",
        valueName: "form"))
    var dates: ReviewImportFilter.Dates = .keep

    @Flag(name: .shortAndLong, help: "Do not write the summary line to standard error.")
    var quiet = false

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Split regular files between records and run the pieces on n threads (0: one per core).",
        valueName: "n"))
    var jobs = 1

    @OptionGroup var input: InputOptions

    @Argument(help: "Review files to read; - is standard input.", completion: .file())
    var files: [FilePath] = []

    func validate() throws {
      guard jobs >= 0 else { throw ValidationError("--jobs takes a number of threads, 0 or more") }
      try ReviewTime.validate(timeZone)
      if compose.listKeyboards { return }
      if let rejects { try OutputChecks.outputFile(rejects, option: "--rejects", inputs: files) }
      try OutputChecks.standardOutput(isNotOneOf: files)
    }

    func run() throws {
      SystemCalls.ignoreBrokenPipeSignal()
      let diagnostics = Diagnostics(program: "hangul-reviews")
      if compose.listKeyboards { return try ComposeOptions.writeKeyboardList(diagnostics) }
      if compose.guessesKeyboard {
        throw ValidationError("--keyboard auto applies to hangul-compose --format events only")
      }
      let errors = ErrorReport(diagnostics)
      var rejectFile: RejectsFile?
      if let rejects {
        guard let file = StandardStream.create(rejects) else {
          diagnostics.report(
            "\(rejects): cannot create the rejects file: \(StreamError.reason(SystemCalls.errorNumber))"
          )
          throw ExitCode(74)
        }
        rejectFile = RejectsFile(path: rejects, stream: file, diagnostics: diagnostics)
      }
      let keyboard = try compose.loadKeyboard()
      if content == .keys,
        InputAutomaton(keyboard: keyboard, options: compose.composerOptions).rewritesCommittedText
      {
        throw ValidationError(
          "keyboard '\(ProgramArguments.shortened(compose.keyboard))' is a phone keypad: "
            + "review imports cannot type it yet")
      }
      let mode: ReviewImportFilter.Content =
        content == .keys ? .keys(compose.keys, compose.composerOptions, keyboard: keyboard) : .text
      let zone = ReviewTime.zone(timeZone)
      func write(_ entry: ReviewImportLog.Entry) {
        switch entry {
        case .reject(let reject):
          errors.add(reject.message)
          rejectFile?.write(reject.jsonLine)
        case .structureProblem(let problem):
          errors.add(problem.description)
        }
      }
      let runner = input.parallelRunner(files, jobs: jobs)
      let (contentField, recordsField, dates) = (contentField, recordsField, dates)
      var tally = ReviewImportTally()
      let progress = ProgressLine(diagnostics)
      let status: Int32
      if runner.runsInParallel(findingBoundaries: true) {
        // Each piece's findings wait in its filter's log until the pieces before it are written.
        status =
          runner.run(
            makeFilter: {
              try ReviewImportFilter(
                content: mode, contentField: contentField, recordsField: recordsField,
                timeZone: zone, dates: dates, log: ReviewImportLog())
            },
            boundaries: { JSONRecordBoundaryFinder(recordsField: recordsField, guessing: true) },
            merge: { filter, _, finished in
              tally.merge(&filter, finished: finished, write)
              progress.update(records: tally.recordsRead, bytes: tally.bytesRead)
            }, report: diagnostics.report
          ).exitStatus
      } else {
        // One thread: each finding is reported as its record is read (`tail -f reviews |`).
        var filter = try ReviewImportFilter(
          content: mode, contentField: contentField, recordsField: recordsField, timeZone: zone,
          dates: dates, structureProblem: { write(.structureProblem($0)) }
        ) { write(.reject($0)) }
        status =
          input.runner(files).run(&filter, report: diagnostics.report) { filter in
            progress.update(records: filter.recordsRead, bytes: filter.bytesRead)
          }.exitStatus
        tally.merge(&filter, finished: true) { _ in }
      }
      progress.clear()
      errors.finish()
      let rejectsFailed = rejectFile?.close() == false
      if !quiet {
        diagnostics.report(
          recordSummary(
            read: tally.recordsRead, ("imported", tally.recordsImported),
            ("rejected", tally.recordsRejected)))
      }
      if status != 0 { throw ExitCode(status) }
      if rejectsFailed { throw ExitCode(74) }
      if tally.recordsRejected > 0 || tally.structureProblemCount > 0 { throw ExitCode(65) }
    }
  }
}

/// The `--rejects` file. A write error is reported once, when it happens
/// (`FILE: write error: REASON`); no more rejects are written after it, the
/// import goes on (its output is complete), and the program exits 74.
final class RejectsFile {
  private let path: FilePath
  private let stream: StandardStream
  private let diagnostics: Diagnostics
  private var failed = false

  init(path: FilePath, stream: StandardStream, diagnostics: Diagnostics) {
    self.path = path
    self.stream = stream
    self.diagnostics = diagnostics
  }

  /// Writes one rejected record and a newline.
  func write(_ line: String) {
    guard !failed else { return }
    if let failure = stream.writeReportingFailure(Array((line + "\n").utf8)) {
      fail(failure == .brokenPipe ? StreamError.reason(SystemCalls.brokenPipe) : reason(failure))
    }
  }

  /// Closes the file; returns whether every reject was written.
  func close() -> Bool {
    if let reason = stream.close(), !failed { fail(reason) }
    return !failed
  }

  private func fail(_ reason: String) {
    failed = true
    diagnostics.report("\(path): write error: \(reason); later rejects are not written")
  }

  private func reason(_ error: StreamError) -> String {
    if case .cannotWrite(let reason) = error { return reason }
    return error.description
  }
}

/// The progress line of a long import, on a terminal only: records and MB per second.
final class ProgressLine {
  private let diagnostics: Diagnostics
  private let start = secondsSince1970()
  private var last = secondsSince1970()
  private var shown = false

  init(_ diagnostics: Diagnostics) {
    self.diagnostics = diagnostics
  }

  func update(records: Int, bytes: Int) {
    guard diagnostics.isTerminal, secondsSince1970() - last >= 0.5 else { return }
    last = secondsSince1970()
    let seconds = max(last - start, 0.001)
    let rate = Double(bytes) / seconds / 1_000_000
    diagnostics.write("\r\(records) records, \((rate * 10).rounded() / 10) MB/s ")
    shown = true
  }

  func clear() {
    if shown { diagnostics.write("\r\u{1B}[K") }
  }
}

/// Time settings shared by the subcommands.
enum ReviewTime {
  /// Checks a --time-zone value (a usage error when it names no zone);
  /// with `needsLocalTime`, also $TZ when there is no --time-zone. A $TZ
  /// that names no zone is otherwise an error only where a local time is
  /// read (``zone(_:)``).
  static func validate(_ name: String?, needsLocalTime: Bool = false) throws {
    let (value, source) = name.map { ($0, "--time-zone") } ?? (environment("TZ"), "TZ")
    guard let value, name != nil || needsLocalTime, ReviewTimeZone(value) == nil else { return }
    throw ValidationError(
      "\(source) '\(ProgramArguments.shortened(value))' names no time zone; use UTC, an offset such as +09:00, a zone such as Asia/Seoul or :Asia/Seoul, or a POSIX rule such as KST-9"
    )
  }

  /// The time zone named by an option, else by TZ, else the system's local
  /// zone; a TZ that names no zone gives ``ReviewTimeZone/unusable(_:)``.
  static func zone(_ name: String?) -> ReviewTimeZone {
    if let name, let zone = ReviewTimeZone(name) { return zone }
    if let name = environment("TZ") {
      return ReviewTimeZone(name) ?? .unusable(ProgramArguments.shortened(name))
    }
    return .local
  }

}
