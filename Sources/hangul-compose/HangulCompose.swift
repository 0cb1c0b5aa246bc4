import ArgumentParser
import Foundation
import HangulKit

@main
struct HangulCompose: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hangul-compose",
    abstract: "Turn Korean keystroke logs into composed Hangul text.",
    discussion: """
      Reads each FILE in order (standard input when there is none or a FILE is -) \
      and writes the composed text. Compatibility jamo are keys (with --keys qwerty \
      ASCII letters too); BS and DEL are Backspace; a newline ends the line; every \
      other character, bytes that are not UTF-8 included, ends the syllable and is \
      copied unchanged. The automaton is libhangul's 2-set keyboard by default. \
      With --format events the log is JSON Lines, one key event a line.

      Examples:
        printf 'dkssudgktpdy\\n' | hangul-compose --keys qwerty     # 안녕하세요
        hangul-compose --double-stroke samples/phone-review.keys
        hangul-compose --format events --stats samples/events-review.jsonl
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text
    case events
  }

  enum StatisticsFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
  }

  @Option(help: "How keys are written: jamo (ㄱ ㅏ …) or qwerty (2-set letter positions).")
  var keys: KeyEncoding = .jamo

  @Option(help: "How the log is written: text (every character a key) or events (JSON Lines).")
  var format: Format = .text

  @Flag(help: "Make a tense consonant from the same consonant typed twice (ㄱㄱ → ㄲ).")
  var doubleStroke = false

  @Flag(help: "Keep two consonants apart until a vowel comes (ㄱㅅ stays ㄱㅅ, not ㄳ).")
  var noBareClusters = false

  @Flag(help: "Combine a vowel with a following ㅣ as phone keyboards do (ㅏㅣ → ㅐ).")
  var extendedVowels = false

  @Option(help: "What Backspace undoes: jamo (one composition step) or keystroke (the last key).")
  var backspace: ComposerOptions.Backspace = .jamo

  @Option(
    help: ArgumentHelp(
      "Flush a line longer than this many bytes in pieces (suffix K, M or G).",
      valueName: "size"))
  var maxLine: ByteCount = ByteCount(LineEditor.defaultMaximumLineLength)

  @Flag(help: "Also put all other output text through ICU NFC (e + U+0301 → é).")
  var nfc = false

  @Flag(help: "Check every output line against ICU NFC and NFD; a disagreement exits 65.")
  var verify = false

  @Flag(help: "Write typing statistics to standard error after the output.")
  var stats = false

  @Option(help: "How --stats writes: text (an aligned table) or json.")
  var statsFormat: StatisticsFormat = .text

  @Argument(help: "Keystroke logs to read; - is standard input.")
  var files: [String] = []

  func run() throws {
    signal(SIGPIPE, SIG_IGN)
    let options = ComposerOptions(
      doubleStroke: doubleStroke, bareClusters: !noBareClusters,
      extendedVowels: extendedVowels, backspace: backspace)
    var status: Int32
    switch format {
    case .text:
      status = try compose(
        ComposeFilter(keys: keys, options: options, maximumLineLength: maxLine.value))
    case .events:
      let errors = ErrorReport(report: report)
      status = try compose(
        EventLogFilter(keys: keys, options: options, maximumLineLength: maxLine.value) {
          errors.add($0)
        })
      if errors.finish() > 0, status == 0 { status = 65 }
    }
    if status != 0 { throw ExitCode(status) }
  }

  /// Runs `composer` with the output checks asked for; returns the exit status.
  func compose<Composer: ByteFilter & StatisticsReporting>(_ composer: Composer) throws -> Int32 {
    var filter = VerifyingFilter(
      NormalizingFilter(composer, normalizer: nfc ? try ICUNormalizer(.nfc) : nil),
      verifier: verify ? try OutputVerifier(expecting: .composed) : nil)
    let status = FilterRunner(paths: files).run(&filter, report: report)
    if stats {
      let report = filter.statistics
      FileHandle.standardError.write(Data((statsFormat == .json ? report.json : report.text).utf8))
    }
    return verificationStatus(of: filter, after: status, report: report)
  }

  func report(_ message: String) {
    FileHandle.standardError.write(Data("hangul-compose: \(message)\n".utf8))
  }
}

/// Writes data errors as they happen, the first hundred of them, then how many more.
final class ErrorReport {
  private let report: (String) -> Void
  private var count = 0
  private static let shown = 100

  init(report: @escaping (String) -> Void) {
    self.report = report
  }

  func add(_ error: PositionedError) {
    count += 1
    if count <= Self.shown { report(error.description) }
  }

  /// Reports how many were not shown; returns how many there were.
  func finish() -> Int {
    if count > Self.shown { report("\(count - Self.shown) more errors not shown") }
    return count
  }
}

extension KeyEncoding: ExpressibleByArgument {}
extension ComposerOptions.Backspace: ExpressibleByArgument {}

/// A size in bytes written as a number with an optional K, M or G suffix (powers of 1024).
struct ByteCount: ExpressibleByArgument {
  var value: Int

  init(_ value: Int) { self.value = value }

  init?(argument: String) {
    let multipliers: [String: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = argument.uppercased()
    var multiplier = 1
    if let last = digits.last, let factor = multipliers[String(last)] {
      multiplier = factor
      digits.removeLast()
    }
    guard let number = Int(digits), number > 0 else { return nil }
    let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
    guard !overflow else { return nil }
    value = product
  }

  var defaultValueDescription: String { "1M" }
}
