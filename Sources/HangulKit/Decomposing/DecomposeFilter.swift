/// The `hangul-decompose` filter: text in, jamo, conjoining jamo or keys out.
///
/// Everything that is not Hangul passes through unchanged, bytes that are
/// not UTF-8 included.
///
///     var filter = DecomposeFilter(form: .qwerty)
///     let output = try filter.filtered(Array("안녕하세요\n".utf8))
///     // String(decoding: output, as: UTF8.self) == "dkssudgktpdy\n"
///
/// Time is O(n) in the input; memory is constant apart from the output block.
/// ASCII, precomposed syllables and other text that is written as it is,
/// nearly all of real text, go through the table-driven loop of
/// ``DecomposeFastPath``; everything else goes through ``Decomposer`` one
/// unit at a time.
public struct DecomposeFilter: ByteFilter, StreamingFilter {
  private var decomposer: Decomposer
  /// Bytes of a sequence cut off at the end of the previous chunk.
  private var carry: [UInt8] = []
  /// The tables and loop that take ASCII, syllables and other plain text.
  private let fastPath: DecomposeFastPath
  /// Where a chunk's output is written (the fast path through a pointer),
  /// then appended to the output or handed over whole: always empty between
  /// chunks, so copies of a filter may share it.
  private var sink = ByteSink(capacity: sinkCapacity)
  /// What the decomposer writes for one unit the fast path does not take.
  private var unitBytes: [UInt8] = []
  /// The input the fast path takes at a time (room for its worst case is
  /// made in the sink before each).
  private static let sliceSize = 16 * 1024
  /// Room for the output of a block of ``FilterRunner`` (128 KiB) of Korean
  /// text as keys (about 2.3 times as long) without growing.
  private static let sinkCapacity = 384 * 1024
  /// Whether the last chunk was UTF-8, continuing what was carried into it
  /// and perhaps leaving a sequence open at its end.
  package private(set) var lastChunkWasUTF8 = false

  /// A filter that writes `form`; `plain` leaves out the separators and
  /// literal prefixes of the key forms, `splitClusters` writes a consonant
  /// cluster as its consonants in the initials form (see ``Decomposer``).
  public init(
    form: DecompositionForm, keyboard: Keyboard = .twoSet, plain: Bool = false,
    splitClusters: Bool = false
  ) {
    let decomposer = Decomposer(
      form: form, keyboard: keyboard, plain: plain, splitClusters: splitClusters)
    self.decomposer = decomposer
    fastPath = DecomposeFastPath(decomposer)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    decompose(chunk)
    sink.drain(into: &output)
  }

  /// Decomposes `chunk` as ``process(_:into:)`` does, but when `output` is
  /// empty hands the sink the chunk was written into to `take` instead of
  /// copying it (keys and NFD are two to three times as long as the text:
  /// the copy was a tenth of the work on two threads). When `take` keeps
  /// the sink, a new one takes its place; else it is emptied.
  package mutating func process(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    handingOver take: (ByteSink) throws -> Bool
  ) throws {
    decompose(chunk)
    guard output.isEmpty else { return sink.drain(into: &output) }
    guard sink.count > 0 else { return }
    if try take(sink) {
      sink = ByteSink(capacity: Self.sinkCapacity)
    } else {
      sink.count = 0
    }
  }

  /// Writes the decomposition of `chunk` into the sink.
  private mutating func decompose(_ chunk: UnsafeBufferPointer<UInt8>) {
    lastChunkWasUTF8 = true
    var start = 0
    if !carry.isEmpty {
      // Complete the sequence cut off at the end of the last chunk.
      let needed = min(4 - carry.count, chunk.count)
      let window = carry + chunk[..<needed]
      let step = window.withUnsafeBufferPointer { UTF8Stream.step($0, at: 0) }
      var written: [UInt8] = []
      switch step {
      case .incomplete where needed == chunk.count:
        carry = window
        return
      case .scalar(_, let length) where length > carry.count:
        slowPath(Array(window[..<length]), isLast: true, into: &written)
        start = length - carry.count
        carry = []
      default:
        // The carried bytes are not a sequence: decode them alone.
        lastChunkWasUTF8 = false
        let carried = carry
        carry = []
        slowPath(carried, isLast: true, into: &written)
      }
      unitBytes = written
      appendUnitBytes()
    }
    let fastPath = self.fastPath
    let sink = self.sink
    let needed = Self.sliceSize * fastPath.expansion + fastPath.slack
    var position = start
    while position < chunk.count {
      // The start of an NFD syllable held by a plain decomposer: the units
      // up to its end go to the decomposer, in order.
      if !decomposer.holdsJamo {
        let sliceEnd = min(chunk.count, position + Self.sliceSize)
        sink.reserve(needed)
        let stop = fastPath.run(
          UnsafeBufferPointer(rebasing: chunk[..<sliceEnd]), from: position,
          into: sink.base + sink.count,
          previous: decomposer.previousHangul, separators: decomposer.separators?.rows ?? [])
        assert(stop.written <= needed, "the fast path writes at most its worst case")
        sink.count += stop.written
        if let lastUnit = stop.lastUnit {
          if lastUnit == 0 { decomposer.endHangul() } else { decomposer.noteSyllable(lastUnit) }
        }
        position = stop.position
        // The slice is done, or a unit stopped the loop (perhaps one that the
        // end of the slice cut, whole in the chunk).
        guard position < sliceEnd else { continue }
      }
      // One unit the fast path does not handle, through the decomposer.
      let lead = chunk[position]
      switch UTF8Stream.step(chunk, at: position) {
      case .scalar(let value, let length):
        decomposer.decompose(.scalar(Unicode.Scalar(value) ?? "\u{FFFD}"), into: &unitBytes)
        position += length
      case .invalid:
        decomposer.decompose(.invalidByte(lead), into: &unitBytes)
        position += 1
        lastChunkWasUTF8 = false
      case .incomplete:
        carry = Array(chunk[position...])
        return
      }
      appendUnitBytes()
    }
  }

  /// Moves what the decomposer wrote for one unit into the sink.
  private mutating func appendUnitBytes() {
    guard !unitBytes.isEmpty else { return }
    unitBytes.withUnsafeBufferPointer { bytes in
      if let base = bytes.baseAddress { sink.append(base, count: bytes.count) }
    }
    unitBytes.removeAll(keepingCapacity: true)
  }

  public mutating func finish(into output: inout [UInt8]) {
    let carried = carry
    carry = []
    slowPath(carried, isLast: true, into: &output)
    decomposer.finish(into: &output)
  }

  private mutating func slowPath(_ bytes: [UInt8], isLast: Bool, into output: inout [UInt8]) {
    var stream = UTF8Stream()
    var decomposer = self.decomposer
    stream.decode(bytes, isLast: isLast) { decomposer.decompose($0, into: &output) }
    self.decomposer = decomposer
  }
}

extension Decomposer {
  /// Notes that plain text came: no separator is needed after it.
  @inline(__always)
  mutating func endHangul() {
    finish()
  }

  /// Notes a syllable written by the fast path.
  @inline(__always)
  mutating func noteSyllable(_ value: UInt32) {
    decompose(syllableValue: value)
  }
}
