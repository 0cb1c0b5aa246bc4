/// `hangul-reviews export`: review records in (any of the shapes import
/// reads), written as JSON Lines, as the API envelope, or as POST bodies,
/// with the content optionally decomposed and an `"elapsed"` member added.
///
///     var filter = ReviewExportFilter(to: .post, decompose: .keys) { print($0) }
///     try filter.filtered(Array(#"{"content":"닭","isBuy":true}"#.utf8))
///     // {"content":"ㄷㅏㄹㄱ"}\n
///
/// Time is O(n); memory is bounded by the largest record.
public struct ReviewExportFilter: ByteFilter {
  /// What is written.
  public enum Shape: String, Sendable, CaseIterable {
    /// One record a line.
    case jsonl
    /// The API envelope `{"data":[…]}`.
    case api
    /// One `{"content": …}` body a line.
    case post
  }

  public let shape: Shape
  public private(set) var recordsExported = 0
  public private(set) var recordsSkipped = 0

  private let decompose: DecompositionForm?
  private let plainKeys: Bool
  private let relativeTime: RelativeTime?
  private let contentField: String
  private let timeZone: ReviewTimeZone
  private let skip: (PositionedError) -> Void
  private var reader: ReviewRecordReader

  /// Problems with an envelope or array itself (the first hundred), with their positions.
  public var structureProblems: [PositionedError] { reader.structureProblems }
  /// How many such problems there were in all.
  public var structureProblemCount: Int { reader.structureProblemCount }

  public init(
    to shape: Shape = .jsonl, decompose: DecompositionForm? = nil, plainKeys: Bool = false,
    relativeTime: RelativeTime? = nil,
    contentField: String = "content", recordsField: String = "data",
    timeZone: ReviewTimeZone = .utc,
    structureProblem: @escaping (PositionedError) -> Void = { _ in },
    skip: @escaping (PositionedError) -> Void
  ) {
    reader = ReviewRecordReader(recordsField: recordsField, report: structureProblem)
    self.shape = shape
    self.decompose = decompose
    self.plainKeys = plainKeys
    self.relativeTime = relativeTime
    self.contentField = contentField
    self.timeZone = timeZone
    self.skip = skip
  }

  public mutating func beginInput(named name: String) {
    // Moved out, not copied: a copy would share the record buffer and copy it at every append.
    var reader = ReviewRecordReader.placeholder
    swap(&reader, &self.reader)
    reader.beginInput(named: name) { handle($0, in: $1, into: &$2) }
    swap(&reader, &self.reader)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
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
    if shape == .api {
      output.append(contentsOf: Array((recordsExported == 0 ? "{\"data\":[" : "\n").utf8))
      output.append(contentsOf: Array("]}\n".utf8))
    }
  }

  private mutating func handle(
    _ raw: JSONRecordSplitter.Record, in fileName: String, into output: inout [UInt8]
  ) {
    let record: ReviewRecord
    do {
      record = try ReviewRecord(raw, contentField: contentField, timeZone: timeZone)
    } catch {
      recordsSkipped += 1
      skip(
        PositionedError(
          file: fileName, line: error.line, column: error.column,
          message: "record \(raw.index) skipped: \(error.reason)"))
      return
    }
    var content = record.content
    if let decompose { content = content.decomposed(to: decompose, plain: plainKeys) }
    switch shape {
    case .post:
      output.append(contentsOf: Array("{\"content\":\(JSONWriter.quoted(content))}\n".utf8))
    case .jsonl, .api:
      var members: [(name: String, json: String)] = []
      if decompose != nil { members.append((contentField, JSONWriter.quoted(content))) }
      if let relativeTime, let date = record.date, let dateValue = record.dateValue {
        let json = relativeTime.description(of: date).map(JSONWriter.quoted) ?? Self.json(dateValue)
        members.append(("elapsed", json))
      }
      if shape == .api {
        output.append(contentsOf: Array((recordsExported == 0 ? "{\"data\":[\n" : ",\n").utf8))
      }
      output.append(contentsOf: JSONRecordWriter.rewrite(raw.bytes, setting: members))
      if shape == .jsonl { output.append(0x0A) }
    }
    recordsExported += 1
  }

  /// A date value written back as JSON.
  private static func json(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): JSONWriter.quoted(text)
    case .number(let spelling): spelling
    default: "null"
    }
  }
}
