// Numbers and literals of an event line: checked as RFC 8259 spells them, a
// number kept as spelled when its member is used.

extension EventLineReader {
  /// How far a number is read.
  enum NumberStage {
    case start, minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent

    /// Whether a number may end here.
    var isComplete: Bool {
      switch self {
      case .zero, .integer, .fraction, .exponent: true
      case .start, .minus, .dot, .exponentMark, .exponentSign: false
      }
    }
  }

  mutating func takeInNumber(_ byte: UInt8) {
    let isDigit = byte >= 0x30 && byte <= 0x39
    let stage = token.number
    var next: NumberStage?
    switch stage {
    case .start:
      next = byte == UInt8(ascii: "-") ? .minus : byte == 0x30 ? .zero : .integer
    case .minus:
      next = byte == 0x30 ? .zero : isDigit ? .integer : nil
    case .zero:
      next =
        byte == UInt8(ascii: ".") ? .dot : byte | 0x20 == UInt8(ascii: "e") ? .exponentMark : nil
    case .integer:
      next =
        isDigit
        ? .integer
        : byte == UInt8(ascii: ".") ? .dot : byte | 0x20 == UInt8(ascii: "e") ? .exponentMark : nil
    case .dot, .fraction:
      next =
        isDigit
        ? .fraction : stage == .fraction && byte | 0x20 == UInt8(ascii: "e") ? .exponentMark : nil
    case .exponentMark:
      next =
        isDigit
        ? .exponent : byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") ? .exponentSign : nil
    case .exponentSign, .exponent:
      next = isDigit ? .exponent : nil
    }
    if let next {
      token.number = next
      if token.keeps {
        guard held.count < limit else { return tooLong() }
        held.append(byte)
      }
      return
    }
    guard stage.isComplete else { return syntaxError("invalid number", at: column) }
    // The byte ends the number and belongs to what follows.
    finishValue(token.keeps ? .number(String(decoding: held, as: UTF8.self)) : nil)
    takeBetweenTokens(byte)
  }

  mutating func takeInLiteral(_ byte: UInt8) {
    guard byte == token.literal[token.literalRead] else {
      return syntaxError("invalid literal", at: token.literalColumn)
    }
    token.literalRead += 1
    guard token.literalRead == token.literal.count else { return }
    let value: JSONValue =
      switch token.literal[0] {
      case UInt8(ascii: "t"): .bool(true)
      case UInt8(ascii: "f"): .bool(false)
      default: .null
      }
    finishValue(value)
  }
}
