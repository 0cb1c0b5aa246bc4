import Foundation
import HangulKit
import HangulWrongMode
import TestSupport

/// A labelled corpus for the wrong-mode filter: real Korean prose and English
/// text with random spans of words retyped in the wrong mode, and URLs, code
/// identifiers, user names, hex and base64 mixed in.
///
/// Korean prose is the shared corpus (`../shared/corpus/ko-prose.txt` beside
/// the repository) or, without it, the sample committed beside this file.
/// English is the prose of README.md and the man pages (not their code or
/// examples) and sentences of words from Debian's `wamerican`
/// (`/usr/share/dict/words`) when it is installed.
struct WrongModeCorpus {
  /// A span the corpus put in: where, which way, and what it meant.
  struct Label: Hashable {
    var line: Int
    var column: Int
    var direction: WrongModeSpan.Direction
    var meant: String
  }

  var lines: [String] = []
  var labels: [Label] = []

  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func koreanLines() throws -> [String] {
    let shared = repository.deletingLastPathComponent()
      .appendingPathComponent("shared/corpus/ko-prose.txt")
    let sample = repository.appendingPathComponent(
      "Tests/HangulWrongModeTests/Fixtures/ko-prose-sample.txt")
    let text =
      try (try? String(contentsOf: shared, encoding: .utf8))
      ?? String(contentsOf: sample, encoding: .utf8)
    return text.split(separator: "\n").map(String.init)
  }

  /// Lines of English prose from README.md and the man pages: no code
  /// blocks, examples, tables, inline code or roff requests, and nothing of
  /// what documents this filter (it quotes mistyped words on purpose).
  static func englishLines() throws -> [String] {
    var files = [repository.appendingPathComponent("README.md")]
    let man = repository.appendingPathComponent("man")
    for name in try FileManager.default.contentsOfDirectory(atPath: man.path).sorted()
    where name != "hangul-wrongmode.1" {
      files.append(man.appendingPathComponent(name))
    }
    var lines: [String] = []
    for file in files {
      var inBlock = false
      var inThisFiltersSection = false
      for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
        if line.hasPrefix("## ") { inThisFiltersSection = line == "## hangul-wrongmode" }
        if line.hasPrefix("```") || line.hasPrefix(".Bd") || line.hasPrefix(".Ed") {
          inBlock.toggle()
          continue
        }
        guard !inBlock, !inThisFiltersSection, !line.hasPrefix("."), !line.hasPrefix(" "),
          !line.hasPrefix("|"),
          !line.contains("`"), !line.contains("\\")
        else { continue }
        let words = line.split(separator: " ").filter { $0.allSatisfy(\.isASCIILetterForTest) }
        if words.count >= 4 { lines.append(String(line)) }
      }
    }
    return lines
  }

  /// Words of `wamerican`, letters only, or none when it is not installed.
  static func dictionaryWords() -> [String] {
    guard let text = try? String(contentsOfFile: "/usr/share/dict/words", encoding: .utf8) else {
      return []
    }
    return text.split(separator: "\n").filter { $0.allSatisfy(\.isASCIILetterForTest) }.map(
      String.init)
  }

  /// Things that are not words typed in the wrong mode, though made of letters.
  static let noise = [
    "https://example.com/path?q=1", "www.naver.com", "john.doe@example.org", "@dkssud_92",
    "kim_minsu", "user1234", "sarah.k", "getValue", "parse_args", "HTTP2", "isReady",
    "setTimeout", "sha256:9f86d081884c7d659a2feaea0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a0",
    "deadbeefcafe", "0x7fff5fbff8c8", "SGVsbG8gd29ybGQ=", "dGhpcyBpcyBhIHRlc3Q",
    "config.yaml", "README.md", "/usr/local/bin", "C:\\Users\\kim", "v1.2.3", "iPhone",
    "macOS", "@minjun", "minjun.kim", "jiwoo_99", "#dkssud", "node_modules", "rkdtjdwns.dev",
    "e3b0c44298fc1c149afbf4c8996fb924", "TmV4dCBwYWdl", "Rk9PQkFS", "--max-line",
  ]

  /// Builds `count` lines from the sources with the random number generator seeded by `seed`.
  init(count: Int, seed: UInt64, typing: WrongModeTyping) throws {
    var typing = typing
    var random = SeededGenerator(seed: seed)
    let korean = try Self.koreanLines()
    let english = try Self.englishLines()
    let words = Self.dictionaryWords()
    func retypedKorean(_ word: String) -> String {
      String(decoding: typing.keys(typing: Array(word.unicodeScalars)) ?? [], as: UTF8.self)
    }
    func retypedEnglish(_ word: String) -> String {
      var text = String.UnicodeScalarView()
      text.append(contentsOf: typing.hangul(typedBy: Array(word.utf8)))
      return String(text)
    }
    func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
    for index in 0..<count {
      var pieces: [(text: String, label: (WrongModeSpan.Direction, String)?)] = []
      let isKorean = random.next() % 2 == 0
      let tokens: [Substring]
      if isKorean {
        tokens = pick(korean).split(separator: " ")
      } else if words.isEmpty || random.next() % 2 == 0 {
        tokens = pick(english).split(separator: " ")
      } else {
        tokens = (0..<(4 + random.next() % 9)).map { _ in Substring(pick(words)) }
      }
      var run = 0
      for token in tokens {
        if run == 0, random.next() % 100 < 8 { run = pick([1, 1, 1, 2, 2, 3, 4]) }
        if run > 0 { run -= 1 }
        let (word, tail) = Self.splitPunctuation(token)
        if run > 0, isKorean, !word.isEmpty, word.unicodeScalars.allSatisfy(\.isSyllableForTest) {
          pieces.append((retypedKorean(word) + tail, (.englishMode, word)))
        } else if run > 0, !isKorean, word.count >= 2, word.allSatisfy(\.isASCIILetterForTest) {
          pieces.append((retypedEnglish(word) + tail, (.koreanMode, word)))
        } else {
          pieces.append((String(token), nil))
        }
      }
      if random.next() % 10 < 3 {
        pieces.insert((pick(Self.noise), nil), at: Int(random.next() % UInt64(pieces.count + 1)))
      }
      if random.next() % 10 < 2 {
        // A word of the other language, typed in the wrong mode, in the line.
        let at = Int(random.next() % UInt64(pieces.count + 1))
        if isKorean, !words.isEmpty {
          let word = pick(words)
          pieces.insert((retypedEnglish(word), (.koreanMode, word)), at: at)
        } else if !isKorean {
          let candidates = pick(korean).split(separator: " ").map(String.init).filter {
            $0.unicodeScalars.allSatisfy(\.isSyllableForTest)
          }
          if let word = candidates.first {
            pieces.insert((retypedKorean(word), (.englishMode, word)), at: at)
          }
        }
      }
      var line = ""
      var column = 1
      for (number, piece) in pieces.enumerated() {
        if number > 0 {
          line += " "
          column += 1
        }
        if let (direction, meant) = piece.label {
          labels.append(Label(line: index + 1, column: column, direction: direction, meant: meant))
        }
        line += piece.text
        column += piece.text.unicodeScalars.count
      }
      lines.append(line)
    }
  }

  /// A token without the sentence punctuation at its end.
  static func splitPunctuation(_ token: Substring) -> (String, String) {
    var word = String(token)
    var tail = ""
    while let last = word.last, ".,!?".contains(last) {
      tail = String(last) + tail
      word.removeLast()
    }
    return (word, tail)
  }

  /// Precision and recall of the spans found, for one direction.
  struct Score {
    var correct = 0
    var found = 0
    var labelled = 0
    var precision: Double { found == 0 ? 1 : Double(correct) / Double(found) }
    var recall: Double { labelled == 0 ? 1 : Double(correct) / Double(labelled) }
  }

  /// Scores spans against the labels: a span is right when it starts where
  /// a label does, in its direction, and means what the label says (English
  /// compared without case: Korean mode loses Shift). Returns the scores and
  /// the spans that were wrong, and the labels that were missed.
  func score(_ spans: [WrongModeSpan]) -> (
    scores: [WrongModeSpan.Direction: Score], wrong: [WrongModeSpan], missed: [Label]
  ) {
    var scores: [WrongModeSpan.Direction: Score] = [.englishMode: Score(), .koreanMode: Score()]
    var byPlace: [String: Label] = [:]
    for label in labels {
      byPlace["\(label.line):\(label.column):\(label.direction)"] = label
      scores[label.direction]?.labelled += 1
    }
    var wrong: [WrongModeSpan] = []
    var matched = Set<Label>()
    for span in spans {
      scores[span.direction]?.found += 1
      if let label = byPlace["\(span.line):\(span.column):\(span.direction)"],
        label.meant.lowercased() == span.to.lowercased()
      {
        scores[span.direction]?.correct += 1
        matched.insert(label)
      } else {
        wrong.append(span)
      }
    }
    return (scores, wrong, labels.filter { !matched.contains($0) })
  }
}

extension Character {
  var isASCIILetterForTest: Bool { isASCII && isLetter }
}

extension Unicode.Scalar {
  var isSyllableForTest: Bool { (0xAC00...0xD7A3).contains(value) }
}
