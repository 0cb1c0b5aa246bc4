import Foundation
import HangulCommandLine
import HangulKit
import Testing

/// Keyboard files: the built-in ones, the data generated from them, and the
/// errors a bad file gets.
@Suite("Keyboard files")
struct KeyboardFileTests {
  static let ids = ["2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn"]
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test("every built-in keyboard loads from the data compiled in", arguments: ids)
  func builtInLoads(id: String) throws {
    let keyboard = try Keyboard(id: id)
    #expect(keyboard.layout.id == id)
    #expect(!keyboard.layout.name.isEmpty)
    #expect(keyboard.layout.koreanName != nil)
    #expect(keyboard.layout.mappedKeys.count >= 52)
    #expect(!keyboard.layout.combinations.isEmpty)
    #expect(keyboard.hasJamoLabels == (id == "2"))
  }

  @Test(
    "the generated layout equals what the XML reader makes of the file in keyboards/",
    arguments: ids + ["cheonjiin", "naratgeul", "sky2"])
  func generatedLayoutEqualsFile(id: String) throws {
    let path = Self.root.appendingPathComponent("keyboards/hangul-keyboard-\(id).xml").path
    let fromDisk = try Keyboard(id: path)
    let builtIn = try #require(Keyboard(builtIn: id))
    #expect(fromDisk == builtIn)
    #expect(fromDisk.layout.keypad == builtIn.layout.keypad)
    #expect(fromDisk.layout.combinations == builtIn.layout.combinations)
  }

  @Test(
    "a built-in combination file that is not on the disk is included from the generated data",
    arguments: ["hangul-combination-default.xml", "hangul-combination-full.xml"])
  func builtInCombinationFile(name: String) throws {
    let text = """
      <hangul-keyboard id="c" type="jaso"><include file="\(name)"/></hangul-keyboard>
      """
    // The same file next to the copy in keyboards/, and from a folder without it.
    let besideFile = Self.root.appendingPathComponent("keyboards/check-\(UUID().uuidString).xml")
    _ = FileManager.default.createFile(atPath: besideFile.path, contents: Data(text.utf8))
    defer { try? FileManager.default.removeItem(at: besideFile) }
    let fromDisk = try Keyboard(id: besideFile.path)
    let fromData = try load(text)
    #expect(fromDisk.layout.combinations.count > 30)
    #expect(fromData.layout.combinations == fromDisk.layout.combinations)
  }

  @Test("the generated Swift file is what tools/keyboards/generate-keyboards.py writes now")
  func generatedSourceIsCurrent() throws {
    let script = Self.root.appendingPathComponent("tools/keyboards/generate-keyboards.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--check"]
    try process.run()
    process.waitUntilExit()
    #expect(
      process.terminationStatus == 0,
      "Sources/HangulInput/Keyboard/BuiltInKeyboards.swift is stale: run tools/keyboards/generate-keyboards.py"
    )
  }

  @Test("the 2-set keyboard from its file has the 2-set tables")
  func twoSetTables() throws {
    let keyboard = try Keyboard(id: "2")
    #expect(keyboard.jamo(forASCII: UInt8(ascii: "r")) == Jamo("ㄱ"))
    #expect(keyboard.jamo(forASCII: UInt8(ascii: "R")) == Jamo("ㄲ"))
    #expect(keyboard.jamo(forASCII: UInt8(ascii: "K")) == Jamo("ㅏ"))
    #expect(keyboard.vowelCombinations.count == 7)
    #expect(keyboard.finalCombinations.count == 11)
    #expect(keyboard.doubleStrokeInitials.count == 5)
    #expect(keyboard.doubleStrokeFinals.count == 2)
  }

  /// Writes `text` to a temporary file and loads it.
  func load(_ text: String, name: String = "test-\(UUID().uuidString).xml")
    throws(KeyboardFileError) -> Keyboard
  {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "keyboard-tests-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return try Keyboard(id: path)
  }

  @Test("a file that includes a built-in combination table and one of its own")
  func includes() throws {
    let extra = "extra-\(UUID().uuidString).xml"
    _ = try? load(
      """
      <combination id="0"><item first="0x1161" second="0x1161" result="0x1163"/></combination>
      """, name: extra)
    let keyboard = try load(
      """
      <?xml version="1.0"?>
      <hangul-keyboard id="mine" type="jaso">
        <name>Mine</name><name xml:lang="ko">내 자판</name><name xml:lang="ja">私の</name>
        <map id="0"><item key="0x6b" value="0x1100"/><item key="0x66" value="0x1161"/></map>
        <map id="1"><item key="0x61" value="0x1100"/></map>
        <include file="hangul-combination-default.xml"/>
        <future-extension anything="here"/>
      </hangul-keyboard>
      """)
    #expect(keyboard.layout.name == "Mine")
    #expect(keyboard.layout.koreanName == "내 자판")
    #expect(keyboard.layout.type == .jaso)
    #expect(keyboard.layout.value(forKey: UInt8(ascii: "k")) == 0x1100)
    #expect(keyboard.layout.value(forKey: UInt8(ascii: "a")) == 0)  // table 1 is not used
    #expect(keyboard.layout.combine(0x1100, 0x1100) == 0x1101)
    let own = try load(
      """
      <hangul-keyboard id="own" type="jaso">
        <include file="hangul-combination-default.xml"/>
        <include file="\(extra)"/>
      </hangul-keyboard>
      """)
    // A later combination table replaces the one before, as in libhangul.
    #expect(own.layout.combine(0x1161, 0x1161) == 0x1163)
    #expect(own.layout.combine(0x1100, 0x1100) == 0)
  }

  static let badFiles: [(text: String, line: Int, column: Int, message: String)] = [
    (
      "<hangul-keyboard id=\"x\" type=\"jaso\">\n  <map><item key=\"0x80\" value=\"1\"/></map>", 2,
      8,
      "key 128 is not an ASCII code (0–127)"
    ),
    (
      "<hangul-keyboard id=\"x\" type=\"qwerty\"/>", 1, 1,
      "unknown keyboard type \"qwerty\" (jamo, jamo-yet, jaso, jaso-yet, romaja or keypad)"
    ),
    ("<hangul-keyboard type=\"jaso\"/>", 1, 1, "hangul-keyboard needs an id attribute"),
    (
      "<hangul-keyboard id=\"x\" type=\"jaso\">\n  <map>\n 한글 <item key=\"k\" value=\"0x1100\"/>",
      3, 5,
      "key=\"k\" is not a number"
    ),
    (
      "<hangul-keyboard id=\"x\" type=\"jaso\">\n<item key=\"1\" value=\"2\"/>", 2, 1,
      "item outside a map or combination"
    ),
    (
      "<hangul-keyboard id=\"x\" type=\"jaso\">\n  <map>\n  </mop>", 3, 5,
      "XML: mismatched tag"
    ),
    (
      "<hangul-keyboard id=\"x\" type=\"jaso\"><include file=\"nowhere.xml\"/></hangul-keyboard>",
      1, 37,
      "include \"nowhere.xml\": cannot open: No such file or directory"
    ),
    ("<combination/>", 1, 1, "no hangul-keyboard element"),
  ]

  @Test("a bad file is an error naming its line, column and what is wrong", arguments: badFiles)
  func badFile(text: String, line: Int, column: Int, message: String) throws {
    do {
      _ = try load(text)
      Issue.record("loaded")
    } catch {
      #expect(error.line == line)
      #expect(error.column == column)
      #expect(error.message == message)
      #expect(error.description.hasSuffix(".xml:\(line):\(column): \(message)"))
      #expect(error.exitStatus == 64)
    }
  }

  @Test("a file that includes itself is an error, not a loop")
  func includeLoop() throws {
    #expect(throws: KeyboardFileError.self) {
      _ = try load(
        "<hangul-keyboard id=\"x\" type=\"jaso\"><include file=\"loop.xml\"/></hangul-keyboard>",
        name: "loop.xml")
    }
  }

  @Test("a file that cannot be opened")
  func missingFile() {
    #expect(
      throws: KeyboardFileError(
        file: "/nonexistent/k.xml", message: "cannot open: No such file or directory")
    ) {
      _ = try Keyboard(id: "/nonexistent/k.xml")
    }
  }
}
