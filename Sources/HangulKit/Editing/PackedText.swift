/// The form a ``LineStack`` keeps its lines in: UTF-8, except that a Hangul
/// syllable (U+AC00...U+D7A3, three bytes of UTF-8) takes two bytes, so that
/// Korean prose held away from the cursor costs about a third less.
///
/// A scalar starts with a byte that says which it is: below 0x80 an ASCII
/// character (one byte); 0x80...0xAB a syllable, whose index (from U+AC00)
/// is the byte's offset from 0x80 times 255 plus the next byte's value,
/// that byte skipping 0x0A; 0xC2 and above a scalar's UTF-8 as it is. No
/// byte of a packed line is 0x0A, so a newline still ends a line, and the
/// text comes back byte for byte.
enum PackedText {
  private static let firstSyllable: UInt32 = 0xAC00
  private static let lastSyllable: UInt32 = 0xD7A3
  /// The first lead byte of a syllable; there are 44 (11,172 syllables, 255 a lead).
  private static let syllableLead: UInt8 = 0x80
  private static let lastSyllableLead: UInt8 = 0xAB

  /// Appends `utf8` (whole, valid scalars, no newline) packed to `packed`.
  static func append(packing utf8: UnsafeBufferPointer<UInt8>, to packed: inout [UInt8]) {
    // Packing never lengthens: at most as many bytes as the UTF-8.
    append(to: &packed, atMost: utf8.count) { out in
      var index = 0
      var written = 0
      while index < utf8.count {
        assert(written <= index, "what is written is no longer than what is read")
        let lead = utf8[index]
        if lead >= 0xEA, lead <= 0xED {
          assert(index + 2 < utf8.count, "whole scalars: a three-byte lead has two bytes after it")
          let value =
            UInt32(lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6
            | UInt32(utf8[index + 2] & 0x3F)
          if value >= firstSyllable, value <= lastSyllable {
            let syllable = value - firstSyllable
            let low = UInt8(syllable % 255)
            out[written] = syllableLead + UInt8(syllable / 255)
            out[written + 1] = low < 0x0A ? low : low + 1
            written += 2
            index += 3
            continue
          }
        }
        let length = copyScalar(from: utf8, at: index, to: out, at: written)
        written += length
        index += length
      }
      return written
    }
  }

  /// Appends the UTF-8 of `packed` (a packed line, or a part of one that
  /// starts and ends between scalars) to `utf8`; returns how many scalars.
  @discardableResult
  static func append(unpacking packed: UnsafeBufferPointer<UInt8>, to utf8: inout [UInt8]) -> Int {
    var scalars = 0
    // A syllable's two bytes become three; everything else stays as long.
    append(to: &utf8, atMost: packed.count + packed.count / 2) { out in
      var index = 0
      var written = 0
      while index < packed.count {
        assert(2 * written <= 3 * index, "at most three bytes written for two read")
        let lead = packed[index]
        scalars += 1
        if lead >= syllableLead, lead <= lastSyllableLead {
          assert(index + 1 < packed.count, "a syllable's second byte is there")
          let trail = packed[index + 1]
          let low = UInt32(trail > 0x0A ? trail - 1 : trail)
          let value = firstSyllable + UInt32(lead - syllableLead) * 255 + low
          out[written] = 0xE0 | UInt8(value >> 12)
          out[written + 1] = 0x80 | UInt8((value >> 6) & 0x3F)
          out[written + 2] = 0x80 | UInt8(value & 0x3F)
          written += 3
          index += 2
          continue
        }
        let length = copyScalar(from: packed, at: index, to: out, at: written)
        written += length
        index += length
      }
      return written
    }
    return scalars
  }

  /// Appends what `write` writes to `bytes`: it gets room for `maximum`
  /// bytes and returns how many it wrote.
  private static func append(
    to bytes: inout [UInt8], atMost maximum: Int,
    _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int
  ) {
    guard maximum > 0 else { return }
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: maximum))
    let written = bytes.withUnsafeMutableBufferPointer { buffer in
      write(UnsafeMutableBufferPointer(rebasing: buffer[start...]))
    }
    assert(written <= maximum, "no more written than there was room for")
    bytes.removeLast(maximum - written)
  }

  /// Copies the scalar whose UTF-8 (kept as it is by packing) starts at
  /// `source[index]` to `out` at `written`; returns its length.
  @inline(__always)
  private static func copyScalar(
    from source: UnsafeBufferPointer<UInt8>, at index: Int,
    to out: UnsafeMutableBufferPointer<UInt8>, at written: Int
  ) -> Int {
    let length = utf8Length(lead: source[index])
    assert(index + length <= source.count, "whole scalars: a lead byte's sequence is all there")
    assert(written + length <= out.count, "room for the scalar")
    for offset in 0..<length { out[written + offset] = source[index + offset] }
    return length
  }

  /// The length of the UTF-8 sequence a lead byte (not a continuation byte) starts.
  @inline(__always)
  private static func utf8Length(lead: UInt8) -> Int {
    assert(lead < 0x80 || lead >= 0xC0, "a lead byte")
    return 1 + (lead >= 0xC0 ? 1 : 0) + (lead >= 0xE0 ? 1 : 0) + (lead >= 0xF0 ? 1 : 0)
  }
}
