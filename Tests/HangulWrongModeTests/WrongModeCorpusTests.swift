import Foundation
import HangulKit
import HangulWrongMode
import Testing

/// Precision and recall of the wrong-mode filter on a labelled corpus
/// (``WrongModeCorpus``): at least 99 % and 95 % in both directions.
@Suite("Wrong mode: precision and recall")
struct WrongModeCorpusTests {
  static let lexicon = Result { try WrongModeLexicon(typing: WrongModeTyping(keyboard: .twoSet)) }

  /// Lines in the corpus: 4,000 (about 2,500 spans); 20,000 under HANGUL_LONG_TESTS=1.
  static var lineCount: Int {
    ProcessInfo.processInfo.environment["HANGUL_LONG_TESTS"] == "1" ? 20_000 : 4_000
  }

  @Test(arguments: [UInt64(1), 2])
  func precisionAndRecall(seed: UInt64) throws {
    let lexicon = try Self.lexicon.get()
    let corpus = try WrongModeCorpus(count: Self.lineCount, seed: seed, typing: lexicon.typing)
    var filter = WrongModeFilter(lexicon: lexicon, mode: .check)
    _ = try filter.filtered(Array(corpus.lines.joined(separator: "\n").utf8))
    let spans = filter.findings.take().map(\.span)
    let (scores, wrong, missed) = corpus.score(spans)
    for direction in WrongModeSpan.Direction.allCases {
      let score = scores[direction] ?? .init()
      print(
        "wrong mode \(direction.rawValue), seed \(seed), \(corpus.lines.count) lines: "
          + "\(score.labelled) spans put in, \(score.found) found, \(score.correct) right: "
          + "precision \(percent(score.precision)), recall \(percent(score.recall))")
    }
    for span in wrong.prefix(40) {
      print(
        "  wrong: \(span.message(file: "line")) (\(span.score)): \(corpus.lines[span.line - 1])")
    }
    for label in missed.prefix(40) {
      let line = corpus.lines[label.line - 1]
      print(
        "  missed: \(label.line):\(label.column) \(label.direction.rawValue) \(label.meant): \(line)"
      )
    }
    for direction in WrongModeSpan.Direction.allCases {
      let score = try #require(scores[direction])
      #expect(score.labelled > 500, "too few spans to measure \(direction)")
      #expect(score.precision >= 0.99, "precision of \(direction.rawValue)")
      #expect(score.recall >= 0.95, "recall of \(direction.rawValue)")
    }
  }

  func percent(_ value: Double) -> String {
    String(format: "%.2f %%", value * 100)
  }
}
