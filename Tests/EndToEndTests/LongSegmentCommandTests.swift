import Foundation
import HangulKit
import Testing

/// The three programs that write a normalization form, on a letter with
/// thousands of combining marks: exactly what ICU writes for the whole run
/// (`hangul-normalize`, `hangul-compose --nfc`, `hangul-decompose --to nfd`),
/// and a run longer than they hold reported with status 65.
@Suite("Long runs of combining marks end to end")
struct LongSegmentCommandTests {
  /// `x`, a letter with `count` marks alternating classes 230 and 220, a newline.
  static func text(marks count: Int) -> Data {
    var text = "x a"
    for index in 0..<count { text += index % 2 == 0 ? "\u{301}" : "\u{316}" }
    return Data((text + " y\n").utf8)
  }

  static func icu(_ form: ICUNormalizer.Form, _ data: Data) throws -> Data {
    var output: [UInt8] = []
    let normalizer = try ICUNormalizer(form)
    Array(data).withUnsafeBufferPointer { normalizer.normalize(utf8: $0, into: &output) }
    return Data(output)
  }

  @Test(
    "6,000 marks on one letter: byte for byte ICU's, and --verify agrees",
    arguments: [
      ("hangul-normalize", ["--form", "nfc"], ICUNormalizer.Form.nfc),
      ("hangul-normalize", ["--form", "nfd"], .nfd),
      ("hangul-normalize", ["--form", "nfkc"], .nfkc),
      ("hangul-normalize", ["--form", "nfkd"], .nfkd), ("hangul-compose", ["--nfc"], .nfc),
      ("hangul-decompose", ["--to", "nfd"], .nfd),
    ])
  func equalsICU(program: String, arguments: [String], form: ICUNormalizer.Form) throws {
    let input = Self.text(marks: 6_000)
    let expected = try Self.icu(form, input)
    let result = try Executable(program).run(arguments + ["--verify"], input: input)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout == expected)
  }

  @Test(
    "a run longer than 1 MiB is reported, status 65, in bounded memory",
    arguments: [
      ("hangul-normalize", ["--form", "nfd"], "NFD"), ("hangul-compose", ["--nfc"], "NFC"),
      ("hangul-decompose", ["--to", "nfd"], "NFD"),
    ])
  func overlong(program: String, arguments: [String], form: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("marks.txt")
    // 4 MB with no boundary: more than 1 MiB and a read of 512 KiB.
    try Self.text(marks: 2_000_000).write(to: file)
    let peak = folder.appendingPathComponent("peak").path
    let result = try Executable(program).shell(
      "/usr/bin/time -o '\(peak)' -f %M \"$EXE\" \(arguments.joined(separator: " ")) "
        + "< '\(file.path)' | wc -c")
    #expect(
      result.stderr
        == "\(program): (standard input): a run of more than 1 MiB with no normalization "
        + "boundary (combining marks on one character) was normalized in pieces: it is not "
        + "\(form) as a whole\n")
    // Everything is written (NFC joins a and U+0301 into á).
    let written = Int(result.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    #expect(written == (form == "NFC" ? 4_000_005 : 4_000_006))
    let kilobytes = Int(
      (try String(contentsOfFile: peak, encoding: .utf8)).split(separator: "\n").last ?? "")
    #expect((kilobytes ?? .max) < 64 * 1024, "peak \(kilobytes ?? -1) KiB")
  }

  @Test("hangul-normalize --verify says where the run is")
  func overlongVerified() throws {
    let input = Data("first\n".utf8) + Self.text(marks: 2_000_000)
    let result = try Executable("hangul-normalize").run(["--verify"], input: input)
    #expect(result.status == 65)
    // The run as the filter reports it, then where --verify finds it (and
    // the places where each piece goes on).
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("hangul-normalize: (standard input): a run of more") == true)
    #expect(
      lines.dropFirst().first?.hasPrefix("hangul-normalize: (standard input):2:3: not NFC") == true)
  }
}
