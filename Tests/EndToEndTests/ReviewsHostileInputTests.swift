import Foundation
import Testing

/// `hangul-reviews` on input that is broken on purpose or by accident
/// (issue 35): broken records do not swallow the ones after them, garbage
/// and unterminated values cost bounded memory, and messages say what
/// happened without echoing huge values. Peak memory is the child's maximum
/// resident set size, as `/usr/bin/time` reads it from wait4(2).
@Suite("hangul-reviews on hostile input")
struct ReviewsHostileInputTests {
  let reviews = Executable("hangul-reviews")

  /// Whether the long runs (inputs of hundreds of MB) are asked for.
  static let long = ProcessInfo.processInfo.environment["HANGUL_LONG_TESTS"] == "1"

  /// Runs `hangul-reviews ARGUMENTS FILE` with the output thrown away; returns
  /// the peak resident set size in KiB and standard error without the peak.
  func peak(_ arguments: [String], file: URL) throws -> (kib: Int, stderr: String, status: Int32) {
    let quoted = (arguments + [file.path]).map { "'\($0)'" }.joined(separator: " ")
    let result = try reviews.shell(
      "/usr/bin/time -f 'peak %M' \"$EXE\" \(quoted) 2>&1 >/dev/null; exit ${PIPESTATUS[0]}")
    var lines = result.text.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    if lines.last == "" { lines.removeLast() }
    let peakLine = lines.last(where: { $0.hasPrefix("peak ") }) ?? "peak -1"
    lines.removeAll { $0.hasPrefix("peak ") || $0.hasPrefix("Command exited with") }
    let kib = Int(peakLine.dropFirst(5)) ?? .max
    return (kib == -1 ? .max : kib, lines.map { $0 + "\n" }.joined(), result.status)
  }

  /// A file of `size` bytes in a fresh folder, made by `fill`.
  func file(_ name: String, _ fill: (FileHandle) throws -> Void) throws -> (URL, URL) {
    let folder = try temporaryFolder()
    let url = folder.appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    try fill(handle)
    try handle.close()
    return (folder, url)
  }

  // MARK: - A broken record after another value on its line (issue 35 item 4)

  @Test("a broken record after a value on its line does not swallow the 200,000 lines after it")
  func brokenAfterValue() throws {
    let count = Self.long ? 2_000_000 : 200_000
    let (folder, url) = try file("after.jsonl") { handle in
      handle.write(Data("{\"content\":\"z\"} {\n".utf8))
      var block = ""
      for index in 0..<count {
        block += "{\"_id\":\(index),\"content\":\"리뷰 \(index)\"}\n"
        if block.utf8.count > 1 << 20 {
          handle.write(Data(block.utf8))
          block = ""
        }
      }
      handle.write(Data(block.utf8))
    }
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try reviews.run(["import", url.path])
    #expect(result.status == 65)
    #expect(result.text.split(separator: "\n").count == count + 1)
    #expect(
      result.stderr
        == "hangul-reviews: \(url.path):2:1: record 1 rejected: unexpected '{'\n"
        + "hangul-reviews: read \(count + 2) records, imported \(count + 1), rejected 1\n")
    let measured = try peak(["import", "-q"], file: url)
    #expect(measured.kib < 32 * 1024, "peak \(measured.kib) KiB")
  }
}

extension ReviewsHostileInputTests {
  // MARK: - Garbage costs bounded memory (issue 35 item 11)

  struct Garbage: Sendable, CustomStringConvertible {
    var description: String
    /// The file's bytes from `size`.
    var make: @Sendable (Int) -> Data
    /// The reason the first reject gives.
    var reason: String
  }

  static let garbage: [Garbage] = [
    Garbage(
      description: "NUL bytes", make: { Data(count: $0) },
      reason:
        "unexpected end of input (the rest of the input is SIZE NUL bytes, as in a truncated file)"
    ),
    Garbage(
      description: "opening braces", make: { Data(repeating: UInt8(ascii: "{"), count: $0) },
      reason: "unexpected '{'"),
    Garbage(
      description: "opening brackets", make: { Data(repeating: UInt8(ascii: "["), count: $0) },
      reason: "nesting deeper than 512"),
    Garbage(
      description: "random bytes",
      make: { size in
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return Data(
          (0..<size).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
          })
      }, reason: ""),
    Garbage(
      description: "one string",
      make: { Data("\"".utf8) + Data(repeating: UInt8(ascii: "a"), count: $0) + Data("\"".utf8) },
      reason: "not an object but a string"),
    Garbage(
      description: "one number", make: { Data(repeating: UInt8(ascii: "7"), count: $0) },
      reason: "not an object but a number"),
  ]

  @Test("garbage costs bounded memory, and its reject keeps the first 64 KiB", arguments: garbage)
  func boundedGarbage(_ garbage: Garbage) throws {
    let size = Self.long ? 200_000_000 : 8_000_000
    let (folder, url) = try file("garbage") { $0.write(garbage.make(size)) }
    defer { try? FileManager.default.removeItem(at: folder) }
    let rejects = folder.appendingPathComponent("rejects.jsonl")
    let measured = try peak(["import", "--rejects", rejects.path], file: url)
    #expect(measured.kib < 32 * 1024, "peak \(measured.kib) KiB")
    #expect(measured.status == 65)
    let lines = try String(contentsOf: rejects, encoding: .utf8).split(separator: "\n")
    // Each reject holds at most the sample, escaped (\u0000 is six bytes).
    #expect(lines.allSatisfy { $0.utf8.count < 7 * JSONRecordBufferLimit.bytes })
    guard !garbage.reason.isEmpty else { return }
    let reason = garbage.reason.replacingOccurrences(of: "SIZE", with: "\(size)")
    #expect(lines.count == 1)
    #expect(lines.first?.contains("\"reason\":\"\(reason)") == true)
    #expect(lines.first?.hasSuffix(",\"truncated\":true}") == true)
  }

  @Test("an unterminated string of 24 MB costs at most twice its size plus 16 MiB")
  func unterminatedString() throws {
    let size = Self.long ? 200_000_000 : 24_000_000
    let (folder, url) = try file("open.json") { handle in
      handle.write(Data("{\"content\":\"".utf8))
      handle.write(Data(repeating: UInt8(ascii: "a"), count: size))
    }
    defer { try? FileManager.default.removeItem(at: folder) }
    let rejects = folder.appendingPathComponent("rejects.jsonl")
    let measured = try peak(["import", "--rejects", rejects.path], file: url)
    #expect(measured.kib < (2 * size + (16 << 20)) / 1024, "peak \(measured.kib) KiB")
    #expect(
      measured.stderr
        == "hangul-reviews: \(url.path):1:\(size + 13): record 0 rejected: unexpected end of input inside a string\n"
        + "hangul-reviews: read 1 record, imported 0, rejected 1\n")
    let reject = try String(contentsOf: rejects, encoding: .utf8)
    #expect(reject.hasPrefix("{\"index\":0,\"line\":1,\"column\":\(size + 13),"))
    #expect(reject.hasSuffix("aaa\",\"truncated\":true}\n"))
    #expect(reject.utf8.count < 70_000)
  }

  // MARK: - Messages (issue 35 item 18)

  @Test("a file cut short and padded with NUL bytes says where it ends, not U+0000")
  func truncatedFile() throws {
    let input =
      Data("{\"content\":\"a\"}\n{\"content\":\"잘린".utf8) + Data(count: 4096)
    let result = try reviews.run(["import"], input: input)
    #expect(result.text == "{\"content\":\"a\"}\n")
    #expect(
      result.stderr
        == "hangul-reviews: (standard input):2:15: record 1 rejected: unexpected end of input "
        + "inside a string (the rest of the input is 4096 NUL bytes, as in a truncated file)\n"
        + "hangul-reviews: read 2 records, imported 1, rejected 1\n")
    #expect(result.status == 65)
  }
}

/// The sample a reject keeps of a record that cannot be a review.
enum JSONRecordBufferLimit {
  static let bytes = 64 * 1024
}

extension ReviewsHostileInputTests {
  @Test(
    "a long value is cut in messages: its first 40 characters and …",
    arguments: [
      (
        String(repeating: "1", count: 1_000_000),
        String(repeating: "1", count: 40) + "… is not a number of seconds"
      ),
      (
        "\"" + String(repeating: "어", count: 1_000_000) + "\"",
        "\"" + String(repeating: "어", count: 40)
          + "\"… is not a date like 2022-07-21T11:53:58.652Z, 2022-07-23T19:00:00 or 2022-07-23 10:00:00 +0000"
      ),
      ("\"어제\"", "\"어제\" is not a date like 2022-07-21T11:53:58.652Z"),
    ])
  func longValueInMessage(date: String, reason: String) throws {
    let input = "{\"content\":\"a\",\"createdAt\":\(date)}\n"
    let imported = try reviews.run(["import"], input: Data(input.utf8))
    #expect(imported.status == 65)
    #expect(
      imported.stderr.hasPrefix(
        "hangul-reviews: (standard input):1:28: record 0 rejected: createdAt: \(reason)"))
    #expect(imported.stderr.utf8.count < 400)
    let exported = try reviews.run(["export", "--relative-time"], input: Data(input.utf8))
    #expect(exported.stderr.contains("record 0 skipped: createdAt: \(reason)"))
    #expect(exported.stderr.utf8.count < 400)
  }

  @Test("a long member name that cannot be a column is cut in the message")
  func longColumnName() throws {
    let name = String(repeating: "이름", count: 50_000) + "\\u0000"
    let input = "{\"content\":\"a\",\"\(name)\":1}\n"
    let result = try reviews.run(["export", "--to", "csv"], input: Data(input.utf8))
    #expect(result.status == 65)
    #expect(
      result.stderr.contains(
        "record 0 skipped: the member name \"" + String(repeating: "이름", count: 20)
          + "\"… holds U+0000; name the columns with --columns\n"))
    #expect(result.stderr.utf8.count < 400)
  }
}
