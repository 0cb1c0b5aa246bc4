/// Writes a JSON record compactly, token for token as it came: member order,
/// duplicate members, number spellings and string escapes are kept; only the
/// whitespace between tokens goes. Top-level members can be given new values;
/// those the record does not have are added at the end.
///
///     let record = Array(#"{ "content" : "ㄱㅏ", "n": 1.50, "s": "\u00e9" }"#.utf8)
///     let out = JSONRecordWriter.rewrite(record, setting: [("content", #""가""#)])
///     // {"content":"가","n":1.50,"s":"\u00e9"}
///
/// O(n) in the record. The record must be valid JSON (check it with
/// ``JSONParser`` first).
package enum JSONRecordWriter {
  /// `record` compacted, with the first top-level member of each name in
  /// `members` given its JSON text, and the members it lacks appended.
  package static func rewrite(
    _ record: [UInt8], setting members: [(name: String, json: String)] = []
  ) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(record.count)
    var position = 0
    var depth = 0
    var replaced = Set<String>()
    /// Whether the next string at depth 1 is a member name (in the top-level object).
    var expectingName = false
    var lastName: String?
    while position < record.count {
      let byte = record[position]
      switch byte {
      case 0x20, 0x0A, 0x0D, 0x09:
        position += 1
      case UInt8(ascii: "\""):
        let end = stringEnd(record, from: position)
        let token = record[position..<end]
        if depth == 1, expectingName {
          lastName = decodedName(token)
          expectingName = false
        }
        output.append(contentsOf: token)
        position = end
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        if depth == 1, byte == UInt8(ascii: "{") { expectingName = true }
        output.append(byte)
        position += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 1, byte == UInt8(ascii: "}") {
          for member in members where !replaced.contains(member.name) {
            if output.last != UInt8(ascii: "{") { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: Array(JSONWriter.quoted(member.name).utf8))
            output.append(UInt8(ascii: ":"))
            output.append(contentsOf: Array(member.json.utf8))
          }
        }
        depth -= 1
        output.append(byte)
        position += 1
      case UInt8(ascii: ","):
        if depth == 1 { expectingName = true }
        output.append(byte)
        position += 1
      case UInt8(ascii: ":"):
        output.append(byte)
        position += 1
        if depth == 1, let lastName, !replaced.contains(lastName),
          let member = members.first(where: { $0.name == lastName })
        {
          // Skip the old value and write the new one.
          while position < record.count, [0x20, 0x0A, 0x0D, 0x09].contains(record[position]) {
            position += 1
          }
          position = valueEnd(record, from: position)
          output.append(contentsOf: Array(member.json.utf8))
          replaced.insert(lastName)
        }
      default:
        output.append(byte)
        position += 1
      }
    }
    return output
  }

  /// The index just past the string token that starts at `start`.
  static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
    var position = start + 1
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "\\"): position += 2
      case UInt8(ascii: "\""): return position + 1
      default: position += 1
      }
    }
    return bytes.count
  }

  /// The index just past the value that starts at `start`.
  static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int {
    guard start < bytes.count else { return start }
    var position = start
    var depth = 0
    while position < bytes.count {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        position = stringEnd(bytes, from: position)
        if depth == 0 { return position }
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 0 { return position }
        depth -= 1
        if depth == 0 { return position + 1 }
      case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
        if depth == 0 { return position }
      default: break
      }
      position += 1
    }
    return position
  }

  /// The decoded text of a string token (a member name).
  static func decodedName(_ token: ArraySlice<UInt8>) -> String? {
    try? JSONParser.parse(Array(token)).stringValue
  }
}
