import HangulCommandLine
import HangulKit

extension HangulNormalize {
  /// `--check`: reports each line not in the form, on `--jobs` threads for
  /// regular files, writes nothing on standard output, and sums up; returns
  /// 1 when a line is not in the form, 0 when none is (or the status of a
  /// worse error).
  func checkText(_ diagnostics: Diagnostics) throws -> Int32 {
    let (form, separator) = (form ?? .nfc, zeroTerminated ? UInt8(0) : 0x0A)
    let runner = input.parallelRunner(files, jobs: jobs.jobs, separator: separator)
    // A fast path that disagrees with ICU stops the run here.
    _ = try NormalFormChecker(form: form, separator: separator)
    let write = { (lines: UnsafeBufferPointer<UInt8>) in
      _ = StandardStream.error.writeReportingFailure(lines)
    }
    // On one thread each line is reported as it is read; a piece's lines
    // wait for the pieces before it.
    let parallel = runner.runsInParallel
    var single: NormalFormProblemLog?
    var (lines, problems) = (0, 0)
    let status = runner.run(
      makeFilter: {
        let filter = try NormalFormCheckFilter(
          form: form, separator: separator, program: diagnostics.program,
          write: parallel ? nil : write)
        if !parallel { single = filter.log }
        return filter
      },
      merge: { filter, place, finished in
        filter.log.flush()
        filter.log.drain(shift: place.recordsBeforeInInput, to: write)
        guard finished else { return }
        lines += filter.lineCount
        problems += filter.log.count
      },
      report: {
        single?.flush()
        diagnostics.report($0)
      }
    ).exitStatus
    let unit = zeroTerminated ? "record" : "line"
    let name = form.name.uppercased()
    let checked = "checked \(lines) \(unit)\(lines == 1 ? "" : "s")"
    guard problems > 0 else {
      diagnostics.report("\(checked): all \(name)")
      return status
    }
    diagnostics.report("\(checked): \(problems) not \(name)")
    return status == 0 ? 1 : status
  }

  /// `--check --names`: reports each name not in the form below the PATHs.
  func checkNames(_ diagnostics: Diagnostics) throws -> Int32 {
    let form = form ?? .nfc
    var checker = try FileNameChecker(form: form)
    let outcome = checker.check(files, report: diagnostics.report)
    // 74 for a directory that could not be read, 66 for a path not there.
    let status: Int32 = outcome.unreadable > 0 ? 74 : outcome.unreachable > 0 ? 66 : 0
    let notInForm = outcome.notInForm
    let name = form.name.uppercased()
    if notInForm == 0 {
      // A PATH that could not be read was not checked: say so, not "all".
      diagnostics.report(
        status == 0 ? "all names \(name)" : "all names read \(name); some could not be read")
      return status
    }
    diagnostics.report("\(notInForm) name\(notInForm == 1 ? "" : "s") not \(name)")
    return status == 0 ? 1 : status
  }
}
