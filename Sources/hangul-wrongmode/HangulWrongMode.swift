import ArgumentParser
import HangulCommandLine
import HangulKit
import HangulWrongMode

@main
struct HangulWrongModeCommand: ParsableCommand {
  static func main() { runAsProgram() }

  static let configuration = CommandConfiguration(
    commandName: "hangul-wrongmode",
    abstract: "Find and fix text typed in the wrong 한/영 (Korean/English) input mode.",
    discussion: """
      Looks through ordinary text for words typed with the input method in the wrong \
      mode, both ways: letters meant as Korean (dkssud for 안녕, typed in English mode) \
      and Hangul meant as English (ㅗ디ㅣㅐ for hello, typed in Korean mode). Words are \
      judged by Hunspell's Korean and English dictionaries (Debian hunspell-ko and \
      hunspell-en-us) and by their shape; URLs, e-mail addresses, paths, file names, \
      identifiers, hex, base64 and English words are left alone.

      check writes FILE:LINE:COLUMN for each span and exits 1 when there is one; fix \
      writes the text with the spans replaced and every other byte unchanged.

      Examples:
        printf 'iPhone 15 dkssud gktpdy! ㅗ디ㅣㅐ world\\n' | hangul-wrongmode fix
        hangul-wrongmode check comments.txt
        hangul-wrongmode fix --report spans.jsonl --jobs 0 queries.txt > fixed.txt
      """,
    version: toolVersion,
    subcommands: [Check.self, Fix.self])
}

extension HangulWrongModeCommand {
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write FILE:LINE:COLUMN for each span typed in the wrong mode; exit 1 if any.",
      discussion: """
        Writes to standard output one line a span, in input order:
          FILE:LINE:COLUMN: "dkssud" looks like 안녕 typed in English mode
        (standard input is named "(standard input)"; columns count characters). \
        Exits 0 when no span was found, 1 when one was, and 64 or more on an error.

        Examples:
          printf 'iPhone 15 dkssud gktpdy! ㅗ디ㅣㅐ world\\n' | hangul-wrongmode check
          hangul-wrongmode check --report spans.jsonl comments.txt
        """)

    @OptionGroup var options: WrongModeCommandOptions

    func run() throws {
      let (status, found) = try options.run(mode: .check)
      if status != 0 { throw ExitCode(status) }
      if found > 0 { throw ExitCode(1) }
    }
  }

  struct Fix: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write the text with each span typed in the wrong mode replaced.",
      discussion: """
        Writes the text to standard output with each span replaced by what it meant \
        (dkssud by 안녕, ㅗ디ㅣㅐ by hello) and every other byte as it came, bytes that \
        are not UTF-8 included. Hangul typed in Korean mode gives small letters unless \
        the English dictionary wants capitals: Shift is lost in Korean mode but for \
        ㄲ ㄸ ㅃ ㅆ ㅉ ㅒ ㅖ.

        Examples:
          printf 'iPhone 15 dkssud gktpdy! ㅗ디ㅣㅐ world\\n' | hangul-wrongmode fix
          hangul-wrongmode fix --report spans.jsonl comments.txt > fixed.txt
        """)

    @OptionGroup var options: WrongModeCommandOptions

    func run() throws {
      let (status, _) = try options.run(mode: .fix)
      if status != 0 { throw ExitCode(status) }
    }
  }
}

/// The options `check` and `fix` share, and the run itself.
struct WrongModeCommandOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Write each span as a line of JSON (file, line, column, from, to, direction, score).",
      valueName: "file"),
    completion: .file())
  var report: FilePath?

  @Option(
    help: ArgumentHelp(
      "The keyboard the text was typed on: a built-in id or a keyboard file.",
      valueName: "id|file"),
    completion: .list(Keyboard.builtInIDs))
  var keyboard = "2"

  @Option(help: ArgumentHelp("Report only spans of at least n keys.", valueName: "n"))
  var minLength = 2

  @Option(
    help: ArgumentHelp(
      "Report only spans scored at least this, from 0 to 1 (0.6: also by neighbours).",
      valueName: "score"))
  var minScore = 0.5

  @Option(
    help: ArgumentHelp(
      "The Korean Hunspell dictionary, without .aff or .dic.", valueName: "path"),
    completion: .file())
  var koreanDictionary = WrongModeLexicon.debianKoreanDictionary

  @Option(
    help: ArgumentHelp(
      "The English Hunspell dictionary, without .aff or .dic.", valueName: "path"),
    completion: .file())
  var englishDictionary = WrongModeLexicon.debianEnglishDictionary

  @OptionGroup var input: InputOptions

  @OptionGroup var jobs: JobsOptions

  @Argument(help: "Text files to read; - is standard input.", completion: .file())
  var files: [FilePath] = []

  func validate() throws {
    guard minLength >= 1 else { throw ValidationError("--min-length takes a number, 1 or more") }
    guard minScore >= 0, minScore <= 1 else {
      throw ValidationError("--min-score takes a number from 0 to 1, such as 0.5")
    }
    if let report { try OutputChecks.outputFile(report, option: "--report", inputs: files) }
    try OutputChecks.standardOutput(isNotOneOf: files)
    _ = try typing()
  }

  /// The keyboard's typing; a usage error when it cannot be loaded or used.
  func typing() throws -> WrongModeTyping {
    do {
      return try WrongModeTyping(keyboard: try Keyboard(id: keyboard))
    } catch let error as KeyboardFileError {
      throw ValidationError("\(error.description) (keyboard files: see hangul-keyboard(5))")
    } catch {
      throw ValidationError("\(error)")
    }
  }

  /// Runs the filter over the files; returns the exit status of the run and
  /// the number of spans found.
  func run(mode: WrongModeFilter.Mode) throws -> (Int32, Int) {
    SystemCalls.ignoreBrokenPipeSignal()
    let diagnostics = Diagnostics(program: "hangul-wrongmode")
    let lexicon: WrongModeLexicon
    do {
      lexicon = try WrongModeLexicon(
        typing: try typing(), koreanDictionary: koreanDictionary,
        englishDictionary: englishDictionary)
    } catch let error as WrongModeLexicon.DictionaryError {
      diagnostics.report(error.description)
      throw ExitCode(66)
    }
    var spans = SpanWriter(
      messages: mode == .check ? StandardStream(descriptor: 1) : nil,
      report: try report.map { path in
        guard let file = StandardStream.create(path) else {
          diagnostics.report(
            "\(path): cannot create the report file: \(StreamError.reason(SystemCalls.errorNumber))"
          )
          throw ExitCode(74)
        }
        return file
      })
    defer { spans.report?.close() }
    let options = WrongModeOptions(minLength: minLength, minScore: minScore)
    let runner = input.parallelRunner(files, jobs: jobs.jobs)
    var status: Int32
    if runner.runsInParallel {
      // Each piece's filter counts lines from 1: its spans move by the lines before it.
      status =
        runner.run(
          makeFilter: { WrongModeFilter(lexicon: lexicon, options: options, mode: mode) },
          merge: { filter, place, _ in
            spans.write(filter.findings.take(), linesBefore: place.recordsBeforeInInput)
          }, report: diagnostics.report
        ).exitStatus
    } else {
      // One filter for all: its spans are written after every block, not kept to the end.
      var filter = WrongModeFilter(lexicon: lexicon, options: options, mode: mode)
      status =
        input.runner(files).run(
          &filter, report: diagnostics.report,
          afterBlock: { spans.write($0.findings.take(), linesBefore: 0) }
        ).exitStatus
      spans.write(filter.findings.take(), linesBefore: 0)
    }
    if !spans.flush() {
      diagnostics.report("cannot write the spans: \(StreamError.reason(SystemCalls.errorNumber))")
      if status == 0 { status = 74 }
    }
    return (status, spans.count)
  }
}

/// Writes spans as check messages and as report lines, a buffer at a time.
struct SpanWriter {
  let messages: StandardStream?
  let report: StandardStream?
  private(set) var count = 0
  private var messageBuffer: [UInt8] = []
  private var reportBuffer: [UInt8] = []
  private var failed = false
  private var pipeClosed = false

  init(messages: StandardStream?, report: StandardStream?) {
    self.messages = messages
    self.report = report
  }

  mutating func write(_ found: [(file: String, span: WrongModeSpan)], linesBefore: Int) {
    for (file, found) in found {
      var span = found
      span.line += linesBefore
      count += 1
      if messages != nil { messageBuffer += Array((span.message(file: file) + "\n").utf8) }
      if report != nil { reportBuffer += Array((span.jsonLine(file: file) + "\n").utf8) }
    }
    if messageBuffer.count + reportBuffer.count > 1 << 16 { _ = flush() }
  }

  /// Writes what is buffered; returns `false` once a write has failed. A
  /// closed output pipe (`check | head`) ends the messages quietly.
  mutating func flush() -> Bool {
    if !pipeClosed, let messages, !messageBuffer.isEmpty, !messages.write(messageBuffer) {
      if SystemCalls.errorNumber == SystemCalls.brokenPipe {
        pipeClosed = true
      } else {
        failed = true
      }
    }
    if let report, !reportBuffer.isEmpty, !report.write(reportBuffer) { failed = true }
    messageBuffer.removeAll(keepingCapacity: true)
    reportBuffer.removeAll(keepingCapacity: true)
    return !failed
  }
}
