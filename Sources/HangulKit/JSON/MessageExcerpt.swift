/// A value as a message shows it: whole when it is short, else its first
/// ``limit`` characters (Unicode scalars) and "…", so that a number of a
/// million digits or a megabyte of text is not echoed whole.
///
///     MessageExcerpt.text(String(repeating: "1", count: 1_000_000))  // forty 1s and "…"
///     MessageExcerpt.quoted("어제")                                     // "\"어제\""
///
/// O(limit).
enum MessageExcerpt {
  /// How many characters of a value a message shows.
  static let limit = 40

  /// `text`, or its first ``limit`` characters and "…".
  static func text(_ text: String) -> String {
    let (shown, isCut) = cut(text)
    return isCut ? shown + "…" : shown
  }

  /// `text` as a JSON string, or its first ``limit`` characters as one and "…" after it.
  static func quoted(_ text: String) -> String {
    let (shown, isCut) = cut(text)
    return JSONWriter.quoted(shown) + (isCut ? "…" : "")
  }

  /// UTF-8 `bytes` as ``text(_:)`` shows them, decoding no more than that takes.
  static func text(utf8 bytes: some Collection<UInt8>) -> String {
    text(String(decoding: bytes.prefix(4 * (limit + 1)), as: UTF8.self))
  }

  /// UTF-8 `bytes` as ``quoted(_:)`` shows them, decoding no more than that takes.
  static func quoted(utf8 bytes: some Collection<UInt8>) -> String {
    // A character is at most four bytes: this many hold one more than is shown.
    quoted(String(decoding: bytes.prefix(4 * (limit + 1)), as: UTF8.self))
  }

  private static func cut(_ text: String) -> (shown: String, isCut: Bool) {
    var scalars = text.unicodeScalars.makeIterator()
    var shown = String.UnicodeScalarView()
    for _ in 0..<limit {
      guard let scalar = scalars.next() else { return (text, false) }
      shown.append(scalar)
    }
    return scalars.next() == nil ? (text, false) : (String(shown), true)
  }
}
