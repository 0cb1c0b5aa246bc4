/// An error of reading or writing a stream, with the file it concerns.
public enum StreamError: Error, Equatable, CustomStringConvertible {
  /// An input file could not be opened.
  case cannotOpen(path: String, reason: String)
  /// Reading an input failed.
  case cannotRead(path: String, reason: String)
  /// A regular input file changed size or contents while it was read: what
  /// was read of it may not be any state the file was in.
  case fileChanged(path: String)
  /// Writing the output failed.
  case cannotWrite(reason: String)
  /// The reader of the output went away (`| head`): end quietly.
  case brokenPipe

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason): "\(path): \(reason)"
    case .cannotRead(let path, let reason): "\(path): read error: \(reason)"
    case .fileChanged(let path): "\(path): \(Self.fileChangedMessage)"
    case .cannotWrite(let reason): "write error: \(reason)"
    case .brokenPipe: "broken pipe"
    }
  }

  /// What ``fileChanged(path:)`` says after the file's name.
  package static let fileChangedMessage = "the file changed while it was read"

  /// The text of an `errno` value.
  package static func reason(_ code: Int32) -> String {
    SystemCalls.errorText(code) ?? "error \(code)"
  }
}
