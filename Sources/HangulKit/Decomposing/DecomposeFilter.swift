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
public struct DecomposeFilter: ByteFilter {
  private var decomposer: Decomposer
  /// Bytes of a sequence cut off at the end of the previous chunk.
  private var carry: [UInt8] = []
  /// The tables and loop that take ASCII, syllables and other plain text.
  private let fastPath: DecomposeFastPath
  /// Where the fast path writes before the bytes are appended to the output.
  private var scratch: [UInt8] = []
  /// The input the fast path takes at a time (its output fits in the scratch buffer).
  private static let sliceSize = 16 * 1024
  /// Whether the last chunk was UTF-8, continuing what was carried into it
  /// and perhaps leaving a sequence open at its end.
  public private(set) var lastChunkWasUTF8 = false

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
    lastChunkWasUTF8 = true
    var start = 0
    if !carry.isEmpty {
      // Complete the sequence cut off at the end of the last chunk.
      let needed = min(4 - carry.count, chunk.count)
      let window = carry + chunk[..<needed]
      let step = window.withUnsafeBufferPointer { UTF8Stream.step($0, at: 0) }
      switch step {
      case .incomplete where needed == chunk.count:
        carry = window
        return
      case .scalar(_, let length) where length > carry.count:
        slowPath(Array(window[..<length]), isLast: true, into: &output)
        start = length - carry.count
        carry = []
      default:
        // The carried bytes are not a sequence: decode them alone.
        lastChunkWasUTF8 = false
        let carried = carry
        carry = []
        slowPath(carried, isLast: true, into: &output)
      }
    }
    // The fast path writes through a pointer into a scratch buffer big enough
    // for the worst case of a slice, small enough to stay in the cache while
    // it is appended.
    let needed = Self.sliceSize * fastPath.expansion + fastPath.slack
    if scratch.count < needed {
      // Not zeroed: the loop writes every byte before it is read.
      scratch = [UInt8](unsafeUninitializedCapacity: needed) { _, count in count = needed }
    }
    let fastPath = self.fastPath
    var position = start
    while position < chunk.count {
      // The start of an NFD syllable held by a plain decomposer: the units
      // up to its end go to the decomposer, in order.
      if !decomposer.holdsJamo {
        let sliceEnd = min(chunk.count, position + Self.sliceSize)
        let stop = scratch.withUnsafeMutableBufferPointer { buffer in
          guard let base = buffer.baseAddress else {
            return DecomposeFastPath.Stop(position: position, written: 0, lastUnit: nil)
          }
          let stop = fastPath.run(
            UnsafeBufferPointer(rebasing: chunk[..<sliceEnd]), from: position, into: base,
            previous: decomposer.previousHangul, separators: decomposer.separators?.rows ?? [])
          output.append(contentsOf: UnsafeBufferPointer(start: base, count: stop.written))
          return stop
        }
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
        decomposer.decompose(.scalar(Unicode.Scalar(value) ?? "\u{FFFD}"), into: &output)
        position += length
      case .invalid:
        decomposer.decompose(.invalidByte(lead), into: &output)
        position += 1
        lastChunkWasUTF8 = false
      case .incomplete:
        carry = Array(chunk[position...])
        return
      }
    }
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
