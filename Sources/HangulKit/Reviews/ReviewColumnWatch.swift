/// The member names a table took its columns from (the first record's
/// top-level members), watched for those that later records add: such a
/// member has no column and is not written, so each is named once, with the
/// offset of its name in the record that first has it.
///
///     var watch = ReviewColumnWatch(first, members: firstMembers, columns: names)
///     watch.check(second, members: secondMembers)
///     watch.take()   // [(name: "rating", offset: 26)]
///
/// O(n) in each record's member names (compared as they came with the first
/// record's, at the same place, before anything is decoded); memory: the
/// names, at most ``namesRemembered`` new ones.
struct ReviewColumnWatch: Sendable {
  /// How many new names are remembered (and so named once each); past that,
  /// each record that has one is reported.
  static let namesRemembered = 1000

  /// The first record's name tokens, as they came, one after another.
  private let firstTokens: [UInt8]
  /// Where each of them ends in ``firstTokens``.
  private let firstEnds: [Int]
  /// The decoded names with a column, and the new ones already named.
  private var known: Set<[UInt8]>
  private var remembered = 0
  /// The new names found since ``take()``, with their name token's offset in their record.
  private var found: [(name: [UInt8], offset: Int)] = []

  /// Watches for names other than `columns`, where `record`'s `members` gave them.
  init(_ record: [UInt8], members: [JSONRecordSplitter.Member], columns: [[UInt8]]) {
    var tokens: [UInt8] = []
    var ends: [Int] = []
    for member in members {
      tokens += record[member.name]
      ends.append(tokens.count)
    }
    firstTokens = tokens
    firstEnds = ends
    known = Set(columns)
  }

  /// Notes each member of `record` that has no column and was not named before.
  mutating func check(_ record: [UInt8], members: [JSONRecordSplitter.Member]) {
    // The common case, the same names spelled the same at the same places, without decoding.
    let same = record.withUnsafeBufferPointer { bytes in
      firstTokens.withUnsafeBufferPointer { first in
        guard members.count <= firstEnds.count, let base = bytes.baseAddress,
          let firstBase = first.baseAddress
        else { return 0 }
        var position = 0
        var start = 0
        while position < members.count {
          let name = members[position].name
          let end = firstEnds[position]
          guard end - start == name.count,
            SystemCalls.bytesEqual(base + name.lowerBound, firstBase + start, count: name.count)
          else { break }
          start = end
          position += 1
        }
        return position
      }
    }
    guard same < members.count else { return }
    for member in members[same...] {
      var name: [UInt8] = []
      JSONTokenText.appendDecodedString(record[member.name], to: &name)
      guard !known.contains(name) else { continue }
      if remembered < Self.namesRemembered {
        known.insert(name)
        remembered += 1
      }
      found.append((name, member.name.lowerBound))
    }
  }

  /// The new names found since the last call.
  mutating func take() -> [(name: [UInt8], offset: Int)] {
    defer { found.removeAll() }
    return found
  }
}
