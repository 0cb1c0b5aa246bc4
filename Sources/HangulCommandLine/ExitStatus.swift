import HangulKit

/// The exit statuses of the programs (sysexits.h): what the library's
/// outcomes and errors mean to a program that ends with them.
///
///     let status = runner.run(&filter, report: diagnostics.report).exitStatus  // 0, 65, 66, 74…
extension RunOutcome {
  /// 0 for a run that read everything, 66 when an input could not be
  /// opened, else the status of what stopped the run.
  package var exitStatus: Int32 {
    switch self {
    case .completed: 0
    case .completedSkippingInputs: 66
    case .stopped(let stop): stop.exitStatus
    }
  }
}

extension RunStop {
  /// 65 for bad data, 64 for an encoding ICU does not know (a usage
  /// error), 70 for anything unforeseen, else the stream error's status.
  package var exitStatus: Int32 {
    switch self {
    case .stream(let error): error.exitStatus
    case .data: 65
    case .unknownEncoding: 64
    case .other: 70
    }
  }
}

extension StreamError {
  /// The exit status that sysexits.h gives this error: 66 for an input
  /// that cannot be opened, 74 for an I/O error, 0 for a reader that went
  /// away (the program ends quietly).
  package var exitStatus: Int32 {
    switch self {
    case .cannotOpen: 66
    case .cannotRead, .fileChanged, .cannotWrite: 74
    case .brokenPipe: 0
    }
  }
}

extension FileRenamer.Event {
  /// 0 for a rename, 65 for a name left alone (it is data the program
  /// would not change), 66 for a path that cannot be reached, 74 for a
  /// rename or a directory read that failed.
  package var exitStatus: Int32 {
    switch self {
    case .renamed: 0
    case .collision, .notUTF8, .notOneName: 65
    case .cannotOpen: 66
    case .failed: 74
    }
  }
}

extension KeyboardFileError {
  /// A bad keyboard is bad usage (sysexits EX_USAGE).
  package var exitStatus: Int32 { 64 }
}

extension VerificationTally {
  /// The status after `--verify` of a run that ended with `status`: 65 (bad
  /// data) when a span disagreed with ICU and the run had no worse error.
  package func status(after status: Int32, report: (String) -> Void) -> Int32 {
    reportDisagreements(report: report) && status == 0 ? 65 : status
  }

  /// The status after `hangul-normalize --verify`: 65 when the output is
  /// not in `form` and the run had no worse error.
  package func status(after status: Int32, form: ICUNormalizer.Form, report: (String) -> Void)
    -> Int32
  {
    reportProblems(form: form, report: report) && status == 0 ? 65 : status
  }
}
