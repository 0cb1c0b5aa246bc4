/// `--plot`: each document's writing process as the keystroke loggers'
/// process graphs draw it (hangul-compose(1)): time across; keys pressed,
/// the document's length and the cursor's position up; pauses shaded,
/// revisions marked.
///
/// Memory is bounded: a document keeps at most ``pointLimit`` points (past
/// that, every other one is dropped and then only every second, fourth …
/// is taken), as many pauses and revision marks, and the graph draws the
/// first ``documentLimit`` documents and says how many more there were.
package struct ProcessPlot: Sendable, Equatable {
  package struct Point: Sendable, Equatable {
    var time: Double
    var keys: Int
    var length: Int
    var cursor: Int
  }

  package struct Document: Sendable, Equatable {
    var name: String?
    package internal(set) var points: [Point] = []
    var pauses: [(start: Double, end: Double)] = []
    var revisions: [Double] = []
    /// Take every `stride`-th point once ``pointLimit`` was reached.
    var stride = 1
    var seen = 0

    package static func == (first: Document, second: Document) -> Bool {
      first.name == second.name && first.points == second.points
        && first.pauses.elementsEqual(second.pauses) { $0 == $1 }
        && first.revisions == second.revisions
    }
  }

  package static let pointLimit = 4096
  package static let documentLimit = 100

  package private(set) var documents: [Document] = []
  /// Documents past ``documentLimit``, not drawn.
  package private(set) var undrawn = 0
  private var current = Document()

  package init() {}

  /// Adds a key at `time` (milliseconds): the keys so far, the document's
  /// length and the cursor after it; `pause` when the interval before it,
  /// from `previous`, was a pause; `revision` for a key of a revision episode.
  mutating func add(
    _ point: Point, pauseSince previous: Double?, revision: Bool
  ) {
    current.seen += 1
    // Past the documents drawn, a document is only counted.
    guard documents.count < Self.documentLimit else { return }
    if let previous, current.pauses.count < Self.pointLimit {
      current.pauses.append((previous, point.time))
    }
    if revision, current.revisions.count < Self.pointLimit {
      current.revisions.append(point.time)
    }
    guard current.seen % current.stride == 0 else { return }
    current.points.append(point)
    if current.points.count >= Self.pointLimit {
      current.points = current.points.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
      current.stride *= 2
    }
  }

  /// Whether the next key's point is kept (the caller need not work out a
  /// point that is dropped: the cursor's offset takes O(lines)).
  var keepsNextPoint: Bool {
    documents.count < Self.documentLimit && (current.seen + 1) % current.stride == 0
  }

  /// Ends the document (a log without `"doc"`: its name is `nil`).
  mutating func finishDocument(named name: String?) {
    defer { current = Document() }
    guard current.seen > 0 else { return }
    guard documents.count < Self.documentLimit else {
      undrawn += 1
      return
    }
    current.name = name
    documents.append(current)
  }

  /// The documents of a later piece of the input after this one's.
  package mutating func append(_ later: ProcessPlot) {
    for document in later.documents {
      if documents.count < Self.documentLimit { documents.append(document) } else { undrawn += 1 }
    }
    undrawn += later.undrawn
  }
}
