#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import HangulKit

/// Writes a program's messages to standard error as `PROGRAM: message`.
///
/// It writes with write(2) rather than through Foundation, so that the
/// programs do not load Foundation at all (it would double their memory).
public struct Diagnostics: Sendable {
  public let program: String

  public init(program: String) {
    self.program = program
  }

  /// Writes `PROGRAM: message` and a newline.
  public func report(_ message: String) {
    write("\(program): \(message)\n")
  }

  /// Writes `text` as it is.
  public func write(_ text: String) {
    StandardStream.error.write(Array(text.utf8))
  }

  /// Whether standard error is a terminal.
  public var isTerminal: Bool { isatty(2) != 0 }
}

/// An output file descriptor written with write(2).
public struct StandardStream: Sendable {
  public let descriptor: Int32

  public static let error = StandardStream(descriptor: 2)

  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Writes all of `bytes`; returns `false` on an error.
  @discardableResult
  public func write(_ bytes: [UInt8]) -> Bool {
    (try? bytes.withUnsafeBytes { try writeAll($0, to: descriptor) }) != nil
  }

  /// Opens (creating or truncating) a file for writing.
  public static func create(_ path: String) -> StandardStream? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    return descriptor < 0 ? nil : StandardStream(descriptor: descriptor)
  }

  public func close() {
    _ = Glibc.close(descriptor)
  }
}

/// Reports data errors as they happen, the first hundred of them, then how many more.
public final class ErrorReport {
  private let diagnostics: Diagnostics
  public private(set) var count = 0
  private static let shown = 100

  public init(_ diagnostics: Diagnostics) {
    self.diagnostics = diagnostics
  }

  public func add(_ message: String) {
    count += 1
    if count <= Self.shown { diagnostics.report(message) }
  }

  /// Counts errors that were not kept to be shown (past the first ones).
  public func add(unshown count: Int) {
    self.count += count
  }

  /// Reports how many were not shown; returns how many there were.
  @discardableResult
  public func finish() -> Int {
    if count > Self.shown { diagnostics.report("\(count - Self.shown) more errors not shown") }
    return count
  }
}

/// Seconds since 1970 now, from the system clock.
public func secondsSince1970() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_REALTIME, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The value of an environment variable.
public func environment(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}
