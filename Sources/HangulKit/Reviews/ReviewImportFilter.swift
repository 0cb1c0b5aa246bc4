/// `hangul-reviews import`: review records in (an API envelope, a bare array
/// or JSON Lines, detected from each input), one JSON Lines record out per
/// review, with its content composed from keystrokes or normalized to NFC.
///
/// Every other member is kept exactly as it came: its order, its value, its
/// number spelling, its escapes; only whitespace between tokens goes, so each
/// record fits on one line. A record that cannot be imported is passed to
/// `reject` with its index, line and reason, and the others go on.
///
///     var filter = try ReviewImportFilter(content: .text) { reject in print(reject.message) }
///     try filter.filtered(Array(#"{"data":[{"content":"e\u0301"}]}"#.utf8))
///     // {"content":"é"}\n
///
/// Time is O(n); memory is bounded by the largest record.
public struct ReviewImportFilter: ByteFilter {
  /// How the content member is made into text.
  public enum Content: Sendable {
    /// Normalized to NFC.
    case text
    /// Composed from keystrokes, as `hangul-compose` composes a text log.
    case keys(KeyEncoding, ComposerOptions, keyboard: Keyboard = .twoSet)
  }

  /// Counts so far.
  public private(set) var recordsRead = 0
  public private(set) var recordsImported = 0
  public private(set) var recordsRejected = 0
  public private(set) var bytesRead = 0

  private let content: Content
  private let contentField: String
  private let timeZone: ReviewTimeZone
  private let nfc: ICUNormalizer
  private let reject: (ReviewReject) -> Void
  private var reader = ReviewRecordReader()

  /// Problems with an envelope or array itself, such as input that ends inside it.
  public var structureProblems: [PositionedError] { reader.structureProblems }

  public init(
    content: Content = .text, contentField: String = "content", timeZone: ReviewTimeZone = .utc,
    reject: @escaping (ReviewReject) -> Void
  ) throws {
    self.content = content
    self.contentField = contentField
    self.timeZone = timeZone
    self.reject = reject
    nfc = try ICUNormalizer(.nfc)
  }

  public mutating func beginInput(named name: String) {
    var reader = self.reader
    reader.beginInput(named: name) { handle($0, in: $1, into: &$2) }
    self.reader = reader
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    bytesRead += chunk.count
    var reader = self.reader
    reader.read(chunk, into: &output) { handle($0, in: $1, into: &$2) }
    self.reader = reader
  }

  public mutating func finish(into output: inout [UInt8]) {
    var reader = self.reader
    reader.finish(into: &output) { handle($0, in: $1, into: &$2) }
    self.reader = reader
  }

  private mutating func handle(
    _ raw: JSONRecordSplitter.Record, in fileName: String, into output: inout [UInt8]
  ) {
    recordsRead += 1
    let record: ReviewRecord
    do {
      record = try ReviewRecord(raw, contentField: contentField, timeZone: timeZone)
    } catch {
      recordsRejected += 1
      reject(
        ReviewReject(
          file: fileName, index: raw.index, line: raw.line, reason: error.reason,
          recordJSON: error.recordJSON))
      return
    }
    let text: String
    switch content {
    case .text:
      text = nfc.normalized(record.content)
    case .keys(let keys, let options, let keyboard):
      var composer = ComposeFilter(keys: keys, keyboard: keyboard, options: options)
      let bytes = (try? composer.filtered(Array(record.content.utf8))) ?? []
      text = String(decoding: bytes, as: UTF8.self)
    }
    let unchanged = text.unicodeScalars.elementsEqual(record.content.unicodeScalars)
    let members = unchanged ? [] : [(name: contentField, json: JSONWriter.quoted(text))]
    output.append(contentsOf: JSONRecordWriter.rewrite(raw.bytes, setting: members))
    output.append(0x0A)
    recordsImported += 1
  }
}
