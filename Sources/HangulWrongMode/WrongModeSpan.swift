import HangulKit

/// A span of text typed in the wrong 한/영 mode, where it is and what it meant.
///
///     let span = WrongModeSpan(
///       line: 1, column: 11, from: "dkssud", to: "안녕", direction: .englishMode, score: 0.9)
///     span.message(file: "a.txt")
///     // a.txt:1:11: "dkssud" looks like 안녕 typed in English mode
public struct WrongModeSpan: Sendable, Equatable {
  /// The mode the span was typed in.
  public enum Direction: String, Sendable, CaseIterable {
    /// Letters meant as Korean (`dkssud` → 안녕).
    case englishMode = "english-mode"
    /// Hangul meant as English (`ㅗ디ㅣㅐ` → hello).
    case koreanMode = "korean-mode"

    var modeName: String { self == .englishMode ? "English" : "Korean" }
  }

  /// The line (1 is the first) and column (in characters, a byte that is not
  /// UTF-8 counting as one; 1 is the first) where the span begins.
  public var line: Int
  public var column: Int
  /// The span as it is in the text, and what it meant.
  public var from: String
  public var to: String
  public var direction: Direction
  /// How sure the judge is, 0 … 1 (see ``WrongModeOptions/minScore``).
  public var score: Double

  public init(
    line: Int, column: Int, from: String, to: String, direction: Direction, score: Double
  ) {
    self.line = line
    self.column = column
    self.from = from
    self.to = to
    self.direction = direction
    self.score = score
  }

  /// `FILE:LINE:COLUMN: "from" looks like to typed in MODE mode`.
  public func message(file: String) -> String {
    "\(file):\(line):\(column): \"\(from)\" looks like \(to) typed in \(direction.modeName) mode"
  }

  /// The span as one line of JSON (no newline): file, line, column, from,
  /// to, direction and score (three decimals).
  public func jsonLine(file: String) -> String {
    "{\"file\":\(JSONWriter.quoted(file)),\"line\":\(line),\"column\":\(column),"
      + "\"from\":\(JSONWriter.quoted(from)),\"to\":\(JSONWriter.quoted(to)),"
      + "\"direction\":\"\(direction.rawValue)\",\"score\":\(Self.decimal(score))}"
  }

  /// `value` with three decimals (0.953), without Foundation.
  static func decimal(_ value: Double) -> String {
    let thousandths = Int((min(max(value, 0), 1) * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}

/// The spans a ``WrongModeFilter`` found and not yet taken, with the input
/// they are in: a reference that the filter and its runner's callback share,
/// so that the program writes them after every block (memory stays bounded).
public final class WrongModeFindings: @unchecked Sendable {
  public private(set) var spans: [(file: String, span: WrongModeSpan)] = []
  /// How many spans were found in all.
  public private(set) var count = 0

  public init() {}

  func add(_ span: WrongModeSpan, file: String) {
    spans.append((file, span))
    count += 1
  }

  /// Returns the spans found since the last call and forgets them.
  public func take() -> [(file: String, span: WrongModeSpan)] {
    defer { spans.removeAll(keepingCapacity: true) }
    return spans
  }
}
