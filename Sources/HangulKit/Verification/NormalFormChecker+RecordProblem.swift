extension NormalFormChecker {
  /// Writes into `message` what `--check` says about the first segment of
  /// the run `start..<end` of `text` that is not in the form, `not NFC: "한"
  /// (U+1112 U+1161 U+11AB)`, and returns where the
  /// segment starts, in code points from `start`. With `fastOnly`, only
  /// segments that Hangul arithmetic decides (conjoining jamo that compose,
  /// a syllable that decomposes) are looked at, and nil is returned at the
  /// first other one; else ICU decides the others, and a run in which no
  /// one segment is out of the form is named whole. A message shows at
  /// most ``spelledScalars`` code points of what it names.
  ///
  /// O(the run); with `fastOnly`, no allocation but `message`'s growth.
  func recordProblemMessage(
    _ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, fastOnly: Bool,
    into message: ByteSink
  ) -> Int? {
    var position = start
    var offset = 0
    while position < end {
      // The segment: a code point and those after it with no boundary before them.
      var next = position + Self.scalarLength(text, at: position, end)
      var count = 1
      while next < end,
        case .scalar(let value, let length) = UTF8Stream.step(text, at: next),
        properties.flags(of: value) & NormalizationProperties.boundary == 0
      {
        next += length
        count += 1
      }
      let segment = UnsafeBufferPointer(rebasing: text[position..<next])
      if hangulProblem(segment, into: message) { return offset }
      guard !fastOnly else { return nil }
      if !isInForm(segment) {
        write(segment, into: message, mayGoOn: next == text.count)
        return offset
      }
      position = next
      offset += count
    }
    guard !fastOnly else { return nil }
    write(
      UnsafeBufferPointer(rebasing: text[start..<end]), into: message, mayGoOn: end == text.count)
    return 0
  }

  /// Whether the valid UTF-8 `segment` is in the form: a long one (hundreds
  /// of marks on one letter) with its marks out of canonical order is in
  /// none and is not handed to ICU, whose reordering would take quadratic
  /// time.
  private func isInForm(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = segment.baseAddress else { return true }
    if segment.count > UnicodeNormalizer.longestSegment,
      !CanonicalOrdering.isOrdered(base, count: segment.count, by: properties.normalizer)
    {
      return false
    }
    return isNormalized(base, count: segment.count)
  }

  /// `not NFC: "SEGMENT" (U+…)` into `message`: the first
  /// ``spelledScalars`` code points of `segment`, and how many it has
  /// when it has more (`at least` when it `mayGoOn` in the text checked
  /// next: a line longer than the filter holds is checked in pieces).
  private func write(_ segment: UnsafeBufferPointer<UInt8>, into message: ByteSink, mayGoOn: Bool) {
    var values: [UInt32] = []
    var shownBytes = 0
    var total = 0
    var position = 0
    while position < segment.count {
      let length = Self.scalarLength(segment, at: position, segment.count)
      if values.count < Self.spelledScalars {
        if case .scalar(let value, _) = UTF8Stream.step(segment, at: position) {
          values.append(value)
        }
        shownBytes = position + length
      }
      total += 1
      position += length
    }
    let shown = UnsafeBufferPointer(rebasing: segment[..<shownBytes])
    guard total > values.count else { return write(shown, values, into: message) }
    write(shown, values, more: (total, mayGoOn), into: message)
  }

  /// The bytes of the code point at `position` (1 for a byte that is not UTF-8).
  private static func scalarLength(_ text: UnsafeBufferPointer<UInt8>, at position: Int, _ end: Int)
    -> Int
  {
    guard case .scalar(_, let length) = UTF8Stream.step(text, at: position) else { return 1 }
    return min(length, end - position)
  }

  /// Writes the message for `segment` when it is Hangul that the form
  /// changes (conjoining L V or L V T in NFC and NFKC, a syllable in NFD
  /// and NFKD), by the arithmetic of Unicode 3.12; returns whether it did.
  func hangulProblem(_ segment: UnsafeBufferPointer<UInt8>, into message: ByteSink)
    -> Bool
  {
    func value(_ index: Int) -> UInt32? {
      let (lead, second, third) = (segment[index], segment[index + 1], segment[index + 2])
      guard lead & 0xF0 == 0xE0, second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return nil }
      return UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
    }
    // The code points of the segment: jamo that compose, or a syllable.
    var values: (UInt32, UInt32, UInt32) = (0, 0, 0)
    var count = 0
    if form.composes {
      guard segment.count == 6 || segment.count == 9, let initial = value(0),
        let vowel = value(3), (0x1100...0x1112).contains(initial), (0x1161...0x1175).contains(vowel)
      else { return false }
      values = (initial, vowel, 0)
      count = 2
      if segment.count == 9 {
        guard let final = value(6), (0x11A8...0x11C2).contains(final) else { return false }
        values.2 = final
        count = 3
      }
    } else {
      guard segment.count == 3, let syllable = value(0), (0xAC00...0xD7A3).contains(syllable)
      else { return false }
      values.0 = syllable
      count = 1
    }
    withUnsafeBytes(of: &values) { raw in
      write(segment, raw.bindMemory(to: UInt32.self)[..<count], into: message)
    }
    return true
  }

  /// `not NFC: "` for the form (static text: no reference counting per message).
  private var notInForm: StaticString {
    switch form {
    case .nfc: "not NFC: \""
    case .nfd: "not NFD: \""
    case .nfkc: "not NFKC: \""
    case .nfkd: "not NFKD: \""
    }
  }

  /// `not NFC: "SEGMENT" (U+…)` into `message`, the code points of
  /// `segment` being `values`; with `more`, `"SEGMENT…" (U+… … N code
  /// points)`: the segment shown is the start of one of N code points (or
  /// at least N).
  private func write(
    _ segment: UnsafeBufferPointer<UInt8>, _ values: some Collection<UInt32>,
    more: (count: Int, atLeast: Bool)? = nil,
    into message: ByteSink
  ) {
    message.count = 0
    Self.append(notInForm, to: message)
    if let base = segment.baseAddress { message.append(base, count: segment.count) }
    if more != nil { Self.append("…", to: message) }
    Self.append("\" (", to: message)
    Self.appendCodePoints(values, to: message)
    if let more {
      Self.append(" … ", to: message)
      if more.atLeast { Self.append("at least ", to: message) }
      for byte in String(more.count).utf8 { message.append(byte) }
      Self.append(" code points", to: message)
    }
    message.append(UInt8(ascii: ")"))
  }

  /// `U+1112 U+1161`.
  private static func appendCodePoints(_ values: some Collection<UInt32>, to message: ByteSink) {
    var first = true
    for value in values {
      if !first { message.append(UInt8(ascii: " ")) }
      first = false
      appendCodePoint(value, to: message)
    }
  }

  @inline(__always)
  private static func append(_ text: StaticString, to message: ByteSink) {
    message.append(text.utf8Start, count: text.utf8CodeUnitCount)
  }

  /// The upper-case hex digit of `value`'s low four bits.
  @inline(__always)
  static func hexDigit(_ value: UInt32) -> UInt8 {
    let digit = UInt8(value & 0xF)
    return digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") - 10 + digit
  }

  /// `U+1112`: the value in at least four upper-case hex digits.
  @inline(__always)
  static func appendCodePoint(_ value: UInt32, to message: ByteSink) {
    let digits = value < 0x1_0000 ? 4 : value < 0x10_0000 ? 5 : 6
    message.reserve(2 + digits)
    let out = message.base + message.count
    out[0] = UInt8(ascii: "U")
    out[1] = UInt8(ascii: "+")
    for index in 0..<digits {
      out[1 + digits - index] = hexDigit(value >> UInt32(4 * index))
    }
    message.count += 2 + digits
  }

  /// `not UTF-8: byte 0xFF` into `message`.
  static func writeNotUTF8(_ byte: UInt8, into message: ByteSink) {
    message.count = 0
    append(notUTF8, to: message)
    message.append(hexDigit(UInt32(byte >> 4)))
    message.append(hexDigit(UInt32(byte)))
  }

  private static let notUTF8: StaticString = "not UTF-8: byte 0x"
}
