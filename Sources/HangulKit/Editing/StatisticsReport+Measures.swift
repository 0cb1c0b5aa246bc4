/// The writing-process measures in `--stats` (hangul-keylog(5), MEASURES):
/// a `"process"` object in each JSON entry, a second table in the text, and
/// the columns of `--stats-format csv`.
extension WritingMeasures {
  /// The measures as (name, value) pairs in a fixed order, `nil` where a
  /// value is not known; with `target`, the error-rate columns too.
  package func columns(kept: Int, typingTime: Double?, target: Bool) -> [(String, String?)] {
    func milliseconds(_ value: Double?) -> String? { value.map { format($0, 1) } }
    var columns: [(String, String?)] = [
      ("pauseThresholdMs", format(pauseThreshold, 0)),
      ("charactersProduced", "\(charactersProduced)"), ("charactersKept", "\(kept)"),
      (
        "productProcessRatio",
        charactersProduced > 0 ? format(Double(kept) / Double(charactersProduced), 3) : nil
      ),
      ("ikiCount", "\(intervals.count)"), ("ikiMeanMs", milliseconds(intervals.mean)),
      ("ikiMedianMs", milliseconds(intervals.median)),
    ]
    for place in IntervalPlace.allCases {
      let tally = intervalsByPlace[place.rawValue]
      let name = "iki" + place.capitalizedName
      columns += [
        (name + "Count", "\(tally.count)"), (name + "MeanMs", milliseconds(tally.mean)),
        (name + "MedianMs", milliseconds(tally.median)),
      ]
    }
    let share = typingTime.flatMap { $0 > 0 ? format(pauses.total / $0, 3) : nil }
    columns += [
      ("pauseCount", "\(pauses.count)"), ("pauseTotalMs", format(pauses.total, 1)),
      ("pauseShare", share),
    ]
    for place in IntervalPlace.allCases {
      columns.append(("pauses" + place.capitalizedName, "\(pausesByPlace[place.rawValue])"))
    }
    columns += [
      ("burstCount", "\(bursts)"), ("burstMeanCharacters", meanBurstLength.map { format($0, 2) }),
      ("backspacesInSyllable", "\(backspacesInSyllable)"),
      ("backspacesDeletingText", "\(backspacesDeletingText)"),
      ("charactersDeleted", "\(charactersDeleted)"), ("revisionEpisodes", "\(revisionEpisodes)"),
    ]
    guard target else { return columns }
    let rates = errors
    func count(_ value: Int?) -> String? { value.map { "\($0)" } }
    func percent(_ value: Double?) -> String? { value.map { format($0, 2) } }
    return columns + [
      ("msdCharacters", count(rates?.msdCharacters)),
      ("characterErrorRate", percent(rates?.characterErrorRate)),
      ("msdJamo", count(rates?.msdJamo)), ("jamoErrorRate", percent(rates?.jamoErrorRate)),
      ("correct", count(rates?.correct)), ("incorrectNotFixed", count(rates?.incorrectNotFixed)),
      ("incorrectFixed", count(rates?.incorrectFixed)), ("fixes", count(rates?.fixes)),
      ("correctedErrorRate", percent(rates?.correctedErrorRate)),
      ("uncorrectedErrorRate", percent(rates?.uncorrectedErrorRate)),
      ("totalErrorRate", percent(rates?.totalErrorRate)),
    ]
  }

  private func format(_ value: Double, _ digits: Int) -> String {
    StatisticsReport.format(value, digits: digits)
  }
}

extension IntervalPlace {
  var capitalizedName: String { name.prefix(1).uppercased() + name.dropFirst() }
}

extension TypingStatistics {
  /// The measures' columns of this entry, or `nil` without measures.
  func processColumns(target: Bool) -> [(String, String?)]? {
    process?.columns(kept: characters, typingTime: typingTime, target: target)
  }
}

extension StatisticsReport {
  /// Whether any document was measured against a target.
  var hasTarget: Bool { total.process?.errors != nil }

  /// `--stats-format csv`: a header and one row a document with a `"doc"`
  /// (a log without any: one row, its `doc` empty), RFC 4180.
  package var csv: String {
    let rows = documents.isEmpty ? [total] : documents
    let target = hasTarget
    let base = [
      "doc", "keys", "backspaces", "backspacesWithoutEffect", "characters", "syllables", "kspc",
      "typingTimeMs", "charactersPerMinute",
    ]
    let process = total.processColumns(target: target)?.map(\.0) ?? []
    var lines = [(base + process).map(Self.csvField).joined(separator: ",")]
    for entry in rows {
      var cells: [String?] = [
        documents.isEmpty ? nil : entry.document, "\(entry.keystrokes)", "\(entry.backspaces)",
        "\(entry.backspacesWithoutEffect)", "\(entry.characters)", "\(entry.syllables)",
        entry.keystrokesPerCharacter.map { Self.format($0, digits: 3) },
        entry.typingTime.map { Self.format($0, digits: 0) },
        entry.charactersPerMinute.map { Self.format($0, digits: 1) },
      ]
      let measured = entry.processColumns(target: target)?.map(\.1)
      cells += measured ?? Array(repeating: nil, count: process.count)
      lines.append(cells.map { $0.map(Self.csvField) ?? "" }.joined(separator: ","))
    }
    return lines.map { $0 + "\r\n" }.joined()
  }

  static func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "\"" || $0 == "," || $0 == "\n" || $0 == "\r" }) else {
      return text
    }
    return "\""
      + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
      + "\""
  }

  /// The second table of the text: the measures of each document and the total.
  var processTable: String {
    guard total.process != nil else { return "" }
    let target = hasTarget
    var header = [
      "document", "IKI med", "IKI mean", "in syl med", "syl med", "word med", "rev med", "pauses",
      "pause %", "bursts", "burst ch", "kept %", "BS in syl", "BS text", "deleted", "episodes",
    ]
    if target { header += ["CER %", "jamo ER %", "corr ER %", "uncorr ER %", "total ER %"] }
    var rows = [header]
    for entry in documents + [total] {
      guard let columns = entry.processColumns(target: target) else { continue }
      let value = Dictionary(columns, uniquingKeysWith: { first, _ in first })
      func cell(_ name: String) -> String { (value[name] ?? nil) ?? "-" }
      func scaled(_ name: String) -> String {
        guard let text = value[name] ?? nil, let number = Double(text) else { return "-" }
        return Self.format(number * 100, digits: 1)
      }
      var row = [
        entry.document ?? "total", cell("ikiMedianMs"), cell("ikiMeanMs"),
        cell("ikiWithinSyllableMedianMs"), cell("ikiBetweenSyllablesMedianMs"),
        cell("ikiBetweenWordsMedianMs"), cell("ikiAroundRevisionMedianMs"), cell("pauseCount"),
        scaled("pauseShare"), cell("burstCount"), cell("burstMeanCharacters"),
        scaled("productProcessRatio"), cell("backspacesInSyllable"),
        cell("backspacesDeletingText"), cell("charactersDeleted"), cell("revisionEpisodes"),
      ]
      if target {
        row += [
          cell("characterErrorRate"), cell("jamoErrorRate"), cell("correctedErrorRate"),
          cell("uncorrectedErrorRate"), cell("totalErrorRate"),
        ]
      }
      rows.append(row)
    }
    return "\n" + Self.aligned(rows)
  }

  /// Rows as an aligned table: the first column left, the others right.
  static func aligned(_ rows: [[String]]) -> String {
    guard let header = rows.first else { return "" }
    let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column == 0 ? cell + padding : padding + cell
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }
}
