#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An error of reading or writing a stream, with the file it concerns.
public enum StreamError: Error, Equatable, CustomStringConvertible {
  /// An input file could not be opened (exit status 66).
  case cannotOpen(path: String, reason: String)
  /// Reading an input failed (exit status 74).
  case cannotRead(path: String, reason: String)
  /// A regular input file changed size or contents while it was read (exit
  /// status 74): what was read of it may not be any state the file was in.
  case fileChanged(path: String)
  /// Writing the output failed (exit status 74).
  case cannotWrite(reason: String)
  /// The reader of the output went away (`| head`): end quietly.
  case brokenPipe

  /// The exit status that sysexits.h gives this error.
  public var exitStatus: Int32 {
    switch self {
    case .cannotOpen: 66
    case .cannotRead, .fileChanged, .cannotWrite: 74
    case .brokenPipe: 0
    }
  }

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
  public static let fileChangedMessage = "the file changed while it was read"

  /// The text of an `errno` value.
  public static func reason(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}
