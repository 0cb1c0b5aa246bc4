import ArgumentParser
#if canImport(Glibc)
  import Glibc
#endif
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
      hangul-normalize --rename [--form F] [--recursive] [--dry-run] PATH...
      """,
    discussion: """
      Reads each FILE in order (standard input when there is none or a FILE is -) \
      and writes it in the normalization form, byte for byte what ICU writes. \
      Bytes that are not UTF-8 pass through unchanged and nothing composes across \
      them. Nothing is read as a key: compatibility jamo, U+200C and every other \
      character are text (ㄱㅅ stays ㄱㅅ).

      With --rename, renames each PATH (with --recursive, everything below it, \
      deepest first) whose name is not in the form and prints "old → new". It \
      never overwrites: a name that would collide is reported and left alone \
      (status 65), as is a name that is not UTF-8. Symbolic links are renamed, \
      not followed.

      Examples:
        printf '\\341\\204\\222\\341\\205\\241\\341\\206\\253\\n' | hangul-normalize  # → 한
        head -1 samples/macos-nfd-names.txt | hangul-normalize  # → 회의록_2024년 3월.docx
        echo 'ㄱㅅ ㄳ' | hangul-normalize --form nfkc            # → ᄀᄉ ᆪ
        hangul-normalize --rename --recursive --dry-run samples
      """,
    version: toolVersion)

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

  @Flag(help: "With --rename: also rename everything below each directory, deepest first.")
  var recursive = false

  @Flag(help: "With --rename: print what would be renamed, change nothing.")
  var dryRun = false

  @OptionGroup var input: InputOptions

  @OptionGroup var jobs: JobsOptions

  @Argument(
    help: "Text files to read (- is standard input), or with --rename the paths to rename.",
    completion: .file())
  var files: [String] = []

  func validate() throws {
    if rename {
      guard !files.isEmpty else { throw ValidationError("--rename needs at least one PATH.") }
      guard !verify, !zeroTerminated else {
        throw ValidationError("--verify and -z apply to text, not to --rename.")
      }
    } else if recursive || dryRun {
      throw ValidationError("--recursive and --dry-run go with --rename.")
    }
  }

  func run() throws {
    signal(SIGPIPE, SIG_IGN)
    let diagnostics = Diagnostics(program: "hangul-normalize")
    let status = rename ? try renameFiles(diagnostics) : try filter(diagnostics)
    if status != 0 { throw ExitCode(status) }
  }

  func filter(_ diagnostics: Diagnostics) throws -> Int32 {
    // A record's normal form depends on that record alone: records can go to separate threads.
    let (form, verifies, separator) = (form ?? .nfc, verify, zeroTerminated ? UInt8(0) : 0x0A)
    let runner = ParallelFilterRunner(
      paths: files, jobs: jobs.jobs, separator: separator, inputEncoding: input.encoding)
    // A fast path that disagrees with ICU stops the run here, before any output.
    _ = try CheckedNormalizeFilter(form: form, verify: verifies, separator: separator)
    var tally = VerificationTally()
    let status = runner.run(
      makeFilter: {
        try CheckedNormalizeFilter(form: form, verify: verifies, separator: separator)
      },
      continues: { _, _ in true },
      merge: { filter, place, finished in
        if finished { tally.add(filter, at: place) }
      }, report: diagnostics.report)
    return tally.status(after: status, form: form, report: diagnostics.report)
  }

  func renameFiles(_ diagnostics: Diagnostics) throws -> Int32 {
    let renamer = try FileRenamer(form: form ?? .nfc, recursive: recursive, dryRun: dryRun)
    var listing: [UInt8] = []
    var writeFailed = false
    func flush() {
      if !writeFailed, (try? listing.withUnsafeBytes { try writeAll($0, to: 1) }) == nil {
        writeFailed = true
      }
      listing.removeAll(keepingCapacity: true)
    }
    let status = renamer.rename(files) { event in
      if case .renamed = event {
        listing += Array(event.message.utf8)
        listing.append(0x0A)
        if listing.count > 1 << 16 { flush() }
      } else {
        flush()
        diagnostics.report(event.message)
      }
    }
    flush()
    return status
  }
}
