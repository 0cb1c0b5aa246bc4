import Foundation
import Testing

/// `hangul-compose --format idfx` and `--format translog` (hangul-keylog(5)).
@Suite("Research loggers' XML logs end to end")
struct ResearchLogCommandTests {
  let compose = Executable("hangul-compose")

  static let samples = [
    ("idfx", "inputlog-korean.idfx", "an Inputlog IDFX log"),
    ("translog", "translog-korean.xml", "a Translog-II log"),
  ]

  static func expected(_ sample: String) throws -> Data {
    let base = sample.split(separator: ".").dropLast().joined(separator: ".")
    return try Data(contentsOf: repositoryFile("samples/\(base).expected.txt"))
  }

  @Test("each sample gives its expected text, status 0, nothing on stderr", arguments: samples)
  func sample(format: String, sample: String, name: String) throws {
    let result = try compose.run(["--format", format, repositoryFile("samples/" + sample).path])
    #expect(result.status == 0)
    #expect(result.stdout == (try Self.expected(sample)))
    #expect(result.stderr.isEmpty)
  }

  @Test("without --format the file's start says its format, once on stderr", arguments: samples)
  func detected(format: String, sample: String, name: String) throws {
    let path = repositoryFile("samples/" + sample).path
    let result = try compose.run([path, path])
    #expect(result.status == 0)
    let text = try Self.expected(sample)
    #expect(result.stdout == text + text)
    #expect(
      result.stderr
        == "hangul-compose: reading \(path) as --format \(format) (its start is \(name))\n")
  }

  @Test("--output jsonl names each file's document; --output keystrokes names the log's keys")
  func outputs() throws {
    let path = repositoryFile("samples/inputlog-korean.idfx").path
    let jsonl = try compose.run(["--format", "idfx", "--output", "jsonl", path])
    #expect(jsonl.status == 0)
    #expect(jsonl.text == "{\"doc\":\"\(path)\",\"text\":\"안녕하세요 Hi 한국어.\"}\n")
    let keys = try compose.run(["--format", "idfx", "--output", "keystrokes", path])
    #expect(keys.status == 0)
    let lines = keys.text.split(separator: "\n")
    // 36 keyboard events, VK_SHIFT among them (a key of the measures).
    #expect(lines.count == 36)
    #expect(lines.contains { $0.contains(#""key":"VK_SHIFT""#) })
    #expect(
      lines.first.map(String.init)
        == #"{"n":1,"doc":"\#(path)","t":1000,"key":"VK_D","commit":"","preedit":"ㅇ","#
        + #""role":"initial","syllable":1,"pause":false,"burst":1,"revision":false}"#)
  }

  @Test("malformed XML: the error at its line and column, status 65, the text before it written")
  func malformed() throws {
    let log = """
      <?xml version="1.0"?>
      <LogFile><Events>
        <Key Time="1" Type="insert" Value="ㄱ" />
        <Key Time="2" Type="insert" Value="ㅏ">
      </Events></LogFile>
      """
    let result = try compose.run(["--format", "translog"], input: Data(log.utf8))
    #expect(result.status == 65)
    #expect(result.text == "가\n")
    #expect(
      result.stderr
        == "hangul-compose: (standard input):5:3: not well-formed XML: mismatched tag\n")
  }

  @Test("an unknown event type is a warning at its place, once, and the status stays 0")
  func unknownType() throws {
    let log = """
      <?xml version="1.0"?>
      <log>
        <event type="speech"/>
        <event type="keyboard"><part type="winlog"><key>VK_R</key><value>r</value></part></event>
        <event type="speech"/>
      </log>
      """
    let result = try compose.run(["--format", "idfx"], input: Data(log.utf8))
    #expect(result.status == 0)
    #expect(result.text == "ㄱ\n")
    #expect(
      result.stderr
        == "hangul-compose: (standard input):3:3: event type \"speech\" is not one hangul-keylog(5) knows: ignored\n"
    )
  }

  @Test("--help names the formats")
  func help() throws {
    let result = try compose.run(["--help"])
    #expect(result.text.contains("idfx"))
    #expect(result.text.contains("translog"))
  }
}
