/// The checks ``ReviewRecord`` makes, done on the raw bytes without building
/// the record's value, for table exports of many records: valid JSON and
/// UTF-8, an object, a string content member, a creation time that reads as
/// a date. It answers with the record's member index or nil; a record it refuses goes through
/// ``ReviewRecord`` for the reason.
///
///     ReviewRecordFastCheck.check(Array(#"{"content":"가"}"#.utf8), contentField: "content", timeZone: .utc)  // an index
///
/// O(n) in the record.
enum ReviewRecordFastCheck {
  /// The record's member index when it passes, nil when it does not.
  static func check(_ bytes: [UInt8], contentField: String, timeZone: ReviewTimeZone)
    -> JSONMemberIndex?
  {
    guard
      bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        == UInt8(ascii: "{"),
      let index = JSONValidator.memberIndex(bytes)
    else { return nil }
    guard let content = index.valueRange(of: [Array(contentField.utf8)], in: bytes),
      bytes[content].first == UInt8(ascii: "\"")
    else { return nil }
    for field in ReviewRecord.dateFields {
      guard let range = index.valueRange(of: [Array(field.utf8)], in: bytes) else {
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
        return nil
      }
      return (try? ReviewDate(json: value, timeZone: timeZone)) == nil ? nil : index
    }
    return index
  }
}
