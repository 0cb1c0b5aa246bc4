/// Puts the text of a JSON string token into NFC without decoding it whole:
/// the token is cut where nothing can compose across (before an ASCII
/// character, a precomposed Hangul syllable or a compatibility jamo); a piece
/// that is one such character stays as it came, escapes included; a piece of
/// modern conjoining jamo is composed by the Hangul arithmetic of Unicode (ARCHITECTURE.md);
/// only the other pieces go to ICU. A piece that normalization changes is
/// written back as JSON (``JSONWriter`` escaping), the rest is copied.
///
///     var normalizer = try JSONStringNormalizer()
///     var output: [UInt8] = []
///     normalizer.normalize(Array(#""e\u0301 \u1100\u1161 가""#.utf8), into: &output)
///     // output is "é 가 가" as a JSON string
///
/// O(n) in the token; memory is the longest piece.
public struct JSONStringNormalizer {
  private let icu: ICUNormalizer
  private var piece: [UInt32] = []
  private var units: [UInt16] = []
  private var result: [UInt32] = []

  public init() throws {
    icu = try ICUNormalizer(.nfc)
  }

  /// Whether nothing composes with what comes before `value`, and `value`
  /// alone is NFC: ASCII, precomposed Hangul, compatibility jamo.
  @inline(__always)
  static func isStableStarter(_ value: UInt32) -> Bool {
    value < 0x80 || value &- 0xAC00 < 11_172 || value &- 0x3131 < 0x5E
  }

  /// Appends `token` (a valid JSON string token, quotes included) in NFC.
  public mutating func normalize(_ token: [UInt8], into output: inout [UInt8]) {
    token.withUnsafeBufferPointer { normalize($0, into: &output) }
  }

  /// Appends `token` (a valid JSON string token, quotes included) in NFC.
  public mutating func normalize(_ token: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    let end = token.count - 1
    var copied = 0  // token[copied..<pieceStart] is still to be copied
    var pieceStart = 1
    var starter: UInt32?  // the stable starter just before, and where it is
    var starterPosition = 1
    piece.removeAll(keepingCapacity: true)
    var position = 1
    while position < end {
      if piece.isEmpty {
        // Runs of ASCII and Hangul syllables: stable starters, nothing to do but move on.
        let last = Self.skipStableStarters(token, from: position, to: end)
        if last.end > position {
          starterPosition = last.start
          position = last.end
          var at = last.start
          starter = Self.scalar(token, at: &at)
          continue
        }
      }
      let byte = token[position]
      // Runs of ASCII: stable starters, nothing to do but move on.
      if byte < 0x80, byte != UInt8(ascii: "\\") {
        if !piece.isEmpty {
          flush(token, from: pieceStart, to: position, copied: &copied, into: &output)
        }
        starter = UInt32(byte)
        starterPosition = position
        position += 1
        continue
      }
      let start = position
      let value = Self.scalar(token, at: &position)
      if Self.isStableStarter(value) {
        if !piece.isEmpty {
          flush(token, from: pieceStart, to: start, copied: &copied, into: &output)
        }
        starter = value
        starterPosition = start
      } else {
        if piece.isEmpty {
          if let starter {
            piece.append(starter)
            pieceStart = starterPosition
          } else {
            pieceStart = start
          }
        }
        piece.append(value)
        starter = nil
      }
    }
    if !piece.isEmpty { flush(token, from: pieceStart, to: end, copied: &copied, into: &output) }
    output.append(contentsOf: UnsafeBufferPointer(rebasing: token[copied...]))
  }

  /// Skips ASCII (other than a backslash) and precomposed Hangul syllables
  /// from `start`; returns where the last one skipped starts, and where the run ends.
  @inline(__always)
  static func skipStableStarters(
    _ token: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
  ) -> (start: Int, end: Int) {
    var position = start
    var last = start
    while position < end {
      let byte = token[position]
      if byte < 0x80 {
        guard byte != UInt8(ascii: "\\") else { break }
        last = position
        position += 1
        continue
      }
      // U+AC00...U+D7A3 is EA B0 80 ... ED 9E A3.
      guard byte >= 0xEA, byte <= 0xED, position + 2 < end else { break }
      let value =
        UInt32(byte & 0x0F) << 12 | UInt32(token[position + 1] & 0x3F) << 6
        | UInt32(token[position + 2] & 0x3F)
      guard value &- 0xAC00 < 11_172 else { break }
      last = position
      position += 3
    }
    return (last, position)
  }

  /// The scalar at `position` (a UTF-8 sequence or an escape); moves past it.
  @inline(__always)
  static func scalar(_ token: UnsafeBufferPointer<UInt8>, at position: inout Int) -> UInt32 {
    let byte = token[position]
    if byte == UInt8(ascii: "\\") {
      let kind = token[position + 1]
      position += 2
      switch kind {
      case UInt8(ascii: "b"): return 0x08
      case UInt8(ascii: "f"): return 0x0C
      case UInt8(ascii: "n"): return 0x0A
      case UInt8(ascii: "r"): return 0x0D
      case UInt8(ascii: "t"): return 0x09
      case UInt8(ascii: "u"):
        let unit = hexUnit(token, at: &position)
        if unit &- 0xD800 < 0x400, position + 1 < token.count, token[position] == UInt8(ascii: "\\")
        {
          position += 2
          let low = hexUnit(token, at: &position)
          return 0x10000 + ((unit - 0xD800) << 10) + (low &- 0xDC00)
        }
        return unit
      default: return UInt32(kind)
      }
    }
    if byte < 0x80 {
      position += 1
      return UInt32(byte)
    }
    if byte < 0xE0 {
      position += 2
      return UInt32(byte & 0x1F) << 6 | UInt32(token[position - 1] & 0x3F)
    }
    if byte < 0xF0 {
      position += 3
      return UInt32(byte & 0x0F) << 12 | UInt32(token[position - 2] & 0x3F) << 6
        | UInt32(token[position - 1] & 0x3F)
    }
    position += 4
    return UInt32(byte & 0x07) << 18 | UInt32(token[position - 3] & 0x3F) << 12
      | UInt32(token[position - 2] & 0x3F) << 6 | UInt32(token[position - 1] & 0x3F)
  }

  static func hexUnit(_ token: UnsafeBufferPointer<UInt8>, at position: inout Int) -> UInt32 {
    var unit: UInt32 = 0
    for _ in 0..<4 {
      // The token was validated: every digit is a hex digit.
      unit = unit << 4 | UInt32(jsonHexDigit(token[position]) ?? 0)
      position += 1
    }
    return unit
  }

  /// The piece `token[start..<end]` (its scalars in ``piece``): written in NFC if that changes it.
  private mutating func flush(
    _ token: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, copied: inout Int,
    into output: inout [UInt8]
  ) {
    defer { piece.removeAll(keepingCapacity: true) }
    guard normalizePiece(), result != piece else { return }
    output.append(contentsOf: UnsafeBufferPointer(rebasing: token[copied..<start]))
    for value in result { Self.appendEscaped(value, to: &output) }
    copied = end
  }

  /// Puts the piece in NFC into ``result``: by Hangul arithmetic when it is
  /// modern jamo and stable starters only, else by ICU; `false` when it cannot.
  private mutating func normalizePiece() -> Bool {
    result.removeAll(keepingCapacity: true)
    var isModernHangul = true
    for value in piece
    where
      !(Self.isStableStarter(value) || value &- 0x1100 < 19 || value &- 0x1161 < 21
      || value &- 0x11A8 < 27)
    {
      isModernHangul = false
      break
    }
    if isModernHangul {
      for value in piece {
        if let last = result.last, let joined = HangulNormalization.composition(of: last, value) {
          result[result.count - 1] = joined
        } else {
          result.append(value)
        }
      }
      return true
    }
    units.removeAll(keepingCapacity: true)
    for value in piece {
      guard let scalar = Unicode.Scalar(value) else { return false }
      UTF16.encode(scalar) { units.append($0) }
    }
    let normalized = icu.normalize(utf16: units)
    for scalar in String(decoding: normalized, as: UTF16.self).unicodeScalars {
      result.append(scalar.value)
    }
    return true
  }

  /// Appends a scalar as JSON string text, escaping what RFC 8259 requires.
  @inline(__always)
  static func appendEscaped(_ value: UInt32, to output: inout [UInt8]) {
    switch value {
    case 0x22: output.append(contentsOf: [0x5C, 0x22])
    case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
    case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
    case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
    case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
    case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
    case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
    case 0..<0x20:
      output.append(contentsOf: Array("\\u00".utf8))
      output.append(contentsOf: Array(JSONRecordSplitter.hex(value, digits: 2).lowercased().utf8))
    default:
      if let scalar = Unicode.Scalar(value) { output.appendUTF8(scalar) }
    }
  }
}
