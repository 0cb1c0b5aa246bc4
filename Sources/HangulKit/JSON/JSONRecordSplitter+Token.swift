extension JSONRecordSplitter {
  /// The kind of token being read, when one is open across bytes (or chunks).
  enum Token: UInt8, Sendable {
    case none, string, number, literal
  }

  /// How far a number is read, as RFC 8259's grammar goes.
  enum NumberState: UInt8, Sendable {
    case minus, zero, integer, dot, fraction, exponent, exponentSign, exponentDigits

    var isComplete: Bool {
      self == .zero || self == .integer || self == .fraction || self == .exponentDigits
    }
  }

  /// The token being read: which kind, and how far each kind's check has
  /// got (a string's escape and UTF-8 sequence, a number's grammar, a
  /// literal's letters), so that a token cut by a chunk's end goes on in the next.
  struct TokenState: Sendable {
    var token = Token.none
    var stringIsName = false
    /// 0 none, 1 after a backslash, 2...5 reading `\u` hex digits.
    var escape = 0
    var unicodeUnit: UInt32 = 0
    var highSurrogatePending = false
    /// How many continuation bytes the UTF-8 sequence being read still needs, and their range.
    var utf8Needed = 0
    var utf8Low: UInt8 = 0x80
    var utf8High: UInt8 = 0xBF
    var numberState = NumberState.zero
    var literal: StaticString = "true"
    var literalPosition = 0
    /// Where a string value just ended in the chunk (the index after its quote), or -1.
    var pendingStringEnd = -1

    /// A string starts: no escape or UTF-8 sequence is open.
    @inline(__always)
    mutating func beginString(isName: Bool) {
      token = .string
      stringIsName = isName
      resetStringChecks()
    }

    /// Forgets an escape or UTF-8 sequence in progress (after an error in it).
    @inline(__always)
    mutating func resetStringChecks() {
      escape = 0
      highSurrogatePending = false
      utf8Needed = 0
      utf8Low = 0x80
      utf8High = 0xBF
    }

    /// What an end of input interrupts, as messages say it: ` inside a string`.
    func inside(_ kind: Token) -> String {
      switch kind {
      case .string: " inside a string"
      case .number: " inside a number"
      case .literal: " inside '\(literal)'"
      case .none: ""
      }
    }

    /// Takes one byte of an escape; returns what is wrong with it, if anything.
    mutating func escapeProblem(
      _ byte: UInt8, at index: Int, in bytes: UnsafeBufferPointer<UInt8>
    ) -> String? {
      if escape == 1 {
        if byte == UInt8(ascii: "u") {
          escape = 2
          unicodeUnit = 0
          return nil
        }
        if highSurrogatePending { return "a lone surrogate in a \\u escape" }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          escape = 0
          return nil
        default:
          escape = 0
          return "invalid escape: \(JSONRecordSplitter.describe(bytes, at: index)) after '\\'"
        }
      }
      guard let digit = jsonHexDigit(byte) else {
        escape = 0
        return "unexpected \(JSONRecordSplitter.describe(bytes, at: index)) in a \\u escape"
      }
      unicodeUnit = unicodeUnit << 4 | UInt32(digit)
      escape += 1
      guard escape == 6 else { return nil }
      escape = 0
      let isHigh = (0xD800..<0xDC00).contains(unicodeUnit)
      let isLow = (0xDC00..<0xE000).contains(unicodeUnit)
      if highSurrogatePending {
        highSurrogatePending = false
        guard isLow else { return "a lone surrogate in a \\u escape" }
      } else if isHigh {
        highSurrogatePending = true
      } else if isLow {
        return "a lone surrogate in a \\u escape"
      }
      return nil
    }

    /// Takes the next byte of a number if it continues it.
    @inline(__always)
    mutating func continueNumber(_ byte: UInt8) -> Bool {
      let isDigit = byte >= 0x30 && byte <= 0x39
      switch numberState {
      case .minus:
        if byte == UInt8(ascii: "-") { return true }
        guard isDigit else { return false }
        numberState = byte == 0x30 ? .zero : .integer
      case .zero, .integer:
        if isDigit, numberState == .integer { return true }
        if byte == UInt8(ascii: ".") {
          numberState = .dot
        } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
          numberState = .exponent
        } else {
          return false
        }
      case .dot:
        guard isDigit else { return false }
        numberState = .fraction
      case .fraction:
        if isDigit { return true }
        guard byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") else { return false }
        numberState = .exponent
      case .exponent:
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
          numberState = .exponentSign
          return true
        }
        guard isDigit else { return false }
        numberState = .exponentDigits
      case .exponentSign:
        guard isDigit else { return false }
        numberState = .exponentDigits
      case .exponentDigits:
        return isDigit
      }
      return true
    }

    /// The index of the first byte from `start` that is not plain string text:
    /// printable ASCII other than quote and backslash (eight bytes at a time),
    /// or a whole valid two-, three- or four-byte UTF-8 sequence (Hangul is
    /// three bytes; runs of them are taken without going back to the words).
    @inline(__always)
    static func skipPlainText(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
      guard let base = bytes.baseAddress else { return start }
      var index = start
      let count = bytes.count
      let quotes = ByteSearch.broadcast(UInt8(ascii: "\""))
      let backslashes = ByteSearch.broadcast(UInt8(ascii: "\\"))
      while index < count {
        if index + 8 <= count {
          let word = ByteSearch.word(base, at: index)
          let special =
            ByteSearch.bytesBelow(0x20, in: word) | ByteSearch.zeroBytes(word ^ quotes)
            | ByteSearch.zeroBytes(word ^ backslashes)
          let nonASCII = word & ByteSearch.highBits
          if special | nonASCII == 0 {
            index += 8
            continue
          }
          let firstSpecial = special == 0 ? 8 : ByteSearch.firstFlagged(special)
          let firstNonASCII = nonASCII == 0 ? 8 : ByteSearch.firstFlagged(nonASCII)
          if firstSpecial < firstNonASCII { return index + firstSpecial }
          index += firstNonASCII
        } else {
          let byte = base[index]
          if byte < 0x80 {
            guard byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else {
              return index
            }
            index += 1
            continue
          }
        }
        // Multi-byte sequences, one after another.
        while index < count {
          let byte = base[index]
          if byte & 0xF0 == 0xE0 {
            guard index + 2 < count else { return index }
            let second = base[index + 1]
            let low: UInt8 = byte == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = byte == 0xED ? 0x9F : 0xBF
            guard second >= low, second <= high, base[index + 2] & 0xC0 == 0x80 else {
              return index
            }
            index += 3
          } else if byte >= 0xC2, byte <= 0xDF {
            guard index + 1 < count, base[index + 1] & 0xC0 == 0x80 else { return index }
            index += 2
          } else if byte >= 0xF0, byte <= 0xF4 {
            guard index + 3 < count else { return index }
            let second = base[index + 1]
            let low: UInt8 = byte == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = byte == 0xF4 ? 0x8F : 0xBF
            guard second >= low, second <= high, base[index + 2] & 0xC0 == 0x80,
              base[index + 3] & 0xC0 == 0x80
            else { return index }
            index += 4
          } else if byte < 0x80 {
            break
          } else {
            return index
          }
        }
      }
      return index
    }
  }
}
