/// `hangul-reviews import`: review records in (any sequence of records,
/// arrays of records and envelopes, see ``JSONRecordSplitter``), one JSON
/// Lines record out per review, with every content member composed from
/// keystrokes or normalized to NFC.
///
/// Every other member is kept exactly as it came: its order, its value, its
/// number spelling, its escapes; only whitespace between tokens goes, so each
/// record fits on one line. A record that cannot be imported is passed to
/// `reject` with its index, position and reason, and the others go on.
///
///     var filter = try ReviewImportFilter(content: .text) { reject in print(reject.message) }
///     try filter.filtered(Array(#"{"data":[{"content":"e\u0301"}]}"#.utf8))
///     // {"content":"é"}\n
///
/// Time is O(n); memory is bounded by the largest record (its bytes and its output).
public struct ReviewImportFilter: ByteFilter, StreamingFilter {
  /// Pieces of a parallel run begin where a ``JSONRecordBoundaryFinder`` says.
  package typealias ResumePoint = JSONRecordResumePoint

  /// How the content member is made into text.
  public enum Content: Sendable {
    /// Normalized to NFC.
    case text
    /// Composed from keystrokes, as `hangul-compose` composes a text log.
    case keys(KeyEncoding, ComposerOptions, keyboard: Keyboard = .twoSet)
  }

  /// How the creation time (createdAt, else created_at) is written.
  public enum Dates: String, Sendable, CaseIterable {
    /// As it came, byte for byte.
    case keep
    /// ISO 8601 in UTC with milliseconds (`2022-07-21T11:53:58.652Z`), from every form read.
    case iso
  }

  /// Counts so far, and where the filter began.
  package private(set) var progress = Progress()
  /// Where rejects and structure problems go on a run on several threads (see ``ReviewImportTally``).
  package private(set) var log: ReviewImportLog?
  /// The index of the filter's first record in its input, once a ``ReviewImportTally`` knows it.
  var firstIndex: Int?

  /// What each record is read by and how it is written.
  private let options: Options
  private var normalizer: JSONStringNormalizer
  private let reject: (ReviewReject) -> Void
  private var reader: ReviewRecordReader

  /// Problems with an envelope or array itself (the first hundred), with their positions.
  package var structureProblems: [PositionedError] { reader.structureProblems }
  /// How many such problems there were in all.
  package var structureProblemCount: Int { reader.structureProblemCount }

  public init(
    content: Content = .text, contentField: String = "content", recordsField: String = "data",
    timeZone: ReviewTimeZone = .utc, dates: Dates = .keep,
    structureProblem: @escaping (PositionedError) -> Void = { _ in },
    reject: @escaping (ReviewReject) -> Void
  ) throws {
    options = Options(
      content: content, contentField: contentField, contentFieldBytes: Array(contentField.utf8),
      timeZone: timeZone, dates: dates)
    self.reject = reject
    normalizer = try JSONStringNormalizer()
    reader = ReviewRecordReader(
      recordsField: recordsField, contentField: contentField, report: structureProblem)
  }

  /// A filter whose rejects and structure problems go to `log`, to be
  /// reported in input order by a ``ReviewImportTally`` (a run on several threads).
  package init(
    content: Content = .text, contentField: String = "content", recordsField: String = "data",
    timeZone: ReviewTimeZone = .utc, dates: Dates = .keep, log: ReviewImportLog
  ) throws {
    try self.init(
      content: content, contentField: contentField, recordsField: recordsField,
      timeZone: timeZone, dates: dates, structureProblem: { log.add(.structureProblem($0)) },
      reject: { log.add(.reject($0)) })
    self.log = log
  }

  package mutating func beginInput(named name: String) {
    progress.recordsReadInInput = 0
    progress.beganAtInputStart = true
    // Moved out, not copied: a copy would share the record buffer and copy it at every append.
    var reader = ReviewRecordReader.placeholder
    swap(&reader, &self.reader)
    reader.beginInput(named: name) { handle($0, in: $1, into: &$2) }
    swap(&reader, &self.reader)
  }

  /// Begins a piece of a parallel run at a place that a
  /// ``JSONRecordBoundaryFinder`` found (`point` is its
  /// ``JSONRecordSplitter/ResumePoint``): record indexes count from 0 again.
  package mutating func beginPiece(named name: String, resumingAt point: JSONRecordResumePoint) {
    progress.recordsReadInInput = 0
    progress.beganAtInputStart = false
    reader.beginPiece(named: name, resumingAt: point)
  }

  /// Whether `next`, a filter that began the piece after the one this filter
  /// read (neither finished), wrote and found what this one would have going
  /// on: it began at an input's start, or this filter's splitter stands
  /// exactly where `next`'s began. O(1).
  ///
  ///     before.isContinued(by: next)  // false: the cut was inside a broken record
  package func isContinued(by next: ReviewImportFilter) -> Bool {
    reader.isContinued(by: next.reader)
  }

  /// Where the filter stands, when it is between records with nothing
  /// pending: a filter begun there goes on as this one does. O(1).
  package var resumePoint: JSONRecordResumePoint? { reader.resumePoint }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    progress.bytesRead += chunk.count
    // Moved out, not copied: a copy would share the record buffer and copy it at every append.
    var reader = ReviewRecordReader.placeholder
    swap(&reader, &self.reader)
    reader.read(chunk, into: &output) { handle($0, in: $1, into: &$2) }
    swap(&reader, &self.reader)
  }

  public mutating func finish(into output: inout [UInt8]) {
    // Moved out, not copied: a copy would share the record buffer and copy it at every append.
    var reader = ReviewRecordReader.placeholder
    swap(&reader, &self.reader)
    reader.finish(into: &output) { handle($0, in: $1, into: &$2) }
    swap(&reader, &self.reader)
  }

  /// Ends a piece whose input the filter of the next piece reads on from
  /// where this one stands (``isContinued(by:)``): nothing is pending, and the
  /// input does not end here.
  package mutating func endPiece(into output: inout [UInt8]) {}

  private mutating func handle(
    _ record: JSONRecordSplitter.Record, in fileName: String, into output: inout [UInt8]
  ) {
    progress.recordsRead += 1
    progress.recordsReadInInput += 1
    do throws(ReviewRecord.Problem) {
      var found: ReviewRecord.DateFound?
      let contents = try ReviewRecord.check(
        record, contentField: options.contentField, contentFieldBytes: options.contentFieldBytes,
        timeZone: options.timeZone, date: &found)
      let date = options.dates == .iso ? try isoDate(found, contents: contents, of: record) : nil
      let size = output.count
      if record.bytes.count > 1 << 16 { output.reserveCapacity(size + record.bytes.count + 16) }
      do throws(ReviewRecord.Problem) {
        try write(record, contents: contents, date: date, into: &output)
      } catch {
        output.removeSubrange(size...)
        throw error
      }
      output.append(0x0A)
      progress.recordsImported += 1
    } catch {
      progress.recordsRejected += 1
      reject(
        ReviewReject(
          file: fileName, index: record.index, line: error.line, column: error.column,
          reason: error.reason, recordJSON: error.recordJSON,
          recordIsTruncated: error.recordIsTruncated))
    }
  }

  /// With `--dates iso`, the creation time's value and the token that replaces it.
  private func isoDate(
    _ found: ReviewRecord.DateFound?, contents: [JSONRecordSplitter.Member],
    of record: JSONRecordSplitter.Record
  ) throws(ReviewRecord.Problem) -> (value: Range<Int>, token: [UInt8])? {
    guard let found, !contents.contains(where: { $0.value == found.value }) else { return nil }
    let field = found.field
    guard let text = found.instant.iso8601 else {
      let place = record.position(ofOffset: found.value.lowerBound)
      let token = MessageExcerpt.text(utf8: record.bytes[found.value])
      throw ReviewRecord.Problem(
        reason:
          "\(ReviewRecord.dateFields[field]): \(token) is more than 10^8 days from 1970, which --dates iso cannot write",
        line: place.line, column: place.column,
        recordJSON: String(decoding: record.compacted, as: UTF8.self))
    }
    return (found.value, Array("\"\(text)\"".utf8))
  }

  /// Writes the record compacted, with each content member rewritten (and the creation time).
  private mutating func write(
    _ record: JSONRecordSplitter.Record, contents: [JSONRecordSplitter.Member],
    date: (value: Range<Int>, token: [UInt8])? = nil, into output: inout [UInt8]
  ) throws(ReviewRecord.Problem) {
    let compact = !record.hasWhitespace
    var problem: ReviewRecord.Problem?
    record.bytes.withUnsafeBufferPointer { bytes in
      func copy(_ range: Range<Int>) {
        let part = UnsafeBufferPointer(rebasing: bytes[range])
        if compact {
          output.append(contentsOf: part)
        } else {
          JSONRecordSplitter.Record.appendCompacted(part, to: &output)
        }
      }
      var position = 0
      var date = date
      for member in contents {
        if let (value, token) = date, value.lowerBound < member.value.lowerBound {
          copy(position..<value.lowerBound)
          output.append(contentsOf: token)
          position = value.upperBound
          date = nil
        }
        copy(position..<member.value.lowerBound)
        let token = UnsafeBufferPointer(rebasing: bytes[member.value])
        switch options.content {
        case .text:
          normalizer.normalize(token, into: &output)
        case .keys(let keys, let composerOptions, let keyboard):
          guard let text = (try? JSONParser.parse(Array(token)))?.stringValue else { break }
          var composer = ComposeFilter(keys: keys, keyboard: keyboard, options: composerOptions)
          guard let composed = try? composer.filtered(Array(text.utf8)) else {
            let place = record.position(ofOffset: member.value.lowerBound)
            problem = ReviewRecord.Problem(
              reason: "\(JSONWriter.quoted(options.contentField)) cannot be composed",
              line: place.line,
              column: place.column, recordJSON: String(decoding: record.compacted, as: UTF8.self))
            return
          }
          let composedText = String(decoding: composed, as: UTF8.self)
          if composedText.unicodeScalars.elementsEqual(text.unicodeScalars) {
            output.append(contentsOf: token)
          } else {
            output.append(contentsOf: Array(JSONWriter.quoted(composedText).utf8))
          }
        }
        position = member.value.upperBound
      }
      if let (value, token) = date {
        copy(position..<value.lowerBound)
        output.append(contentsOf: token)
        position = value.upperBound
      }
      copy(position..<bytes.count)
    }
    if let problem { throw problem }
  }
}

extension ReviewImportFilter {
  package var recordsRead: Int { progress.recordsRead }
  package var recordsImported: Int { progress.recordsImported }
  package var recordsRejected: Int { progress.recordsRejected }
  package var bytesRead: Int { progress.bytesRead }
  /// Records read of the current input.
  package var recordsReadInInput: Int { progress.recordsReadInInput }
  /// Whether the filter began at an input's start (not at a piece that a parallel run cut out).
  package var beganAtInputStart: Bool { progress.beganAtInputStart }

  /// Counts so far, and where the filter began.
  package struct Progress {
    package var recordsRead = 0
    package var recordsImported = 0
    package var recordsRejected = 0
    package var bytesRead = 0
    /// Records read of the current input.
    package var recordsReadInInput = 0
    /// Whether the filter began at an input's start (not at a piece that a parallel run cut out).
    package var beganAtInputStart = true
  }

  /// What each record is read by (its content member, the time zone of its
  /// dates) and how its content and creation time are written.
  fileprivate struct Options {
    let content: Content
    let contentField: String
    let contentFieldBytes: [UInt8]
    let timeZone: ReviewTimeZone
    let dates: Dates
  }
}
