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
/// Runs of ASCII text and precomposed syllables, nearly all of real text,
/// are handled in a tight loop over the bytes; everything else goes through
/// ``Decomposer`` one unit at a time.
public struct DecomposeFilter: ByteFilter {
  private var decomposer: Decomposer
  /// Bytes of a sequence cut off at the end of the previous chunk.
  private var carry: [UInt8] = []
  /// ASCII bytes that are written as they are (no literal prefix).
  private let plainASCII: [Bool]
  /// Where the fast path writes before the bytes are appended to the output.
  private var scratch: [UInt8] = []

  /// A filter that writes `form`; `plain` leaves out the separators and
  /// literal prefixes of the key forms (see ``Decomposer``).
  public init(form: DecompositionForm, keyboard: Keyboard = .twoSet, plain: Bool = false) {
    let decomposer = Decomposer(form: form, keyboard: keyboard, plain: plain)
    self.decomposer = decomposer
    plainASCII = (0..<128).map { code in
      !decomposer.needsLiteralPrefix(Unicode.Scalar(UInt8(code)))
    }
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
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
        let carried = carry
        carry = []
        slowPath(carried, isLast: true, into: &output)
      }
    }
    // The fast path writes through a pointer into a scratch buffer big enough
    // for the worst case (six bytes out for each byte in), then appends it.
    let needed = (chunk.count - start) * 6 + 64
    if scratch.count < needed { scratch = [UInt8](repeating: 0, count: needed) }
    // Moved out while the fast path (which mutates self) writes into it.
    var buffer: [UInt8] = []
    swap(&buffer, &scratch)
    defer { swap(&buffer, &scratch) }
    var position = start
    while position < chunk.count {
      var written = 0
      let stop = buffer.withUnsafeMutableBufferPointer { pointer in
        guard let base = pointer.baseAddress else { return position }
        return fastPath(chunk, from: position, into: base, written: &written)
      }
      output.append(contentsOf: buffer[..<written])
      position = stop
      guard position < chunk.count else { break }
      // One unit the fast path does not handle, through the decomposer.
      let lead = chunk[position]
      switch UTF8Stream.step(chunk, at: position) {
      case .scalar(let value, let length):
        decomposer.decompose(.scalar(Unicode.Scalar(value) ?? "\u{FFFD}"), into: &output)
        position += length
      case .invalid:
        decomposer.decompose(.invalidByte(lead), into: &output)
        position += 1
      case .incomplete:
        carry = Array(chunk[position...])
        return
      }
    }
  }

  /// Writes plain ASCII and precomposed syllables from `position` on to
  /// `output`; returns where it stopped (the first byte it does not handle).
  @inline(__always)
  private mutating func fastPath(
    _ chunk: UnsafeBufferPointer<UInt8>, from start: Int, into output: UnsafeMutablePointer<UInt8>,
    written: inout Int
  ) -> Int {
    var position = start
    var out = 0
    let count = chunk.count
    // The last unit handled: a syllable, plain text (0), or none (nil).
    var lastUnit: UInt32?
    defer {
      written = out
      if let lastUnit {
        if lastUnit == 0 { decomposer.endHangul() } else { decomposer.noteSyllable(lastUnit) }
      }
    }
    return decomposer.table.bytes.withUnsafeBufferPointer { bytes in
      decomposer.table.lengths.withUnsafeBufferPointer { lengths in
        plainASCII.withUnsafeBufferPointer { plain in
          while position < count {
            let lead = chunk[position]
            if lead < 0x80 {
              guard plain[Int(lead)] else { return position }
              output[out] = lead
              out += 1
              position += 1
              lastUnit = 0
              continue
            }
            guard lead >= 0xEA, lead <= 0xED, position + 2 < count else { return position }
            let second = chunk[position + 1]
            let third = chunk[position + 2]
            let value =
              UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
            let index = Int(value &- HangulSyllable.firstScalarValue)
            guard second & 0xC0 == 0x80, third & 0xC0 == 0x80, index >= 0,
              index < HangulSyllable.count
            else { return position }
            let source = index * DecompositionTable.stride
            // Copy the entry in 8-byte words: at most 24 bytes, into a buffer
            // with slack, then advance by its length.
            let length = Int(lengths[index])
            if let table = UnsafeRawPointer(bytes.baseAddress) {
              let target = UnsafeMutableRawPointer(output + out)
              for word in stride(from: 0, to: length, by: 8) {
                target.storeBytes(
                  of: table.loadUnaligned(fromByteOffset: source + word, as: UInt64.self),
                  toByteOffset: word, as: UInt64.self)
              }
            }
            out += length
            position += 3
            lastUnit = value
          }
          return position
        }
      }
    }
  }

  public mutating func finish(into output: inout [UInt8]) {
    let carried = carry
    carry = []
    slowPath(carried, isLast: true, into: &output)
    decomposer.finish()
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
