import HangulKit

/// The exit statuses of the programs (sysexits.h): what the library's
/// outcomes and errors mean to a program that ends with them.
///
///     let status = runner.run(&filter, report: diagnostics.report).exitStatus  // 0, 65, 66, 74…
extension RunOutcome {
  /// 0 for a run that read everything, 66 when an input could not be
  /// opened, else the status of what stopped the run.
  public var exitStatus: Int32 {
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
  public var exitStatus: Int32 {
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
  public var exitStatus: Int32 {
    switch self {
    case .cannotOpen: 66
    case .cannotRead, .fileChanged, .cannotWrite: 74
    case .brokenPipe: 0
    }
  }
}
