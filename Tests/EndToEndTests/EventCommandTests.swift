import Foundation
import Testing

/// `hangul-compose --format events` and `--stats` as a user runs them.
@Suite("Event logs end to end")
struct EventCommandTests {
  let compose = Executable("hangul-compose")

  @Test(
    "the sample event logs",
    arguments: [
      (
        "samples/events-review.jsonl",
        "배송이 빨랐어요 색감도 사진이랑 똑같아요 근데 사이즈가 좀 작네요 ㅠㅠ\n그래도 재구매 의사 있어요!\n"
      ),
      ("samples/events-two-docs.jsonl", "오늘 저녁 뭐 먹\n떡볶이\n을까? 떡볶이 어때\n"),
      ("samples/events-phrases.jsonl", "안녕하세요~ 주문한 물건 언제 와요?\n감사합니다!\n지금 가는 중이야!\n"),
      ("samples/browser-keydown.jsonl", "iPhone 15 케이스 후기\n색감도 사진이랑 똑같아요.\n배송도 빨라요! A+\n"),
    ])
  func samples(file: String, expected: String) throws {
    let result = try compose.run(["--format", "events", repositoryFile(file).path])
    #expect(result.status == 0)
    #expect(result.text == expected)
    #expect(result.stderr.isEmpty)
  }

  @Test("--stats writes a table per document and the total to standard error, after the output")
  func statsText() throws {
    let result = try compose.run([
      "--format", "events", "--stats", repositoryFile("samples/events-two-docs.jsonl").path,
    ])
    #expect(result.status == 0)
    // The first table; the writing-process table follows (hangul-keylog(5), MEASURES).
    let lines = result.stderr.split(separator: "\n").prefix(5)
    #expect(result.stderr.split(separator: "\n").count == 10)
    #expect(lines.first?.hasPrefix("document") == true)
    #expect(lines.first?.contains("KSPC") == true)
    #expect(lines.first?.contains("CPM") == true)
    #expect(
      lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) } == [
        "chat-7", "search", "chat-7", "total",
      ])
  }

  @Test("--stats-format json, and --stats on a text log")
  func statsJSON() throws {
    let result = try compose.run(
      ["--format", "events", "--stats", "--stats-format", "json"],
      input: Data((#"{"key":"ㄱ","t":0}"# + "\n" + #"{"key":"ㅏ","t":30000}"# + "\n").utf8))
    #expect(result.text == "가\n")
    #expect(
      result.stderr
        == #"{"documents":[],"total":{"keys":2,"backspaces":0,"backspacesWithoutEffect":0,"characters":1,"syllables":1,"kspc":2.000,"typingTimeMs":30000,"charactersPerMinute":2.0,"process":{"pauseThresholdMs":2000,"charactersProduced":1,"charactersKept":1,"productProcessRatio":1.000,"ikiCount":1,"ikiMeanMs":30000.0,"ikiMedianMs":30000.0,"ikiWithinSyllableCount":1,"ikiWithinSyllableMeanMs":30000.0,"ikiWithinSyllableMedianMs":30000.0,"ikiBetweenSyllablesCount":0,"ikiBetweenSyllablesMeanMs":null,"ikiBetweenSyllablesMedianMs":null,"ikiBetweenWordsCount":0,"ikiBetweenWordsMeanMs":null,"ikiBetweenWordsMedianMs":null,"ikiAroundRevisionCount":0,"ikiAroundRevisionMeanMs":null,"ikiAroundRevisionMedianMs":null,"pauseCount":1,"pauseTotalMs":30000.0,"pauseShare":1.000,"pausesWithinSyllable":1,"pausesBetweenSyllables":0,"pausesBetweenWords":0,"pausesAroundRevision":0,"burstCount":2,"burstMeanCharacters":0.50,"backspacesInSyllable":0,"backspacesDeletingText":0,"charactersDeleted":0,"revisionEpisodes":0}}}"#
        + "\n")
    let text = try compose.run(["--stats", "--keys", "qwerty"], input: Data("dkssud\n".utf8))
    #expect(text.text == "안녕\n")
    #expect(text.stderr.contains("total"))
    #expect(!text.stderr.contains("CPM"))
  }

  @Test("bad event lines: FILE:LINE:COLUMN: message each, the rest processed, status 65")
  func badLines() throws {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("log.jsonl")
    try Data(
      (#"{"key":"ㄱ"}"# + "\n" + "oops\n" + #"{"key":"ㅏ"}"# + "\n" + #"{"key":"Esc"}"# + "\n").utf8
    ).write(to: file)
    let result = try compose.run(["--format", "events", file.path])
    #expect(result.status == 65)
    #expect(result.text == "가\n")
    let messages = result.stderr.split(separator: "\n").map(String.init)
    #expect(messages.count == 2)
    #expect(messages[0] == "hangul-compose: \(file.path):2:1: not valid JSON: unexpected character")
    #expect(messages[1].hasPrefix("hangul-compose: \(file.path):4:8: unknown key \"Esc\""))
  }

  @Test("--format and --stats-format reject unknown values with 64")
  func badValues() throws {
    #expect(try compose.run(["--format", "csv"]).status == 64)
    #expect(try compose.run(["--stats-format", "xml"]).status == 64)
  }

  @Test("the browser sample replays to its expected text and JSON Lines")
  func browserSample() throws {
    let log = repositoryFile("samples/browser-keydown.jsonl").path
    let text = try compose.run(["--format", "events", log])
    #expect(text.status == 0)
    #expect(
      text.stdout == (try Data(contentsOf: repositoryFile("samples/browser-keydown.expected.txt"))))
    let json = try compose.run(["--format", "events", "--output", "jsonl", log])
    #expect(json.status == 0)
    #expect(
      json.stdout
        == (try Data(contentsOf: repositoryFile("samples/browser-keydown.expected.jsonl"))))
    // Every line is a JSON object whose "text" is the document's text.
    let objects = try json.text.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(objects.map { $0?["doc"] as? String } == ["title", "body"])
    #expect(objects.last??["text"] as? String == "색감도 사진이랑 똑같아요.\n배송도 빨라요! A+")
  }

  @Test("--output jsonl --stats: each document's figures in its object; doc as the log gave it")
  func jsonlWithStats() throws {
    let log =
      [
        #"{"key":"ㄱ","doc":7,"t":0}"#, #"{"key":"ㅏ","doc":7,"t":60000}"#,
        #"{"key":"Enter","doc":7,"t":60000}"#,
        #"{"key":"ㄴ","doc":"x\"y"}"#, #"{"key":"Tab"}"#,
      ].joined(separator: "\n") + "\n"
    let result = try compose.run(
      ["--format", "events", "--output", "jsonl", "--stats"], input: Data(log.utf8))
    #expect(result.status == 0)
    #expect(
      result.text
        == #"{"doc":7,"text":"가\n","stats":{"keys":3,"backspaces":0,"backspacesWithoutEffect":0,"characters":2,"syllables":1,"kspc":1.500,"typingTimeMs":60000,"charactersPerMinute":2.0}}"#
        + "\n"
        + #"{"doc":"x\"y","text":"ㄴ\t","stats":{"keys":2,"backspaces":0,"backspacesWithoutEffect":0,"characters":2,"syllables":0,"kspc":1.000}}"#
        + "\n")
    #expect(result.stderr.contains("total"))
    let plain = try compose.run(
      ["--format", "events", "--output", "jsonl"], input: Data(#"{"key":"ㄱ"}"#.utf8))
    #expect(plain.text == #"{"text":"ㄱ"}"# + "\n")
  }

  @Test("--start-mode english; --start-mode and --output need --format events (64)")
  func startMode() throws {
    let log = [#"{"code":"KeyR"}"#, #"{"code":"Lang1"}"#, #"{"code":"KeyR"}"#].joined(
      separator: "\n")
    #expect(try compose.run(["--format", "events"], input: Data(log.utf8)).text == "ㄱr\n")
    #expect(
      try compose.run(["--format", "events", "--start-mode", "english"], input: Data(log.utf8)).text
        == "rㄱ\n")
    for options in [
      ["--start-mode", "english"], ["--output", "jsonl"], ["--start-mode", "chinese"],
    ] {
      let result = try compose.run(options, input: Data("r".utf8))
      #expect(result.status == 64)
      #expect(result.stdout.isEmpty)
    }
  }

  /// A logger writes its events as they come: the reads of a pipe end
  /// inside a JSON line and inside a UTF-8 sequence. Python writes the
  /// sample in pieces of 1 to 13 bytes with a pause after each, so that
  /// most pieces are separate reads.
  @Test(
    "an event log written into a pipe a few bytes at a time gives what the file gives",
    arguments: [
      ("samples/events-two-docs.jsonl", ["--stats"]),
      ("samples/browser-keydown.jsonl", ["--output", "jsonl", "--stats"]),
      ("samples/events-review.jsonl", ["--stats", "--stats-format", "json"]),
    ])
  func pipedInPieces(file: String, options: [String]) throws {
    let path = repositoryFile(file).path
    let whole = try compose.run(["--format", "events"] + options + [path])
    #expect(whole.status == 0)
    #expect(!whole.text.isEmpty)
    let writer = """
      import sys, time
      data = open(sys.argv[1], "rb").read()
      sizes, at, turn = [1, 2, 3, 5, 7, 11, 13], 0, 0
      while at < len(data):
          sys.stdout.buffer.write(data[at:at + sizes[turn % 7]])
          sys.stdout.buffer.flush()
          at, turn = at + sizes[turn % 7], turn + 1
          time.sleep(0.0005)
      """
    let piped = try compose.shell(
      "python3 -c '\(writer)' '\(path)' | \"$EXE\" --format events \(options.joined(separator: " "))"
    )
    #expect(piped.status == 0)
    #expect(piped.text == whole.text)
    #expect(piped.stderr == whole.stderr)
  }
}
