import Foundation
import Testing

/// `--plot FILE.svg` (hangul-compose(1)): the picture a real SVG renderer draws.
@Suite("Process graphs")
struct ProcessPlotTests {
  let compose = Executable("hangul-compose")

  static var hasRenderer: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert")
  }

  /// The width and height of a PNG, from its IHDR chunk.
  static func size(ofPNG data: Data) -> (Int, Int)? {
    let bytes = [UInt8](data)
    guard bytes.count > 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
    func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (number(16), number(20))
  }

  @Test(
    "rsvg-convert renders the graph of each sample: a panel a document, not empty",
    .enabled(if: hasRenderer, "rsvg-convert is not installed (.ci/run installs librsvg2-bin)"),
    arguments: [
      ("samples/browser-keydown.jsonl", 2), ("samples/events-two-docs.jsonl", 3),
      ("samples/events-measures.jsonl", 1),
    ])
  func rendered(sample: String, documents: Int) throws {
    let folder = try temporaryFolder()
    let svg = folder.appendingPathComponent("graph.svg")
    let png = folder.appendingPathComponent("graph.png")
    let result = try compose.run(
      ["--format", "events", "--plot", svg.path, repositoryFile(sample).path])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let picture = try String(contentsOf: svg, encoding: .utf8)
    #expect(picture.components(separatedBy: "<polyline").count - 1 == 3 * documents)
    #expect(picture.contains("time (s)"))
    #expect(picture.contains("keys pressed"))
    let render = try compose.shell("rsvg-convert '\(svg.path)' -o '\(png.path)' 2>&1")
    #expect(render.status == 0, "\(render.text)")
    let data = try Data(contentsOf: png)
    let size = try #require(Self.size(ofPNG: data))
    #expect(size == (900, 300 * documents))
    // A blank picture of that size compresses to a few hundred bytes; lines and text do not.
    let blank = folder.appendingPathComponent("blank.svg")
    try Data(
      #"<svg xmlns="http://www.w3.org/2000/svg" width="900" height="\#(300 * documents)"><rect width="100%" height="100%" fill="white"/></svg>"#
        .utf8
    ).write(to: blank)
    let blankRender = try compose.shell("rsvg-convert '\(blank.path)' | wc -c")
    let blankSize = Int(blankRender.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    #expect(data.count > 10 * max(blankSize, 100))
  }

  @Test("the README's graph is what --plot draws of its sample")
  func readmeGraph() throws {
    let folder = try temporaryFolder()
    let svg = folder.appendingPathComponent("graph.svg")
    _ = try compose.run([
      "--format", "events", "--plot", svg.path,
      repositoryFile("samples/browser-keydown.jsonl").path,
    ])
    let committed = try Data(contentsOf: repositoryFile("samples/browser-keydown-process.svg"))
    #expect(try Data(contentsOf: svg) == committed)
  }

  @Test("--plot needs --format events; an input is not overwritten (64)")
  func usage() throws {
    let sample = repositoryFile("samples/events-measures.jsonl").path
    #expect(try compose.run(["--plot", "/tmp/x.svg", sample]).status == 64)
    let overwrite = try compose.run(["--format", "events", "--plot", sample, sample])
    #expect(overwrite.status == 64)
    #expect(overwrite.stderr.contains("is the input"))
    let unwritable = try compose.run([
      "--format", "events", "--plot", "/nonexistent/graph.svg", sample,
    ])
    #expect(unwritable.status == 74)
  }
}
