/// A streaming transformation of bytes, as a library user drives it: each
/// chunk's result is appended to `output` before the next chunk is read, and
/// ``finish(into:)`` writes what the filter still holds at the end.
///
///     var filter = ComposeFilter(keys: .qwerty)
///     var output: [UInt8] = []
///     try filter.process(Array("dkssud".utf8), into: &output)
///     try filter.finish(into: &output)
///     // String(decoding: output, as: UTF8.self) == "안녕"
///
/// Every filter of the library is one (``ComposeFilter``,
/// ``EventLogFilter``, ``DecomposeFilter``, ``NormalizeFilter``, the review
/// filters …). What the programs' runners also ask of a filter (inputs'
/// names, pieces of a parallel run, caches) is the package's own
/// `ByteFilter`, which refines this protocol.
public protocol StreamingFilter {
  /// Transforms one chunk of input.
  mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) throws
  /// Ends the input: writes whatever the filter still holds.
  mutating func finish(into output: inout [UInt8]) throws
}

extension StreamingFilter {
  /// Transforms `chunk` given as an array.
  public mutating func process(_ chunk: [UInt8], into output: inout [UInt8]) throws {
    try chunk.withUnsafeBufferPointer { try process($0, into: &output) }
  }

  /// Runs the whole of `input` through the filter and returns the output.
  public mutating func filtered(_ input: [UInt8]) throws -> [UInt8] {
    var output: [UInt8] = []
    try process(input, into: &output)
    try finish(into: &output)
    return output
  }
}
