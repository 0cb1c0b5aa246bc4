import Foundation
import Testing

@testable import HangulKit

/// Random Korean lines typed on each platform model of hangul-keylog(5)
/// (``BrowserStreamGenerator``) replay to the line the input method showed,
/// with a key counted for each press (rebuilt ones on Android).
@Suite("Browser stream generator")
struct BrowserGeneratorTests {
  /// Lines of the shared corpus (when present) and random syllables with
  /// compound vowels and finals: 1,000, or 20,000 with HANGUL_LONG_TESTS=1.
  static func lines() -> [String] {
    let count = ProcessInfo.processInfo.environment["HANGUL_LONG_TESTS"] == "1" ? 20_000 : 1_000
    var random = SeededGenerator(seed: 28)
    var lines: [String] = []
    let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("shared/corpus/ko-prose.txt")
    if let text = try? String(contentsOf: corpus, encoding: .utf8) {
      let prose = text.split(separator: "\n").map { String($0.prefix(60)) }
      for _ in 0..<(count / 2) { lines.append(prose.randomElement(using: &random) ?? "") }
    }
    while lines.count < count {
      var line = ""
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        if Int.random(in: 0..<5, using: &random) == 0 {
          line += [" ", ".", "1", "?", " "][Int.random(in: 0..<5, using: &random)]
          continue
        }
        let initial = UInt32.random(in: 0..<19, using: &random)
        let vowel = UInt32.random(in: 0..<21, using: &random)
        let final =
          Int.random(in: 0..<2, using: &random) == 0 ? 0 : UInt32.random(in: 1..<28, using: &random)
        if let syllable = Unicode.Scalar(0xAC00 + (initial * 21 + vowel) * 28 + final) {
          line.unicodeScalars.append(syllable)
        }
      }
      lines.append(line)
    }
    return lines
  }

  @Test(
    "each line's events replay to what the input method showed, keys counted",
    arguments: BrowserStreamGenerator.Platform.allCases)
  func replay(platform: BrowserStreamGenerator.Platform) {
    var random: SeededGenerator? = SeededGenerator(seed: 0x2828)
    var failures = 0
    for line in Self.lines() {
      let presses = BrowserStreamGenerator.presses(of: line, slips: &random)
      var generator = BrowserStreamGenerator(platform: platform)
      for press in presses { generator.type(press) }
      let result = BrowserEventTests.run(generator.lines)
      let expected = generator.shownText + "\n"
      let keys = result.statistics.total.keystrokes
      if result.output != expected || keys != presses.count || !result.errors.isEmpty
        || !result.warnings.isEmpty
        || (platform == .android) != (result.statistics.total.reconstructed == keys && keys > 0)
      {
        failures += 1
        if failures <= 3 {
          let events: String = generator.lines.joined(separator: "\n")
          let got = "got \(result.output.debugDescription), keys \(keys)/\(presses.count)"
          Issue.record(
            "\(platform) \(line.debugDescription): \(got), want \(expected.debugDescription)\n\(events)"
          )
        }
      }
    }
    #expect(failures == 0)
  }

  @Test("without slips a line of the corpus or of random syllables types as itself")
  func linesTypeAsThemselves() {
    var none: SeededGenerator? = nil
    var differing = 0
    for line in Self.lines().prefix(300) {
      var generator = BrowserStreamGenerator(platform: .android)
      for press in BrowserStreamGenerator.presses(of: line, slips: &none) { generator.type(press) }
      if generator.shownText != line { differing += 1 }
    }
    // Keys of separate syllables may join (가 + ㅏ …): most lines still type as themselves.
    #expect(differing < 150)
  }
}
