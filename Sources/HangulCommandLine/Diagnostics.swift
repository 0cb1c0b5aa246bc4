import Foundation
import HangulKit

/// Writes a program's messages to standard error as `PROGRAM: message`.
public struct Diagnostics: Sendable {
  public let program: String

  public init(program: String) {
    self.program = program
  }

  /// Writes `PROGRAM: message` and a newline.
  public func report(_ message: String) {
    FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
  }

  /// Writes `text` as it is.
  public func write(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// Whether standard error is a terminal.
  public var isTerminal: Bool { isatty(2) != 0 }
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

  /// Reports how many were not shown; returns how many there were.
  @discardableResult
  public func finish() -> Int {
    if count > Self.shown { diagnostics.report("\(count - Self.shown) more errors not shown") }
    return count
  }
}
