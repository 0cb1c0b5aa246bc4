/// The SVG of ``ProcessPlot``: one panel a document, stacked.
extension ProcessPlot {
  private static let width = 900.0
  private static let panelHeight = 300.0
  private static let margin = (left: 70.0, right: 20.0, top: 40.0, bottom: 45.0)
  private static var series: [(name: String, color: String, value: KeyPath<Point, Int>)] {
    [
      ("keys pressed", "#1f77b4", \.keys),
      ("document length (characters)", "#2ca02c", \.length),
      ("cursor position", "#ff7f0e", \.cursor),
    ]
  }

  /// The whole picture, a complete SVG document.
  package var svg: String {
    let notes = undrawn > 0 ? 1 : 0
    let height = Double(max(documents.count, 1)) * Self.panelHeight + Double(notes) * 30
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(Self.width))" \
      height="\(Self.number(height))" viewBox="0 0 \(Self.number(Self.width)) \(Self.number(height))" \
      font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>

      """
    if documents.isEmpty {
      out += "<text x=\"20\" y=\"40\">no timed keys to draw</text>\n"
    }
    for (index, document) in documents.enumerated() {
      out += Self.panel(document, top: Double(index) * Self.panelHeight)
    }
    if undrawn > 0 {
      out +=
        "<text x=\"20\" y=\"\(Self.number(height - 10))\">\(undrawn) more documents are not drawn (the first \(Self.documentLimit) are)</text>\n"
    }
    return out + "</svg>\n"
  }

  private static func panel(_ document: Document, top: Double) -> String {
    let left = margin.left
    let right = width - margin.right
    let plotTop = top + margin.top
    let bottom = top + panelHeight - margin.bottom
    let start = document.points.first?.time ?? 0
    let end = max(document.points.last?.time ?? 0, start + 1)
    let highest = max(
      1, document.points.map { max($0.keys, $0.length, $0.cursor) }.max() ?? 1)
    func x(_ time: Double) -> Double { left + (time - start) / (end - start) * (right - left) }
    func y(_ value: Int) -> Double { bottom - Double(value) / Double(highest) * (bottom - plotTop) }
    let title = document.name.map { "document " + escaped($0) } ?? "the document"
    var out =
      "<g>\n<text x=\"\(number(left))\" y=\"\(number(top + 20))\" font-size=\"14\" font-weight=\"bold\">\(title)</text>\n"
    for pause in document.pauses {
      let from = x(max(pause.start, start))
      let to = x(min(pause.end, end))
      out +=
        "<rect x=\"\(number(from))\" y=\"\(number(plotTop))\" width=\"\(number(max(0.5, to - from)))\" height=\"\(number(bottom - plotTop))\" fill=\"#cccccc\" fill-opacity=\"0.6\"/>\n"
    }
    for time in document.revisions {
      out +=
        "<line x1=\"\(number(x(time)))\" y1=\"\(number(bottom))\" x2=\"\(number(x(time)))\" y2=\"\(number(bottom - 8))\" stroke=\"#d62728\" stroke-width=\"1.5\"/>\n"
    }
    // Axes, with ticks: seconds across, characters and keys up.
    out +=
      "<path d=\"M\(number(left)) \(number(plotTop))V\(number(bottom))H\(number(right))\" fill=\"none\" stroke=\"black\"/>\n"
    for tick in 0...4 {
      let time = start + (end - start) * Double(tick) / 4
      let seconds = StatisticsReport.format((time - start) / 1000, digits: 1)
      out +=
        "<text x=\"\(number(x(time)))\" y=\"\(number(bottom + 16))\" text-anchor=\"middle\">\(seconds)</text>\n"
      let value = highest * tick / 4
      out +=
        "<text x=\"\(number(left - 6))\" y=\"\(number(y(value) + 4))\" text-anchor=\"end\">\(value)</text>\n"
    }
    out +=
      "<text x=\"\(number((left + right) / 2))\" y=\"\(number(bottom + 34))\" text-anchor=\"middle\">time (s)</text>\n"
    out +=
      "<text x=\"\(number(left - 50))\" y=\"\(number((plotTop + bottom) / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 \(number(left - 50)) \(number((plotTop + bottom) / 2)))\">count</text>\n"
    for line in series {
      let points = document.points.map {
        "\(number(x($0.time))),\(number(y($0[keyPath: line.value])))"
      }
      out +=
        "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"1.5\"/>\n"
    }
    // The legend, after the title: a swatch and a name each (about 7 px a character).
    var legendX = left + 200
    let entries =
      series.map { ($0.name, $0.color, 12.0) } + [
        ("pause", "#cccccc", 12), ("revision", "#d62728", 3),
      ]
    for (name, color, swatch) in entries {
      out +=
        "<rect x=\"\(number(legendX))\" y=\"\(number(top + 10))\" width=\"\(number(swatch))\" height=\"12\" fill=\"\(color)\"/><text x=\"\(number(legendX + 16))\" y=\"\(number(top + 20))\">\(name)</text>\n"
      legendX += 30 + 7 * Double(name.count)
    }
    return out + "</g>\n"
  }

  private static func number(_ value: Double) -> String {
    StatisticsReport.format(value.isFinite ? value : 0, digits: 1)
  }

  /// Text for an SVG text node: &, < and > escaped.
  private static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      // XML 1.0 has no control characters but tab, LF and CR.
      case _ where character.unicodeScalars.contains { $0.value < 0x20 }: result += "\u{FFFD}"
      default: result.append(character)
      }
    }
    return result
  }
}
