import Foundation
import TestSupport
import Testing

/// The writing-process measures of `--stats json` (hangul-keylog(5),
/// MEASURES) agree with what an independent computation makes of the same
/// log's `--output keystrokes` objects, on 1,000 generated documents: random
/// Korean lines typed key by key with random intervals, pauses (some of
/// exactly `--pause`), periods and runs of Backspaces (200 documents
/// without HANGUL_LONG_TESTS=1: the 1,000 take about 20 s on a loaded machine).
@Suite("Writing-process measures end to end")
struct MeasuresPropertyTests {
  let compose = Executable("hangul-compose")

  /// One document's keys: (key, time).
  static func document(_ random: inout SeededGenerator, startingAt start: Int) -> [(String, Int)] {
    let initials = Array("ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ").map(String.init)
    let vowels = Array("ㅏㅓㅗㅜㅡㅣㅐㅔ").map(String.init)
    let finals = Array("ㄱㄴㄹㅁㅂㅅㅇ").map(String.init)
    var keys: [(String, Int)] = []
    var time = start
    func press(_ key: String, _ random: inout SeededGenerator) {
      if !keys.isEmpty {
        if random.chance(2) {
          time += 2000
        } else if random.chance(5) {
          time += 2000 + random.below(5000)
        } else {
          time += 40 + random.below(400)
        }
      }
      keys.append((key, time))
      if random.chance(6) {
        for _ in 0...random.below(3) {
          time += 1 + random.below(300)
          keys.append(("Backspace", time))
        }
      }
    }
    for _ in 0...random.below(3) {
      for word in 0...random.below(4) {
        if word > 0 { press(" ", &random) }
        for _ in 0...random.below(4) {
          press(initials[random.below(initials.count)], &random)
          press(vowels[random.below(vowels.count)], &random)
          if random.chance(30) { press(finals[random.below(finals.count)], &random) }
        }
        if random.chance(5) { press(".", &random) }
      }
      press("Enter", &random)
    }
    return keys
  }

  /// What a document's `"process"` members should be, from its keystroke objects alone.
  static func expected(_ objects: [[String: Any]], pause: Double) -> [String: Double] {
    func scalars(_ value: Any?) -> Int { (value as? String)?.unicodeScalars.count ?? 0 }
    let times = objects.map { ($0["t"] as? NSNumber)?.doubleValue ?? 0 }
    let keys = objects.map { $0["key"] as? String ?? "" }
    let revision = keys.map { $0 == "Backspace" }
    var places: [String: [Double]] = [:]
    var all: [Double] = []
    var pauses: [String: Int] = [:]
    var pauseTotal = 0.0
    var latestSyllable = 0
    for index in objects.indices {
      let syllable = (objects[index]["syllable"] as? NSNumber)?.intValue
      defer { latestSyllable = max(latestSyllable, syllable ?? 0) }
      guard index > 0 else { continue }
      let interval = times[index] - times[index - 1]
      let place: String
      if revision[index] || revision[index - 1] {
        place = "AroundRevision"
      } else if keys[index - 1] == " " || keys[index - 1] == "Enter" {
        place = "BetweenWords"
      } else if objects[index]["role"] != nil, syllable == latestSyllable {
        place = "WithinSyllable"
      } else {
        place = "BetweenSyllables"
      }
      all.append(interval)
      places[place, default: []].append(interval)
      if interval >= pause {
        pauses[place, default: 0] += 1
        pauseTotal += interval
      }
    }
    func median(_ values: [Double]) -> Double {
      let sorted = values.sorted()
      let middle = sorted.count / 2
      return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
    let produced =
      objects.reduce(0) { $0 + scalars($1["commit"]) + ($1["key"] as? String == "Enter" ? 1 : 0) }
      + scalars(objects.last?["preedit"])
    var deleted = 0
    var inSyllable = 0
    var deleting = 0
    var episodes = 0
    for index in objects.indices where revision[index] {
      let count = (objects[index]["delete"] as? NSNumber)?.intValue ?? 0
      deleted += count
      if count > 0 { deleting += 1 }
      if count == 0, index > 0, scalars(objects[index - 1]["preedit"]) > 0 { inSyllable += 1 }
      if index == 0 || !revision[index - 1] { episodes += 1 }
    }
    let pauseCount = pauses.values.reduce(0, +)
    var result: [String: Double] = [
      "ikiCount": Double(all.count), "pauseCount": Double(pauseCount), "pauseTotalMs": pauseTotal,
      "burstCount": Double(1 + pauseCount), "charactersProduced": Double(produced),
      "charactersKept": Double(produced - deleted), "charactersDeleted": Double(deleted),
      "backspacesInSyllable": Double(inSyllable), "backspacesDeletingText": Double(deleting),
      "revisionEpisodes": Double(episodes),
      "burstMeanCharacters": Double(produced) / Double(1 + pauseCount),
    ]
    if !all.isEmpty {
      result["ikiMeanMs"] = all.reduce(0, +) / Double(all.count)
      result["ikiMedianMs"] = median(all)
      if let first = times.first, let last = times.last, last > first {
        result["pauseShare"] = pauseTotal / (last - first)
      }
    }
    if produced > 0 {
      result["productProcessRatio"] = Double(produced - deleted) / Double(produced)
    }
    for place in ["WithinSyllable", "BetweenSyllables", "BetweenWords", "AroundRevision"] {
      let values = places[place] ?? []
      result["iki\(place)Count"] = Double(values.count)
      result["pauses\(place)"] = Double(pauses[place] ?? 0)
      if !values.isEmpty {
        result["iki\(place)MeanMs"] = values.reduce(0, +) / Double(values.count)
        result["iki\(place)MedianMs"] = median(values)
      }
    }
    return result
  }

  @Test("on 1,000 generated documents, --stats json equals the measures of --output keystrokes")
  func agree() throws {
    let count = longRuns ? 1000 : 200
    var random = SeededGenerator(seed: 29)
    var lines: [String] = []
    var documents: [[(String, Int)]] = []
    for number in 0..<count {
      let keys = Self.document(&random, startingAt: number * 1_000_000)
      documents.append(keys)
      for (key, time) in keys { lines.append(#"{"doc":\#(number),"key":"\#(key)","t":\#(time)}"#) }
    }
    let folder = try temporaryFolder()
    let log = folder.appendingPathComponent("generated.jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
    let keystrokes = try compose.run(["--format", "events", "--output", "keystrokes", log.path])
    #expect(keystrokes.status == 0)
    let stats = try compose.run(
      ["--format", "events", "--stats", "--stats-format", "json", log.path])
    #expect(stats.status == 0)
    var objects: [[[String: Any]]] = Array(repeating: [], count: documents.count)
    for line in keystrokes.text.split(separator: "\n") {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let number = try #require((object["doc"] as? NSNumber)?.intValue)
      objects[number].append(object)
    }
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(stats.stderr.utf8)) as? [String: Any])
    let entries = try #require(report["documents"] as? [[String: Any]])
    #expect(entries.count == documents.count)
    var compared = 0
    for (number, entry) in entries.enumerated() {
      let process = try #require(entry["process"] as? [String: Any])
      let expected = Self.expected(objects[number], pause: 2000)
      #expect(
        (entry["characters"] as? NSNumber)?.doubleValue == expected["charactersKept"],
        "doc \(number)")
      for (name, value) in process where name != "pauseThresholdMs" {
        let measured = (value as? NSNumber)?.doubleValue
        let wanted = expected[name]
        guard let measured, let wanted else {
          #expect(measured == nil && wanted == nil, "doc \(number) \(name)")
          continue
        }
        // --stats rounds: a tenth of a millisecond, a thousandth of a ratio.
        #expect(abs(measured - wanted) <= 0.051, "doc \(number) \(name): \(measured) \(wanted)")
        compared += 1
      }
    }
    #expect(compared > 30 * documents.count)
  }
}
