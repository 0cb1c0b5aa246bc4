import ArgumentParser
import HangulCommandLine
import HangulKit

@main
struct HangulNormalize: ParsableCommand {
  static func main() { runAsProgram() }

  static let configuration = CommandConfiguration(
    commandName: "hangul-normalize",
    abstract: "Put text or file names into a Unicode normalization form (NFC, NFD, NFKC, NFKD).",
    usage: """
      hangul-normalize [--form nfc|nfd|nfkc|nfkd] [-z] [--verify] [--jobs N]
                       [--from-code ENCODING] [FILE...]
      hangul-normalize --check [--form F] [-z] [--jobs N]
                       [--from-code ENCODING] [FILE...]
      hangul-normalize --check --names [--form F] PATH...
      hangul-normalize --rename [--form F] [--recursive] [--dry-run] PATH...
      """,
    discussion: """
      Reads each FILE in order (standard input when there is none or a FILE is -) \
      and writes it in the normalization form, byte for byte what ICU writes. \
      Bytes that are not UTF-8 pass through unchanged and nothing composes across \
      them. Nothing is read as a key: compatibility jamo, U+200C and every other \
      character are text (ㄱㅅ stays ㄱㅅ).

      With --rename, renames each PATH (with --recursive, everything below it, \
      deepest first) whose name is not in the form and prints "old → new" and \
      the code points that change. It never overwrites and never moves \
      anything out of its directory: a name that would collide is reported and \
      left alone (status 65), as is a name that is not UTF-8 or whose \
      normalized form is not one name (／ is / in NFKC). Symbolic links are \
      renamed, not followed.

      With --check, writes nothing on standard output: reports each line \
      not in the form as FILE:LINE:COLUMN: not NFC: "…" (U+…), naming its \
      first character (with its marks) that is not, then a summary; exit \
      status 1 when a line is not in the form, 0 when none is. With \
      --names, checks the names of the PATHs and of everything below them.

      Examples:
        printf '\\341\\204\\222\\341\\205\\241\\341\\206\\253\\n' | hangul-normalize  # → 한
        head -1 samples/macos-nfd-names.txt | hangul-normalize  # → 회의록_2024년 3월.docx
        echo 'ㄱㅅ ㄳ' | hangul-normalize --form nfkc            # → ᄀᄉ ᆪ
        hangul-normalize --rename --recursive --dry-run samples
        hangul-normalize --check --names samples  # → hangul-normalize: all names NFC
      """,
    version: versionLine("hangul-normalize"))

  // Optional, with the default named in the help: ArgumentParser would show
  // the default of a raw-valued enumeration as its raw value, "(default: 0)".
  @Option(help: "The normalization form (default: nfc):")
  var form: ICUNormalizer.Form?

  @Flag(
    name: [.customShort("z"), .customLong("zero-terminated")],
    help: "Records end with NUL instead of newline (positions count records).")
  var zeroTerminated = false

  @Flag(help: "Check the output against ICU's normalization tables; a disagreement exits 65.")
  var verify = false

  @Flag(help: "Rename the PATHs whose names are not in the form instead of filtering text.")
  var rename = false

  @Flag(help: "Write nothing; report each line not in the form (exit status 1 if any).")
  var check = false

  @Flag(help: "With --check: check the names of the PATHs and everything below them.")
  var names = false

  @Flag(help: "With --rename: also rename everything below each directory, deepest first.")
  var recursive = false

  @Flag(help: "With --rename: print what would be renamed, change nothing.")
  var dryRun = false

  @OptionGroup var input: InputOptions

  @OptionGroup var jobs: JobsOptions

  @Argument(
    help: "Text files to read (- is standard input), or with --rename the paths to rename.",
    completion: .file())
  var files: [FilePath] = []

  func validate() throws {
    if check {
      guard !rename, !verify, !recursive, !dryRun else {
        throw ValidationError(
          "--check writes nothing: --rename, --verify, --recursive and --dry-run do not go with it")
      }
      guard names else { return }
      guard !files.isEmpty else { throw ValidationError("--check --names needs at least one PATH") }
      guard !zeroTerminated, input.encoding == nil else {
        throw ValidationError("-z and --from-code apply to text, not to --names")
      }
    } else if names {
      throw ValidationError("--names goes with --check")
    } else if rename {
      guard !files.isEmpty else { throw ValidationError("--rename needs at least one PATH") }
      guard !verify, !zeroTerminated else {
        throw ValidationError("--verify and -z apply to text, not to --rename")
      }
      if !recursive, let path = files.first(where: FileRenamer.namesNoEntry) {
        throw ValidationError(
          "--rename \(path): names no entry to rename; add --recursive to rename what is in it")
      }
    } else if recursive || dryRun {
      throw ValidationError("--recursive and --dry-run go with --rename")
    } else {
      try OutputChecks.standardOutput(isNotOneOf: files)
    }
  }

  func run() throws {
    SystemCalls.ignoreBrokenPipeSignal()
    let diagnostics = Diagnostics(program: "hangul-normalize")
    let status =
      if check { names ? try checkNames(diagnostics) : try checkText(diagnostics) } else if rename {
        try renameFiles(diagnostics)
      } else { try filter(diagnostics) }
    if status != 0 { throw ExitCode(status) }
  }

  func filter(_ diagnostics: Diagnostics) throws -> Int32 {
    // A record's normal form depends on that record alone: records can go to separate threads.
    let (form, verifies, separator) = (form ?? .nfc, verify, zeroTerminated ? UInt8(0) : 0x0A)
    let runner = input.parallelRunner(files, jobs: jobs.jobs, separator: separator)
    // A fast path that disagrees with ICU stops the run here, before any output.
    _ = try CheckedNormalizeFilter(form: form, verify: verifies, separator: separator)
    var tally = VerificationTally()
    let status = runner.run(
      makeFilter: {
        try CheckedNormalizeFilter(form: form, verify: verifies, separator: separator)
      },
      merge: { filter, place, finished in
        if finished { tally.add(filter, at: place) }
      }, report: diagnostics.report
    ).exitStatus
    return tally.status(after: status, form: form, report: diagnostics.report)
  }

  func renameFiles(_ diagnostics: Diagnostics) throws -> Int32 {
    let renamer = try FileRenamer(form: form ?? .nfc, recursive: recursive, dryRun: dryRun)
    let output = StandardStream(descriptor: 1)
    // The list of renames is the record of what was done: with nowhere to
    // write it (standard output closed), nothing is renamed.
    if let reason = output.cannotWriteReason {
      diagnostics.report("write error: \(reason); nothing renamed")
      return 74
    }
    var renamed = 0
    var listFailure: StreamError?
    var status: Int32 = 0
    renamer.rename(files) { event in
      status = max(status, event.exitStatus)
      guard case .renamed = event else {
        diagnostics.report(event.message)
        return true
      }
      renamed += 1
      // One write a rename: a line that cannot be written is the last rename.
      if let failure = output.writeReportingFailure(Array((event.message + "\n").utf8)) {
        listFailure = failure
        if failure != .brokenPipe {
          diagnostics.report("\(failure.description); stopped after renaming \(event.message)")
        }
        return false
      }
      return true
    }
    if let listFailure { status = max(status, listFailure.exitStatus) }
    if dryRun {
      diagnostics.report(
        "dry run: nothing renamed (\(renamed) name\(renamed == 1 ? "" : "s") would be)")
    }
    return status
  }
}
