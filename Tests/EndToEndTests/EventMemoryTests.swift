import Foundation
import Testing

/// `hangul-compose --format events` on lines that cannot be events, on an
/// object whose members no event uses, and on many documents: memory stays
/// bounded (peak RSS of the program as wait4(2) reports it, through
/// /usr/bin/time), each line that is not an event is reported as soon as
/// that is clear, and the lines after it are read.
@Suite("Event logs in bounded memory")
struct EventMemoryTests {
  let compose = Executable("hangul-compose")

  /// Runs `hangul-compose ARGUMENTS` on what the shell command `input`
  /// writes; returns the result and the peak resident memory in KiB.
  func run(_ input: String, _ arguments: String = "--format events") throws -> (
    Executable.Result, Int
  ) {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let peak = folder.appendingPathComponent("peak").path
    let result = try compose.shell(
      "{ \(input); } | /usr/bin/time -o '\(peak)' -f %M \"$EXE\" \(arguments)")
    let measured = try String(contentsOfFile: peak, encoding: .utf8)
    let kilobytes =
      measured.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
      ?? .max
    return (result, kilobytes)
  }

  /// The peak allowed: the program's own 17–18 MiB (debug build) and room;
  /// the lines below are 32 to 64 MB, and before they were held whole.
  static let bound = 28 * 1024

  /// 64 MB of one byte, as a shell command.
  static func bytes(_ octal: String, megabytes: Int = 64) -> String {
    "head -c \(megabytes)000000 /dev/zero" + (octal == "0" ? "" : " | tr '\\0' '\\\(octal)'")
  }

  @Test("a 64 MB line of garbage is rejected at its first byte and skipped unkept")
  func garbageLine() throws {
    let (result, peak) = try run(
      #"printf '{"key":"ㄱ"}\n'; "# + Self.bytes("170") + #"; printf '\n{"key":"ㅏ"}\n'"#)
    #expect(result.text == "가\n")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "hangul-compose: (standard input):2:1: not valid JSON: unexpected character\n")
    #expect(peak < Self.bound, "peak \(peak) KiB")
  }

  @Test("NUL bytes with no newline (as /dev/zero): one message, memory does not grow")
  func endlessZeros() throws {
    let (result, peak) = try run(Self.bytes("0"))
    #expect(result.text == "")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "hangul-compose: (standard input):1:1: not valid JSON: unexpected character\n")
    #expect(peak < Self.bound, "peak \(peak) KiB")
  }

  @Test("an event with a 32 MB member no event uses is taken; only its members are kept")
  func unusedMember() throws {
    let (result, peak) = try run(
      #"printf '{"key":"ㄱ","note":"'; "# + Self.bytes("141", megabytes: 32)
        + #"; printf '","t":5}\n{"key":"ㅏ","t":6}\n'"#)
    #expect(result.text == "가\n")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(peak < Self.bound, "peak \(peak) KiB")
  }

  @Test("a \"text\" past --max-line is rejected at its column once it is past, not held")
  func longText() throws {
    let (result, peak) = try run(
      #"printf '{"key":"ㄱ"}\n{"t":1,  "text":"'; "# + Self.bytes("141", megabytes: 32)
        + #"; printf '"}\n{"key":"ㅏ"}\n'"#)
    #expect(result.text == "가\n")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "hangul-compose: (standard input):2:17: \"text\" is longer than --max-line allows "
        + "(1048576 bytes)\n")
    #expect(peak < Self.bound, "peak \(peak) KiB")
    // With room, the same text is typed.
    let (roomy, _) = try run(
      #"printf '{"text":"'; "# + Self.bytes("141", megabytes: 2) + #"; printf '"}\n'"#,
      "--format events --max-line 4M")
    #expect(roomy.status == 0)
    #expect(roomy.stdout.count == 2_000_001)
  }

  @Test("without --stats, documents already written are not kept: 200,000 of them in flat memory")
  func manyDocuments() throws {
    let (result, peak) = try run(#"seq 200000 | sed 's/.*/{"doc":&,"key":"a","t":&}/'"#)
    #expect(result.status == 0)
    #expect(result.stdout.count == 400_000)
    #expect(result.stderr == "")
    #expect(peak < Self.bound, "peak \(peak) KiB")
  }
}
