/// Reads review records from the inputs of a run, each input a document of
/// its own (its shape detected anew), for the import and export filters.
///
/// Records that an input's end completes are written with the next block.
struct ReviewRecordReader: Sendable {
  /// The input being read, as messages name it.
  private(set) var fileName = "(standard input)"
  /// Problems with an envelope or array itself, such as input that ends inside it.
  private(set) var structureProblems: [PositionedError] = []
  private var splitter = JSONRecordSplitter()
  private var started = false
  private var pending: [UInt8] = []

  typealias Handler = (JSONRecordSplitter.Record, String, inout [UInt8]) -> Void

  /// Starts the next input, ending the one before.
  mutating func beginInput(named name: String, _ handle: Handler) {
    if started {
      var buffer: [UInt8] = []
      swap(&buffer, &pending)
      endInput(into: &buffer, handle)
      swap(&buffer, &pending)
    }
    started = true
    fileName = name
  }

  /// Reads the next block of the current input.
  mutating func read(
    _ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], _ handle: Handler
  ) {
    started = true
    output.append(contentsOf: pending)
    pending.removeAll()
    let name = fileName
    splitter.feed(chunk, isLast: false) { handle($0, name, &output) }
  }

  /// Ends the last input.
  mutating func finish(into output: inout [UInt8], _ handle: Handler) {
    output.append(contentsOf: pending)
    pending.removeAll()
    if started { endInput(into: &output, handle) }
  }

  private mutating func endInput(into output: inout [UInt8], _ handle: Handler) {
    let name = fileName
    splitter.feed([], isLast: true) { handle($0, name, &output) }
    for problem in splitter.structureProblems {
      structureProblems.append(
        PositionedError(file: name, line: problem.line, message: problem.message))
    }
    splitter = JSONRecordSplitter()
  }
}
