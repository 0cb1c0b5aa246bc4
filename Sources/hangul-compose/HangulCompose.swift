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
      with a cursor. --format snapshots, aalto and lwp read researchers' delimited \
      files (the field's text after each event; the Aalto 136M keystrokes TSV; the \
      Linking Writing Processes CSV), a document per section; without --format a \
      FILE whose first line is one of their header lines is read as that format.

      Examples:
        printf 'dkssudgktpdy\\n' | hangul-compose --keys qwerty   # → 안녕하세요
        printf 'jfshea\\n' | hangul-compose --keys qwerty --keyboard 3f  # → 안녕
        printf 'rk\\n' | hangul-compose --keys qwerty --output keystrokes | head -1  # → {"n":1,"key":"r","commit":"","preedit":"ㄱ"}
        hangul-compose samples/phone-review.keys
        hangul-compose --format events --stats samples/events-review.jsonl
        hangul-compose --format events --output jsonl samples/browser-keydown.jsonl
        hangul-compose --format snapshots --stats samples/snapshots-phone.tsv
      """,
    version: versionLine("hangul-compose"))

  enum Format: String, NamedOptionValue {
    case text
    case events
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
  }

  @Option(
    help: """
      How the log is written: text (every character a key), events (JSON Lines), \
      snapshots (the field's text after each event, TSV/CSV), aalto (the Aalto 136M \
      keystrokes TSV) or lwp (the Linking Writing Processes CSV). Default: a FILE whose \
      first line is the header of snapshots, aalto or lwp is read as that, else text.
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

  @Flag(help: "Write typing statistics to standard error after the output.")
  var stats = false

  @Option(help: "How --stats writes: text (an aligned table) or json.")
  var statsFormat: StatisticsFormat = .text

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
    if format == .text { try check(.text) }
    if output == .keystrokes {
      if nfc || verify || stats {
        throw ValidationError(
          "--output keystrokes writes no text: --nfc, --verify and --stats do not apply")
      }
    }
    if !compose.listKeyboards { try OutputChecks.standardOutput(isNotOneOf: files) }
  }

  /// The options that apply to `format` only.
  func check(_ format: Format) throws {
    if format == .text, startMode != .korean || output == .jsonl {
      throw ValidationError(
        "--start-mode and --output jsonl apply to --format events only (a text log has no 한/영 key)"
      )
    }
  }

  /// `--format`, or the format the first FILE's header line names (said on
  /// standard error), or text.
  func chosenFormat() throws -> Format {
    if let format { return format }
    guard let first = files.first, !first.isStandardInput,
      let detected = DelimitedLogFormat.detect(file: first)
    else {
      try check(.text)
      return .text
    }
    diagnostics.report("\(first): read as --format \(detected.rawValue) (its header line)")
    return Format(rawValue: detected.rawValue) ?? .text
  }

  func run() throws {
    SystemCalls.ignoreBrokenPipeSignal()
    if compose.listKeyboards { return try ComposeOptions.writeKeyboardList(diagnostics) }
    let options = compose.composerOptions
    let format = try chosenFormat()
    var keyboard = try compose.loadKeyboard()
    if compose.guessesKeyboard { keyboard = try guessedKeyboard(format) }
    let automaton = InputAutomaton(keyboard: keyboard, options: options)
    if let multitapTimeout {
      guard format == .events, automaton.hasMultitapCycles else {
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
        maximumLineLength: maxLine.value)
      status = input.runner(files).run(&filter, report: diagnostics.report).exitStatus
    case .text:
      // A newline ends the line for good in a text log (a phone keypad's
      // presses too never reach across it), so lines can go to separate threads.
      let (keys, maximumLineLength, counts) = (compose.keys, maxLine.value, stats)
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
    case .events, .snapshots, .aalto, .lwp:
      status = try runEvents(keyboard: keyboard, options: options, delimited: format.delimited)
    }
    if status != 0 { throw ExitCode(status) }
  }

  /// `--keyboard auto`: the built-in keyboard whose preedits agree with the
  /// composition data in the first 64 KiB of the first FILE, said on stderr.
  func guessedKeyboard(_ format: Format) throws -> Keyboard {
    guard format == .events, let first = files.first, !first.isStandardInput else {
      throw ValidationError(
        "--keyboard auto needs --format events and a FILE (it reads the start of the first one)")
    }
    guard let keyboard = EventLogFilter.agreeingKeyboard(forFile: first) else {
      throw ValidationError("--keyboard auto cannot read \(first)")
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
    if stats { diagnostics.write(statsFormat == .json ? statistics.json : statistics.text) }
    return tally.status(after: status, report: diagnostics.report)
  }

  /// Replays an event log, on `--jobs` threads for regular files (pieces
  /// begin with a document where they can), with the output checks and
  /// statistics asked for; returns the exit status.
  func runEvents(keyboard: Keyboard, options: ComposerOptions, delimited: DelimitedLogFormat?)
    throws -> Int32
  {
    if nfc { _ = try ICUNormalizer(.nfc) }
    if verify { _ = try OutputVerifier(expecting: .composed) }
    let errors = ErrorReport(diagnostics)
    let (maximumLineLength, keys, startMode, output, multitapTimeout) = (
      maxLine.value, compose.keys, startMode, output, multitapTimeout
    )
    let (normalizesAll, verifies, counts) = (nfc, verify, stats)
    // Keys are numbered in input order: one thread for --output keystrokes;
    // a delimited log's records need its header line: one thread.
    let oneThread = output == .keystrokes || delimited != nil
    var runner = input.parallelRunner(files, jobs: oneThread ? 1 : jobs.jobs)
    runner.countsOutputLines = verify
    runner.documentKey = { EventLogFilter.documentKey(ofLine: $0) }
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
                EventLogFilter(
                  keys: keys, keyboard: keyboard, options: options,
                  maximumLineLength: maximumLineLength, startMode: startMode,
                  output: output.ofEvents,
                  includesStatistics: counts, multitapTimeout: multitapTimeout,
                  delimitedFormat: delimited, report: { log.add($0) }, warn: { warnings.add($0) }),
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
    if stats { diagnostics.write(statsFormat == .json ? statistics.json : statistics.text) }
    let verified = tally.status(after: status, report: diagnostics.report)
    return errors.finish() > 0 && verified == 0 ? 65 : verified
  }
}

/// The warning messages already shown.
private final class WarnedMessages {
  var messages: Set<String> = []
}
