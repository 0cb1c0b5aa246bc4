import HangulKit
import Synchronization

/// Writes a program's messages to standard error as `PROGRAM: message`.
///
/// It writes with write(2) rather than through Foundation, so that the
/// programs do not load Foundation at all (it would double their memory).
package struct Diagnostics: Sendable {
  package let program: String

  package init(program: String) {
    self.program = program
  }

  /// Writes `PROGRAM: message` and a newline.
  package func report(_ message: String) {
    write("\(program): \(message)\n")
  }

  /// Writes `text` as it is.
  package func write(_ text: String) {
    StandardStream.error.write(Array(text.utf8))
  }

  /// Whether standard error is a terminal.
  package var isTerminal: Bool { SystemCalls.isTerminal(2) }
}

/// An output file descriptor written with write(2).
package struct StandardStream: Sendable {
  package let descriptor: Int32

  package static let error = StandardStream(descriptor: 2)

  package init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Writes all of `bytes`; returns `false` on an error. A failure on
  /// standard error (but a closed pipe) is remembered: the program then
  /// does not exit 0 (``errorOutputFailed``).
  @discardableResult
  package func write(_ bytes: [UInt8]) -> Bool {
    writeReportingFailure(bytes) == nil
  }

  /// Writes all of `bytes`; returns the error, if any.
  package func writeReportingFailure(_ bytes: [UInt8]) -> StreamError? {
    bytes.withUnsafeBufferPointer { writeReportingFailure($0) }
  }

  /// Writes all of `bytes` (without copying them into an array first);
  /// returns the error, if any.
  package func writeReportingFailure(_ bytes: UnsafeBufferPointer<UInt8>) -> StreamError? {
    do {
      try writeAll(UnsafeRawBufferPointer(bytes), to: descriptor)
      return nil
    } catch {
      if descriptor == 2, error != .brokenPipe {
        Self.failedErrorWrites.store(true, ordering: .relaxed)
      }
      return error
    }
  }

  /// Why nothing can be written to the descriptor (it is not open for
  /// writing: closed when the program started), or `nil`. A write of no
  /// bytes fails as a write would, without writing anything.
  package var cannotWriteReason: String? {
    var byte: UInt8 = 0
    return SystemCalls.write(descriptor, &byte, 0) < 0
      ? StreamError.reason(SystemCalls.errorNumber) : nil
  }

  /// Whether a write to standard error failed (it is closed, or on a full disk).
  package static var errorOutputFailed: Bool { failedErrorWrites.load(ordering: .relaxed) }

  private static let failedErrorWrites = Atomic<Bool>(false)

  /// Opens (creating or truncating) a file for writing; `nil` with `errno` set.
  package static func create(_ path: FilePath) -> StandardStream? {
    let descriptor = path.open(
      SystemCalls.OpenFlag.writeOnly | SystemCalls.OpenFlag.create | SystemCalls.OpenFlag.truncate
        | SystemCalls.OpenFlag.closeOnExec, mode: 0o644)
    return descriptor < 0 ? nil : StandardStream(descriptor: descriptor)
  }

  /// Closes the descriptor; returns the reason when close(2) reports an
  /// error (a network file system may report a failed write only here).
  @discardableResult
  package func close() -> String? {
    SystemCalls.close(descriptor) == 0 ? nil : StreamError.reason(SystemCalls.errorNumber)
  }

  /// Makes descriptors 0, 1 and 2 open before the program opens anything,
  /// so that no file it opens becomes standard output or standard error by
  /// chance (a rejects file taking descriptor 1 would get the imported
  /// records). A closed one gets /dev/null, opened the other way round: a
  /// read of standard input, or a write to standard output or error, then
  /// fails as it would have (EBADF), and is reported as an error.
  package static func openClosedStandardDescriptors() {
    for descriptor: Int32 in 0...2 where !SystemCalls.isOpen(descriptor) {
      let opened = SystemCalls.open(
        "/dev/null",
        descriptor == 0 ? SystemCalls.OpenFlag.writeOnly : SystemCalls.OpenFlag.readOnly)
      if opened != descriptor {
        // No /dev/null (or a lower descriptor was free after all): nothing
        // can be trusted to land where it should.
        guard opened >= 0, SystemCalls.duplicate(opened, onto: descriptor) == descriptor else {
          SystemCalls.exitImmediately(74)
        }
        _ = SystemCalls.close(opened)
      }
    }
  }
}

/// Reports data errors as they happen, the first hundred of them, then how many more.
package final class ErrorReport {
  private let diagnostics: Diagnostics
  package private(set) var count = 0
  private static let shown = 100

  package init(_ diagnostics: Diagnostics) {
    self.diagnostics = diagnostics
  }

  package func add(_ message: String) {
    count += 1
    if count <= Self.shown { diagnostics.report(message) }
  }

  /// Counts errors that were not kept to be shown (past the first ones).
  package func add(unshown count: Int) {
    self.count += count
  }

  /// Reports how many were not shown; returns how many there were.
  @discardableResult
  package func finish() -> Int {
    if count > Self.shown { diagnostics.report("\(count - Self.shown) more errors not shown") }
    return count
  }
}

/// Seconds since 1970 now, from the system clock.
package func secondsSince1970() -> Double {
  SystemCalls.secondsSince1970()
}

/// The value of an environment variable.
package func environment(_ name: String) -> String? {
  SystemCalls.environment(name)
}
