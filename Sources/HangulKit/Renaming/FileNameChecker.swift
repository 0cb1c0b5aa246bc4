/// Checks that file names are in a normalization form, changing nothing
/// (`hangul-normalize --check --names`): ``FileRenamer``'s walk, recursive
/// and as a dry run, with each name it would rename reported by
/// ``NormalFormChecker`` as the first segment not in the form.
///
///     var checker = try FileNameChecker(form: .nfc)
///     let outcome = checker.check(["Downloads"]) { print($0) }
///     // Downloads/한.txt: not NFC: "한" (U+1112 U+1161 U+11AB)
///
/// A name that is not UTF-8 cannot be in the form and is reported as such.
/// Time O(entries); memory as ``FileRenamer``'s.
public struct FileNameChecker {
  private let renamer: FileRenamer
  private var checker: NormalFormChecker
  private let found = FoundProblem()

  /// Where the checker's message goes (its closure cannot hold the struct).
  private final class FoundProblem {
    var message: String?
  }

  public init(form: ICUNormalizer.Form) throws {
    renamer = try FileRenamer(form: form, recursive: true, dryRun: true)
    checker = try NormalFormChecker(form: form, separator: 0)
    checker.recordProblem = { [found] in found.message = String(decoding: $2, as: UTF8.self) }
  }

  /// What a check found: names not in the form, and the walk's own troubles.
  public struct Outcome: Equatable, Sendable {
    /// Names not in the form.
    public var notInForm = 0
    /// Paths that could not be reached.
    public var unreachable = 0
    /// Directories that could not be read.
    public var unreadable = 0
  }

  /// Reports, for each path and everything below a directory, each name not
  /// in the form as `PATH: not NFC: …`, and each path that cannot be read;
  /// returns how many of each there were.
  public mutating func check(_ paths: [FilePath], report: (String) -> Void) -> Outcome {
    var outcome = Outcome()
    let (renamer, form) = (renamer, renamer.normalizer.form.name.uppercased())
    renamer.rename(paths) { event in
      switch event {
      case .renamed(let path, _, _), .collision(let path, _, _), .notOneName(let path, _):
        outcome.notInForm += 1
        report("\(path): \(problem(inNameOf: path))")
      case .notUTF8(let path):
        outcome.notInForm += 1
        report("\(path): not \(form): the name is not UTF-8")
      case .cannotOpen:
        outcome.unreachable += 1
        report(event.message)
      case .failed:
        outcome.unreadable += 1
        report(event.message)
      }
      return true
    }
    return outcome
  }

  /// The checker's message for the last name of `path` (a name the renamer
  /// would change, so one the checker finds a problem in).
  private mutating func problem(inNameOf path: FilePath) -> String {
    let name = FileRenamer.split(path).name + [0]
    found.message = nil
    name.withUnsafeBufferPointer { checker.check($0) }
    return found.message ?? "not \(renamer.normalizer.form.name.uppercased())"
  }
}
