/// Writes all of `bytes` to a file descriptor with write(2), going on after
/// short writes and signals.
///
/// Throws ``StreamError/brokenPipe`` when the reader has gone away and
/// ``StreamError/cannotWrite(reason:)`` for any other failure.
package func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(StreamError) {
  var offset = 0
  while offset < bytes.count {
    let written = SystemCalls.write(
      descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
    if written < 0 {
      let error = SystemCalls.errorNumber
      if error == SystemCalls.interrupted { continue }
      if error == SystemCalls.brokenPipe { throw StreamError.brokenPipe }
      throw StreamError.cannotWrite(reason: StreamError.reason(error))
    }
    assert(written <= bytes.count - offset, "write(2) wrote no more than it was given")
    offset += written
  }
}
