// The one file of HangulWrongMode that imports the C library: reading the
// dictionaries' word files, the search for a byte, and exp(3) and log(3)
// for the scores (small wrappers, as in HangulKit's SystemCalls.swift).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#else
  // Linux only, as HangulKit (whose system calls this module uses too).
  #error("HangulWrongMode builds on Linux only (Glibc or Musl), as HangulKit does")
#endif

/// Thin wrappers of the C library: same arguments and results, `errno`
/// left as the call set it.
enum SystemCalls {
  /// `errno` of the last call that failed on this thread.
  static var errorNumber: Int32 { errno }
  /// EINTR: a signal came before the call did anything.
  static let interrupted = EINTR

  /// strerror(3) of `code`.
  static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// access(2) with R_OK: whether this process may read `path`.
  static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

  /// open(2) for reading, closed on exec: a descriptor, or -1 with errno.
  static func openForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }

  /// read(2).
  static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    cRead(descriptor, buffer, count)
  }

  /// close(2).
  static func close(_ descriptor: Int32) { _ = cClose(descriptor) }

  /// memchr(3): where `byte` first occurs in the `count` bytes at `start`.
  @inline(__always)
  static func firstByte(_ byte: UInt8, from start: UnsafeRawPointer, count: Int)
    -> UnsafeRawPointer?
  {
    UnsafeRawPointer(memchr(start, Int32(byte), count))
  }

  /// exp(3).
  @inline(__always)
  static func exponential(_ value: Double) -> Double { exp(value) }

  /// log(3), the natural logarithm.
  @inline(__always)
  static func logarithm(_ value: Double) -> Double { log(value) }
}

// The C functions under names the wrappers above do not shadow.
private func cRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
private func cClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
