/// The checks ``ReviewRecord`` makes, done on the raw bytes without building
/// the record's value, for table exports of many records: valid JSON and
/// UTF-8, an object, a string content member, a creation time that reads as
/// a date. It only answers yes or no; a record it refuses goes through
/// ``ReviewRecord`` for the reason.
///
///     ReviewRecordFastCheck.passes(Array(#"{"content":"가"}"#.utf8), contentField: "content", timeZone: .utc)  // true
///
/// O(n) in the record.
enum ReviewRecordFastCheck {
  static func passes(_ bytes: [UInt8], contentField: String, timeZone: ReviewTimeZone) -> Bool {
    guard JSONValidator.isValid(bytes),
      bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        == UInt8(ascii: "{"),
      let content = JSONTokenText.valueRange(of: [Array(contentField.utf8)], in: bytes),
      bytes[content].first == UInt8(ascii: "\"")
    else { return false }
    for field in ReviewRecord.dateFields {
      guard let range = JSONTokenText.valueRange(of: [Array(field.utf8)], in: bytes) else {
        continue
      }
      let value: JSONValue
      switch bytes[range].first ?? 0 {
      case UInt8(ascii: "\""):
        var text: [UInt8] = []
        JSONTokenText.appendDecodedString(bytes[range], to: &text)
        value = .string(String(decoding: text, as: UTF8.self))
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        value = .number(String(decoding: bytes[range], as: UTF8.self))
      default:
        return false
      }
      return (try? ReviewDate(json: value, timeZone: timeZone)) != nil
    }
    return true
  }
}
