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
