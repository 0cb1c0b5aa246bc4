/// One review record read from the input, checked as hangul-reviews(1) asks.
struct ReviewRecord {
  let raw: JSONRecordSplitter.Record
  let value: JSONValue
  let content: String
  let date: ReviewDate?
  let dateValue: JSONValue?

  /// The member names tried, in order, for the creation time.
  static let dateFields = ["createdAt", "created_at"]
  static let dateFieldBytes = dateFields.map { Array($0.utf8) }

  static let backslash = ByteSearch.Needles(UInt8(ascii: "\\"))

  /// Whether a member name's bytes are `wanted` (lengths first: most names differ in length).
  @inline(__always)
  static func equal(_ name: UnsafeBufferPointer<UInt8>, _ wanted: [UInt8]) -> Bool {
    guard name.count == wanted.count else { return false }
    return wanted.withUnsafeBufferPointer { wantedBytes in
      for index in 0..<wantedBytes.count where name[index] != wantedBytes[index] { return false }
      return true
    }
  }

  /// Why a record cannot be used, and where.
  struct Problem: Error {
    var reason: String
    /// The line and column (in characters) of the offending character.
    var line: Int
    var column: Int
    /// The record as JSON text, or its raw text as a JSON string.
    var recordJSON: String
    /// Whether ``recordJSON`` holds only the start of the record (see
    /// ``JSONRecordSplitter/Record/isTruncated``).
    var recordIsTruncated = false
  }

  /// The record's raw text as a JSON string (the start of it, when only that was kept).
  static func rawText(_ raw: JSONRecordSplitter.Record) -> String {
    JSONWriter.quoted(String(decoding: raw.bytes, as: UTF8.self))
  }

  /// The creation time a check read: its value token's range, its name's
  /// index in ``dateFields``, and its instant.
  struct DateFound {
    var value: Range<Int>
    var field: Int
    var instant: ReviewDate
  }

  /// Checks a record without building its value: valid JSON (the splitter
  /// checked it), an object, content members that are all strings (at least
  /// one), a creation time in one of the forms when present. Returns the
  /// content members. O(n) in the record.
  static func check(
    _ raw: JSONRecordSplitter.Record, contentField: String, contentFieldBytes: [UInt8],
    timeZone: ReviewTimeZone
  ) throws(Problem) -> [JSONRecordSplitter.Member] {
    var date: DateFound?
    return try check(
      raw, contentField: contentField, contentFieldBytes: contentFieldBytes, timeZone: timeZone,
      date: &date)
  }

  /// ``check(_:contentField:contentFieldBytes:timeZone:)``, which also says
  /// where the creation time is and what it is, in `date`.
  static func check(
    _ raw: JSONRecordSplitter.Record, contentField: String, contentFieldBytes: [UInt8],
    timeZone: ReviewTimeZone, date found: inout DateFound?
  ) throws(Problem) -> [JSONRecordSplitter.Member] {
    if let problem = raw.problem {
      throw Problem(
        reason: problem.message, line: problem.line, column: problem.column,
        recordJSON: rawText(raw), recordIsTruncated: raw.isTruncated)
    }
    func problem(_ reason: String, at offset: Int) -> Problem {
      let place = raw.position(ofOffset: offset)
      // Only the start of a long value that is not an object was kept: not JSON by itself.
      return Problem(
        reason: reason, line: place.line, column: place.column,
        recordJSON: raw.isTruncated ? rawText(raw) : String(decoding: raw.compacted, as: UTF8.self),
        recordIsTruncated: raw.isTruncated)
    }
    guard raw.isObject else {
      throw problem("not an object but \(raw.kindName(at: 0))", at: 0)
    }
    // One pass over the members: the content members and the first of each date member.
    var contents: [JSONRecordSplitter.Member] = []
    // The first member of each date name (nil: none yet).
    var dates: (JSONRecordSplitter.Member?, JSONRecordSplitter.Member?) = (nil, nil)
    func noteDate(_ member: JSONRecordSplitter.Member, named name: (Int) -> Bool) {
      if dates.0 == nil, name(0) {
        dates.0 = member
      } else if dates.1 == nil, name(1) {
        dates.1 = member
      }
    }
    raw.bytes.withUnsafeBufferPointer { bytes in
      for member in raw.members {
        let name = UnsafeBufferPointer(
          rebasing: bytes[(member.name.lowerBound + 1)..<(member.name.upperBound - 1)])
        if ByteSearch.firstIndex(in: name, from: 0, of: Self.backslash) < name.count {
          let decoded = (try? JSONParser.parse(Array(bytes[member.name])))?.stringValue
          if decoded == contentField { contents.append(member) }
          noteDate(member) { decoded == dateFields[$0] }
          continue
        }
        if Self.equal(name, contentFieldBytes) {
          contents.append(member)
        } else {
          noteDate(member) { Self.equal(name, dateFieldBytes[$0]) }
        }
      }
    }
    guard !contents.isEmpty else {
      throw problem("no \(JSONWriter.quoted(contentField)) member", at: 0)
    }
    for member in contents where raw.bytes[member.value.lowerBound] != UInt8(ascii: "\"") {
      throw problem(
        "\(JSONWriter.quoted(contentField)) is \(raw.kindName(at: member.value.lowerBound)), not a string",
        at: member.value.lowerBound)
    }
    let date = dates.0.map { (0, $0) } ?? dates.1.map { (1, $0) }
    if let (index, member) = date {
      let field = dateFields[index]
      do {
        let token = raw.bytes[member.value]
        let value: ReviewDate
        if token.first == UInt8(ascii: "\""), !token.contains(UInt8(ascii: "\\")) {
          // The common case: a date string without escapes, read from its bytes.
          value = try ReviewDate(utf8: Array(token.dropFirst().dropLast()), timeZone: timeZone)
        } else {
          value = try ReviewDate(json: try JSONParser.parse(Array(token)), timeZone: timeZone)
        }
        found = DateFound(value: member.value, field: index, instant: value)
      } catch let error as ReviewDate.Invalid {
        throw problem("\(field): \(error.description)", at: member.value.lowerBound)
      } catch {
        throw problem("\(field): \(error)", at: member.value.lowerBound)
      }
    }
    return contents
  }

  /// Checks a record and reads its value (for export).
  init(
    _ raw: JSONRecordSplitter.Record, contentField: String, timeZone: ReviewTimeZone
  ) throws(Problem) {
    self.raw = raw
    _ = try Self.check(
      raw, contentField: contentField, contentFieldBytes: Array(contentField.utf8),
      timeZone: timeZone)
    let value: JSONValue
    do {
      value = try JSONParser.parse(raw.bytes)
    } catch {
      let place = raw.position(ofOffset: error.offset)
      throw Problem(
        reason: error.message, line: place.line, column: place.column,
        recordJSON: JSONWriter.quoted(String(decoding: raw.bytes, as: UTF8.self)))
    }
    self.value = value
    content = value[contentField]?.stringValue ?? ""
    dateValue = Self.dateFields.lazy.compactMap { value[$0] }.first
    date = dateValue.flatMap { try? ReviewDate(json: $0, timeZone: timeZone) }
  }
}

/// A record that was not imported, as `--rejects` writes it.
public struct ReviewReject: Sendable, Equatable {
  /// The input it came from.
  public var file: String
  /// Its 0-based index in the input.
  public var index: Int
  /// The line and column (in characters) of the offending character.
  public var line: Int
  public var column: Int
  public var reason: String
  /// The record as it came (compacted), or its raw text as a JSON string.
  public var recordJSON: String
  /// Whether ``recordJSON`` is only the start of the record's raw text (a
  /// broken record or a value that is not an object, longer than
  /// ``JSONRecordSplitter/sampleLimit``).
  public var recordIsTruncated: Bool

  public init(
    file: String, index: Int, line: Int, column: Int, reason: String, recordJSON: String,
    recordIsTruncated: Bool = false
  ) {
    self.file = file
    self.index = index
    self.line = line
    self.column = column
    self.reason = reason
    self.recordJSON = recordJSON
    self.recordIsTruncated = recordIsTruncated
  }

  /// `{"index":N,"line":L,"column":C,"reason":"…","record":…}`, and `"truncated":true`
  /// when the record is only its start.
  public var jsonLine: String {
    "{\"index\":\(index),\"line\":\(line),\"column\":\(column),\"reason\":\(JSONWriter.quoted(reason)),\"record\":\(recordJSON)"
      + (recordIsTruncated ? ",\"truncated\":true}" : "}")
  }

  /// `FILE:LINE:COLUMN: record N rejected: reason`, for standard error.
  public var message: String {
    "\(file):\(line):\(column): record \(index) rejected: \(reason)"
  }
}
