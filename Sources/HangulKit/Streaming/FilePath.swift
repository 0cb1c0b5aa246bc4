/// A path as the exact bytes the system takes, which need not be UTF-8: a
/// file named `\xFF.jsonl` is that file, never `\u{FFFD}.jsonl` or another
/// one. Messages show it with ``description``.
///
///     let path = FilePath(bytes: [0xFF, 0x2E, 0x74, 0x78, 0x74])
///     path.description        // "\\xFF.txt"
///     let descriptor = path.open(O_RDONLY)
///
/// A path holding a NUL byte names no file: every call fails with EINVAL
/// (the C string would end early and name another file).
public struct FilePath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// The bytes of the path, without a terminating NUL.
  public var bytes: [UInt8]

  public init(bytes: some Sequence<UInt8>) {
    self.bytes = Array(bytes)
  }

  /// The path whose bytes are the UTF-8 of `string`.
  public init(_ string: String) {
    bytes = Array(string.utf8)
  }

  public init(stringLiteral value: String) {
    self.init(value)
  }

  /// `-`, which the programs read as standard input.
  public static let standardInput: FilePath = "-"

  /// Whether the path is `-` (standard input, not a file of that name).
  public var isStandardInput: Bool { bytes == [UInt8(ascii: "-")] }

  /// The path for a message: UTF-8 as it is; a byte that is not UTF-8, a
  /// control character (U+0000–U+001F, U+007F) and a backslash are written
  /// `\xHH`, `\xHH` and `\\`, so that a message shows every byte and stays
  /// one line.
  public var description: String { Self.escaped(bytes) }

  /// `bytes` as ``description`` shows them.
  public static func escaped(_ bytes: some Collection<UInt8>) -> String {
    // Nearly every name is UTF-8 with nothing to escape: taken whole (a
    // rename's line was a third of --rename's time when decoded scalar by scalar).
    if !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }),
      let text = String(validating: bytes, as: UTF8.self)
    {
      return text
    }
    var text = ""
    var decoder = UTF8Stream()
    func hex(_ byte: UInt8) {
      let digits = String(byte, radix: 16, uppercase: true)
      text += "\\x" + (digits.count < 2 ? "0" : "") + digits
    }
    decoder.decode(Array(bytes), isLast: true) { unit in
      switch unit {
      case .scalar("\\"): text += "\\\\"
      case .scalar(let scalar) where scalar.value < 0x20 || scalar.value == 0x7F:
        hex(UInt8(scalar.value))
      case .scalar(let scalar): text.unicodeScalars.append(scalar)
      case .invalidByte(let byte): hex(byte)
      }
    }
    return text
  }

  /// Calls `body` with the path as a NUL-terminated C string; `nil` (with
  /// `errno` set to EINVAL) when the path holds a NUL byte.
  package func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows
    -> Result?
  {
    guard !bytes.contains(0) else {
      SystemCalls.errorNumber = SystemCalls.invalidArgument
      return nil
    }
    let cString = bytes.map { CChar(bitPattern: $0) } + [0]
    return try cString.withUnsafeBufferPointer { buffer in
      // The buffer holds at least the NUL, so it has an address.
      guard let base = buffer.baseAddress else { return try body("") }
      return try body(base)
    }
  }

  /// open(2) of the path, relative to `directory` (openat(2); by default the
  /// working directory): a descriptor, or -1 with `errno`.
  package func open(
    _ flags: Int32, mode: UInt32 = 0, relativeTo directory: Int32 = SystemCalls.currentDirectory
  ) -> Int32 {
    withCString { SystemCalls.open($0, flags, mode: mode, relativeTo: directory) } ?? -1
  }

  /// stat(2) of the path (lstat(2) when `followingLinks` is false); `nil` with `errno` set.
  package func status(followingLinks: Bool = true) -> FileStatus? {
    withCString { SystemCalls.status(ofPath: $0, followingLinks: followingLinks) } ?? nil
  }

  /// How many names the path goes through: `a/b/c` 3, `/a` 1, `.` 1, `/` 0.
  package var depth: Int {
    bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).count
  }
}
