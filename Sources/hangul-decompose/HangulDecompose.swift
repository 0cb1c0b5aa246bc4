import ArgumentParser
#if canImport(Glibc)
  import Glibc
#endif
import HangulCommandLine
import HangulKit

@main
struct HangulDecompose: ParsableCommand {
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
        echo 닭 | hangul-decompose                    # ㄷㅏㄹㄱ
        echo 안녕하세요 | hangul-decompose --to qwerty   # dkssudgktpdy
        hangul-decompose --to nfd < notes.txt         # NFD of the whole text (café too)
      """)

  @Option(help: "What to write for Hangul: keys, jamo, nfd or qwerty.")
  var to: DecompositionForm = .keys

  @Flag(help: "Check every output line against ICU NFC and NFD; a disagreement exits 65.")
  var verify = false

  @Argument(help: "Text files to read; - is standard input.")
  var files: [String] = []

  func run() throws {
    signal(SIGPIPE, SIG_IGN)
    let diagnostics = Diagnostics(program: "hangul-decompose")
    let expectation: OutputVerifier.Expectation = to == .nfd ? .decomposed : .composed
    let verifier = verify ? try OutputVerifier(expecting: expectation) : nil
    // nfd is the NFD of the whole text, through hangul-normalize's fast path.
    let status =
      to == .nfd
      ? run(try NormalizeFilter(form: .nfd), verifier, diagnostics)
      : run(DecomposeFilter(form: to), verifier, diagnostics)
    if status != 0 { throw ExitCode(status) }
  }

  func run<Filter: ByteFilter>(
    _ inner: Filter, _ verifier: OutputVerifier?, _ diagnostics: Diagnostics
  ) -> Int32 {
    var filter = VerifyingFilter(inner, verifier: verifier)
    let status = FilterRunner(paths: files).run(&filter, report: diagnostics.report)
    return verificationStatus(of: filter, after: status, report: diagnostics.report)
  }
}
