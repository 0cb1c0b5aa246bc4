/// A top-level object whose records member is an array, while it is not yet
/// known whether it is an envelope or a record. An object with a content
/// string member is a record, whatever else it holds
/// (`{"_id":1,"data":[1,2],"content":"리뷰"}` is a review with a data array);
/// one without is an envelope. ``JSONRecordSplitter`` reads such an object
/// as a record, keeping its bytes, until one of these tells:
///
/// - a content string member: a record (read on as one);
/// - an element of the records member that is an object with a content
///   string member (an envelope's records are reviews): an envelope;
/// - the object's end, or ``decisionLimit`` bytes of it, without a content
///   string member: an envelope.
///
/// An envelope is then read again from its first byte as one, so that its
/// records and problems are exactly those of an envelope read from the start.
/// A content string member of an envelope after that is reported, never
/// dropped silently.
///
///     JSONEnvelopeCandidate.isRecord(0..<17, in: Array(#"{"content":"가"}"#.utf8),
///                                    contentField: Array("content".utf8))   // true
///
/// Memory: the object up to ``decisionLimit`` (plus one chunk).
struct JSONEnvelopeCandidate: Sendable {
  /// How much of an object is read before it is taken for an envelope.
  static let decisionLimit = 1 << 20

  /// What a candidate turned out to be.
  enum Decision {
    /// A record (a content string member came first).
    case record
    /// An envelope (a record in its records member came first).
    case envelope
  }

  /// Whether the record being read is such an object.
  private(set) var isOpen = false
  /// The nesting depth of the records member while it is being read, else 0.
  private(set) var recordsDepth = 0
  /// Where (in the record) the text of the records member's next element begins.
  private var elementStart = 0
  /// The text of each element that ended since the last look, in order.
  private var elements: [Range<Int>] = []
  /// How many of the object's members were looked at.
  private var membersSeen = 0

  /// The records member begins at `offset` of the record, at nesting depth `depth`.
  mutating func beginRecords(at offset: Int, depth: Int) {
    isOpen = true
    recordsDepth = depth
    elementStart = offset
  }

  /// A member of the object ended (the records member too: its elements are done).
  mutating func memberEnded() {
    recordsDepth = 0
  }

  /// An element of the records member ended at `offset` of the record.
  mutating func elementEnded(at offset: Int) {
    elements.append(elementStart..<offset)
    elementStart = offset
  }

  /// Looks at what ended since the last look, in input order: the first
  /// content string member or record element tells; nil while neither came.
  /// The splitter looks once a chunk and at the object's end: the answer is
  /// the same wherever the input is cut, since the order alone decides.
  mutating func look(
    members: [JSONRecordSplitter.Member], in bytes: [UInt8], contentField: [UInt8]
  ) -> Decision? {
    var element = 0
    defer {
      elements.removeFirst(element)
      membersSeen = members.count
    }
    while membersSeen < members.count || element < elements.count {
      let memberEnd = membersSeen < members.count ? members[membersSeen].value.upperBound : .max
      if element < elements.count, elements[element].upperBound < memberEnd {
        let range = elements[element]
        element += 1
        if Self.isRecord(range, in: bytes, contentField: contentField) { return .envelope }
      } else {
        let member = members[membersSeen]
        membersSeen += 1
        if Self.isContentString(
          name: member.name, value: member.value, in: bytes, contentField: contentField)
        {
          return .record
        }
      }
    }
    return nil
  }

  /// Whether the member whose name and value tokens are at these ranges of
  /// `bytes` is named `contentField` and holds a string.
  static func isContentString(
    name: Range<Int>, value: Range<Int>, in bytes: [UInt8], contentField: [UInt8]
  ) -> Bool {
    guard value.lowerBound < bytes.count, bytes[value.lowerBound] == UInt8(ascii: "\"") else {
      return false
    }
    let inner = bytes[(name.lowerBound + 1)..<(name.upperBound - 1)]
    guard inner.contains(UInt8(ascii: "\\")) else { return inner.elementsEqual(contentField) }
    var decoded: [UInt8] = []
    JSONTokenText.appendDecodedString(bytes[name], to: &decoded)
    return decoded == contentField
  }

  /// Whether the element text in `range` of `bytes` (valid JSON, after the
  /// comma before it) is an object with a content string member.
  static func isRecord(_ range: Range<Int>, in bytes: [UInt8], contentField: [UInt8]) -> Bool {
    var start = range.lowerBound
    while start < range.upperBound,
      [0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ",")].contains(bytes[start])
    {
      start += 1
    }
    var found = false
    JSONTokenText.forEachMember(in: bytes, within: start..<range.upperBound) { name, value in
      found = isContentString(name: name, value: value, in: bytes, contentField: contentField)
      return !found
    }
    return found
  }
}
