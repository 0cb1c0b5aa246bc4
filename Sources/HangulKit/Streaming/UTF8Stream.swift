/// One unit of a byte stream read as UTF-8: a scalar, or a byte that is not
/// part of any well-formed sequence.
package enum DecodedUnit: Equatable, Sendable {
  case scalar(Unicode.Scalar)
  case invalidByte(UInt8)
}

/// Decodes a byte stream that arrives in chunks into ``DecodedUnit``s,
/// carrying a sequence split across two chunks over to the next one.
///
/// Ill-formed bytes (lone continuation bytes, overlong forms, encoded
/// surrogates, truncated sequences) come out one ``DecodedUnit/invalidByte(_:)``
/// each, so a filter can copy them through unchanged.
///
///     var stream = UTF8Stream()
///     var units: [DecodedUnit] = []
///     stream.decode([0xEA, 0xB0], isLast: false) { units.append($0) }  // nothing yet
///     stream.decode([0x80, 0xFF], isLast: true) { units.append($0) }
///     // units == [.scalar("가"), .invalidByte(0xFF)]
///
/// Decoding is O(n) in the bytes; the carried state is at most 3 bytes.
package struct UTF8Stream: Sendable {
  private var carry: [UInt8] = []

  package init() {}

  /// Whether a sequence cut off at the end of the last chunk is waiting.
  package var isCarrying: Bool { !carry.isEmpty }
  /// How many more bytes the sequence that is waiting needs (0 when none waits).
  package var bytesNeeded: Int {
    guard let lead = carry.first else { return 0 }
    let length = (UTF8Lead(lead)?.following ?? 1) + 1
    return max(length - carry.count, 1)
  }

  /// The result of decoding at one position.
  @usableFromInline enum Step {
    case scalar(UInt32, Int)
    case invalid
    case incomplete
  }

  /// Decodes the sequence that starts at `start`.
  @inlinable @inline(__always)
  static func step(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Step {
    let lead = bytes[start]
    if lead < 0x80 { return .scalar(UInt32(lead), 1) }
    guard let shape = UTF8Lead(lead) else { return .invalid }
    let length = shape.following + 1
    var value = UInt32(lead) & (0x7F >> UInt32(length))
    for offset in 1..<length {
      guard start + offset < bytes.count else { return .incomplete }
      let byte = bytes[start + offset]
      if offset == 1 {
        guard byte >= shape.secondLow, byte <= shape.secondHigh else { return .invalid }
      } else {
        guard byte & 0xC0 == 0x80 else { return .invalid }
      }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    return .scalar(value, length)
  }

  /// Decodes `chunk`, calling `body` for each complete unit. With `isLast`
  /// a sequence cut off at the end comes out as invalid bytes.
  @inlinable
  package mutating func decode(
    _ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool, _ body: (DecodedUnit) throws -> Void
  ) rethrows {
    var position = try finishCarry(chunk, isLast: isLast, body)
    let count = chunk.count
    while position < count {
      let lead = chunk[position]
      if lead < 0x80 {
        try body(.scalar(Unicode.Scalar(lead)))
        position += 1
        continue
      }
      switch Self.step(chunk, at: position) {
      case .scalar(let value, let length):
        try body(.scalar(Unicode.Scalar(value) ?? "\u{FFFD}"))
        position += length
      case .invalid:
        try body(.invalidByte(lead))
        position += 1
      case .incomplete:
        if isLast {
          try body(.invalidByte(lead))
          position += 1
        } else {
          setCarry(UnsafeBufferPointer(rebasing: chunk[position...]))
          return
        }
      }
    }
  }

  /// Decodes `bytes` as one chunk.
  package mutating func decode(
    _ bytes: [UInt8], isLast: Bool, _ body: (DecodedUnit) throws -> Void
  ) rethrows {
    try bytes.withUnsafeBufferPointer { try decode($0, isLast: isLast, body) }
  }

  @usableFromInline mutating func setCarry(_ bytes: UnsafeBufferPointer<UInt8>) {
    carry.append(contentsOf: bytes)
  }

  /// Completes the sequence carried from the previous chunk; returns how many
  /// bytes of `chunk` it used.
  @usableFromInline
  mutating func finishCarry(
    _ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool, _ body: (DecodedUnit) throws -> Void
  ) rethrows -> Int {
    guard !carry.isEmpty else { return 0 }
    var used = 0
    while !carry.isEmpty {
      let borrowed = min(4 - min(carry.count, 4), chunk.count - used)
      let window = carry + chunk[used..<(used + max(borrowed, 0))]
      let step = window.withUnsafeBufferPointer { Self.step($0, at: 0) }
      switch step {
      case .scalar(let value, let length):
        try body(.scalar(Unicode.Scalar(value) ?? "\u{FFFD}"))
        consume(length, &used)
      case .invalid:
        try body(.invalidByte(carry[0]))
        consume(1, &used)
      case .incomplete:
        if isLast {
          try body(.invalidByte(carry[0]))
          consume(1, &used)
        } else {
          // Still cut off: the whole chunk is part of the carried sequence.
          carry.append(contentsOf: chunk[used...])
          return chunk.count
        }
      }
    }
    return used
  }

  /// Removes `length` bytes from the front of carry, then of the chunk.
  @usableFromInline mutating func consume(_ length: Int, _ used: inout Int) {
    let fromCarry = min(length, carry.count)
    carry.removeFirst(fromCarry)
    used += length - fromCarry
  }
}
