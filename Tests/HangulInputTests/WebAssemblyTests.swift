import Foundation
import HangulInput
import TestSupport
import Testing

/// The WebAssembly build agrees with the native one: tools/embedded/build.sh
/// compiles HangulInput in Embedded Swift and links its C interface into
/// .build/embedded/hangul-input.wasm; tools/embedded/drive-wasm.py runs it
/// with the wasmtime package (in the venv .build/embedded/venv that .ci/run
/// makes) on key strings of every built-in keyboard under several options,
/// and every call's result, edit, commit and preedit must be the native
/// context's. 100 key strings per keyboard and option set, all 3,000 with
/// HANGUL_LONG_TESTS=1. Without the build or the venv the test is skipped,
/// saying so.
@Suite("WebAssembly build")
struct WebAssemblyTests {
  static let folder = repositoryRoot.appendingPathComponent(".build/embedded")
  static let wasm = folder.appendingPathComponent("hangul-input.wasm")
  static let python = folder.appendingPathComponent("venv/bin/python3")
  static let driver = repositoryRoot.appendingPathComponent("tools/embedded/drive-wasm.py")

  static var isAvailable: Bool {
    FileManager.default.fileExists(atPath: wasm.path)
      && FileManager.default.isExecutableFile(atPath: python.path)
  }

  static let skipReason: Comment =
    "needs .build/embedded/hangul-input.wasm (tools/embedded/build.sh) and the venv .build/embedded/venv with wasmtime (python3 -m venv .build/embedded/venv && .build/embedded/venv/bin/pip install wasmtime); .ci/run makes both"

  /// One context of the script: a keyboard, hangul_input.h's option flags,
  /// a multi-tap timeout (negative: none), and its key strings.
  struct Run {
    var keyboard: String
    var flags: UInt32
    var timeout: Double
    var strings: [String]

    var options: ComposerOptions {
      ComposerOptions(
        doubleStroke: flags & 1 != 0, bareClusters: flags & 2 == 0,
        extendedVowels: flags & 4 != 0, backspace: flags & 8 != 0 ? .keystroke : .jamo,
        autoReorder: flags & 16 != 0)
    }
  }

  @Test(
    "hangul-input.wasm says what the native context says, call by call",
    .enabled(if: isAvailable, skipReason))
  func agreement() throws {
    let count = ProcessInfo.processInfo.environment["HANGUL_LONG_TESTS"] == "1" ? 3_000 : 100
    var runs: [Run] = []
    for id in ["2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn"] {
      let strings = Array(try libhangulKeyStrings(id).prefix(count))
      for flags: UInt32 in [0, 16, 1, 2, 8, 4 | 8 | 16] {
        runs.append(Run(keyboard: id, flags: flags, timeout: -1, strings: strings))
      }
    }
    var generator = SeededGenerator(seed: 5)
    let presses = Array("1234567890*#1234567890*#ㄱㅋㆍㅏ\u{8}\u{8} a".unicodeScalars)
    let keypadStrings = (0..<count).map { _ in
      String(
        String.UnicodeScalarView(
          (0..<(1 + generator.below(20))).map { _ in presses[generator.below(presses.count)] }))
    }
    for id in ["cheonjiin", "naratgeul", "sky2"] {
      for timeout in [-1.0, 500] {
        runs.append(Run(keyboard: id, flags: 0, timeout: timeout, strings: keypadStrings))
      }
    }
    var script = ""
    var native = ""
    for run in runs {
      let header = "\u{1}\(run.keyboard) \(run.flags) \(run.timeout)\n"
      script += header
      native += header
      native += steps(of: run)
      for string in run.strings { script += string + "\n" }
    }
    let wasm = try drive(script)
    let ours = native.split(separator: "\n", omittingEmptySubsequences: false)
    let theirs = wasm.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(ours.count == theirs.count)
    #expect(ours.count > runs.count * 500)
    var context = ""
    var mismatches = 0
    for (line, other) in zip(ours, theirs) {
      if line.hasPrefix("\u{1}") { context = String(line.dropFirst()) }
      guard line != other else { continue }
      mismatches += 1
      if mismatches <= 5 {
        Issue.record("\(context): native \(line.debugDescription), wasm \(other.debugDescription)")
      }
    }
    #expect(mismatches == 0)
  }

  /// What drive-wasm.py writes for `run`, from the native context.
  func steps(of run: Run) -> String {
    var context = HangulInputContext(
      keyboard: Keyboard(builtIn: run.keyboard) ?? .twoSet, options: run.options,
      multitapTimeout: run.timeout < 0 ? nil : run.timeout)
    var text = ""
    func report(_ result: String) {
      text +=
        "\(result)\t\(context.deleteCount)\t\(context.commitString)\t\(context.preeditString)\n"
    }
    for string in run.strings {
      var time = 0.0
      for (position, key) in string.unicodeScalars.enumerated() {
        let taken: Bool
        if key == "\u{8}" || key == "\u{7F}" {
          taken = context.backspace()
        } else if run.timeout >= 0 {
          taken = context.process(InputKey(key), at: time)
          time += position % 3 == 2 ? 700 : 300
        } else {
          taken = context.process(InputKey(key))
        }
        report(taken ? "1" : "0")
      }
      context.flush()
      report("F")
    }
    return text
  }

  /// The key strings of libhangul's per-key fixture for a keyboard.
  func libhangulKeyStrings(_ id: String) throws -> [String] {
    let bytes = try decompressedFixture("libhangul-keys/\(id).default.txt.bz2")
    var strings: [String] = []
    var keys: [UInt8] = []
    for record in bytes.split(separator: 0x0A) {
      if record.first == 0x09 {
        strings.append(String(decoding: keys, as: UTF8.self))
        keys.removeAll()
      } else {
        keys.append(record[record.startIndex])
      }
    }
    return strings
  }

  /// Runs drive-wasm.py on `script` and returns what it wrote.
  func drive(_ script: String) throws -> String {
    let input = FileManager.default.temporaryDirectory
      .appendingPathComponent("wasm-script-\(UUID().uuidString).txt")
    try Data(script.utf8).write(to: input)
    defer { try? FileManager.default.removeItem(at: input) }
    let process = Process()
    process.executableURL = Self.python
    process.arguments = [Self.driver.path, Self.wasm.path]
    process.standardInput = try FileHandle(forReadingFrom: input)
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self)
  }
}
