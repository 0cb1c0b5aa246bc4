/// The member names a table took its columns from (the first record's
/// top-level members), watched for those that later records add: such a
/// member has no column and is not written, so each is named once, with the
/// offset of its name in the record that first has it.
///
///     var watch = ReviewColumnWatch(first, members: firstMembers)
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

  /// The first record's name tokens, as they came, in order.
  private let firstTokens: [[UInt8]]
  /// The decoded names with a column, and the new ones already named.
  private var known: Set<[UInt8]>
  private var remembered = 0
  /// The new names found since ``take()``, with their name token's offset in their record.
  private var found: [(name: [UInt8], offset: Int)] = []

  /// Watches for names other than `columns`, where `record`'s `members` gave them.
  init(_ record: [UInt8], members: [JSONRecordSplitter.Member], columns: [[UInt8]]) {
    firstTokens = members.map { Array(record[$0.name]) }
    known = Set(columns)
  }

  /// Notes each member of `record` that has no column and was not named before.
  mutating func check(_ record: [UInt8], members: [JSONRecordSplitter.Member]) {
    for (position, member) in members.enumerated() {
      // The common case: the same name, spelled the same, at the same place.
      if position < firstTokens.count, record[member.name].elementsEqual(firstTokens[position]) {
        continue
      }
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
