import Foundation
import Testing

/// `hangul-compose --format events` on browser event streams (hangul-keylog(5)).
@Suite("Browser event streams end to end")
struct BrowserCommandTests {
  let compose = Executable("hangul-compose")

  static let samples = [
    "issue28", "chrome-windows", "chrome-macos", "safari-macos", "android", "wkwebview",
  ]

  @Test(
    "each browser sample gives its expected text, status 0, nothing on stderr", arguments: samples)
  func sample(name: String) throws {
    let result = try compose.run([
      "--format", "events", repositoryFile("samples/browser-\(name).jsonl").path,
    ])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == (try Data(contentsOf: repositoryFile("samples/browser-\(name).expected.txt"))))
    #expect(result.stderr.isEmpty)
  }

  @Test("the issue's log: 가, status 0, --stats counts 2 keys and 1 character")
  func issueStats() throws {
    let result = try compose.run([
      "--format", "events", "--stats", "--stats-format", "json",
      repositoryFile("samples/browser-issue28.jsonl").path,
    ])
    #expect(result.status == 0)
    #expect(result.text == "가\n")
    #expect(result.stderr.contains(#""total":{"keys":2,"#))
    #expect(result.stderr.contains(#""characters":1,"#))
  }

  @Test("--stats says how many keys of the Android sample were rebuilt")
  func androidStats() throws {
    let result = try compose.run([
      "--format", "events", "--stats", repositoryFile("samples/browser-android.jsonl").path,
    ])
    #expect(result.status == 0)
    #expect(
      result.stderr.contains(
        "24 of the keys were rebuilt from the log's composition and input data (no key was recorded)"
      ))
  }

  @Test("an unknown event type is a warning at its line, once, and the status stays 0")
  func unknownType() throws {
    let log = #"""
      {"type":"wheel"}
      {"type":"keydown","key":"Process","code":"KeyR","keyCode":229}
      {"type":"wheel"}
      """#
    let result = try compose.run(["--format", "events"], input: Data(log.utf8))
    #expect(result.status == 0)
    #expect(result.text == "ㄱ\n")
    #expect(
      result.stderr
        == "hangul-compose: (standard input):1: event type \"wheel\" is not one hangul-keylog(5) knows: ignored\n"
    )
  }

  /// The browser samples as documents of one log, a `"doc"` on every line and
  /// times going on, with an unknown type now and then, about `size` bytes.
  static func browserLog(size: Int) throws -> (log: Data, text: String) {
    var log = ""
    var text = ""
    var document = 0
    var offset = 0
    while log.utf8.count < size {
      let name = samples[document % samples.count]
      let lines = try String(
        contentsOf: repositoryFile("samples/browser-\(name).jsonl"), encoding: .utf8
      ).split(separator: "\n")
      text += try String(
        contentsOf: repositoryFile("samples/browser-\(name).expected.txt"), encoding: .utf8)
      document += 1
      var last = offset
      for line in lines {
        var body = line.dropFirst()
        // Every time member moves on by the documents before.
        if let range = body.range(of: #""timeStamp":"#) {
          let digits = body[range.upperBound...].prefix { $0.isNumber }
          let time = (Int(digits) ?? 0) + offset
          last = max(last, time)
          body.replaceSubrange(range.upperBound..<digits.endIndex, with: "\(time)")
        }
        log += "{\"doc\":\(document)," + body + "\n"
      }
      if document % 7 == 0 { log += "{\"doc\":\(document),\"type\":\"wheel\"}\n" }
      offset = last + 1000
    }
    return (Data(log.utf8), text)
  }

  @Test("--jobs 2 replays a browser stream of many documents as --jobs 1 does")
  func jobs() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (log, text) = try Self.browserLog(size: 2_500_000)
    let url = folder.appendingPathComponent("browser.jsonl")
    try log.write(to: url)
    for jobs in ["1", "2"] {
      let result = try compose.run(["--format", "events", "--stats", "--jobs", jobs, url.path])
      #expect(result.status == 0)
      #expect(result.text == text, "--jobs \(jobs)")
      let warnings = result.stderr.split(separator: "\n").filter { $0.contains("wheel") }
      #expect(warnings.count == 1, "--jobs \(jobs)")
      #expect(result.stderr.contains("of the keys were rebuilt"))
    }
  }

  @Test("jq's pretty output of a browser stream replays as the stream does, with --jobs 1 and 2")
  func prettyPrinted() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (log, text) = try Self.browserLog(size: 2_500_000)
    let url = folder.appendingPathComponent("browser.jsonl")
    try log.write(to: url)
    let pretty = folder.appendingPathComponent("pretty.json")
    let made = try compose.shell("jq . '\(url.path)' > '\(pretty.path)'")
    try #require(made.status == 0, "\(made.stderr)")
    for jobs in ["1", "2"] {
      let result = try compose.run(["--format", "events", "--jobs", jobs, pretty.path])
      #expect(result.status == 0, "--jobs \(jobs)")
      #expect(result.text == text, "--jobs \(jobs)")
    }
  }

  @Test("--keyboard auto never reads ahead in a FIFO: a usage error, nothing taken from it")
  func keyboardAutoFIFO() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("log.jsonl").path
    // With no writer, opening the FIFO would block: the timeout would end it (124).
    let result = try compose.shell(
      "mkfifo '\(fifo)' && timeout 10 \"$EXE\" --format events --keyboard auto '\(fifo)'")
    #expect(result.status == 64)
    #expect(result.stderr.contains("--keyboard auto cannot read the start of"))
  }

  @Test("--keyboard auto reads the start of the first FILE and says which keyboard agrees")
  func keyboardAuto() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var log = ""
    for (code, data) in [
      ("KeyJ", "ㅇ"), ("KeyF", "아"), ("KeyS", "안"), ("KeyH", "ㄴ"), ("KeyE", "녀"), ("KeyA", "녕"),
    ] {
      log += #"{"type":"keydown","key":"Process","code":"\#(code)","keyCode":229}"# + "\n"
      log += #"{"type":"compositionupdate","data":"\#(data)"}"# + "\n"
    }
    let url = folder.appendingPathComponent("3set.jsonl")
    try Data(log.utf8).write(to: url)
    let guessed = try compose.run(["--format", "events", "--keyboard", "auto", url.path])
    #expect(guessed.status == 0)
    #expect(guessed.text == "안녕\n")
    #expect(guessed.stderr.contains("hangul-compose: --keyboard auto: "))
    let plain = try compose.run(["--format", "events", url.path])
    #expect(plain.text != "안녕\n")
    #expect(plain.stderr.contains("where keyboard 2 shows \"ㅓ\" (try --keyboard "))
    let piped = try compose.run(
      ["--format", "events", "--keyboard", "auto"], input: Data(log.utf8))
    #expect(piped.status == 64)
  }

  @Test(
    "--output keystrokes names a rebuilt press by what it typed, and takes the time of timeStamp")
  func keystrokes() throws {
    let android = try compose.run([
      "--format", "events", "--output", "keystrokes",
      repositoryFile("samples/browser-android.jsonl").path,
    ])
    #expect(android.status == 0)
    #expect(
      android.text.split(separator: "\n").first.map(String.init)
        == #"{"n":1,"t":240,"key":"ㄱ","commit":"","preedit":"ㄱ""#
        + #","role":"initial","syllable":1,"pause":false,"burst":1,"revision":false}"#)
    let windows = try compose.run([
      "--format", "events", "--output", "keystrokes",
      repositoryFile("samples/browser-issue28.jsonl").path,
    ])
    #expect(
      windows.text
        == #"{"n":1,"t":1000,"key":"KeyR","commit":"","preedit":"ㄱ""#
        + #","role":"initial","syllable":1,"pause":false,"burst":1,"revision":false}"# + "\n"
        + #"{"n":2,"t":1200,"key":"KeyK","commit":"","preedit":"가","iki":200,"role":"vowel""#
        + #","syllable":1,"pause":false,"burst":1,"revision":false}"# + "\n")
  }
}
