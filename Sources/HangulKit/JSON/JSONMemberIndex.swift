/// Where each top-level member of a JSON object stands in its bytes, found in
/// one pass, so that looking up several columns does not re-read the record.
///
///     let record = Array(#"{"a": 1, "b": {"c": "x"}}"#.utf8)
///     let index = JSONMemberIndex(record)
///     index.valueRange(of: [Array("b".utf8), Array("c".utf8)], in: record)  // the range of "x"
///
/// O(n) in the record; the input must be valid JSON.
public struct JSONMemberIndex: Sendable {
  /// Each member: its name token (quotes included) and its value's range.
  public private(set) var members: [(name: Range<Int>, value: Range<Int>)] = []

  init(members: [(name: Range<Int>, value: Range<Int>)]) {
    self.members = members
  }

  public init(_ bytes: [UInt8]) {
    JSONTokenText.forEachMember(in: bytes, within: 0..<bytes.count) { name, value in
      members.append((name, value))
      return true
    }
  }

  /// The range of the value at `path` (the first member of each name), or nil.
  public func valueRange(of path: [[UInt8]], in bytes: [UInt8]) -> Range<Int>? {
    guard let first = path.first else { return nil }
    var decoded: [UInt8] = []
    for member in members {
      let inner = (member.name.lowerBound + 1)..<(member.name.upperBound - 1)
      let matches: Bool
      if inner.count == first.count, !bytes[inner].contains(UInt8(ascii: "\\")) {
        matches = bytes[inner].elementsEqual(first)
      } else if bytes[inner].contains(UInt8(ascii: "\\")) {
        decoded.removeAll(keepingCapacity: true)
        JSONTokenText.appendDecodedString(bytes[member.name], to: &decoded)
        matches = decoded == first
      } else {
        matches = false
      }
      guard matches else { continue }
      if path.count == 1 { return member.value }
      var range = member.value
      for name in path.dropFirst() {
        guard let found = JSONTokenText.memberValueRange(named: name, in: bytes, within: range)
        else { return nil }
        range = found
      }
      return range
    }
    return nil
  }
}
