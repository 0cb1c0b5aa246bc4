/// Where each top-level member of a JSON object stands in its bytes, found in
/// one pass, so that looking up several columns does not re-read the record.
///
///     let record = Array(#"{"a": 1, "b": {"c": "x"}}"#.utf8)
///     let index = JSONMemberIndex(record)
///     index.valueRange(of: [Array("b".utf8), Array("c".utf8)], in: record)  // the range of "x"
///
/// O(n) in the record; the input must be valid JSON.
package struct JSONMemberIndex: Sendable {
  /// Each member: its name token (quotes included) and its value's range.
  package private(set) var members: [(name: Range<Int>, value: Range<Int>)] = []

  init(members: [(name: Range<Int>, value: Range<Int>)]) {
    self.members = members
  }

  package init(_ bytes: [UInt8]) {
    JSONTokenText.forEachMember(in: bytes, within: 0..<bytes.count) { name, value in
      members.append((name, value))
      return true
    }
  }

  /// The range of the value at `path` (the first member of each name), or nil.
  package func valueRange(of path: [[UInt8]], in bytes: [UInt8]) -> Range<Int>? {
    guard let first = path.first, var range = topLevelRange(named: first, in: bytes) else {
      return nil
    }
    for name in path.dropFirst() {
      guard let found = JSONTokenText.memberValueRange(named: name, in: bytes, within: range)
      else { return nil }
      range = found
    }
    return range
  }

  /// The value range of the first top-level member called `name`.
  private func topLevelRange(named name: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
    bytes.withUnsafeBufferPointer { buffer in
      name.withUnsafeBufferPointer { wanted in
        for member in members {
          let start = member.name.lowerBound + 1
          let end = member.name.upperBound - 1
          var equal = end - start == wanted.count
          var escaped = false
          for position in start..<end {
            let byte = buffer[position]
            if byte == UInt8(ascii: "\\") {
              escaped = true
              break
            }
            if equal, byte != wanted[position - start] { equal = false }
          }
          if escaped {
            var decoded: [UInt8] = []
            JSONTokenText.appendDecodedString(bytes[member.name], to: &decoded)
            equal = decoded.elementsEqual(wanted)
          }
          if equal { return member.value }
        }
        return nil
      }
    }
  }
}
