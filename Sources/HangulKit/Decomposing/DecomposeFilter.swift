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
public struct DecomposeFilter: ByteFilter {
  private var decomposer: Decomposer
  private var decoder = UTF8Stream()

  public init(form: DecompositionForm, keyboard: Keyboard = .twoSet) {
    decomposer = Decomposer(form: form, keyboard: keyboard)
  }

  public mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    decode(chunk, isLast: false, into: &output)
  }

  public mutating func finish(into output: inout [UInt8]) {
    decode(UnsafeBufferPointer(start: nil, count: 0), isLast: true, into: &output)
    decomposer.finish()
  }

  private mutating func decode(
    _ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool, into output: inout [UInt8]
  ) {
    var decomposer = self.decomposer
    decoder.decode(chunk, isLast: isLast) { unit in
      decomposer.decompose(unit) { piece in
        switch piece {
        case .scalar(let scalar): output.appendUTF8(scalar)
        case .invalidByte(let byte): output.append(byte)
        }
      }
    }
    self.decomposer = decomposer
  }
}
