import Foundation
import Testing

@testable import HangulKit

/// The published traces of Korean typing in browsers (issue 28; the event
/// sequences as the pages print them, see /work/notes/issue28-traces.md for
/// their sources): each replays to the text its page says was typed, as far
/// as the published excerpt goes.
@Suite("Published browser traces")
struct BrowserTraceTests {
  struct Trace: CustomTestStringConvertible, Sendable {
    var name: String
    var what: String
    var lines: [String]
    var text: String
    var keys: Int
    var testDescription: String { "\(name): \(what)" }
  }

  static let traces: [Trace] = [
    Trace(
      name: "T1", what: "iOS 18.4: keys ㄱ ㅏ ㄴ ㅏ (the excerpt ends in the 4th key)",
      lines: [
        #"{"type":"keydown","key":"ㄱ"}"#,
        #"{"type":"keypress","key":"ㄱ"}"#,
        #"{"type":"beforeinput","data":"ㄱ","inputType":"insertText"}"#,
        #"{"type":"input","data":"ㄱ","inputType":"insertText"}"#,
        #"{"type":"keyup","key":"ㄱ"}"#,
        #"{"type":"keydown","key":"ㅏ"}"#,
        #"{"type":"keypress","key":"ㅏ"}"#,
        #"{"type":"beforeinput","data":"ㅏ","inputType":"insertText"}"#,
        #"{"type":"input","data":"ㅏ","inputType":"insertText"}"#,
        #"{"type":"keyup","key":"ㅏ"}"#,
        #"{"type":"keydown","key":"ㄴ"}"#,
        #"{"type":"keypress","key":"ㄴ"}"#,
        #"{"type":"beforeinput","data":"ㄴ","inputType":"insertText"}"#,
        #"{"type":"input","data":"ㄴ","inputType":"insertText"}"#,
        #"{"type":"keyup","key":"ㄴ"}"#,
        #"{"type":"keydown","key":"ㅏ"}"#,
        #"{"type":"keypress","key":"ㅏ"}"#,
        #"{"type":"beforeinput","data":"ㅏ","inputType":"insertText"}"#,
        #"{"type":"input","data":"ㅏ"}"#,
      ], text: "가나", keys: 4),
    Trace(
      name: "T2", what: "Process keydowns, the key on the keyup: r k s (the 4th key has no data)",
      lines: [
        #"{"type":"keydown","key":"Process"}"#,
        #"{"type":"compositionstart"}"#,
        #"{"type":"compositionupdate","data":"ㄱ"}"#,
        #"{"type":"beforeinput","data":"ㄱ","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"input","data":"ㄱ","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"keyup","key":"r","isComposing":true}"#,
        #"{"type":"keydown","key":"Process","isComposing":true}"#,
        #"{"type":"compositionupdate","data":"가"}"#,
        #"{"type":"beforeinput","data":"가","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"input","data":"가","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"keyup","key":"k","isComposing":true}"#,
        #"{"type":"keydown","key":"Process","isComposing":true}"#,
        #"{"type":"compositionupdate","data":"간"}"#,
        #"{"type":"beforeinput","data":"간","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"input","data":"간","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"keyup","key":"s","isComposing":true}"#,
        #"{"type":"keydown","key":"Process","isComposing":true}"#,
        #"{"type":"compositionupdate"}"#,
        #"{"type":"beforeinput","inputType":"insertCompositionText"}"#,
      ], text: "간", keys: 3),
    Trace(
      name: "T3", what: "Unidentified keys: ㄱ 가 간 가나, all rebuilt",
      lines: [
        #"{"type":"keydown","key":"Unidentified"}"#,
        #"{"type":"compositionstart"}"#,
        #"{"type":"compositionupdate","data":"ㄱ"}"#,
        #"{"type":"beforeinput","data":"ㄱ","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"input","data":"ㄱ","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"keyup","key":"Unidentified","isComposing":true}"#,
        #"{"type":"keydown","key":"Unidentified","isComposing":true}"#,
        #"{"type":"compositionupdate","data":"가"}"#,
        #"{"type":"beforeinput","data":"가","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"input","data":"가","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"keyup","key":"Unidentified","isComposing":true}"#,
        #"{"type":"keydown","key":"Unidentified","isComposing":true}"#,
        #"{"type":"compositionupdate","data":"간"}"#,
        #"{"type":"beforeinput","data":"간","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"input","data":"간","inputType":"insertCompositionText","isComposing":true}"#,
        #"{"type":"keyup","key":"Unidentified","isComposing":true}"#,
        #"{"type":"keydown","key":"Unidentified","isComposing":true}"#,
        #"{"type":"compositionupdate","data":"가나"}"#,
      ], text: "가나", keys: 4),
    Trace(
      name: "T4",
      what: "Windows 11, Microsoft IME: 있 of 있다 (the excerpt ends there); Shift doubled",
      lines: [
        #"{"timeStamp":4401,"type":"keydown","key":"Process","code":"KeyD","keyCode":229,"shiftKey":false,"isComposing":false}"#,
        #"{"timeStamp":4401,"type":"compositionstart","data":""}"#,
        #"{"timeStamp":4403,"type":"compositionupdate","data":"ㅇ"}"#,
        #"{"timeStamp":4545,"type":"keydown","key":"Process","code":"KeyL","keyCode":229,"shiftKey":false,"isComposing":true}"#,
        #"{"timeStamp":4546,"type":"compositionupdate","data":"이"}"#,
        #"{"timeStamp":4548,"type":"keyup","key":"Process","code":"KeyD","keyCode":229,"shiftKey":false,"isComposing":true}"#,
        #"{"timeStamp":4663,"type":"keyup","key":"Process","code":"KeyL","keyCode":229,"shiftKey":false,"isComposing":true}"#,
        #"{"timeStamp":4663,"type":"keydown","key":"Process","code":"ShiftLeft","keyCode":229,"shiftKey":true,"isComposing":true}"#,
        #"{"timeStamp":4664,"type":"keydown","key":"Shift","code":"ShiftLeft","keyCode":16,"shiftKey":true,"isComposing":true}"#,
        #"{"timeStamp":4711,"type":"keydown","key":"Process","code":"KeyT","keyCode":229,"shiftKey":true,"isComposing":true}"#,
        #"{"timeStamp":4712,"type":"compositionupdate","data":"있"}"#,
        #"{"timeStamp":4873,"type":"keyup","key":"Process","code":"ShiftLeft","keyCode":229,"shiftKey":false,"isComposing":true}"#,
        #"{"timeStamp":4873,"type":"keyup","key":"Shift","code":"ShiftLeft","keyCode":16,"shiftKey":false,"isComposing":true}"#,
      ], text: "있", keys: 3),
    Trace(
      name: "T5", what: "Ctrl while composing: no key that types",
      lines: [
        #"{"timeStamp":8526,"type":"keydown","key":"Process","code":"ControlLeft","keyCode":229,"ctrlKey":true}"#,
        #"{"timeStamp":8526,"type":"keydown","key":"Control","code":"ControlLeft","keyCode":17,"ctrlKey":true}"#,
      ], text: "", keys: 0),
    Trace(
      name: "T6", what: "macOS Chrome, the boundary of 한글: its one keydown (ㄱ)",
      lines: [
        #"{"type":"keydown","key":"ㄱ","code":"KeyR","keyCode":229,"isComposing":true,"value":"한"}"#,
        #"{"type":"compositionupdate","data":"한"}"#,
        #"{"type":"compositionend","data":"한"}"#,
        #"{"type":"compositionstart","data":""}"#,
      ], text: "ㄱ", keys: 1),
    Trace(
      name: "T7", what: "macOS Chrome: 사 (its ㅅ keydown put before the published ㅏ), Cmd+← once",
      lines: [
        #"{"type":"keydown","key":"ㅅ","code":"KeyT","keyCode":229,"isComposing":false}"#,
        #"{"type":"compositionstart","data":""}"#,
        #"{"type":"compositionupdate","data":"ㅅ"}"#,
        #"{"type":"keydown","key":"ㅏ","code":"KeyK","keyCode":229,"isComposing":true}"#,
        #"{"type":"compositionupdate","data":"사"}"#,
        #"{"type":"keydown","key":"Meta","code":"MetaLeft","keyCode":91,"isComposing":true}"#,
        #"{"type":"keydown","key":"ArrowLeft","code":"ArrowLeft","keyCode":229,"isComposing":true,"metaKey":true}"#,
        #"{"type":"compositionupdate","data":"사"}"#,
        #"{"type":"input","data":"사","inputType":"insertCompositionText"}"#,
        #"{"type":"compositionend","data":"사"}"#,
        #"{"type":"keyup","key":"ArrowLeft","code":"ArrowLeft","keyCode":37,"isComposing":false,"metaKey":true}"#,
        #"{"type":"keydown","key":"ArrowLeft","code":"ArrowLeft","keyCode":37,"isComposing":false,"metaKey":true}"#,
        #"{"type":"keyup","key":"ArrowLeft","code":"ArrowLeft","keyCode":37,"isComposing":false,"metaKey":true}"#,
      ], text: "사", keys: 3),
    Trace(
      name: "T8", what: "WKWebView: input before keydown, no composition events (한글 cut after ㄱ)",
      lines: [
        #"{"type":"input","data":"ㅎ","isComposing":false,"value":"ㅎ"}"#,
        #"{"type":"keydown","key":"ㅎ","keyCode":229}"#,
        #"{"type":"input","data":"하","isComposing":false,"value":"하"}"#,
        #"{"type":"keydown","key":"ㅏ","keyCode":229}"#,
        #"{"type":"input","data":"한","isComposing":false,"value":"한"}"#,
        #"{"type":"keydown","key":"ㄴ","keyCode":229}"#,
        #"{"type":"input","data":"ㄱ","isComposing":false,"value":"한ㄱ"}"#,
      ], text: "한ㄱ", keys: 4),
    Trace(
      name: "T9", what: "WKWebView: insertText and insertReplacementText only",
      lines: [
        #"{"type":"input","inputType":"insertText","data":"ㅇ"}"#,
        #"{"type":"input","inputType":"insertReplacementText","data":"아"}"#,
        #"{"type":"input","inputType":"insertReplacementText","data":"안"}"#,
        #"{"type":"input","inputType":"insertText","data":"ㄴ"}"#,
        #"{"type":"input","inputType":"insertReplacementText","data":"녀"}"#,
        #"{"type":"input","inputType":"insertReplacementText","data":"녕"}"#,
      ], text: "안녕", keys: 6),
  ]

  @Test("each published trace replays to its text", arguments: traces)
  func replays(trace: Trace) {
    let result = BrowserEventTests.run(trace.lines)
    #expect(result.output == trace.text + "\n")
    #expect(result.errors.isEmpty)
    #expect(result.warnings.isEmpty)
    #expect(result.statistics.total.keystrokes == trace.keys)
  }
}

/// The samples of hangul-keylog(5), one a platform model, replayed by the library.
@Suite("Browser samples")
struct BrowserSampleTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test(
    "each sample replays to its expected text with its keys",
    arguments: [
      ("issue28", 2, 0), ("chrome-windows", 27, 0), ("chrome-macos", 28, 0),
      ("safari-macos", 29, 0), ("android", 24, 24), ("wkwebview", 7, 6),
    ])
  func sample(name: String, keys: Int, rebuilt: Int) throws {
    let log = try String(
      contentsOf: Self.repository.appendingPathComponent("samples/browser-\(name).jsonl"),
      encoding: .utf8)
    let expected = try String(
      contentsOf: Self.repository.appendingPathComponent("samples/browser-\(name).expected.txt"),
      encoding: .utf8)
    let result = BrowserEventTests.run(BrowserEventTests.lines(log))
    #expect(result.output == expected)
    #expect(result.errors.isEmpty)
    #expect(result.warnings.isEmpty)
    #expect(result.statistics.total.keystrokes == keys)
    #expect(result.statistics.total.reconstructed == rebuilt)
  }
}
