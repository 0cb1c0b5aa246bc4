/// Reusable UTF-16 buffers for handing short spans of UTF-8 to ICU and back
/// without allocating each time.
///
///     let workspace = ICUWorkspace()
///     let units = workspace.utf16(from: pointer, count: byteCount)
///     if let result = workspace.normalize(units, with: nfc) { workspace.appendUTF8(result, to: sink) }
///
/// Each call is O(n) in the span.
final class ICUWorkspace {
  @exclusivity(unchecked) private var source: UnsafeMutablePointer<UInt16>
  @exclusivity(unchecked) private var sourceCapacity: Int
  @exclusivity(unchecked) private var destination: UnsafeMutablePointer<UInt16>
  @exclusivity(unchecked) private var destinationCapacity: Int

  init() {
    sourceCapacity = 1024
    destinationCapacity = 4096
    source = .allocate(capacity: sourceCapacity)
    destination = .allocate(capacity: destinationCapacity)
  }

  deinit {
    source.deallocate()
    destination.deallocate()
  }

  /// Converts `count` bytes of well-formed UTF-8 to UTF-16 in the source buffer.
  func utf16(from bytes: UnsafePointer<UInt8>, count: Int) -> UnsafeBufferPointer<UInt16> {
    if count > sourceCapacity {
      source.deallocate()
      sourceCapacity = count
      source = .allocate(capacity: count)
    }
    var units = 0
    var position = 0
    let buffer = UnsafeBufferPointer(start: bytes, count: count)
    while position < count {
      guard case .scalar(let value, let length) = UTF8Stream.step(buffer, at: position) else {
        // Not expected (callers pass UTF-8): keep the byte as U+FFFD.
        source[units] = 0xFFFD
        units += 1
        position += 1
        continue
      }
      if value < 0x1_0000 {
        source[units] = UInt16(value)
        units += 1
      } else {
        source[units] = UInt16(0xD7C0 + (value >> 10))
        source[units + 1] = UInt16(0xDC00 | value & 0x3FF)
        units += 2
      }
      position += length
    }
    return UnsafeBufferPointer(start: source, count: units)
  }

  /// Normalizes `units` into the destination buffer; `nil` when ICU fails.
  func normalize(_ units: UnsafeBufferPointer<UInt16>, with normalizer: ICUNormalizer)
    -> UnsafeBufferPointer<UInt16>?
  {
    guard let base = units.baseAddress else {
      return UnsafeBufferPointer(start: destination, count: 0)
    }
    while true {
      guard
        let length = normalizer.normalize(
          units: base, count: units.count, into: destination, capacity: destinationCapacity)
      else { return nil }
      if length >= 0 { return UnsafeBufferPointer(start: destination, count: length) }
      destination.deallocate()
      destinationCapacity = -length
      destination = .allocate(capacity: destinationCapacity)
    }
  }

  /// Appends UTF-16 `units` as UTF-8.
  func appendUTF8(_ units: UnsafeBufferPointer<UInt16>, to sink: ByteSink) {
    var index = 0
    while index < units.count {
      let unit = UInt32(units[index])
      if unit & 0xFC00 == 0xD800, index + 1 < units.count, units[index + 1] & 0xFC00 == 0xDC00 {
        sink.appendUTF8(0x1_0000 + (unit - 0xD800) << 10 + UInt32(units[index + 1] - 0xDC00))
        index += 2
      } else {
        sink.appendUTF8(unit)
        index += 1
      }
    }
  }
}
