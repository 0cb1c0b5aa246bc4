/// Writes JSON text.
package enum JSONWriter {
  /// `text` as a JSON string literal, escaping only what RFC 8259 requires
  /// (quote, backslash and control characters).
  package static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{8}": result += "\\b"
      case "\u{C}": result += "\\f"
      case "\0"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// Appends well-formed UTF-8 text to `output` as the inside of a JSON
  /// string literal (the escapes of ``quoted(_:)``, no quotes), so that a
  /// long text can be written in pieces.
  ///
  ///     var out: [UInt8] = []
  ///     JSONWriter.appendEscaped(utf8: Array("가\n".utf8), to: &out)   // 가\n
  ///
  /// O(n).
  package static func appendEscaped(utf8 text: [UInt8], to output: inout [UInt8]) {
    let hexDigits = Array("0123456789abcdef".utf8)
    for byte in text {
      switch byte {
      case 0x22: output.append(contentsOf: [0x5C, 0x22])
      case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      case ..<0x20:
        output.append(contentsOf: Array("\\u00".utf8))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
      default: output.append(byte)
      }
    }
  }
}
