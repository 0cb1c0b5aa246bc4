/// One review record read from the input, checked as SPEC §5 asks.
struct ReviewRecord {
  let raw: JSONRecordSplitter.Record
  let value: JSONValue
  let content: String
  let date: ReviewDate?
  let dateValue: JSONValue?

  /// The member names tried, in order, for the creation time.
  static let dateFields = ["createdAt", "created_at"]

  /// Why a record cannot be used.
  struct Problem: Error {
    var reason: String
    /// The record as JSON text, or its raw text as a JSON string.
    var recordJSON: String
  }

  /// Checks a record: valid UTF-8 and JSON, an object, a string content
  /// member, a creation time in one of the forms when present.
  init(
    _ raw: JSONRecordSplitter.Record, contentField: String, timeZone: ReviewTimeZone
  ) throws(Problem) {
    self.raw = raw
    let rawText = JSONWriter.quoted(String(decoding: raw.bytes, as: UTF8.self))
    if let problem = raw.problem { throw Problem(reason: problem, recordJSON: rawText) }
    var validUTF8 = true
    var decoder = UTF8Stream()
    decoder.decode(raw.bytes, isLast: true) { unit in
      if case .invalidByte = unit { validUTF8 = false }
    }
    guard validUTF8 else { throw Problem(reason: "invalid UTF-8", recordJSON: rawText) }
    let value: JSONValue
    do {
      value = try JSONParser.parse(raw.bytes)
    } catch {
      throw Problem(
        reason: "not valid JSON: \(error.message) at byte \(error.offset + 1)", recordJSON: rawText)
    }
    self.value = value
    let asItCame = String(decoding: JSONRecordWriter.rewrite(raw.bytes), as: UTF8.self)
    guard case .object = value else {
      throw Problem(reason: "not an object but \(value.kindName)", recordJSON: asItCame)
    }
    guard let member = value[contentField] else {
      throw Problem(reason: "no \(JSONWriter.quoted(contentField)) member", recordJSON: asItCame)
    }
    guard let content = member.stringValue else {
      throw Problem(
        reason: "\(JSONWriter.quoted(contentField)) is \(member.kindName), not a string",
        recordJSON: asItCame)
    }
    self.content = content
    dateValue = Self.dateFields.lazy.compactMap { value[$0] }.first
    if let dateValue, let field = Self.dateFields.first(where: { value[$0] != nil }) {
      do {
        date = try ReviewDate(json: dateValue, timeZone: timeZone)
      } catch {
        throw Problem(reason: "\(field): \(error.description)", recordJSON: asItCame)
      }
    } else {
      date = nil
    }
  }
}

/// A record that was not imported, as `--rejects` writes it.
public struct ReviewReject: Sendable, Equatable {
  /// The input it came from.
  public var file: String
  /// Its 0-based index in the input.
  public var index: Int
  /// The input line it starts on.
  public var line: Int
  public var reason: String
  /// The record as it came (compacted), or its raw text as a JSON string.
  public var recordJSON: String

  /// `{"index":N,"line":L,"reason":"…","record":…}`
  public var jsonLine: String {
    "{\"index\":\(index),\"line\":\(line),\"reason\":\(JSONWriter.quoted(reason)),\"record\":\(recordJSON)}"
  }

  /// `FILE:LINE: record N: reason`, for standard error.
  public var message: String {
    "\(file):\(line): record \(index) rejected: \(reason)"
  }
}
