import Foundation
import HangulKit
import Testing

/// The fast scans of `--verify` (the proof of every unit, the word-wise
/// scans of decomposed and composed output, the two-halves scan, the jamo
/// pairs of the normal-form checker) pass right output and catch a wrong one
/// at its place, in either half of a block.
@Suite("Verification scans")
struct VerificationScanTests {
  /// Lines of Korean prose with ASCII, punctuation, finals of every kind
  /// (ㄲ to ㅎ, U+11A8–U+11C2) and compatibility jamo.
  static func prose(lines: Int) -> [UInt8] {
    let words = [
      "한국어", "문장입니다.", "닭고기", "않았다", "좋은", "밖에", "읽고", "“인용”", "ㆍ", "①", "abc", "12",
      "값", "흙", "핥다", "읊다", "뷁", "힣", "까", "낳다", "짧은",
    ]
    var text = ""
    for line in 0..<lines {
      for index in 0..<(5 + line % 7) {
        text += words[(line * 7 + index * 3) % words.count] + " "
      }
      text += "\n"
    }
    return Array(text.utf8)
  }

  /// A filter that writes what `inner` writes with one byte string replaced
  /// on the first output line from `line` on (0-based) that has it, as a
  /// broken fast path might.
  struct Corrupting<Inner: ByteFilter>: ByteFilter {
    var inner: Inner
    let line: Int
    let from: [UInt8]
    let to: [UInt8]
    var seenLines = 0
    var pending: [UInt8] = []
    /// The line where it replaced.
    var replacedLine: Int?

    mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) throws {
      try inner.process(chunk, into: &pending)
      emit(into: &output, all: false)
    }

    mutating func finish(into output: inout [UInt8]) throws {
      try inner.finish(into: &pending)
      emit(into: &output, all: true)
    }

    private mutating func emit(into output: inout [UInt8], all: Bool) {
      while let newline = pending.firstIndex(of: 0x0A) {
        var text = Array(pending[...newline])
        pending.removeFirst(newline + 1)
        if seenLines >= line, replacedLine == nil, let range = text.firstRange(of: from) {
          text.replaceSubrange(range, with: to)
          replacedLine = seenLines
        }
        seenLines += 1
        output += text
      }
      if all {
        output += pending
        pending = []
      }
    }
  }

  @Test("every unit of the project's own algorithms is proven at once; a replaced one is not")
  func proofOfEveryUnit() throws {
    #expect(try OutputVerifier(expecting: .decomposed).everyUnitAgrees)
    #expect(try OutputVerifier(expecting: .composed).everyUnitAgrees)
    let custom = try OutputVerifier(
      expecting: .decomposed, composition: { HangulNormalization.composed($0) })
    #expect(!custom.everyUnitAgrees)
  }

  @Test(
    "NFD output passes the scan, and a syllable left composed is caught in either half of the block",
    arguments: [3, 700, 1400])
  func decomposedOutput(wrongLine: Int) throws {
    let text = Self.prose(lines: 1500)
    var right = VerifyingFilter(
      try NormalizeFilter(form: .nfd), verifier: try OutputVerifier(expecting: .decomposed))
    let output = try right.filtered(text)
    #expect(right.firstDisagreement == nil)
    expectSameBytes(
      output, Array(try ICUNormalizer(.nfd).normalized(String(decoding: text, as: UTF8.self)).utf8))
    // 닭 written precomposed on one line: not NFD.
    var wrong = VerifyingFilter(
      Corrupting(
        inner: try NormalizeFilter(form: .nfd), line: wrongLine,
        from: Array("\u{1103}\u{1161}\u{11B0}".utf8), to: Array("닭".utf8)),
      verifier: try OutputVerifier(expecting: .decomposed))
    wrong.beginInput(named: "text.txt")
    _ = try wrong.filtered(text)
    let first = try #require(wrong.firstDisagreement)
    let replaced = try #require(wrong.inner.replacedLine)
    #expect(replaced >= wrongLine && replaced < wrongLine + 30)
    #expect(first.file == "text.txt")
    #expect(first.line == replaced + 1)
    #expect(first.message.contains("not NFD"))
    #expect(wrong.disagreementCount == 1)
  }

  @Test("keys output passes the scan, and conjoining jamo in it are caught", arguments: [2, 1200])
  func keysOutput(wrongLine: Int) throws {
    let text = Self.prose(lines: 1500)
    var right = VerifyingFilter(
      DecomposeFilter(form: .keys), verifier: try OutputVerifier(expecting: .composed))
    _ = try right.filtered(text)
    #expect(right.firstDisagreement == nil)
    // ㅎㅏ (of 한) written as conjoining U+1112 U+1161: not NFC.
    var wrong = VerifyingFilter(
      Corrupting(
        inner: DecomposeFilter(form: .keys), line: wrongLine, from: Array("ㅎㅏ".utf8),
        to: Array("\u{1112}\u{1161}".utf8)),
      verifier: try OutputVerifier(expecting: .composed))
    _ = try wrong.filtered(text)
    let first = try #require(wrong.firstDisagreement)
    let replaced = try #require(wrong.inner.replacedLine)
    #expect(replaced >= wrongLine && replaced < wrongLine + 30)
    #expect(first.line == replaced + 1)
    #expect(first.message.contains("not NFC"))
  }

  @Test("the NFD checker passes jamo two at a time and finds a syllable among them, with its place")
  func normalFormCheckerJamoPairs() throws {
    var checker = try NormalFormChecker(form: .nfd)
    checker.beginInput(named: "a.txt")
    let good = try ICUNormalizer(.nfd).normalized(
      String(decoding: Self.prose(lines: 50), as: UTF8.self))
    checker.check(Array(good.utf8)[...])
    #expect(checker.firstProblem == nil)
    checker.check(Array("\u{1100}\u{1161}\u{1102}\u{1161}\u{11AB} ok 가\n".utf8)[...])
    let problem = try #require(checker.firstProblem)
    #expect(problem.line == 51)
    #expect(problem.column == 10)
    #expect(problem.message.contains("not NFD"))
  }
}
