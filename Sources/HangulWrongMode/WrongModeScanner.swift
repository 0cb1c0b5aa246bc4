import HangulKit

/// Finds the spans typed in the wrong mode in one line (or a piece of a
/// long one): splits it into tokens at white space, leaves alone the tokens
/// that are code or addresses, cuts the others into runs of letters and runs
/// of Hangul, has each run judged (``WrongModeJudge``), and reports an
/// ambiguous run (a word in both readings) when its neighbours are reported
/// in the same direction: on one side, and on the other side too unless
/// there is no run there.
///
/// Left alone whole: a token with any of `_ = / \ @ $ ` { } < > | # & % * +`
/// (identifiers, paths, URLs, e-mail addresses, mentions, base64), a `.`
/// between two letters, digits or Hangul (file and host names, versions), or
/// starting with `www.` or with `-` and a letter or `-` (options). Left alone
/// in a token: a run of letters next to a digit, or joined to a letter or
/// digit by `'`, `’` or `-` (identifiers with digits, contractions, compounds).
///
/// Time: O(line) plus the judge's; memory: the line's tokens and runs.
struct WrongModeScanner {
  var judge: WrongModeJudge
  private let typesJamo: [Bool]
  private var units: [Unit] = []
  private var token: [TokenCharacter] = []
  private var hangul: [Unicode.Scalar] = []

  /// A character of the token being read: where its bytes are, its scalar
  /// value (``TokenCharacter/invalid`` for a byte that is not UTF-8) and column.
  struct TokenCharacter {
    static let invalid: UInt32 = 0xFFFF_FFFF
    var start: Int
    var end: Int
    var value: UInt32
    var column: Int
  }

  /// A run of letters or of Hangul and what the judge made of it.
  struct Unit {
    var isHangul: Bool
    var start: Int
    var end: Int
    var column: Int
    var verdict = WrongModeVerdict.no
  }

  init(judge: WrongModeJudge) {
    self.judge = judge
    typesJamo = judge.lexicon.typing.typesJamo
  }

  /// Scans `bytes`, a line without its newline or a piece of one that ends
  /// at white space, whose first character is at `column`. Adds what it
  /// finds to `findings`; with `writesText`, appends the text to `output`
  /// with each span replaced. Returns the columns (characters) it held.
  mutating func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, line: Int, column firstColumn: Int, file: String,
    findings: WrongModeFindings, writesText: Bool, into output: inout [UInt8]
  ) -> Int {
    units.removeAll(keepingCapacity: true)
    token.removeAll(keepingCapacity: true)
    var column = firstColumn
    var offset = 0
    var stream = UTF8Stream()
    stream.decode(bytes, isLast: true) { unit in
      let value: UInt32
      let length: Int
      switch unit {
      case .scalar(let scalar):
        value = scalar.value
        length = UTF8.width(scalar)
      default:
        value = TokenCharacter.invalid
        length = 1
      }
      if Self.isWhiteSpace(value) {
        endToken()
      } else {
        token.append(
          TokenCharacter(start: offset, end: offset + length, value: value, column: column))
      }
      offset += length
      column += 1
    }
    endToken()
    assert(offset == bytes.count, "every byte is decoded once")
    judgeUnits(bytes)
    var written = 0
    for unit in units {
      guard case .report(let to, let score) = unit.verdict else { continue }
      let from = UnsafeBufferPointer(rebasing: bytes[unit.start..<unit.end])
      let span = WrongModeSpan(
        line: line, column: unit.column, from: String(decoding: from, as: UTF8.self),
        to: String(decoding: to, as: UTF8.self),
        direction: unit.isHangul ? .koreanMode : .englishMode, score: score)
      findings.add(span, file: file)
      if writesText {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[written..<unit.start]))
        output.append(contentsOf: to)
        written = unit.end
      }
    }
    if writesText { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[written...])) }
    return column - firstColumn
  }

  /// Judges every run, then the ambiguous ones by their neighbours until none changes.
  private mutating func judgeUnits(_ bytes: UnsafeBufferPointer<UInt8>) {
    for index in units.indices {
      let unit = units[index]
      if unit.isHangul {
        decodeHangul(bytes, unit)
        units[index].verdict = judge.judge(hangul: hangul)
      } else {
        units[index].verdict = judge.judge(
          letters: UnsafeBufferPointer(rebasing: bytes[unit.start..<unit.end]))
      }
    }
    var changed = true
    while changed {
      changed = false
      for index in units.indices where units[index].verdict == .ambiguous {
        guard supportedByNeighbours(index) else { continue }
        let unit = units[index]
        let reading: [UInt8]?
        if unit.isHangul {
          decodeHangul(bytes, unit)
          reading = judge.contextReading(hangul: hangul)
        } else {
          reading = judge.contextReading(
            letters: UnsafeBufferPointer(rebasing: bytes[unit.start..<unit.end]))
        }
        let score = WrongModeOptions.contextScore
        if let reading, score >= judge.options.minScore {
          units[index].verdict = .report(to: reading, score: score)
        } else {
          units[index].verdict = .no
        }
        changed = true
      }
    }
  }

  /// Whether the runs beside `index` are reported in its direction: one of
  /// them, and the other too unless there is none.
  private func supportedByNeighbours(_ index: Int) -> Bool {
    func reported(_ neighbour: Int) -> Bool? {
      guard units.indices.contains(neighbour) else { return nil }
      guard units[neighbour].isHangul == units[index].isHangul,
        case .report = units[neighbour].verdict
      else { return false }
      return true
    }
    let left = reported(index - 1)
    let right = reported(index + 1)
    return (left == true && right != false) || (right == true && left != false)
  }

  /// Puts the scalars of a run of Hangul (three bytes each) into `hangul`.
  private mutating func decodeHangul(_ bytes: UnsafeBufferPointer<UInt8>, _ unit: Unit) {
    hangul.removeAll(keepingCapacity: true)
    var index = unit.start
    while index + 2 < unit.end {
      let value =
        UInt32(bytes[index] & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
        | UInt32(bytes[index + 2] & 0x3F)
      hangul.append(Unicode.Scalar(value) ?? "\u{FFFD}")
      index += 3
    }
    assert(index == unit.end, "Hangul syllables and jamo take three bytes each")
  }

  // MARK: Tokens

  /// Cuts the token read into runs (unless it is left alone whole) and forgets it.
  private mutating func endToken() {
    defer { token.removeAll(keepingCapacity: true) }
    guard !token.isEmpty, !isLeftAlone() else { return }
    var index = 0
    while index < token.count {
      let value = token[index].value
      let isKey = value < 0x80 && typesJamo[Int(value)]
      guard isKey || Self.isHangul(value) else {
        index += 1
        continue
      }
      var end = index + 1
      while end < token.count {
        let next = token[end].value
        guard isKey ? next < 0x80 && typesJamo[Int(next)] : Self.isHangul(next) else { break }
        end += 1
      }
      if !isKey || (!lettersJoined(before: index) && !lettersJoined(after: end - 1)) {
        units.append(
          Unit(
            isHangul: !isKey, start: token[index].start, end: token[end - 1].end,
            column: token[index].column))
      }
      index = end
    }
  }

  /// Whether the token is code, an address, a name or an option, as a whole.
  private func isLeftAlone() -> Bool {
    for (index, character) in token.enumerated() {
      switch character.value {
      case 0x5F, 0x3D, 0x2F, 0x5C, 0x40, 0x24, 0x60, 0x7B, 0x7D, 0x3C, 0x3E, 0x7C, 0x23, 0x26,
        0x25, 0x2A, 0x2B:
        return true  // _ = / \ @ $ ` { } < > | # & % * +
      case 0x2E:
        if index > 0, index + 1 < token.count, Self.isWordCharacter(token[index - 1].value),
          Self.isWordCharacter(token[index + 1].value)
        {
          return true
        }
      default: break
      }
    }
    if token.count > 1, token[0].value == 0x2D,
      Self.isASCIILetter(token[1].value) || token[1].value == 0x2D
    {
      return true
    }
    let www: [UInt32] = [0x77, 0x77, 0x77, 0x2E]
    return token.count > 4 && zip(token, www).allSatisfy { $0.value | 0x20 == $1 }
  }

  /// Whether the run of letters ending at `index` is joined, after it, to a
  /// digit or another letter, directly or by an apostrophe or hyphen.
  private func lettersJoined(after index: Int) -> Bool {
    joins(index + 1, then: index + 2)
  }

  /// Whether the run of letters starting at `index` is so joined before it.
  private func lettersJoined(before index: Int) -> Bool {
    joins(index - 1, then: index - 2)
  }

  private func joins(_ next: Int, then beyond: Int) -> Bool {
    guard token.indices.contains(next) else { return false }
    let value = token[next].value
    if Self.isASCIIAlphanumeric(value) { return true }
    guard value == 0x27 || value == 0x2D || value == 0x2019, token.indices.contains(beyond) else {
      return false
    }
    return Self.isASCIIAlphanumeric(token[beyond].value)
  }

  // MARK: Characters

  static func isWhiteSpace(_ value: UInt32) -> Bool {
    switch value {
    case 0x09...0x0D, 0x20: return true
    case 0..<0x80, TokenCharacter.invalid: return false
    case 0xAC00...0xD7A3: return false
    default: return Unicode.Scalar(value)?.properties.isWhitespace ?? false
    }
  }

  /// Hangul syllables and the compatibility jamo of today's Hangul (what 2-set types).
  static func isHangul(_ value: UInt32) -> Bool {
    (0xAC00...0xD7A3).contains(value) || (0x3131...0x3163).contains(value)
  }

  static func isASCIILetter(_ value: UInt32) -> Bool {
    (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
  }

  static func isASCIIAlphanumeric(_ value: UInt32) -> Bool {
    isASCIILetter(value) || (0x30...0x39).contains(value)
  }

  static func isWordCharacter(_ value: UInt32) -> Bool {
    isASCIIAlphanumeric(value) || isHangul(value)
  }
}
