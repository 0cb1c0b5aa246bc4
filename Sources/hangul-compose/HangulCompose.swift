import ArgumentParser
import HangulCommandLine
import HangulKit

@main
struct HangulCompose: ParsableCommand {
  static func main() { runAsProgram() }

  static let configuration = CommandConfiguration(
    commandName: "hangul-compose",
    abstract: "Turn Korean keystroke logs into composed Hangul text.",
    discussion: """
      Reads each FILE in order (standard input when there is none or a FILE is -) \
      and writes the composed text. Compatibility jamo are keys (with --keys qwerty \
      ASCII letters too); BS and DEL are Backspace; a newline ends the line; every \
      other character, bytes that are not UTF-8 included, ends the syllable and is \
      copied unchanged. The keyboard is libhangul's 2-set keyboard by default; \
      --keyboard picks another built-in one (2 2y 32 39 3f 3s 3y ro ahn, the phone \
      keypads cheonjiin naratgeul sky2, see --list-keyboards) or reads a keyboard \
      file (hangul-keyboard(5)); keyboards other than 2-set and the phone keypads \
      are typed with --keys qwerty. \
      With --format events the log is JSON Lines, one key event a line (W3C \
      "key" and "code" values, as browsers record them), replayed in a document \
      with a cursor; --format idfx and --format translog read the XML logs of \
      Inputlog and Translog-II the same way, and --format snapshots, aalto and lwp \
      researchers' delimited files (the field's text after each event; the Aalto 136M \
      keystrokes TSV; the Linking Writing Processes CSV), a document per section \
      (hangul-keylog(5)). Without --format, a first FILE that starts as such a log \
      is read as one.

      Examples:
        printf 'dkssudgktpdy\\n' | hangul-compose --keys qwerty   # → 안녕하세요
        printf 'jfshea\\n' | hangul-compose --keys qwerty --keyboard 3f  # → 안녕
        printf 'rk\\n' | hangul-compose --keys qwerty --output keystrokes | head -1  # → {"n":1,"key":"r","commit":"","preedit":"ㄱ"}
        hangul-compose samples/phone-review.keys
        hangul-compose --format events --stats samples/events-review.jsonl
        hangul-compose --format events --output jsonl samples/browser-keydown.jsonl
        hangul-compose --format idfx samples/inputlog-korean.idfx   # → 안녕하세요 Hi 한국어.
        hangul-compose --format events --stats --stats-format csv samples/events-measures.jsonl
        hangul-compose --format snapshots --stats samples/snapshots-phone.tsv
      """,
    version: versionLine("hangul-compose"))

  enum Format: String, NamedOptionValue {
    case text
    case events
    case idfx
    case translog
    case snapshots
    case aalto
    case lwp

    /// The research logger's delimited format, for those formats.
    var delimited: DelimitedLogFormat? { DelimitedLogFormat(rawValue: rawValue) }
  }

  /// What `--output` writes.
  enum Output: String, NamedOptionValue {
    case text
    case jsonl
    case keystrokes

    /// The event log filter's output.
    var ofEvents: EventLogFilter.Output {
      switch self {
      case .text: .text
      case .jsonl: .jsonl
      case .keystrokes: .keystrokes
      }
    }
  }

  enum StatisticsFormat: String, NamedOptionValue {
    case text
    case json
    case csv
  }

  enum KeystrokesTable: String, NamedOptionValue {
    case jsonl
    case csv

    var format: KeystrokesFormat { self == .csv ? .csv : .jsonl }
  }

  @Option(
    help: """
      How the log is written: text (every character a key), events (JSON Lines), idfx \
      (Inputlog XML), translog (Translog-II XML), snapshots (the field's text after each \
      event, TSV/CSV), aalto (the Aalto 136M keystrokes TSV) or lwp (the Linking Writing \
      Processes CSV); without it a file whose start is such a log is read as one, else text.
      """)
  var format: Format?

  @OptionGroup var compose: ComposeOptions

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Flush a line longer than this many bytes in pieces (suffix K, M or G).",
      valueName: "size"),
    transform: ByteCount.parse)
  var maxLine = ByteCount(LineEditor.defaultMaximumLineLength)

  @Flag(help: "Also put all other output text through ICU NFC (e + U+0301 → é).")
  var nfc = false

  @Flag(help: "Check every output line against ICU NFC and NFD; a disagreement exits 65.")
  var verify = false

  @OptionGroup var measures: MeasureOptions

  @Option(
    help: "Events: the input mode each document starts in, korean or english (HangulMode toggles).")
  var startMode: InputMode = .korean

  @Option(
    help: """
      What to write: text; jsonl (events: {"doc":…,"text":…} a document); keystrokes \
      (one {"n":…,"key":…,"commit":…,"preedit":…} a key, as the input method saw it).
      """)
  var output: Output = .text

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Events on a phone keypad: a pause longer than this many milliseconds ends a multi-tap cycle (default: never).",
      valueName: "ms"))
  var multitapTimeout: Double?

  @OptionGroup var input: InputOptions

  @OptionGroup var jobs: JobsOptions

  @Argument(help: "Keystroke logs to read; - is standard input.", completion: .file())
  var files: [FilePath] = []

  var diagnostics: Diagnostics { Diagnostics(program: "hangul-compose") }

  func validate() throws {
    if format == .text { try Self.checkTextOptions(startMode: startMode, output: output) }
    if output == .keystrokes {
      if nfc || verify || measures.stats {
        throw ValidationError(
          "--output keystrokes writes no text: --nfc, --verify and --stats do not apply")
      }
    }
    guard measures.pause >= 0, measures.pause.isFinite else {
      throw ValidationError("--pause must be a number of milliseconds, 0 or more")
    }
    if measures.target != nil, format != .events || !measures.stats {
      throw ValidationError("--target needs --format events and --stats")
    }
    if let plot = measures.plot {
      guard format != .text else {
        throw ValidationError("--plot needs a log of events, not --format text")
      }
      try OutputChecks.outputFile(plot, option: "--plot", inputs: files)
    }
    if measures.keystrokesFormat != .jsonl, output != .keystrokes {
      throw ValidationError("--keystrokes-format applies to --output keystrokes only")
    }
    if !compose.listKeyboards { try OutputChecks.standardOutput(isNotOneOf: files) }
  }

  func run() throws {
    SystemCalls.ignoreBrokenPipeSignal()
    if compose.listKeyboards { return try ComposeOptions.writeKeyboardList(diagnostics) }
    let format = try resolvedFormat()
    if format == .text, measures.plot != nil {
      throw ValidationError("--plot needs a log of events, not a text log")
    }
    if format == .text { try Self.checkTextOptions(startMode: startMode, output: output) }
    let options = compose.composerOptions
    var keyboard = try compose.loadKeyboard()
    if compose.guessesKeyboard { keyboard = try guessedKeyboard(format) }
    let automaton = InputAutomaton(keyboard: keyboard, options: options)
    if let multitapTimeout {
      guard format != .text, automaton.hasMultitapCycles else {
        throw ValidationError(
          "--multitap-timeout needs --format events and a phone keypad keyboard (cheonjiin, naratgeul, sky2)"
        )
      }
      guard multitapTimeout >= 0, multitapTimeout.isFinite else {
        throw ValidationError("--multitap-timeout must be a number of milliseconds, 0 or more")
      }
    }
    var status: Int32
    switch format {
    case .text where output == .keystrokes:
      // Keys are numbered in input order: one thread.
      var filter = KeystrokeLogFilter(
        keys: compose.keys, keyboard: keyboard, options: options,
        maximumLineLength: maxLine.value, format: measures.keystrokesFormat.format)
      status = input.runner(files).run(&filter, report: diagnostics.report).exitStatus
    case .text:
      // A newline ends the line for good in a text log (a phone keypad's
      // presses too never reach across it), so lines can go to separate threads.
      let (keys, maximumLineLength, counts) = (compose.keys, maxLine.value, measures.stats)
      if automaton.rewritesCommittedText {
        // Its filter keeps the line until no press can change it.
        status = try runText {
          KeypadComposeFilter(keys: keys, keyboard: keyboard, maximumLineLength: maximumLineLength)
        }
      } else {
        status = try runText {
          ComposeFilter(
            keys: keys, keyboard: keyboard, options: options,
            maximumLineLength: maximumLineLength, countsOutput: counts)
        }
      }
    case .events, .idfx, .translog, .snapshots, .aalto, .lwp:
      status = try runEvents(keyboard: keyboard, options: options, format: format)
    }
    if status != 0 { throw ExitCode(status) }
  }

  /// The options a text log takes (it has no 한/영 key and no documents).
  static func checkTextOptions(startMode: InputMode, output: Output) throws {
    if startMode != .korean || output == .jsonl {
      throw ValidationError(
        "--start-mode and --output jsonl apply to logs of events only (a text log has no 한/영 key)"
      )
    }
  }

  /// `--format`, or without it the format the start of the first FILE
  /// shows (an IDFX or Translog-II log, a delimited log's header line; said
  /// on stderr), else text.
  func resolvedFormat() throws -> Format {
    if let format { return format }
    guard let first = files.first, !first.isStandardInput else { return .text }
    if let detected = XMLLogFormat.detect(fileAt: first) {
      let name = detected == .idfx ? "an Inputlog IDFX log" : "a Translog-II log"
      diagnostics.report("reading \(first) as --format \(detected.rawValue) (its start is \(name))")
      return detected == .idfx ? .idfx : .translog
    }
    if let detected = DelimitedLogFormat.detect(file: first),
      let format = Format(rawValue: detected.rawValue)
    {
      diagnostics.report(
        "reading \(first) as --format \(detected.rawValue) (its first line is its header)")
      return format
    }
    return .text
  }

  /// Writes `--plot`'s SVG; `false` (reported) when it cannot be written.
  func writePlot(_ drawn: ProcessPlot, to path: FilePath) -> Bool {
    guard let file = StandardStream.create(path) else {
      diagnostics.report(
        "\(path): cannot create the --plot file: \(StreamError.reason(SystemCalls.errorNumber))")
      return false
    }
    let failure = file.writeReportingFailure(Array(drawn.svg.utf8))?.description ?? file.close()
    if let failure { diagnostics.report("\(path): \(failure)") }
    return failure == nil
  }

  /// The `--stats` report as `--stats-format` writes it.
  func written(_ statistics: StatisticsReport) -> String {
    switch measures.statsFormat {
    case .text: statistics.text
    case .json: statistics.json
    case .csv: statistics.csv
    }
  }

  /// `--keyboard auto`: the built-in keyboard whose preedits agree with the
  /// composition data in the first 64 KiB of the first FILE, said on stderr.
  func guessedKeyboard(_ format: Format) throws -> Keyboard {
    guard format == .events, let first = files.first, !first.isStandardInput else {
      throw ValidationError(
        "--keyboard auto needs --format events and a FILE (it reads the start of the first one)")
    }
    guard let keyboard = EventLogFilter.agreeingKeyboard(forFile: first) else {
      throw ValidationError("--keyboard auto cannot read the start of \(first) (a regular file)")
    }
    diagnostics.report("--keyboard auto: \(keyboard.layout.id) (its preedits agree with the log's)")
    return keyboard
  }

  /// Composes a text log with filters `makeComposer` makes, on `--jobs`
  /// threads for regular files, with the output checks and statistics asked
  /// for; returns the exit status.
  func runText<Composer: ByteFilter & StatisticsReporting>(
    _ makeComposer: () -> Composer
  ) throws -> Int32 {
    if nfc { _ = try ICUNormalizer(.nfc) }
    if verify { _ = try OutputVerifier(expecting: .composed) }
    let (normalizesAll, verifies) = (nfc, verify)
    var runner = input.parallelRunner(files, jobs: jobs.jobs)
    runner.countsOutputLines = verify
    var statistics = StatisticsReport()
    var tally = VerificationTally()
    let status = runner.run(
      makeFilter: {
        VerifyingFilter(
          NormalizingFilter(
            makeComposer(), normalizer: normalizesAll ? try ICUNormalizer(.nfc) : nil),
          verifier: verifies ? try OutputVerifier(expecting: .composed) : nil)
      },
      merge: { filter, place, finished in
        guard finished else { return }
        statistics.append(filter.statistics)
        tally.add(filter, at: place)
      }, report: diagnostics.report
    ).exitStatus
    if measures.stats { diagnostics.write(written(statistics)) }
    return tally.status(after: status, report: diagnostics.report)
  }

  /// Replays an event log, on `--jobs` threads for regular files (pieces
  /// begin with a document where they can), with the output checks and
  /// statistics asked for; returns the exit status.
  func runEvents(keyboard: Keyboard, options: ComposerOptions, format: Format) throws -> Int32 {
    let (maximumLineLength, keys, startMode, output, multitapTimeout) = (
      maxLine.value, compose.keys, startMode, output.ofEvents, multitapTimeout
    )
    let counts = measures.stats
    let (pauseThreshold, keystrokesFormat, plots) = (
      measures.pause, measures.keystrokesFormat.format, measures.plot != nil
    )
    let targets: TargetLines?
    do {
      targets = try measures.target.map(TargetLines.init)
    } catch {
      diagnostics.report("--target \(error)")
      throw ExitCode(66)
    }
    // Every format replays through the same editor (hangul-keylog(5)).
    let makeEvents = {
      (report: @escaping (PositionedError) -> Void, warn: @escaping (PositionedError) -> Void)
      in
      EventLogFilter(
        keys: keys, keyboard: keyboard, options: options,
        maximumLineLength: maximumLineLength, startMode: startMode,
        output: output, includesStatistics: counts, multitapTimeout: multitapTimeout,
        pauseThreshold: pauseThreshold, targets: targets.map { lines in { lines.next() } },
        keystrokesFormat: keystrokesFormat, plots: plots, delimitedFormat: format.delimited,
        report: report, warn: warn)
    }
    // An XML or delimited log is one whole (its header, its root): one thread.
    switch format {
    case .idfx:
      return try replay(jobs: 1) { report, warn in
        IDFXLogFilter(
          replaying: makeEvents(report, warn), maximumLineLength: maximumLineLength,
          report: report, warn: warn)
      }
    case .translog:
      return try replay(jobs: 1) { report, warn in
        TranslogLogFilter(replaying: makeEvents(report, warn), report: report, warn: warn)
      }
    case .snapshots, .aalto, .lwp:
      return try replay(jobs: 1, makeReplayer: makeEvents)
    default:
      // Keys are numbered in input order, targets taken in document order: one thread.
      let oneThread = output == .keystrokes || targets != nil
      var runner = input.parallelRunner(files, jobs: oneThread ? 1 : jobs.jobs)
      runner.documentKey = { EventLogFilter.documentKey(ofLine: $0) }
      return try replay(runner: runner, makeReplayer: makeEvents)
    }
  }

  /// ``replay(runner:makeReplayer:)`` on `jobs` threads.
  func replay<Replayer: ByteFilter & StatisticsReporting>(
    jobs: Int,
    makeReplayer:
      @escaping (
        @escaping (PositionedError) -> Void, @escaping (PositionedError) -> Void
      ) -> Replayer
  ) throws -> Int32 {
    try replay(runner: input.parallelRunner(files, jobs: jobs), makeReplayer: makeReplayer)
  }

  /// Replays logs with the filters `makeReplayer` makes (given where errors
  /// and warnings go), with the output checks and statistics asked for;
  /// returns the exit status.
  func replay<Replayer: ByteFilter & StatisticsReporting>(
    runner: ParallelFilterRunner,
    makeReplayer:
      @escaping (
        @escaping (PositionedError) -> Void, @escaping (PositionedError) -> Void
      ) -> Replayer
  ) throws -> Int32 {
    if nfc { _ = try ICUNormalizer(.nfc) }
    if verify { _ = try OutputVerifier(expecting: .composed) }
    let errors = ErrorReport(diagnostics)
    let (normalizesAll, verifies) = (nfc, verify)
    var runner = runner
    runner.countsOutputLines = verify
    var statistics = StatisticsReport()
    var tally = VerificationTally()
    // On one thread each error is reported as its line is read (`tail -f log |`).
    let immediate: ((PositionedError) -> Void)? =
      runner.runsInParallel ? nil : { errors.add($0.description) }
    // Warnings (an event type not known) are shown but not counted as errors,
    // each message once whatever piece of a parallel run found it.
    let warned = WarnedMessages()
    let warnOnce: (PositionedError) -> Void = {
      if warned.messages.insert($0.message).inserted { diagnostics.report($0.description) }
    }
    let warnNow: ((PositionedError) -> Void)? = runner.runsInParallel ? nil : warnOnce
    let status = runner.run(
      makeFilter: {
        let log = PieceErrorLog(immediate: immediate)
        let warnings = PieceErrorLog(immediate: warnNow)
        return ErrorLoggingFilter(
          log: log,
          ErrorLoggingFilter(
            log: warnings,
            VerifyingFilter(
              NormalizingFilter(
                makeReplayer({ log.add($0) }, { warnings.add($0) }),
                normalizer: normalizesAll ? try ICUNormalizer(.nfc) : nil),
              verifier: verifies ? try OutputVerifier(expecting: .composed) : nil)))
      },
      merge: { filter, place, finished in
        let shift = place.recordsBeforeInInput
        _ = filter.inner.log.drain(shift: shift, report: warnOnce)
        let unshown = filter.log.drain(shift: shift) { errors.add($0.description) }
        errors.add(unshown: unshown)
        guard finished else { return }
        statistics.append(filter.inner.inner.statistics)
        tally.add(filter.inner.inner, at: place)
      }, report: diagnostics.report
    ).exitStatus
    if measures.stats { diagnostics.write(written(statistics)) }
    if let plot = measures.plot, let drawn = statistics.plot, !writePlot(drawn, to: plot) {
      return 74
    }
    let verified = tally.status(after: status, report: diagnostics.report)
    return errors.finish() > 0 && verified == 0 ? 65 : verified
  }
}

/// `--target`'s lines, one a document, read as they are needed.
private final class TargetLines {
  private var reader: TargetLineReader

  init(_ path: FilePath) throws {
    reader = try TargetLineReader(path: path)
  }

  /// The next line without its line break, or `nil` past the end.
  func next() -> String? { reader.next() }
}

/// The warning messages already shown.
private final class WarnedMessages {
  var messages: Set<String> = []
}
