/// `hangul-decompose --stats`: passes the text through a decomposing filter
/// unchanged and counts, alongside, the keystrokes the text takes on a
/// keyboard: the keys its decomposition for that keyboard writes, counted as
/// `hangul-compose --stats` counts a log of them (a compound jamo as its
/// keys, the 2-set separator U+200C and the literal prefix U+2060 as none;
/// on a phone keypad the next key U+200C as one), and its characters.
///
///     var filter = KeystrokeCountingFilter(DecomposeFilter(form: .nfd), keyboard: .twoSet)
///     var out: [UInt8] = []
///     filter.process(Array("닭\n".utf8), into: &out)
///     filter.finish(into: &out)
///     // filter.statistics.keystrokes == 5 (ㄷㅏㄹㄱ, newline), characters == 2
///
/// O(n) time: one more decomposition and one composition of the text.
package struct KeystrokeCountingFilter<Inner: ByteFilter>: ByteFilter {
  package private(set) var inner: Inner
  private var decomposer: any ByteFilter
  private var composer: any ByteFilter & StatisticsReporting
  private var keys: [UInt8] = []
  private var discarded: [UInt8] = []

  package init(_ inner: Inner, keyboard: Keyboard) {
    self.inner = inner
    switch InputAutomaton.keyDecomposition(of: keyboard) {
    case .phonePresses:
      decomposer = KeypadDecomposeFilter(keys: .qwerty, keyboard: keyboard)
      composer = KeypadComposeFilter(keys: .qwerty, keyboard: keyboard)
    case .jamoKeys:
      decomposer = DecomposeFilter(form: .keys, keyboard: keyboard)
      composer = ComposeFilter(keys: .jamo, keyboard: keyboard)
    case .layoutKeys:
      decomposer = LayoutDecomposeFilter(keyboard: keyboard)
      composer = ComposeFilter(keys: .qwerty, keyboard: keyboard)
    }
  }

  /// Keystrokes and characters of the text read so far.
  package var statistics: TypingStatistics { composer.statistics.total }

  package mutating func beginInput(named name: String) {
    inner.beginInput(named: name)
  }

  package mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8])
    throws
  {
    try inner.process(chunk, into: &output)
    keys.removeAll(keepingCapacity: true)
    try decomposer.process(chunk, into: &keys)
    try count(keys)
  }

  package mutating func finish(into output: inout [UInt8]) throws {
    try inner.finish(into: &output)
    keys.removeAll(keepingCapacity: true)
    try decomposer.finish(into: &keys)
    try count(keys)
    discarded.removeAll()
    try composer.finish(into: &discarded)
  }

  private mutating func count(_ keys: [UInt8]) throws {
    discarded.removeAll(keepingCapacity: true)
    try keys.withUnsafeBufferPointer { try composer.process($0, into: &discarded) }
  }
}

extension KeystrokeCountingFilter: OverlongRunReporting where Inner: OverlongRunReporting {
  package var overlongRuns: Int { inner.overlongRuns }
  package var firstOverlongRun: String? { inner.firstOverlongRun }
}
