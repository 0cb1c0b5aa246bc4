import Foundation
import Testing

/// `--jobs N` (hangul-compose(1)): the output, the messages and the status are those
/// of `--jobs 1`.
@Suite("--jobs end to end")
struct JobsCommandTests {
  /// Korean prose: the shared corpus when present, else a sample repeated.
  static func prose() throws -> Data {
    // Beside the clone, as bench/run.py finds it (not at one machine's path).
    let corpus = repositoryRoot.appendingPathComponent("../shared/corpus/ko-prose.txt")
    if let data = try? Data(contentsOf: corpus) {
      // About 1.5 MB, whole lines: several pieces of 2 MiB over the runs' files.
      let prefix = data.prefix(1_500_000)
      return prefix.prefix(through: prefix.lastIndex(of: 0x0A) ?? prefix.startIndex)
    }
    let sample = try Data(contentsOf: repositoryFile("samples/qwerty-keys.expected.txt"))
    return Data(Array(repeating: sample, count: 8_000).joined())
  }

  /// Writes the inputs of the runs: the prose with a byte that is not UTF-8
  /// in its middle, and the prose as 2-set jamo and QWERTY keys.
  static func inputs(in folder: URL) throws -> (text: URL, jamo: URL, qwerty: URL) {
    var text = try prose()
    text.insert(contentsOf: [0xC7, 0xD1, 0x0A], at: text.count / 2)
    let textURL = folder.appendingPathComponent("prose.txt")
    try text.write(to: textURL)
    let jamo = try Executable("hangul-decompose").run([textURL.path]).stdout
    let jamoURL = folder.appendingPathComponent("prose.keys")
    try jamo.write(to: jamoURL)
    let qwerty = try Executable("hangul-decompose").run(["--to", "qwerty", textURL.path]).stdout
    let qwertyURL = folder.appendingPathComponent("prose.qwerty")
    try qwerty.write(to: qwertyURL)
    return (textURL, jamoURL, qwertyURL)
  }

  enum Input: String, CaseIterable { case text, jamo, qwerty }

  static let runs: [(program: String, arguments: [String], input: Input)] = [
    ("hangul-compose", [], .jamo),
    ("hangul-compose", ["--keys", "qwerty"], .qwerty),
    ("hangul-compose", ["--nfc", "--max-line", "200"], .jamo),
    ("hangul-compose", ["--stats"], .jamo),
    ("hangul-compose", ["--stats", "--stats-format", "json", "--max-line", "300"], .jamo),
    ("hangul-compose", ["--verify", "--keys", "qwerty"], .qwerty),
    ("hangul-compose", ["--verify", "--nfc", "--stats"], .jamo),
    ("hangul-decompose", [], .text),
    ("hangul-decompose", ["--to", "qwerty"], .text),
    ("hangul-decompose", ["--to", "nfd"], .text),
    ("hangul-decompose", ["--to", "qwerty", "--keyboard", "3f"], .text),
    ("hangul-decompose", ["--verify"], .text),
    ("hangul-decompose", ["--to", "nfd", "--verify"], .text),
    ("hangul-decompose", ["--stats"], .text),
    ("hangul-decompose", ["--stats", "--verify", "--to", "qwerty"], .text),
    ("hangul-decompose", ["--stats", "--to", "nfd", "--keyboard", "3f"], .text),
    ("hangul-decompose", ["--stats", "--keyboard", "cheonjiin"], .text),
    ("hangul-normalize", ["--form", "nfd"], .text),
    ("hangul-normalize", ["--form", "nfkc"], .jamo),
    ("hangul-normalize", ["-z"], .text),
    ("hangul-normalize", ["--verify"], .text),
    ("hangul-normalize", ["--verify", "--form", "nfd", "-z"], .text),
  ]

  /// The runs a plain `swift test` makes: one of each program and input, and
  /// the options that change how pieces are merged (--stats, --verify, -z);
  /// HANGUL_LONG_TESTS=1 makes all of them.
  static let sampledRuns: [Int] = longRuns ? Array(runs.indices) : [1, 6, 8, 14, 19, 21]

  /// The inputs, written once for all runs (three debug-build passes over 3 MB).
  static let sharedInputs: Result<(text: URL, jamo: URL, qwerty: URL), any Error> = Result {
    try inputs(in: temporaryFolder())
  }

  @Test("--jobs 2, 4 and 0 write what --jobs 1 writes", arguments: sampledRuns)
  func sameAsOneJob(run index: Int) throws {
    let (program, arguments, input) = Self.runs[index]
    let files = try Self.sharedInputs.get()
    let path =
      switch input {
      case .text: files.text.path
      case .jamo: files.jamo.path
      case .qwerty: files.qwerty.path
      }
    let executable = Executable(program)
    // The file twice: pieces of two files, the second file's lines counted on from 1.
    let single = try executable.run(arguments + ["--jobs", "1", path, path])
    #expect(!single.stdout.isEmpty)
    #expect(single.stderr.contains(": warning: byte 0x"))
    for jobs in ["2", "4", "0"] {
      let parallel = try executable.run(arguments + ["--jobs", jobs, path, path])
      #expect(parallel.status == single.status, "\(program) \(arguments) --jobs \(jobs)")
      #expect(parallel.stdout == single.stdout, "\(program) \(arguments) --jobs \(jobs)")
      #expect(parallel.stderr == single.stderr, "\(program) \(arguments) --jobs \(jobs)")
    }
  }

  /// An event log of about `size` bytes (past 2 MiB: two pieces) in documents named on
  /// every line or on the first only, with errors spread over it: lines that
  /// are not JSON, unknown keys, times going back, a byte order mark.
  static func eventLog(
    seed: UInt64, firstTime: Int, size: Int, keys: [String] = twoSetEventKeys
  ) -> Data {
    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var time = firstTime
    var log = "\u{FEFF}"
    var document = 0
    while log.utf8.count < size {
      document += 1
      let name = document % 3 == 0 ? "\"d\(document)\"" : "\(document)"
      for index in 0..<(document % 13 == 0 ? 3000 : 5 + next(80)) {
        time += next(300)
        var line = "{\"t\":\(time),\"key\":\"\(keys[next(keys.count)])\""
        if document % 2 == 0 || index == 0 { line += ",\"doc\":\(name)" }
        line += "}"
        switch next(2000) {
        case 0: line = "{\"key\": broken"
        case 1: line = "{\"key\":\"Esc\"}"
        case 2: line = "{\"t\":\(time - 5000),\"key\":\"ㄱ\"}"
        case 3: line = "\u{FEFF}" + line
        default: break
        }
        log += line + "\n"
      }
    }
    return Data(log.utf8)
  }

  static let twoSetEventKeys =
    Array("ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎㅏㅑㅓㅕㅗㅛㅜㅠㅡㅣㅐㅔ").map(String.init)
    + ["Backspace", "Enter", "ArrowLeft", "Home", "End", "HangulMode", "Shift", "Delete"]

  static let eventRuns: [[String]] = [
    ["--stats"],
    ["--output", "jsonl", "--stats", "--stats-format", "json"],
    ["--verify", "--nfc"],
  ]

  @Test(
    "--format events: --jobs 2, 4 and 0 write and report what --jobs 1 does", arguments: eventRuns)
  func eventsSameAsOneJob(arguments: [String]) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // The second log goes on in time; the third goes back (its lines are errors).
    var paths: [String] = []
    for (index, (firstTime, size)) in [
      (1_000, 2_500_000), (1_000_000_000, 300_000), (5_000, 100_000),
    ]
    .enumerated() {
      let url = folder.appendingPathComponent("log\(index).jsonl")
      try Self.eventLog(seed: UInt64(index + 1), firstTime: firstTime, size: size).write(to: url)
      paths.append(url.path)
    }
    let single = try Self.expectSameAsOneJob(["--format", "events"] + arguments, paths)
    #expect(single.status == 65)
    #expect(single.stderr.contains("more errors not shown"))
  }

  /// Runs `hangul-compose` with `command` on `paths` with `--jobs 1`, then
  /// 2, 4 and 0, expects the same stdout, stderr and status, and returns the
  /// `--jobs 1` run.
  static func expectSameAsOneJob(_ command: [String], _ paths: [String]) throws -> Executable.Result
  {
    let executable = Executable("hangul-compose")
    let single = try executable.run(command + ["--jobs", "1"] + paths)
    for jobs in ["2", "4", "0"] {
      let parallel = try executable.run(command + ["--jobs", jobs] + paths)
      #expect(parallel.status == single.status, "\(command) --jobs \(jobs)")
      #expect(parallel.stdout == single.stdout, "\(command) --jobs \(jobs)")
      #expect(parallel.stderr == single.stderr, "\(command) --jobs \(jobs)")
    }
    return single
  }

  @Test("--format events on a phone keypad: --jobs 2, 4 and 0 write and report what --jobs 1 does")
  func keypadEventsSameAsOneJob() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let keys = Array("ㅣㆍㅡㄱㄴㄷㅂㅅㅈㅇ").map(String.init) + ["Next", "Backspace", "Enter"]
    var paths: [String] = []
    for (index, size) in [2_500_000, 200_000].enumerated() {
      let url = folder.appendingPathComponent("keypad\(index).jsonl")
      try Self.eventLog(seed: UInt64(index + 7), firstTime: 1_000, size: size, keys: keys)
        .write(to: url)
      paths.append(url.path)
    }
    let single = try Self.expectSameAsOneJob(
      ["--format", "events", "--keyboard", "cheonjiin", "--multitap-timeout", "150", "--stats"],
      paths)
    #expect(single.stdout.count > 100_000)
    #expect(single.stderr.contains("KSPC"))
  }

  /// A text log typed on 천지인 of about `size` bytes: its key labels and
  /// E.161 keys, Backspaces (also at line starts), the next key U+200C, the
  /// literal prefix U+2060 (before a newline too), text and newlines.
  static func keypadTextLog(seed: UInt64, size: Int) -> Data {
    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let keys =
      Array("ㅣㆍㅡㄱㄴㄷㅂㅅㅈㅇ1234567890*#").map(String.init)
      + ["\u{8}", "\u{200C}", "\u{2060}", "\u{2060}\n", " ", "가", "\u{1161}", "ㅋ", "ㅘ", "\n"]
    var log: [UInt8] = []
    while log.count < size {
      for _ in 0..<(1 + next(60)) { log += Array(keys[next(keys.count)].utf8) }
      if next(4) == 0 { log += Array("\u{8}\u{8}".utf8) }
      log.append(0x0A)
      if next(5) == 0 { log += Array("\u{8}".utf8) }  // at a line start: deletes nothing
    }
    return Data(log)
  }

  /// The runs a plain `swift test` makes; HANGUL_LONG_TESTS=1 makes all.
  static let keypadTextRuns: [[String]] = Array(
    [
      ["--keyboard", "cheonjiin", "--keys", "qwerty", "--stats", "--verify"],
      ["--keyboard", "naratgeul", "--stats", "--stats-format", "json", "--max-line", "40"],
      ["--keyboard", "cheonjiin"],
    ].prefix(longRuns ? 3 : 1))

  @Test(
    "text logs on a phone keypad: --jobs 2, 4 and 0 write and report what --jobs 1 does",
    arguments: keypadTextRuns)
  func keypadTextSameAsOneJob(arguments: [String]) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    for (index, size) in [2_300_000, 100_000].enumerated() {
      let url = folder.appendingPathComponent("keypad\(index).txt")
      try Self.keypadTextLog(seed: UInt64(index + 3), size: size).write(to: url)
      paths.append(url.path)
    }
    let single = try Self.expectSameAsOneJob(arguments, paths)
    #expect(single.status == 0)
    #expect(single.stdout.count > 1_000_000)
  }

  /// Whether `strace` can follow a child here (it counts the threads a run starts).
  static let tracesThreads: Bool = {
    guard let result = try? Executable("hangul-compose").shell("strace -f -qq -o /dev/null true")
    else { return false }
    return result.status == 0
  }()

  /// The threads `hangul-compose` starts with `arguments` (clone calls, under strace).
  static func threadsStarted(_ arguments: String) throws -> Int {
    let trace = try temporaryFolder().appendingPathComponent("trace")
    let result = try Executable("hangul-compose").shell(
      "strace -f -qq -e trace=clone,clone3 -o '\(trace.path)' \"$EXE\" \(arguments) > /dev/null")
    #expect(result.status == 0)
    let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
    return lines.count { $0.contains("clone") && !$0.contains("= -") }
  }

  @Test(
    "a phone keypad's text log runs on more threads under --jobs 2 than --jobs 1",
    .enabled(if: tracesThreads))
  func keypadTextRunsInParallel() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("keypad.txt")
    try Self.keypadTextLog(seed: 11, size: 2_300_000).write(to: url)
    let one = try Self.threadsStarted("--keyboard cheonjiin --jobs 1 '\(url.path)'")
    let two = try Self.threadsStarted("--keyboard cheonjiin --jobs 2 '\(url.path)'")
    #expect(two > one, "threads started: --jobs 1 \(one), --jobs 2 \(two)")
  }

  @Test("standard input streams as with --jobs 1")
  func standardInput() throws {
    let result = try Executable("hangul-compose").run(
      ["--jobs", "2", "--keys", "qwerty"], input: Data("dkssud\n".utf8))
    #expect(result.status == 0)
    #expect(result.text == "안녕\n")
  }

  @Test("a negative --jobs is a usage error")
  func negativeJobs() throws {
    let result = try Executable("hangul-normalize").run(["--jobs=-1"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("hangul-normalize: --jobs takes a number of threads"))
  }
}
