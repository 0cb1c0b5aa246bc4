import ArgumentParser
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
        echo 안녕 | hangul-decompose --to qwerty --keyboard 3f   # → jfshea
        echo 각ㅏ | hangul-decompose --plain             # → ㄱㅏㄱㅏ
        echo 사과 | hangul-decompose --to initials       # → ㅅㄱ
        echo 'ㄻ 삶' | hangul-decompose --to initials --split-clusters   # → ㄹㅁ ㅅ
        echo café | hangul-decompose --to nfd | wc -c     # → 7
      """,
    version: versionLine("hangul-decompose"))

  @Option(help: "What to write for Hangul: keys, jamo, nfd, qwerty or initials.")
  var to: DecompositionForm = .keys

  @Option(
    help: ArgumentHelp(
      "The keyboard whose keys to write (keys, qwerty): a built-in id or a keyboard file.",
      valueName: "id|file"),
    completion: .list(Keyboard.builtInIDs))
  var keyboard = "2"

  @Flag(
    help: "Write the keys a person types: no U+200C or U+2060, so no exact round trip (lossy).")
  var plain = false

  @Flag(
    help:
      "With --to initials: write a consonant cluster jamo as its two consonants (ㄻ → ㄹㅁ), for initial-consonant search."
  )
  var splitClusters = false

  @Flag(
    help:
      "Write to standard error the keystrokes the text takes on the keyboard, its characters, and keystrokes per character (KSPC)."
  )
  var stats = false

  @Flag(help: "Check every output line against ICU NFC and NFD; a disagreement exits 65.")
  var verify = false

  @OptionGroup var input: InputOptions

  @OptionGroup var jobs: JobsOptions

  @Argument(help: "Text files to read; - is standard input.", completion: .file())
  var files: [FilePath] = []

  func validate() throws {
    if plain, !to.isKeystrokes {
      throw ValidationError("--plain only applies to --to keys or --to qwerty")
    }
    if splitClusters, to != .initials {
      throw ValidationError("--split-clusters only applies to --to initials")
    }
    try OutputChecks.standardOutput(isNotOneOf: files)
    // --to nfd writes no keys: the built-in 2-set keyboard, which always
    // loads, is not parsed (a fifth of the start-up); another --keyboard is
    // still checked.
    if to == .nfd, keyboard == "2" { return }
    let loaded = try loadKeyboard()
    if plain, InputAutomaton.keyDecomposition(of: loaded) != .jamoKeys {
      throw ValidationError(
        "--plain is not available yet with keyboard '\(ProgramArguments.shortened(keyboard))'; "
          + "use it with a 2-set keyboard")
    }
  }

  /// The keyboard `--keyboard` names; a usage error when it cannot be loaded,
  /// or when `--to keys` is asked of a keyboard whose keys have no jamo labels.
  func loadKeyboard() throws -> Keyboard {
    let loaded = try Keyboard.named(byOption: keyboard)
    if to == .keys, !InputAutomaton.takesJamoLabels(loaded) {
      throw ValidationError(
        "keyboard '\(ProgramArguments.shortened(keyboard))' (\(loaded.layout.type.rawValue)) "
          + "has no jamo keys; use --to qwerty")
    }
    return loaded
  }

  func run() throws {
    SystemCalls.ignoreBrokenPipeSignal()
    let diagnostics = Diagnostics(program: "hangul-decompose")
    let expectation: OutputVerifier.Expectation = to == .nfd ? .decomposed : .composed
    let verifier = verify ? try OutputVerifier(expecting: expectation) : nil
    // nfd is the NFD of the whole text, through hangul-normalize's fast path.
    if to == .nfd {
      let status = try run({ try NormalizeFilter(form: .nfd) }, verifier, diagnostics)
      if status != 0 { throw ExitCode(status) }
      return
    }
    let keyboard = try loadKeyboard()
    let decomposition = InputAutomaton.keyDecomposition(of: keyboard)
    let status =
      if to.isKeystrokes, decomposition == .phonePresses {
        try run(
          { KeypadDecomposeFilter(keys: to == .keys ? .jamo : .qwerty, keyboard: keyboard) },
          verifier, diagnostics)
      } else if to == .qwerty && decomposition == .layoutKeys {
        try run({ LayoutDecomposeFilter(keyboard: keyboard) }, verifier, diagnostics)
      } else {
        try run(
          {
            DecomposeFilter(
              form: to, keyboard: keyboard, plain: plain, splitClusters: splitClusters)
          }, verifier, diagnostics)
      }
    if status != 0 { throw ExitCode(status) }
  }

  /// Runs a decomposing filter with the checks asked for; returns the exit status.
  func run<Filter: ByteFilter>(
    _ makeFilter: () throws -> Filter, _ verifier: OutputVerifier?, _ diagnostics: Diagnostics
  ) throws -> Int32 {
    guard stats else {
      let (status, tally) = runParallel(makeFilter, jobs: jobs.jobs, verifier, diagnostics) { _ in }
      return tally.status(after: status, report: diagnostics.report)
    }
    // Keystrokes and characters add up line by line, so the pieces' counts
    // add up to the whole text's (a phone keypad's too: no press reaches
    // across a newline).
    let keyboard = try loadKeyboard()
    var keystrokes = 0
    var characters = 0
    let (status, tally) = runParallel(
      { KeystrokeCountingFilter(try makeFilter(), keyboard: keyboard) },
      jobs: jobs.jobs, verifier, diagnostics
    ) { filter in
      keystrokes += filter.statistics.keystrokes
      characters += filter.statistics.characters
    }
    let perCharacter = characters > 0 ? Double(keystrokes) / Double(characters) : nil
    diagnostics.write(
      "keystrokes  \(keystrokes)\ncharacters  \(characters)\nKSPC        "
        + "\(StatisticsReport.format(perCharacter, digits: 3))\n")
    return tally.status(after: status, report: diagnostics.report)
  }

  /// Runs a filter on `jobs` threads (every filter here starts each line
  /// afresh: lines can go to separate threads) and hands each finished
  /// filter to `finished` in input order; returns the status and what the
  /// verifier found.
  func runParallel<Filter: ByteFilter>(
    _ makeFilter: () throws -> Filter, jobs: Int, _ verifier: OutputVerifier?,
    _ diagnostics: Diagnostics, finished: (Filter) -> Void
  ) -> (Int32, VerificationTally) {
    let verifies = verifier != nil
    let expectation = verifier?.expectation ?? .composed
    var runner = input.parallelRunner(files, jobs: jobs)
    runner.countsOutputLines = verifies
    var tally = VerificationTally()
    let status = runner.run(
      makeFilter: {
        VerifyingFilter(
          try makeFilter(), verifier: verifies ? try OutputVerifier(expecting: expectation) : nil)
      },
      merge: { filter, place, isFinished in
        guard isFinished else { return }
        tally.add(filter, at: place)
        finished(filter.inner)
      }, report: diagnostics.report
    ).exitStatus
    return (status, tally)
  }
}
