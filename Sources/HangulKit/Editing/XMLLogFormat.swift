/// The research loggers' XML formats `hangul-compose` reads (hangul-keylog(5)).
public enum XMLLogFormat: String, Sendable, CaseIterable {
  /// Inputlog's IDFX: the root element is `<log>`.
  case idfx
  /// Translog-II: the root element is `<LogFile>`.
  case translog

  /// The format whose start `bytes` are (the first few KiB of a file), or
  /// `nil`: an XML declaration `<?xml`, then, past comments, processing
  /// instructions and a document type, the root element `<log>` (IDFX) or
  /// `<LogFile>` (Translog-II). A byte order mark and white space may come first.
  ///
  ///     XMLLogFormat.detect(Array("<?xml version=\"1.0\"?>\n<log>".utf8))   // .idfx
  ///     XMLLogFormat.detect(Array("{\"key\":\"ㄱ\"}".utf8))                 // nil
  ///
  /// O(bytes).
  public static func detect(_ bytes: [UInt8]) -> XMLLogFormat? {
    var index = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
    func starts(_ text: String) -> Bool { bytes[index...].starts(with: text.utf8) }
    /// Moves past the next `terminator`; false when there is none.
    func skip(past terminator: String) -> Bool {
      let pattern = Array(terminator.utf8)
      while index < bytes.count {
        if bytes[index...].starts(with: pattern) {
          index += pattern.count
          return true
        }
        index += 1
      }
      return false
    }
    skipSpace()
    guard starts("<?xml"), skip(past: "?>") else { return nil }
    while true {
      skipSpace()
      if starts("<!--") {
        guard skip(past: "-->") else { return nil }
      } else if starts("<?") {
        guard skip(past: "?>") else { return nil }
      } else if starts("<!") {
        guard skip(past: ">") else { return nil }
      } else {
        break
      }
    }
    guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { return nil }
    index += 1
    let nameStart = index
    while index < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F].contains(bytes[index]) {
      index += 1
    }
    guard index < bytes.count else { return nil }
    switch String(decoding: bytes[nameStart..<index], as: UTF8.self) {
    case "log": return .idfx
    case "LogFile": return .translog
    default: return nil
    }
  }
}

extension XMLLogFormat {
  /// ``detect(_:)`` of the first `count` bytes of the file at `path`, or
  /// `nil` when it is not such a log or cannot be read (opening it again
  /// will say why).
  public static func detect(fileAt path: FilePath, reading count: Int = 4096) -> XMLLogFormat? {
    path.start(upTo: count).flatMap(detect)
  }
}
