import Foundation
import Testing

/// Hostile input, faults and usage errors: nothing may crash, hang, grow
/// without bound, or silently lose data. (The 300 MB and 10⁶-deep sizes run
/// in tools/robustness.sh on a release build; these are their fast versions.)
@Suite("Robustness")
struct RobustnessTests {
  let compose = Executable("hangul-compose")
  let decompose = Executable("hangul-decompose")
  let reviews = Executable("hangul-reviews")

  static let nastyBytes: [[UInt8]] = [
    [0x80], [0xBF, 0x80, 0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80],
    [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xFE], [0xFF],
    [0x00], [0x00, 0x00, 0x0A], [0xEF, 0xBB, 0xBF, 0x31], [0x31, 0x0D, 0x0A, 0x32, 0x0D, 0x0A],
    [0xEA, 0xB0], [0x31, 0xF0, 0x9F, 0x98],
  ]

  @Test(
    "bytes that are not UTF-8, NUL, BOM and CR LF are copied byte for byte", arguments: nastyBytes)
  func bytesPassThrough(bytes: [UInt8]) throws {
    let input = Data(bytes)
    #expect(try compose.run([], input: input).stdout == input)
    #expect(try compose.run(["--keys", "qwerty"], input: input).stdout == input)
    for form in ["keys", "jamo", "nfd", "qwerty"] {
      #expect(try decompose.run(["--to", form], input: input).stdout == input, "--to \(form)")
    }
  }

  @Test("a character split across two reads is handled")
  func splitAcrossReads() throws {
    let composed = try compose.shell(
      #"(printf '\xea\xb0'; sleep 0.3; printf '\x80\xe3\x84'; sleep 0.3; printf '\xb1\n') | "$EXE""#
    )
    #expect(composed.text == "가ㄱ\n")
    let decomposed = try decompose.shell(
      "(printf '\\xea\\xb0'; sleep 0.3; printf '\\x80\\n') | '\(decompose.url.path)' --to qwerty")
    #expect(decomposed.text == "rk\n")
  }

  @Test("a 16 MB line with no newline streams in bounded memory through both filters")
  func longLine() throws {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("line.txt")
    let piece = Data("dkssudgktpdy rkqtdl qlTkek ".utf8)
    var data = Data()
    while data.count < 16 << 20 { data.append(piece) }
    try data.write(to: file)
    let composed = try compose.shell(
      "/usr/bin/time -f %M \"$EXE\" --keys qwerty '\(file.path)' 2>&1 >/dev/null | tail -1")
    let composePeak = Int(composed.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
    #expect(composePeak < 64 * 1024, "hangul-compose peak \(composePeak) KB")
    let decomposed = try decompose.shell(
      "/usr/bin/time -f %M '\(decompose.url.path)' '\(file.path)' 2>&1 >/dev/null | tail -1")
    let decomposePeak = Int(decomposed.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
    #expect(decomposePeak < 64 * 1024, "hangul-decompose peak \(decomposePeak) KB")
  }

  @Test("--max-line flushes a long line in pieces; Backspace cannot reach what was flushed")
  func maxLine() throws {
    let keys = String(repeating: "rkr", count: 1000) + String(repeating: "\u{8}", count: 5000)
    let result = try compose.run(
      ["--keys", "qwerty", "--max-line", "1K", "--stats"], input: Data(keys.utf8))
    // 1,000 syllables of 3 bytes; everything up to the last flush stays.
    let count = result.text.unicodeScalars.count
    #expect(count > 600 && count < 1000)
    #expect(result.status == 0)
  }

  @Test("a million Backspaces in a row", arguments: ["jamo", "keystroke"])
  func millionBackspaces(mode: String) throws {
    let input = Data("가나 ㄷㅏ".utf8) + Data(repeating: 0x08, count: 1_000_000) + Data("ㄹㅏ\n".utf8)
    let result = try compose.run(["--backspace", mode], input: input)
    #expect(result.text == "라\n")
    #expect(result.status == 0)
  }

  @Test("an event with an 8 MB text and a review with a 5 MB content")
  func bigValues() throws {
    let text = String(repeating: "가나다라마바사 ", count: 8 << 17)
    let event = #"{"text":"\#(text)"}"# + "\n"
    // A "text" is held up to --max-line.
    let composed = try compose.run(
      ["--format", "events", "--max-line", "32M"], input: Data(event.utf8))
    #expect(composed.text == text + "\n")
    let content = String(repeating: "리뷰", count: 5 << 18)
    let review = #"{"content":"\#(content)","createdAt":"2022-07-21T11:53:58.652Z"}"#
    let imported = try reviews.run(["import"], input: Data(review.utf8))
    #expect(imported.status == 0)
    #expect(imported.text == review + "\n")
  }

  @Test("JSON nested a million deep is a clear error, not a stack overflow")
  func deepNesting() throws {
    let deep = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
    let events = try compose.run(
      ["--format", "events"], input: Data((deep + "\n" + #"{"key":"ㄱ"}"#).utf8))
    #expect(events.status == 65)
    #expect(events.text == "ㄱ\n")
    #expect(
      events.stderr.contains(
        "(standard input):1:1: an event must be a JSON object, not an array"))
    let deepObject =
      #"{"key":"ㄱ","a":"# + String(repeating: "[", count: 1_000_000)
      + String(repeating: "]", count: 1_000_000) + "}"
    let inObject = try compose.run(
      ["--format", "events"], input: Data((deepObject + "\n" + #"{"key":"ㅏ"}"#).utf8))
    #expect(inObject.status == 65)
    #expect(inObject.text == "ㅏ\n")
    #expect(
      inObject.stderr.contains(
        "(standard input):1:527: not valid JSON: nesting deeper than 512"))
    let object =
      String(repeating: #"{"a":"#, count: 1_000_000) + "1"
      + String(repeating: "}", count: 1_000_000)
    let imported = try reviews.run(
      ["import"], input: Data((object + "\n" + #"{"content":"ok"}"#).utf8))
    #expect(imported.status == 65)
    #expect(imported.text == #"{"content":"ok"}"# + "\n")
    #expect(imported.stderr.contains("nesting deeper than 512"))
  }

  @Test("input that ends in the middle of a record")
  func truncated() throws {
    let events = try compose.run(
      ["--format", "events"], input: Data((#"{"key":"ㄱ"}"# + "\n" + #"{"key":"ㅏ"#).utf8))
    #expect(events.status == 65)
    #expect(events.text == "ㄱ\n")
    #expect(events.stderr.contains("(standard input):2:10: not valid JSON: unterminated string"))
    let imported = try reviews.run(
      ["import"], input: Data(#"{"data":[{"content":"a"},{"content":"#.utf8))
    #expect(imported.status == 65)
    #expect(imported.text == #"{"content":"a"}"# + "\n")
    #expect(
      imported.stderr.contains(
        "(standard input):1:37: record 1 rejected: unexpected end of input\n"))
    #expect(
      imported.stderr.contains(
        "(standard input):1:37: unexpected end of input inside the envelope that starts at 1:1\n"))
  }

  @Test(
    "faults: a full disk gives 74, a directory 66, a closed pipe ends quietly",
    arguments: ["import", "export"])
  func reviewFaults(command: String) throws {
    let full = try reviews.shell("echo '{\"content\":\"a\"}' | \"$EXE\" \(command) > /dev/full")
    #expect(full.status == 74)
    #expect(full.stderr.contains("write error: No space left on device"))
    let directory = try reviews.run([command, "/tmp"])
    #expect(directory.status == 66)
    #expect(directory.stderr.contains("/tmp: Is a directory"))
    let closed = try reviews.shell(
      "yes '{\"content\":\"가\"}' | head -c 3000000 | \"$EXE\" \(command) 2>/dev/null | head -c 10 > /dev/null; echo \"${PIPESTATUS[2]}\""
    )
    #expect(closed.text == "0\n")
  }

  static let badUsage: [(String, [String])] = [
    ("hangul-compose", ["--keys"]), ("hangul-compose", ["--keys", "dvorak"]),
    ("hangul-compose", ["--format", "xml"]),
    ("hangul-compose", ["--backspace", "all"]), ("hangul-compose", ["--max-line", "-1"]),
    ("hangul-compose", ["--max-line", "1T"]), ("hangul-compose", ["--stats-format", "yaml"]),
    ("hangul-compose", ["--unknown"]), ("hangul-compose", ["-x"]),
    ("hangul-decompose", ["--to", "romaja"]),
    ("hangul-decompose", ["--to"]), ("hangul-decompose", ["--nfc"]),
    ("hangul-reviews", ["import", "--content", "json"]),
    ("hangul-reviews", ["import", "--time-zone", "Nowhere/Land"]),
    ("hangul-reviews", ["export", "--to", "xml"]),
    ("hangul-reviews", ["export", "--decompose", "hanja"]),
    ("hangul-reviews", ["export", "--locale", "ko_KR.bogus!"]),
    ("hangul-reviews", ["export", "--now", "2022-01-01T00:00:00Z"]), ("hangul-reviews", ["bogus"]),
  ]

  @Test(
    "every bad option and value exits 64 with a message that says what to do", arguments: badUsage)
  func usage(program: String, arguments: [String]) throws {
    let result = try Executable(program).run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("\(program): "))
    #expect(result.stderr.hasSuffix(" --help'.\n"))
    #expect(result.stdout.isEmpty)
  }
}
