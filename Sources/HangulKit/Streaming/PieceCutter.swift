/// Cuts the files of a parallel run into pieces, one after the other: each
/// ends just after the first separator at or past ``pieceSize`` bytes on,
/// looked for up to ``boundaryReach`` bytes further, or at a document's
/// start (``documentKey``), or at a boundary that the finder found (inputs
/// whose records are not lines). Used by one thread at a time (the
/// schedule's lock). Time: O(the bytes it looks at).
struct PieceCutter<ResumePoint: Sendable> {
  let files: [OpenFile]
  let separator: UInt8
  let pieceSize: Int
  let boundaryReach: Int
  let documentKey: (@Sendable (UnsafeBufferPointer<UInt8>) -> Range<Int>?)?
  let makeBoundaryFinder: (@Sendable () -> any PieceBoundaryFinder<ResumePoint>)?

  /// Where the next piece is cut from.
  private var fileIndex = 0
  private var offset = 0
  /// Whether the next piece begins inside a line (the last one cut found no end for it).
  private var cutInsideRecord = false
  /// Whether the empty file at `fileIndex` had its (empty) piece cut.
  private var emptyFileCut = false
  /// The index of the next piece.
  private(set) var nextIndex = 0
  /// The boundary finder of the file being cut, and what it found where the next piece begins.
  private var boundaryFinder: (any PieceBoundaryFinder<ResumePoint>)?
  private var nextResumePoint: ResumePoint?
  /// Set when the filter before a piece found that the piece's boundary was
  /// not where the finder said: the finder stops guessing.
  var wrongGuess: WrongGuess?
  /// The bytes the cutting reads.
  private var window: [UInt8] = []

  /// A wrong guess of the boundary finder, in the file at `fileIndex`, and
  /// where the filter that then read the piece in order stood before it
  /// (``ByteFilter/resumePoint``), when it stood where a piece can begin.
  struct WrongGuess: Sendable {
    var fileIndex: Int
    var knownGood: ResumePoint?
  }

  init(
    files: [OpenFile], separator: UInt8, pieceSize: Int, boundaryReach: Int,
    documentKey: (@Sendable (UnsafeBufferPointer<UInt8>) -> Range<Int>?)?,
    makeBoundaryFinder: (@Sendable () -> any PieceBoundaryFinder<ResumePoint>)?
  ) {
    self.files = files
    self.separator = separator
    self.pieceSize = max(pieceSize, 1)
    self.boundaryReach = max(boundaryReach, 0)
    self.documentKey = documentKey
    self.makeBoundaryFinder = makeBoundaryFinder
  }

  /// The next piece: from where the last one ended to just after the first
  /// separator at or past `pieceSize` bytes on, looked for up to
  /// `boundaryReach` bytes further (from the piece's start for a piece that
  /// begins inside a line); where there is none, it ends after `pieceSize`
  /// bytes, at the start of a UTF-8 sequence (an empty file is one empty
  /// piece); `nil` after the last.
  mutating func nextPiece() throws -> PieceCut<ResumePoint>? {
    while fileIndex < files.count {
      if files[fileIndex].size == 0, !emptyFileCut {
        emptyFileCut = true
        defer { nextIndex += 1 }
        return PieceCut(index: nextIndex, fileIndex: fileIndex, range: 0..<0)
      }
      if offset < files[fileIndex].size { break }
      fileIndex += 1
      offset = 0
      cutInsideRecord = false
      emptyFileCut = false
    }
    guard fileIndex < files.count else { return nil }
    let file = files[fileIndex]
    let insideRecord = cutInsideRecord
    // A piece that begins inside a line ends at its end, the sooner the better.
    let target = insideRecord ? offset + 1 : min(file.size, offset + pieceSize)
    let limit = min(file.size, offset + pieceSize + boundaryReach)
    var end: Int?
    var resumePoint: ResumePoint?
    if let makeBoundaryFinder {
      if offset == 0 {
        boundaryFinder = makeBoundaryFinder()
        nextResumePoint = nil
      } else if let wrongGuess {
        // From here on the finder follows the input: from where the filter
        // before the wrong guess stood, or else from the start, once.
        if wrongGuess.fileIndex == fileIndex, let point = wrongGuess.knownGood {
          boundaryFinder?.stopGuessing(resumingFrom: point)
        } else {
          boundaryFinder?.stopGuessing()
        }
      }
      wrongGuess = nil
      resumePoint = insideRecord ? nil : nextResumePoint
      end = try boundaryEnd(in: file, notBefore: target, before: limit)
    } else if target == file.size {
      end = file.size
    } else {
      if !insideRecord { end = try documentStart(in: file, from: target - 1) }
      end = try end ?? separatorEnd(in: file, from: target - 1, before: limit)
    }
    cutInsideRecord = end == nil
    let cut = try end ?? sequenceStart(in: file, backFrom: min(file.size, offset + pieceSize))
    assert(cut > offset && cut <= file.size, "a piece has bytes, of its file")
    defer {
      nextIndex += 1
      offset = cut
    }
    return PieceCut(
      index: nextIndex, fileIndex: fileIndex, range: offset..<cut,
      startsInsideRecord: insideRecord, resumePoint: resumePoint)
  }

  /// `end`, or the start of the UTF-8 sequence whose continuation byte is
  /// at `end` (a line cut there is cut between characters: the piece's
  /// check for bytes that are not UTF-8 finds none), when that start is
  /// after `offset`.
  private mutating func sequenceStart(in file: OpenFile, backFrom end: Int) throws -> Int {
    guard end < file.size else { return end }
    let from = max(offset + 1, end - 3)
    try file.read(at: from, count: end + 1 - from, into: &window)
    var cut = end
    while cut > from, window[cut - from] & 0xC0 == 0x80 { cut -= 1 }
    return window[cut - from] & 0xC0 == 0x80 ? end : cut
  }

  /// The first boundary at or after `target` that the finder meets reading
  /// on from where it stopped last, or the end of the file; `nil` when it
  /// has read up to `limit` without one.
  private mutating func boundaryEnd(
    in file: OpenFile, notBefore target: Int, before limit: Int
  ) throws -> Int? {
    guard var finder = boundaryFinder else { return file.size }
    defer { boundaryFinder = finder }
    assert(target <= limit, "the reach is past the target")
    var position = finder.position
    while position < file.size {
      guard position < limit else {
        nextResumePoint = nil
        return nil
      }
      let count = min(file.size - position, 256 * 1024)
      try file.read(at: position, count: count, into: &window)
      if let end = window.withUnsafeBufferPointer({
        finder.boundary(in: $0, notBefore: target)
      }) {
        nextResumePoint = finder.resumePoint
        return end
      }
      // The finder reads on, or (giving up its guesses) from the start again.
      assert(finder.position > position || finder.position == 0, "the finder moves on")
      position = finder.position
    }
    return file.size
  }

  /// Just after the first separator at or after `start` and before `limit`,
  /// `nil` when there is none, the end of the file when it comes first.
  private mutating func separatorEnd(
    in file: OpenFile, from start: Int, before limit: Int
  ) throws -> Int? {
    var position = start
    // A line is mostly short: 4 KiB first, then more (reading 64 KiB at
    // every 2 MiB piece's end cost 3 % of a run's time in copies).
    var step = 4 * 1024
    while position < limit {
      let count = min(limit - position, step)
      step = min(step * 4, 64 * 1024)
      try file.read(at: position, count: count, into: &window)
      // memchr(3): a file without a separator is looked through piece by piece.
      let found = window.withUnsafeBytes { raw -> Int? in
        assert(raw.count == count, "memchr looks at the bytes read")
        guard let base = raw.baseAddress,
          let hit = SystemCalls.firstByte(separator, from: base, count: raw.count)
        else { return nil }
        return hit - base
      }
      if let found { return position + found + 1 }
      position += count
    }
    return limit == file.size ? file.size : nil
  }

  /// The start of the first line after `start` whose document differs
  /// from the one of the line with a document before it, within 256 KiB.
  private mutating func documentStart(in file: OpenFile, from start: Int) throws -> Int? {
    guard let documentKey else { return nil }
    try file.read(at: start, count: min(file.size - start, 256 * 1024), into: &window)
    let separator = self.separator
    return window.withUnsafeBufferPointer { bytes -> Int? in
      guard let firstEnd = bytes.firstIndex(of: separator) else { return nil }
      var lineStart = firstEnd + 1
      var lastKey: UnsafeBufferPointer<UInt8>?
      while lineStart < bytes.count, let lineEnd = bytes[lineStart...].firstIndex(of: separator) {
        let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
        if let range = documentKey(line) {
          assert(range.lowerBound >= 0 && range.upperBound <= line.count, "a key is in its line")
          let key = UnsafeBufferPointer(rebasing: line[range])
          if let lastKey, !lastKey.elementsEqual(key) { return start + lineStart }
          lastKey = key
        }
        lineStart = lineEnd + 1
      }
      return nil
    }
  }
}
