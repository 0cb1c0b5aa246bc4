import Foundation
import HangulKit
import Testing

/// `hangul-normalize` as a user runs it: the filter and `--rename`.
@Suite("hangul-normalize end to end")
struct NormalizeCommandTests {
  let normalize = Executable("hangul-normalize")

  func nfd(_ text: String) throws -> String { try ICUNormalizer(.nfd).normalized(text) }

  @Test(
    "each --form on standard input equals ICU, bytes that are not UTF-8 kept",
    arguments: ICUNormalizer.Form.allCases)
  func forms(form: ICUNormalizer.Form) throws {
    var input = Data(
      "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF} 닭 café cafe\u{301} ㄱㅅ ㄱㅏ 한\u{200C}글 ﬁ ① Tiếng Việt ὧ 👍🏽\n"
        .utf8)
    input.append(contentsOf: [0xFF, 0xCC, 0x81, 0x0A])
    let result = try normalize.run(["--form", form.name], input: input)
    var expected: [UInt8] = []
    Array(input).withUnsafeBufferPointer {
      try? ICUNormalizer(form).normalize(utf8: $0, into: &expected)
    }
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "hangul-normalize: (standard input):2:1: warning: byte 0xFF is not UTF-8; if the file "
        + "is in another encoding, name it with --from-code\n")
    #expect(Array(result.stdout) == expected)
  }

  @Test("NFC is the default; keys stay text: ㄱㅅ, ㅇㅏ and U+200C are kept")
  func noKeys() throws {
    let names = "ㄱㅅ 메모.txt\nㅇㅏ 그렇구나.txt\n한\u{200C}글.txt\n"
    let result = try normalize.run([], input: Data(try nfd(names).utf8))
    #expect(result.text == names)
  }

  @Test("-z keeps NUL-separated records; --verify passes with status 0")
  func zeroTerminatedAndVerify() throws {
    let input = Data(try nfd("한글\u{0}café\u{0}").utf8)
    for form in ["nfc", "nfd", "nfkc", "nfkd"] {
      let result = try normalize.run(["-z", "--verify", "--form", form], input: input)
      #expect(result.status == 0)
      #expect(result.stderr.isEmpty)
      #expect(result.stdout.filter { $0 == 0 }.count == 2)
    }
  }

  @Test("usage errors exit 64 and say what to do")
  func usage() throws {
    for arguments in [
      ["--recursive"], ["--rename"], ["--form", "nfx"], ["--rename", "--verify", "x"],
    ] {
      let result = try normalize.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.contains("--help"))
    }
  }

  /// The folder of the issue: eight names from a Mac, most in NFD, some that
  /// a keystroke composer would have mistaken for keys.
  static let folderNames = [
    "회의록_2024년 3월.docx", "보고서(최종)_수정본.pdf", "한라산 정상.jpg", "café.txt", "한\u{200C}글.txt",
    "ㄱㅅ 메모.txt", "ㄳ 메모.txt", "ㅇㅏ 그렇구나.txt",
  ]

  /// Makes the folder: each file holds its own NFC name; the first five names are NFD.
  func makeFolder() throws -> URL {
    let folder = try temporaryFolder().appendingPathComponent("from-mac")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (index, name) in Self.folderNames.enumerated() {
      let onDisk = index < 5 ? try nfd(name) : name
      try Data(name.utf8).write(to: folder.appendingPathComponent(onDisk))
    }
    return folder
  }

  func listing(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  @Test("--rename: the eight-name folder comes out with every file present and every name NFC")
  func renameFolder() throws {
    let folder = try makeFolder()
    let result = try normalize.run(["--rename", folder.path])
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty, "without --recursive only the folder itself is renamed")
    let recursive = try normalize.run(["--rename", "--recursive", folder.path])
    #expect(recursive.status == 0)
    #expect(recursive.stderr.isEmpty)
    #expect(recursive.text.split(separator: "\n").count == 5)
    let line =
      "\(folder.path)/\(try nfd("café.txt")) → \(folder.path)/café.txt (U+0065 U+0301 → U+00E9)\n"
    #expect(recursive.stdout.range(of: Data(line.utf8)) != nil)
    let names = try listing(folder)
    #expect(names.count == 8)
    #expect(
      Set(names.map { Array($0.unicodeScalars) })
        == Set(Self.folderNames.map { Array($0.unicodeScalars) }))
    for name in names {
      let contents = try Data(contentsOf: folder.appendingPathComponent(name))
      #expect(
        String(decoding: contents, as: UTF8.self).unicodeScalars.elementsEqual(name.unicodeScalars))
    }
    // Nothing left to do the second time.
    let again = try normalize.run(["--rename", "--recursive", folder.path])
    #expect(again.status == 0)
    #expect(again.stdout.isEmpty)
  }

  @Test("--dry-run prints the same renames and changes nothing")
  func dryRun() throws {
    let folder = try makeFolder()
    let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).map {
      Array($0.utf8)
    }.sorted { $0.lexicographicallyPrecedes($1) }
    let result = try normalize.run(["--rename", "--recursive", "--dry-run", folder.path])
    #expect(result.status == 0)
    #expect(result.text.split(separator: "\n").count == 5)
    let after = try FileManager.default.contentsOfDirectory(atPath: folder.path).map {
      Array($0.utf8)
    }.sorted { $0.lexicographicallyPrecedes($1) }
    #expect(before == after)
    let real = try normalize.run(["--rename", "--recursive", folder.path])
    #expect(Set(real.text.split(separator: "\n")) == Set(result.text.split(separator: "\n")))
  }

  @Test("a collision is reported, both entries kept, status 65; so is a name that is not UTF-8")
  func collisionAndBadNames() throws {
    let folder = try temporaryFolder()
    let composed = folder.appendingPathComponent("한.txt")
    try Data("nfc".utf8).write(to: composed)
    try Data("nfd".utf8).write(to: folder.appendingPathComponent(try nfd("한.txt")))
    let badName = Array(folder.path.utf8) + Array("/x".utf8) + [0xFF]
    let descriptor = badName.withUnsafeBufferPointer { buffer -> Int32 in
      var cString = buffer.map { CChar(bitPattern: $0) }
      cString.append(0)
      return open(cString, O_CREAT | O_WRONLY, 0o644)
    }
    #expect(descriptor >= 0)
    close(descriptor)
    let result = try normalize.run(["--rename", "--recursive", folder.path])
    #expect(result.status == 65)
    #expect(result.stderr.contains("not renamed: \(folder.path)/한.txt exists"))
    #expect(result.stderr.contains("/x\\xFF: not renamed: the name is not UTF-8"))
    #expect(try listing(folder).count == 3)
    #expect(try listing(folder).contains { Array($0.utf8) == Array(try nfd("한.txt").utf8) })
    #expect(try Data(contentsOf: composed) == Data("nfc".utf8))
  }

  @Test("--recursive goes deepest first; symbolic links are renamed, not followed")
  func recursionAndLinks() throws {
    let root = try temporaryFolder()
    let photos = root.appendingPathComponent(try nfd("사진"))
    let trip = photos.appendingPathComponent(try nfd("제주도 여행"))
    try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
    try Data().write(to: trip.appendingPathComponent(try nfd("한라산 정상.jpg")))
    // A link elsewhere, to a folder whose NFD contents must not be touched.
    let outside = try temporaryFolder()
    try Data().write(to: outside.appendingPathComponent(try nfd("밖.txt")))
    try FileManager.default.createSymbolicLink(
      at: root.appendingPathComponent(try nfd("링크")), withDestinationURL: outside)
    let result = try normalize.run(["--rename", "--recursive", root.path])
    #expect(result.status == 0)
    let lines = result.text.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    let pieces = try ["한라산 정상.jpg", "제주도 여행", "사진"].map { Array((try nfd($0) + " → ").utf8) }
    let order = pieces.map { piece in
      lines.firstIndex { Data($0.utf8).range(of: Data(piece)) != nil } ?? -1
    }
    #expect(order == order.sorted() && !order.contains(-1), "\(lines)")
    #expect(FileManager.default.fileExists(atPath: root.path + "/사진/제주도 여행/한라산 정상.jpg"))
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: root.path + "/링크") == outside.path)
    #expect(Array(try listing(outside)[0].utf8) == Array(try nfd("밖.txt").utf8))
  }

  @Test("a PATH that does not exist is reported with status 66, the others still renamed")
  func missingPath() throws {
    let folder = try temporaryFolder()
    try Data().write(to: folder.appendingPathComponent(try nfd("가.txt")))
    let result = try normalize.run([
      "--rename", folder.path + "/missing", folder.path + "/" + (try nfd("가.txt")),
    ])
    #expect(result.status == 66)
    #expect(result.stderr.contains("missing: No such file or directory"))
    #expect(try listing(folder).map { Array($0.utf8) } == [Array("가.txt".utf8)])
  }
}
