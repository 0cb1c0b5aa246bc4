import HangulKit
import Testing

/// The writing-process measures (hangul-keylog(5), MEASURES), each checked
/// against values worked out by hand in the comments.
@Suite("Writing-process measures")
struct WritingMeasureTests {
  /// `{"key":K,"t":T}` lines of jamo and named keys at the given times.
  static func log(_ keys: [(String, Double)]) -> [String] {
    keys.map { key, time in
      let name = key == "\"" ? "\\\"" : key
      let spelled = time == time.rounded() ? String(Int(time)) : String(time)
      return #"{"key":"\#(name)","t":\#(spelled)}"#
    }
  }

  /// The `"process"` members of the one document's `--stats json`.
  static func measures(
    _ keys: [(String, Double)], pause: Double = 2000, target: String? = nil
  ) -> [String: String] {
    var targets = target.map { [$0] } ?? []
    var filter = EventLogFilter(
      includesStatistics: true, pauseThreshold: pause,
      targets: target == nil ? nil : { targets.isEmpty ? nil : targets.removeFirst() }
    ) { _ in }
    _ = try? filter.filtered(Array(log(keys).joined(separator: "\n").utf8))
    let columns = filter.statistics.total.process?.columns(
      kept: filter.statistics.total.characters, typingTime: filter.statistics.total.typingTime,
      target: target != nil)
    var values: [String: String] = [:]
    for (name, value) in columns ?? [] { values[name] = value ?? "null" }
    return values
  }

  /// The objects of `--output keystrokes`, as JSON values.
  static func keystrokes(_ keys: [(String, Double)], pause: Double = 2000) -> [JSONValue] {
    var filter = EventLogFilter(output: .keystrokes, pauseThreshold: pause) { _ in }
    let output = (try? filter.filtered(Array(log(keys).joined(separator: "\n").utf8))) ?? []
    return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap {
      try? JSONParser.parse(Array($0.utf8))
    }
  }

  /// Keys one after another, `step` ms apart from 0.
  static func typed(_ keys: [String], step: Double = 100) -> [(String, Double)] {
    keys.enumerated().map { ($1, Double($0) * step) }
  }

  // MARK: per key

  @Test(
    "role: where each key's jamo lands in the syllable being composed",
    arguments: [
      // ㄱ ㅏ ㄴ: initial, vowel, final; ㅏ moves ㄴ on (나): a vowel.
      (["ㄱ", "ㅏ", "ㄴ", "ㅏ"], ["initial", "vowel", "final", "vowel"]),
      // ㅗ ㅏ make ㅘ: both vowels; ㄹ ㄱ make the final ㄺ: both finals.
      (["ㄱ", "ㅗ", "ㅏ", "ㄹ", "ㄱ"], ["initial", "vowel", "vowel", "final", "final"]),
      // Backspace, Space and a period land nowhere.
      (["ㄱ", "Backspace", ".", " ", "ㅏ"], ["initial", "-", "-", "-", "vowel"]),
    ])
  func role(keys: [String], expected: [String]) {
    let objects = Self.keystrokes(Self.typed(keys))
    #expect(objects.map { $0["role"]?.stringValue ?? "-" } == expected)
  }

  @Test(
    "syllable: the number of the syllable the jamo lands in",
    arguments: [
      // 가 | 나 (ㅏ takes ㄴ on): 1 1 1 2; Space none; ㄷ ㅏ: 3 3.
      (["ㄱ", "ㅏ", "ㄴ", "ㅏ", " ", "ㄷ", "ㅏ"], [1, 1, 1, 2, 0, 3, 3]),
      // An undone jamo stays in its syllable; a syllable deleted and typed again is new.
      (["ㄱ", "ㅓ", "Backspace", "ㅏ", "Backspace", "Backspace", "ㄱ"], [1, 1, 0, 1, 0, 0, 2]),
    ])
  func syllable(keys: [String], expected: [Int]) {
    let objects = Self.keystrokes(Self.typed(keys))
    #expect(objects.map { $0["syllable"]?.numberSpelling.flatMap { Int($0) } ?? 0 } == expected)
  }

  @Test("iki, pause and burst: intervals from the key before; a pause starts the next burst")
  func intervalsPausesBursts() {
    // Times 0, 100, 2100 (a pause of exactly 2000), 2200, 5000 (2800).
    let keys = [("ㄱ", 0.0), ("ㅏ", 100), ("ㄴ", 2100), ("ㅏ", 2200), ("ㄷ", 5000)]
    let objects = Self.keystrokes(keys)
    #expect(
      objects.map { $0["iki"]?.numberSpelling ?? "-" } == ["-", "100", "2000", "100", "2800"])
    #expect(objects.map { $0["pause"] == .bool(true) } == [false, false, true, false, true])
    #expect(objects.map { $0["burst"]?.numberSpelling ?? "-" } == ["1", "1", "2", "2", "3"])
    // With --pause 3000 there is none: one burst.
    let longer = Self.keystrokes(keys, pause: 3000)
    #expect(longer.map { $0["burst"]?.numberSpelling ?? "-" } == ["1", "1", "1", "1", "1"])
  }

  @Test(
    "revision: deleting keys and the movements after them, until another key",
    arguments: [
      (["ㄱ", "Backspace", "Backspace", "ㄴ"], [false, true, true, false]),
      // An arrow continues an episode but does not start one.
      (
        ["ㄱ", "ArrowLeft", "Backspace", "ArrowRight", "End", "ㄴ"],
        [
          false, false, true, true, true, false,
        ]
      ),
      (["ㄱ", "ㅏ", " ", "Delete", "ㄴ", "Backspace"], [false, false, false, true, false, true]),
    ])
  func revision(keys: [String], expected: [Bool]) {
    let objects = Self.keystrokes(Self.typed(keys))
    #expect(objects.map { $0["revision"] == .bool(true) } == expected)
  }

  // MARK: per document

  @Test(
    "inter-key intervals: count, mean and median, by place",
    arguments: [
      // 가 나 space 다: intervals 100 (within) 150 (within) 150 (ㅏ starts 나: between
      // syllables) 200 (space: between syllables) 300 (ㄷ after a space: between words)
      // 250 (within). All: sorted 100 150 150 200 250 300: median 175, mean 1150/6.
      (
        [("ㄱ", 0.0), ("ㅏ", 100), ("ㄴ", 250), ("ㅏ", 400), (" ", 600), ("ㄷ", 900), ("ㅏ", 1150)],
        [
          "ikiCount": "6", "ikiMedianMs": "175.0", "ikiMeanMs": "191.7",
          "ikiWithinSyllableCount": "3", "ikiWithinSyllableMedianMs": "150.0",
          "ikiWithinSyllableMeanMs": "166.7", "ikiBetweenSyllablesCount": "2",
          "ikiBetweenSyllablesMedianMs": "175.0", "ikiBetweenWordsCount": "1",
          "ikiBetweenWordsMedianMs": "300.0", "ikiAroundRevisionCount": "0",
          "ikiAroundRevisionMedianMs": "null",
        ]
      ),
      // ㄱ ㅓ BS ㅏ: 100 (within) 400 (BS: revision) 50 (after BS: revision): median 100.
      // A fractional interval is rounded for the median (100.4 → 100), not for the mean.
      (
        [("ㄱ", 0.0), ("ㅓ", 100.4), ("Backspace", 500.4), ("ㅏ", 550.4)],
        [
          "ikiCount": "3", "ikiMedianMs": "100.0", "ikiMeanMs": "183.5",
          "ikiAroundRevisionCount": "2", "ikiAroundRevisionMedianMs": "225.0",
          "ikiAroundRevisionMeanMs": "225.0",
        ]
      ),
    ])
  func intervals(keys: [(String, Double)], expected: [String: String]) {
    let values = Self.measures(keys)
    for (name, value) in expected { #expect(values[name] == value, "\(name)") }
  }

  @Test("pauses: count, total, share of the typing time, place; --pause moves the line")
  func pauses() {
    // 0 ㄱ, 2500 ㅏ (2500 within), 2600 space, 5600 ㄴ (3000 between words), 5700 ㅏ.
    // Typing time 5700: share 5500 / 5700 = 0.965.
    let keys = [("ㄱ", 0.0), ("ㅏ", 2500), (" ", 2600), ("ㄴ", 5600), ("ㅏ", 5700)]
    let values = Self.measures(keys)
    #expect(values["pauseCount"] == "2")
    #expect(values["pauseTotalMs"] == "5500.0")
    #expect(values["pauseShare"] == "0.965")
    #expect(values["pausesWithinSyllable"] == "1")
    #expect(values["pausesBetweenWords"] == "1")
    #expect(values["pausesBetweenSyllables"] == "0")
    #expect(values["burstCount"] == "3")
    let longer = Self.measures(keys, pause: 2800)
    #expect(longer["pauseCount"] == "1")
    #expect(longer["pauseThresholdMs"] == "2800")
    #expect(longer["burstCount"] == "2")
  }

  @Test("characters produced and kept, P-burst length, revisions")
  func productAndRevisions() {
    // 가 나 . BS BS ㄷ ㅓ BS ㅏ: produced 가 나 . (the BS after . deletes it, the next 나)
    // then 다 at the end = 4; deleted 2; kept 가다 = 2; ratio 0.5. Pause before ㄷ: two
    // bursts, 4 / 2 = 2.00 characters a burst. BS inside 더: 1; deleting: 2; one episode
    // (the two BS in a row) and a second (the BS inside 더).
    let keys = [
      ("ㄱ", 0.0), ("ㅏ", 100), ("ㄴ", 200), ("ㅏ", 300), (".", 400), ("Backspace", 500),
      ("Backspace", 600), ("ㄷ", 3000), ("ㅓ", 3100), ("Backspace", 3200), ("ㅏ", 3300),
    ]
    let values = Self.measures(keys)
    #expect(values["charactersProduced"] == "4")
    #expect(values["charactersKept"] == "2")
    #expect(values["productProcessRatio"] == "0.500")
    #expect(values["burstCount"] == "2")
    #expect(values["burstMeanCharacters"] == "2.00")
    #expect(values["backspacesInSyllable"] == "1")
    #expect(values["backspacesDeletingText"] == "2")
    #expect(values["charactersDeleted"] == "2")
    #expect(values["revisionEpisodes"] == "2")
  }

  @Test("Ctrl-W's characters are deleted characters; a Backspace at the start has no effect")
  func deleteWordAndNoEffect() {
    // BS (nothing) 가 나 space, then DeleteWord deletes "가나 " = 3.
    let keys = Self.typed(["Backspace", "ㄱ", "ㅏ", "ㄴ", "ㅏ", " ", "DeleteWord"])
    let values = Self.measures(keys)
    #expect(values["charactersDeleted"] == "3")
    #expect(values["backspacesDeletingText"] == "0")
    #expect(values["backspacesInSyllable"] == "0")
    #expect(values["charactersProduced"] == "3")
    #expect(values["charactersKept"] == "0")
    #expect(values["revisionEpisodes"] == "2")
  }

  @Test(
    "error rates: MSD on characters and jamo; Soukoreff and MacKenzie's C, INF, IF, F",
    arguments: [
      // Same text: no error. C = 2.
      ("가나", "가나", 0, 0, [0, 2, 0, 4, 2, 0, 0]),
      // 다 for 나: 1 of 2 characters, 1 of 4 jamo (ㄷ for ㄴ). C 1, INF 1.
      ("가다", "가나", 0, 0, [1, 2, 1, 4, 1, 1, 0]),
      // 각 for 가: 1 character; jamo ㄱㅏㄱ against ㄱㅏ: 1 of 3.
      ("각", "가", 2, 1, [1, 1, 1, 3, 0, 1, 2]),
      // A missing character: 가 against 가나: MSD 1 of 2; jamo 2 of 4.
      ("가", "가나", 0, 0, [1, 2, 2, 4, 1, 1, 0]),
    ])
  func errorRates(transcribed: String, target: String, fixed: Int, fixes: Int, expected: [Int]) {
    let rates = ErrorRates(transcribed: transcribed, target: target, fixed: fixed, fixes: fixes)
    #expect(
      [
        rates.msdCharacters, rates.longerCharacters, rates.msdJamo, rates.longerJamo,
        rates.correct, rates.incorrectNotFixed, rates.incorrectFixed,
      ] == expected)
    #expect(rates.fixes == fixes)
  }

  @Test("error rates in --stats: INF / (C + INF + IF), IF / (…), (INF + IF) / (…)")
  func errorRatesInStatistics() {
    // Typed 가. BS 다 (the period fixed) against 가나: C 1, INF 1, IF 1, F 1:
    // uncorrected 1/3, corrected 1/3, total 2/3; characters 1/2, jamo ㄷ for ㄴ 1/4.
    let keys = Self.typed(["ㄱ", "ㅏ", ".", "Backspace", "ㄷ", "ㅏ"])
    let values = Self.measures(keys, target: "가나")
    #expect(values["characterErrorRate"] == "50.00")
    #expect(values["jamoErrorRate"] == "25.00")
    #expect(values["correct"] == "1")
    #expect(values["incorrectNotFixed"] == "1")
    #expect(values["incorrectFixed"] == "1")
    #expect(values["fixes"] == "1")
    #expect(values["uncorrectedErrorRate"] == "33.33")
    #expect(values["correctedErrorRate"] == "33.33")
    #expect(values["totalErrorRate"] == "66.67")
  }

  @Test("a reader's target (setTarget) is the document's, without --target")
  func readerTarget() throws {
    var filter = EventLogFilter(includesStatistics: true) { _ in }
    var output: [UInt8] = []
    let first = Array(#"{"key":"ㄱ","t":0}"#.utf8 + [0x0A])
    first.withUnsafeBufferPointer { filter.process($0, into: &output) }
    filter.setTarget("가")
    let rest = Array(#"{"key":"ㅓ","t":100}"#.utf8 + [0x0A])
    rest.withUnsafeBufferPointer { filter.process($0, into: &output) }
    filter.finish(into: &output)
    let rates = try #require(filter.statistics.total.process?.errors)
    #expect(rates.msdCharacters == 1)
    #expect(rates.msdJamo == 1)
  }

  @Test(
    "median of the millisecond counts: odd, even, rounding, past the bound",
    arguments: [
      ([300.0, 100, 200], 200.0),
      ([100.0, 200, 300, 401], 250.0),
      ([99.5, 100.49], 100.0),
      ([1.0, 70_000, 80_000], 60_000.0),
      ([Double](), -1.0),
    ] as [([Double], Double)])
  func median(values: [Double], expected: Double) {
    var histogram = MillisecondHistogram()
    for value in values { histogram.add(value) }
    #expect((histogram.median ?? -1) == expected)
  }

  @Test("the worked example of hangul-keylog(5), MEASURES")
  func workedExample() {
    let keys = [
      ("ㄱ", 0.0), ("ㅏ", 100), ("ㄴ", 250), ("ㅏ", 400), (" ", 600), ("ㄷ", 3000), ("ㅓ", 3200),
      ("Backspace", 3500), ("ㅏ", 3700), (".", 3800), ("Backspace", 4000), ("Enter", 4200),
    ]
    let values = Self.measures(keys, target: "가나 타")
    let expected = [
      "ikiMedianMs": "200.0", "ikiMeanMs": "381.8", "ikiWithinSyllableMedianMs": "150.0",
      "ikiBetweenSyllablesMedianMs": "150.0", "ikiBetweenWordsMedianMs": "2400.0",
      "ikiAroundRevisionMedianMs": "200.0", "ikiAroundRevisionMeanMs": "225.0",
      "pauseCount": "1", "pauseShare": "0.571", "pausesBetweenWords": "1", "burstCount": "2",
      "charactersProduced": "6", "charactersKept": "5", "productProcessRatio": "0.833",
      "burstMeanCharacters": "3.00", "backspacesInSyllable": "1", "backspacesDeletingText": "1",
      "charactersDeleted": "1", "revisionEpisodes": "2", "characterErrorRate": "25.00",
      "jamoErrorRate": "14.29", "uncorrectedErrorRate": "20.00", "correctedErrorRate": "20.00",
      "totalErrorRate": "40.00",
    ]
    for (name, value) in expected { #expect(values[name] == value, "\(name)") }
  }
}

/// `--plot`'s memory bound: points, and documents drawn.
@Suite("Process graph bounds")
struct ProcessPlotBoundTests {
  @Test("10,000 keys keep at most 4096 points; 150 documents draw 100 and say so")
  func bounds() {
    var lines: [String] = []
    for index in 0..<10_000 { lines.append(#"{"doc":0,"key":"ㄱ","t":\#(index * 10)}"#) }
    for document in 1..<150 {
      lines.append(#"{"doc":\#(document),"key":"ㄱ","t":\#(100_000 + document)}"#)
    }
    var filter = EventLogFilter(plots: true) { _ in }
    _ = try? filter.filtered(Array(lines.joined(separator: "\n").utf8))
    let plot = filter.statistics.plot
    #expect(plot?.documents.count == ProcessPlot.documentLimit)
    #expect(plot?.undrawn == 50)
    #expect((plot?.documents.first?.points.count ?? .max) <= ProcessPlot.pointLimit)
    #expect((plot?.documents.first?.points.count ?? 0) >= ProcessPlot.pointLimit / 2)
    #expect(plot?.svg.contains("50 more documents are not drawn") == true)
  }
}
