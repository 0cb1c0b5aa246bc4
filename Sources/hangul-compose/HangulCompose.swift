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
      copied unchanged. The automaton is libhangul's 2-set keyboard by default.

      Examples:
        printf 'dkssudgktpdy\\n' | hangul-compose --keys qwerty     # 안녕하세요
        hangul-compose --double-stroke samples/jamo-keys.txt
      """)

  @Option(help: "How keys are written: jamo (ㄱ ㅏ …) or qwerty (2-set letter positions).")
  var keys: KeyEncoding = .jamo

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

  @Argument(help: "Keystroke logs to read; - is standard input.")
  var files: [String] = []

  func run() throws {
    signal(SIGPIPE, SIG_IGN)
    let options = ComposerOptions(
      doubleStroke: doubleStroke, bareClusters: !noBareClusters,
      extendedVowels: extendedVowels, backspace: backspace)
    let composer = ComposeFilter(keys: keys, options: options, maximumLineLength: maxLine.value)
    var filter = VerifyingFilter(
      NormalizingFilter(composer, normalizer: nfc ? try ICUNormalizer(.nfc) : nil),
      verifier: verify ? try OutputVerifier(expecting: .composed) : nil)
    var status = FilterRunner(paths: files).run(&filter, report: report)
    status = verificationStatus(of: filter, after: status, report: report)
    if status != 0 { throw ExitCode(status) }
  }

  func report(_ message: String) {
    FileHandle.standardError.write(Data("hangul-compose: \(message)\n".utf8))
  }
}

extension KeyEncoding: ExpressibleByArgument {}
extension ComposerOptions.Backspace: ExpressibleByArgument {}

/// A size in bytes written as a number with an optional K, M or G suffix (powers of 1024).
struct ByteCount: ExpressibleByArgument {
  var value: Int

  init(_ value: Int) { self.value = value }

  init?(argument: String) {
    let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = Substring(argument.uppercased())
    var multiplier = 1
    if let last = digits.last, let factor = multipliers[last] {
      multiplier = factor
      digits = digits.dropLast()
    }
    if digits.hasSuffix("I") { return nil }
    guard let number = Int(digits), number > 0 else { return nil }
    let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
    guard !overflow else { return nil }
    value = product
  }

  var defaultValueDescription: String { "1M" }
}
