import Foundation
import Testing

/// Large regular files on standard input or as arguments are mapped, not
/// read: the programs must write what they write for the same bytes through
/// a pipe, start where the shell's offset is, and leave the offset at the end
/// for the next command, as read(2) would.
@Suite("Mapped input end to end")
struct MappedInputCommandTests {
  /// 3 MB of Korean text, ASCII and other scripts, without a newline at the
  /// end; by default with a byte that is not UTF-8 past the first MiB.
  static func text(ending: Ending = .invalidInside) -> Data {
    var bytes: [UInt8] = []
    let words = ["안녕하세요", "한국어", "닭", "café", "e\u{301}", "\u{1100}\u{1161}", "😀", "abc"]
      .map { Array($0.utf8) }
    var state: UInt64 = 7
    while bytes.count < 3_000_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      bytes += words[Int(state >> 33) % words.count]
      bytes.append(state >> 40 % 13 == 0 ? 0x0A : 0x20)
    }
    switch ending {
    case .invalidInside:
      bytes.insert(0xFF, at: 1_500_001)
      bytes.append(contentsOf: Array("끝".utf8))
    case .syllable: bytes.append(contentsOf: Array("끝".utf8))
    case .cutSequence: bytes.append(contentsOf: Array("끝".utf8).prefix(2))
    }
    return Data(bytes)
  }

  /// How ``text(ending:)`` ends (each without a newline at the end).
  enum Ending: CaseIterable, Sendable {
    /// A byte that is not UTF-8 past the first MiB, and a syllable at the end.
    case invalidInside
    /// Valid UTF-8 to its last byte, a syllable's.
    case syllable
    /// Valid UTF-8 but for a syllable's first two bytes at the end.
    case cutSequence
  }

  @Test(
    "standard input a file, a file argument and a pipe give the same output and warning",
    arguments: [
      ("hangul-normalize", ["--form", "nfd"]), ("hangul-normalize", []),
      ("hangul-decompose", ["--to", "nfd"]), ("hangul-decompose", []),
      ("hangul-compose", []),
    ])
  func sameAsPipe(program: String, arguments: [String]) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("in.txt")
    try Self.text().write(to: file)
    let executable = Executable(program)
    let flags = arguments.joined(separator: " ")
    let piped = try executable.shell("cat '\(file.path)' | \"$EXE\" \(flags)")
    let redirected = try executable.shell("\"$EXE\" \(flags) < '\(file.path)'")
    let named = try executable.shell("\"$EXE\" \(flags) '\(file.path)'")
    #expect(piped.status == 0)
    #expect(!piped.stdout.isEmpty)
    #expect(redirected.stdout == piped.stdout)
    #expect(named.stdout == piped.stdout)
    #expect(redirected.status == piped.status)
    #expect(named.status == piped.status)
    #expect(redirected.stderr == piped.stderr)
    #expect(piped.stderr.contains(" is not UTF-8"))
    #expect(
      named.stderr == piped.stderr.replacingOccurrences(of: "(standard input)", with: file.path))
  }

  @Test("standard input read from its offset on, and left at its end for the next command")
  func offsets() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("in.txt")
    try Self.text().write(to: file)
    let normalize = Executable("hangul-normalize")
    // dd reads exactly 4097 bytes (an offset that is not a page's), then the
    // program goes on from there; cat after it finds nothing left.
    let skipped = try normalize.shell(
      "{ dd bs=4097 count=1 of=/dev/null 2>/dev/null; \"$EXE\" --form nfd; echo END; cat; } "
        + "< '\(file.path)'")
    let expected = try normalize.shell(
      "tail -c +4098 '\(file.path)' | \"$EXE\" --form nfd; echo END")
    #expect(skipped.status == 0)
    #expect(skipped.stdout == expected.stdout)
    #expect(skipped.stdout.count > 3_000_000)
  }

  @Test(
    "a mapped file does not count whole in peak memory",
    arguments: [
      ("hangul-normalize", ["--form", "nfd"]), ("hangul-decompose", ["--to", "nfd"]),
      ("hangul-decompose", []),
    ])
  func peakMemory(program: String, arguments: [String]) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("in.txt")
    // 48 MB: mapped whole and kept, it alone would be three times the bound.
    // Each ending: a file that is valid to its end, or whose end is cut
    // inside a sequence, is checked again at the end (a warning may need
    // its lines counted): that too must not keep its pages.
    for ending in Ending.allCases {
      let unit = Self.text(ending: .syllable)
      var data = Data()
      while data.count < 48_000_000 { data.append(unit) }
      data.append(Self.text(ending: ending))
      try data.write(to: file)
      let executable = Executable(program)
      let flags = arguments.joined(separator: " ")
      let measured = try executable.shell(
        "/usr/bin/time -f %M \"$EXE\" \(flags) < '\(file.path)' 2>&1 >/dev/null | tail -1")
      let peak = Int(measured.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
      #expect(peak < 24 * 1024, "\(program) \(flags), \(ending): peak \(peak) KB")
    }
  }

  @Test(
    "a file truncated while it is mapped ends the program with a message and status 74",
    arguments: ["'FILE'", "< 'FILE'"])
  func truncatedWhileMapped(input: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("in.txt")
    var data = Data()
    while data.count < 64_000_000 { data.append(Self.text(ending: .syllable)) }
    try data.write(to: file)
    // The reader of the pipe waits: the program blocks on its first write,
    // with the file mapped; the file is cut, and then the pipe drained.
    let result = try Executable("hangul-normalize").shell(
      "{ \"$EXE\" --form nfd \(input.replacingOccurrences(of: "FILE", with: file.path)); "
        + "echo \"status $?\" >&2; } "
        + "| { sleep 0.5; truncate -s 0 '\(file.path)'; cat >/dev/null; }")
    let name = input.hasPrefix("<") ? "(standard input)" : file.path
    #expect(
      result.stderr == "hangul-normalize: \(name): the file changed while it was read\nstatus 74\n")
  }
}
