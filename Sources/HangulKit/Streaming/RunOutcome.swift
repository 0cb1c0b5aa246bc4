/// How a run of ``FilterRunner`` or ``ParallelFilterRunner`` ended. Every
/// message was given to the run's `report` already; what the outcome means
/// to a program (its exit status) is the program's to say
/// (HangulCommandLine's `exitStatus`).
///
///     switch FilterRunner(paths: ["in.txt"]).run(&filter, report: { print($0) }) {
///     case .completed: break
///     case .stopped(let reason): print(reason)
///     case .completedSkippingInputs: break  // "in.txt: No such file or directory" was reported
///     }
package enum RunOutcome: Sendable, Equatable {
  /// Every input was read through the filter and its output written.
  case completed
  /// Some inputs could not be opened (each was reported and skipped); the
  /// others were read and written.
  case completedSkippingInputs
  /// The run stopped early.
  case stopped(RunStop)

  /// Whether the run read every input and wrote all its output.
  package var isCompleted: Bool { self == .completed }
}

/// Why a run stopped before its end.
package enum RunStop: Error, Sendable, Equatable {
  /// Reading an input or writing the output failed, an input changed while
  /// it was read, or the reader of the output went away
  /// (``StreamError/brokenPipe``, which is not reported).
  case stream(StreamError)
  /// The filter found an error in the data that it cannot go on after
  /// (what came before it was written).
  case data(PositionedError)
  /// The inputs' encoding is not one that ICU knows.
  case unknownEncoding(String)
  /// Another error, such as the filter's factory throwing: its description.
  case other(String)
}
