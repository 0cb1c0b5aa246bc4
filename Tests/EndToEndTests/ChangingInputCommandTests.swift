import Foundation
import Testing

/// Files that change while the programs read them, FIFOs, and what `--jobs`
/// costs (issue 35, items 7 to 10): a regular file is read up to its size
/// at open, and one that shrinks or grows meanwhile is an error naming it
/// (74), with `--jobs 1` and `--jobs N` alike; a FIFO is opened once and runs
/// as `--jobs 1`; threads and memory stay bounded whatever the input.
@Suite("Changing inputs, FIFOs and --jobs bounds end to end")
struct ChangingInputCommandTests {
  /// `size` bytes of Korean prose lines (no NUL byte).
  static func prose(size: Int) throws -> Data {
    let unit = try JobsCommandTests.prose()
    var data = Data()
    data.reserveCapacity(size + unit.count)
    while data.count < size { data.append(unit) }
    return data.prefix(size)
  }

  /// Runs `command` (with `$EXE`, `$FILE`, `$OUT`) in bash with `FILE`
  /// holding `input`: the program writes into a pipe whose reader, once the
  /// first byte came (the program runs, the file is open and its first piece
  /// read), runs `change` on `$FILE`, then saves the rest in `$OUT`; the
  /// program's writes block until then, so the change comes before the end
  /// of the file is read. Returns the result, with the saved output.
  static func changing(
    _ program: String, _ command: String, input: Data, change: String
  ) throws -> (result: Executable.Result, output: Data) {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("in.txt")
    try input.write(to: file)
    let out = folder.appendingPathComponent("out")
    let result = try Executable(program).shell(
      "FILE='\(file.path)'; OUT='\(out.path)'; "
        + "{ \(command); echo \"status $?\" >&2; } "
        + "| { head -c 1 >\"$OUT\"; \(change); cat >>\"$OUT\"; }")
    return (result, (try? Data(contentsOf: out)) ?? Data())
  }

  /// 16 MiB and 2,000 bytes: more pieces of 2 MiB than --jobs 2 has in
  /// flight (4), and an end 2,000 bytes into a page, so that cutting 100
  /// bytes leaves the last page mapped (its end then reads as zeros).
  static let changedSize = 16 * 1024 * 1024 + 2_000

  @Test(
    "a file that shrinks or grows while read: status 74, named, no byte that was not in it",
    arguments: ["--jobs 1 \"$FILE\"", "--jobs 1 < \"$FILE\"", "--jobs 2 \"$FILE\""],
    ["truncate -s -100 \"$FILE\"", "printf '%01000d' 0 >> \"$FILE\""])
  func changedWhileRead(input: String, change: String) throws {
    let text = try Self.prose(size: Self.changedSize)
    let (result, output) = try Self.changing(
      "hangul-normalize", "timeout -s KILL 120 \"$EXE\" --form nfd \(input)", input: text,
      change: change)
    let name = input.contains("<") ? "(standard input)" : "FILE"
    let message = result.stderr.replacingOccurrences(
      of: #"/[^ ]*/in\.txt"#, with: "FILE", options: .regularExpression)
    #expect(
      message == "hangul-normalize: \(name): the file changed while it was read\nstatus 74\n",
      "\(input), \(change)")
    #expect(!output.contains(0), "\(input), \(change): NUL bytes that were never in the file")
  }

  /// `hangul-reviews import --jobs N` of a file truncated while read (log
  /// rotation) read on and on at the old size: 100 % CPU, forever.
  @Test("hangul-reviews import --jobs 2 of a file truncated while read ends with 74")
  func reviewsTruncatedWhileRead() throws {
    let lines = try ReviewsJobsTests.proseLines().map {
      $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
    var text = ""
    var index = 0
    while text.utf8.count < 16_000_000 {
      text += "{\"_id\":\"\(index)\",\"content\":\"\(lines[index % lines.count])\"}\n"
      index += 1
    }
    let (result, _) = try Self.changing(
      "hangul-reviews", "timeout -s KILL 120 \"$EXE\" import -q --jobs 2 \"$FILE\"",
      input: Data(text.utf8), change: "truncate -s 12000000 \"$FILE\"")
    let message = result.stderr.replacingOccurrences(
      of: #"/[^ ]*/in\.txt"#, with: "FILE", options: .regularExpression)
    #expect(message == "hangul-reviews: FILE: the file changed while it was read\nstatus 74\n")
  }

  /// Runs `command` in bash in a fresh folder with a FIFO `fifo` in it,
  /// after starting a writer of `input` repeated 20,000 times into it: more
  /// than the FIFO holds, so that the writer is still writing when the
  /// program opens it, and a program that opens it, closes it and opens it
  /// again always loses what was written (the writer gets SIGPIPE) and then
  /// waits for a writer that never comes (killed after 60 s).
  static func withFIFO(_ program: String, input: String, _ command: String) throws
    -> Executable.Result
  {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(String(repeating: input, count: 20_000).utf8).write(
      to: folder.appendingPathComponent("input"))
    try Data("ㄱㅏ\n".utf8).write(to: folder.appendingPathComponent("regular.txt"))
    // SIGKILL: the test process blocks SIGTERM, and its children inherit that.
    return try Executable(program).shell(
      "cd '\(folder.path)' && mkfifo fifo && { cat input > fifo & } && writer=$! "
        + "&& timeout -s KILL 60 \(command); status=$?; kill -9 $writer 2>/dev/null; "
        + "wait; echo \"status $status\" >&2")
  }

  @Test(
    "a FIFO with --jobs 2 is opened once and read whole, as with --jobs 1",
    arguments: [
      ("hangul-compose", "ㄱㅏㄴ\n", "\"$EXE\" --jobs 2 fifo", "", "간\n"),
      ("hangul-compose", "ㄱㅏㄴ\n", "\"$EXE\" --jobs 2 regular.txt fifo", "가\n", "간\n"),
      ("hangul-normalize", "가\n", "\"$EXE\" --form nfd --jobs 0 fifo", "", "\u{1100}\u{1161}\n"),
      ("hangul-decompose", "가\n", "\"$EXE\" --jobs 2 fifo", "", "ㄱㅏ\n"),
      (
        "hangul-reviews", "{\"content\":\"가\"}\n", "\"$EXE\" import -q --jobs 2 fifo", "",
        "{\"content\":\"가\"}\n"
      ),
    ])
  func fifo(program: String, input: String, command: String, first: String, each: String) throws {
    let result = try Self.withFIFO(program, input: input, command)
    #expect(result.stderr == "status 0\n", "\(command)")
    #expect(result.text == first + String(repeating: each, count: 20_000), "\(command)")
  }

  /// Runs `command` with bash, its output thrown away; returns its status
  /// and the peak resident memory, in KiB, of it and the processes it
  /// waited for, as GNU time(1) reads them from wait4(2). (A child spawned
  /// by this process itself would count this process's memory: the kernel
  /// keeps the peak of the memory a process had before it called exec.)
  static func peakMemory(_ executable: Executable, _ command: String) throws -> (
    status: Int32, kilobytes: Int
  ) {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let peak = folder.appendingPathComponent("peak")
    let script = folder.appendingPathComponent("command")
    try Data(command.utf8).write(to: script)
    let result = try executable.shell(
      "/usr/bin/time -f %M -o '\(peak.path)' bash '\(script.path)' >/dev/null 2>&1")
    let text = try String(contentsOf: peak, encoding: .utf8)
    // time(1) writes "Command exited with non-zero status N" before the peak.
    let kilobytes = text.split(separator: "\n").last.flatMap { Int($0) } ?? .max
    return (result.status, kilobytes)
  }

  /// Whether the long runs are asked for (CI sets it).
  static let longTests = ProcessInfo.processInfo.environment["HANGUL_LONG_TESTS"] == "1"

  @Test(
    "--jobs 2 on a file with no line (record) end holds no more than a job's share of it",
    arguments: [
      ("hangul-normalize", "--form nfd", UInt8(ascii: " ")),
      ("hangul-normalize", "-z", UInt8(ascii: "\n")),
      ("hangul-decompose", "--to nfd", UInt8(ascii: " ")),
      ("hangul-compose", "", UInt8(ascii: " ")),
    ])
  func noLineEnd(program: String, flags: String, newlineBecomes: UInt8) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("in.txt")
    var text = try Self.prose(size: Self.longTests ? 300_000_000 : 24_000_000)
    text.withUnsafeMutableBytes { bytes in
      for index in bytes.indices where bytes[index] == 0x0A { bytes[index] = newlineBecomes }
    }
    try text.write(to: file)
    let executable = Executable(program)
    let single = try Self.peakMemory(executable, "\"$EXE\" \(flags) --jobs 1 '\(file.path)'")
    let double = try Self.peakMemory(executable, "\"$EXE\" \(flags) --jobs 2 '\(file.path)'")
    #expect(single.status == 0)
    #expect(double.status == 0)
    // 16 MiB a job, over what one thread needs; held whole it was 4 to 6 times the file.
    #expect(
      double.kilobytes < single.kilobytes + 2 * 16 * 1024,
      "\(program) \(flags): --jobs 1 peak \(single.kilobytes) KiB, --jobs 2 \(double.kilobytes)")
    // The same bytes as one thread.
    let one = try executable.shell("\"$EXE\" \(flags) --jobs 1 '\(file.path)' | cksum")
    let two = try executable.shell("\"$EXE\" \(flags) --jobs 2 '\(file.path)' | cksum")
    #expect(one.text == two.text)
  }

  @Test(
    "--jobs of any size runs no more threads than pieces or processors",
    arguments: ["9223372036854775807", "100000", "0", "3"])
  func hugeJobs(jobs: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("in.txt")
    try Data("ㄱㅏ\n".utf8).write(to: file)
    let compose = Executable("hangul-compose")
    let result = try compose.run(["--jobs", jobs, file.path])
    #expect(result.status == 0)
    #expect(result.text == "가\n")
    #expect(result.stderr.isEmpty)
    let measured = try Self.peakMemory(
      compose, "timeout -s KILL 60 \"$EXE\" --jobs \(jobs) '\(file.path)' '\(file.path)'")
    #expect(measured.status == 0)
    let single = try Self.peakMemory(compose, "\"$EXE\" --jobs 1 '\(file.path)'")
    #expect(measured.kilobytes < single.kilobytes + 8 * 1024, "--jobs \(jobs)")
  }
}
