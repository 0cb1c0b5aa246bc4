import ArgumentParser
#if canImport(Glibc)
  import Glibc
#endif
import HangulCommandLine
import HangulKit

@main
struct HangulDecompose: ParsableCommand {
  static func main() { runAsProgram() }

  static let configuration = CommandConfiguration(
    commandName: "hangul-decompose",
    abstract: "Turn Hangul text back into jamo, conjoining jamo (NFD) or the keys that type it.",
    discussion: """
      Reads each FILE in order (standard input when there is none or a FILE is -) \
      and writes it with every Hangul syllable decomposed; everything else, bytes \
      that are not UTF-8 included, passes through unchanged.

      The keys and qwerty forms are keystroke logs that hangul-compose turns back \
      into exactly the input. Where keys would otherwise compose into something \
      else (the text 각ㅏ, or ㄱ followed by ㅅ) they are separated by U+200C ZERO \
      WIDTH NON-JOINER; a character the composer would not read as itself (U+200C, \
      U+2060, BS, DEL, conjoining vowels and finals, and for qwerty ASCII letters) \
      is preceded by U+2060 WORD JOINER. Both are invisible.

      Examples:
        echo 닭 | hangul-decompose                      # → ㄷㅏㄹㄱ
        echo 안녕하세요 | hangul-decompose --to qwerty     # → dkssudgktpdy
        echo 각ㅏ | hangul-decompose --plain             # → ㄱㅏㄱㅏ
        echo 사과 | hangul-decompose --to initials       # → ㅅㄱ
      """,
    version: toolVersion)

  @Option(help: "What to write for Hangul: keys, jamo, nfd, qwerty or initials.")
  var to: DecompositionForm = .keys

  @Flag(
    help: "Write the keys a person types: no U+200C or U+2060, so no exact round trip (lossy).")
  var plain = false

  @Flag(help: "Check every output line against ICU NFC and NFD; a disagreement exits 65.")
  var verify = false

  @OptionGroup var input: InputOptions

  @Argument(help: "Text files to read; - is standard input.", completion: .file())
  var files: [String] = []

  func validate() throws {
    if plain, !to.isKeystrokes {
      throw ValidationError("--plain only applies to --to keys or --to qwerty.")
    }
  }

  func run() throws {
    signal(SIGPIPE, SIG_IGN)
    let diagnostics = Diagnostics(program: "hangul-decompose")
    let expectation: OutputVerifier.Expectation = to == .nfd ? .decomposed : .composed
    var filter = VerifyingFilter(
      DecomposeFilter(form: to, plain: plain),
      verifier: verify ? try OutputVerifier(expecting: expectation) : nil
    )
    var status = FilterRunner(paths: files, inputEncoding: input.encoding).run(
      &filter, report: diagnostics.report)
    status = verificationStatus(of: filter, after: status, report: diagnostics.report)
    if status != 0 { throw ExitCode(status) }
  }
}
