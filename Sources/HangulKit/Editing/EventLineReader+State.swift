/// The parts of ``EventLineReader``'s state that go together: what a
/// line's object keeps, and the token being read.
extension EventLineReader {
  /// What a line's object keeps of its members, and where they are.
  struct KeptMembers {
    var members: [Member] = []
    /// Which of ``usedNames`` were seen (only the first of each is kept).
    var seenNames: UInt16 = 0
    /// The member whose value comes next, an index into ``usedNames``, when it is kept.
    var valueName: Int?
    /// The member name being read (up to ten bytes: no used name is longer).
    var name: [UInt8] = []
    /// Where the member value at hand starts: its column and line.
    var valueColumn = 0
    var valueLine = 0
    /// The column of the object's `{`.
    var objectColumn = 0
    /// A browser event's member that was longer than ``limit``, not kept.
    var overlong: Rejection?

    /// Forgets the line's members, keeping the room they took.
    mutating func removeAll() {
      members.removeAll(keepingCapacity: true)
      seenNames = 0
      valueName = nil
      overlong = nil
    }
  }

  /// The state of the token being read.
  struct TokenState {
    /// Whether the string is a member name.
    var isName = false
    /// Whether the string or number is kept (``held``).
    var keeps = false
    /// 0, or 1 after a backslash, or 2 + the hex digits read of a `\u`.
    var escape = 0
    var unit: UInt32 = 0
    /// A high surrogate waiting for its low one, and whether its `\` came.
    var highSurrogate: UInt32?
    var surrogateBackslash = false
    var backslashColumn = 0
    /// Continuation bytes still expected, the range of the next, and
    /// the column of the sequence.
    var continuation = 0
    var lowest: UInt8 = 0x80
    var highest: UInt8 = 0xBF
    var sequenceColumn = 0
    var number = NumberStage.start
    var literal: [UInt8] = []
    var literalRead = 0
    var literalColumn = 0
  }
}
