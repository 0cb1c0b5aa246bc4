/// Unicode normalization of UTF-8 text in any of the four forms, byte for
/// byte what ICU writes, through the project's own fast paths.
///
///     let nfc = try UnicodeNormalizer(.nfc)
///     nfc.normalized("\u{1112}\u{1161}\u{11AB} cafe\u{301}")   // "한 café"
///     try UnicodeNormalizer(.nfd).normalized("닭")               // U+1103 U+1161 U+11B0
///     nfc.normalized("ㄱㅅ")                                     // "ㄱㅅ": text, never keys
///
/// The text is cut into segments at normalization boundaries (from
/// ``NormalizationProperties``, built from ICU). A segment of one code point
/// that is already in the form is copied; a segment of Hangul syllables and
/// conjoining jamo is composed or decomposed by the arithmetic of SPEC §2;
/// every other segment (combining marks, compatibility characters, …) goes to
/// ICU, a run of such segments at a time. Bytes that are not UTF-8 are copied
/// unchanged and nothing composes across them. Time O(n); memory O(longest
/// segment).
public struct UnicodeNormalizer {
  public let form: ICUNormalizer.Form
  let properties: NormalizationProperties
  let workspace = ICUWorkspace()
  let decompositions = DecompositionTable(form: .nfd, keyboard: .twoSet)

  public init(_ form: ICUNormalizer.Form) throws {
    self.form = form
    properties = try NormalizationProperties.shared(form)
  }

  /// Normalizes `input`, writing to `sink`. With `isLast` false the last
  /// segment (which what follows may still change) is held back: returns how
  /// many bytes were consumed, always at a boundary.
  public func normalize(_ input: UnsafeBufferPointer<UInt8>, isLast: Bool, into sink: ByteSink)
    -> Int
  {
    properties.table.withUnsafeBufferPointer { table in
      decompositions.bytes.withUnsafeBufferPointer { syllables in
        var pass = NormalizationPass(
          input: input, table: table, syllables: syllables, sink: sink, normalizer: self)
        return pass.run(isLast: isLast)
      }
    }
  }

  /// `bytes` normalized (bytes that are not UTF-8 copied).
  public func normalized(_ bytes: [UInt8]) -> [UInt8] {
    let sink = ByteSink(capacity: bytes.count * 3 + 64)
    _ = bytes.withUnsafeBufferPointer { normalize($0, isLast: true, into: sink) }
    return Array(sink.bytes)
  }

  /// `text` normalized.
  public func normalized(_ text: String) -> String {
    String(decoding: normalized(Array(text.utf8)), as: UTF8.self)
  }

  /// Normalizes the valid UTF-8 in `start..<end` of `input` with ICU.
  func normalizeWithICU(_ input: UnsafePointer<UInt8>, count: Int, into sink: ByteSink) {
    let units = workspace.utf16(from: input, count: count)
    guard let result = workspace.normalize(units, with: properties.normalizer) else {
      sink.append(input, count: count)
      return
    }
    workspace.appendUTF8(result, to: sink)
  }
}

/// One pass of ``UnicodeNormalizer`` over a buffer.
///
/// Bytes from `pendingStart` to `segmentStart` are classified but not
/// written: all to be copied, or all to go to ICU (`pendingSlow`). The open
/// segment starts at `segmentStart`; it is classified when the next boundary
/// closes it.
struct NormalizationPass {
  let input: UnsafeBufferPointer<UInt8>
  let table: UnsafeBufferPointer<UInt8>
  let syllables: UnsafeBufferPointer<UInt8>
  let sink: ByteSink
  let normalizer: UnicodeNormalizer

  var pendingStart = 0
  var pendingSlow = false
  var segmentStart = 0
  var segmentOpen = false
  var segmentStable = false
  var segmentHangul = false

  init(
    input: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>,
    syllables: UnsafeBufferPointer<UInt8>, sink: ByteSink, normalizer: UnicodeNormalizer
  ) {
    self.input = input
    self.table = table
    self.syllables = syllables
    self.sink = sink
    self.normalizer = normalizer
  }

  mutating func run(isLast: Bool) -> Int {
    let count = input.count
    var position = 0
    // After a byte that is not UTF-8 nothing joins what came before.
    var afterInvalid = false
    sink.reserve(count + count / 2 + 64)
    while position < count {
      let lead = input[position]
      if lead < 0x80 {
        // ASCII: a boundary, and in every form as it is.
        startSegment(at: position, stable: true, hangul: false)
        afterInvalid = false
        position += 1
        continue
      }
      var value: UInt32 = 0
      var length = 0
      if lead & 0xF0 == 0xE0, position + 2 < count, input[position + 1] & 0xC0 == 0x80,
        input[position + 2] & 0xC0 == 0x80, lead != 0xE0 || input[position + 1] >= 0xA0,
        lead != 0xED || input[position + 1] < 0xA0
      {
        // The common case outside ASCII: a three-byte sequence (all of Hangul).
        value =
          UInt32(lead & 0x0F) << 12 | UInt32(input[position + 1] & 0x3F) << 6
          | UInt32(input[position + 2] & 0x3F)
        length = 3
      } else {
        switch UTF8Stream.step(input, at: position) {
        case .scalar(let decoded, let decodedLength):
          value = decoded
          length = decodedLength
        case .incomplete where !isLast:
          return hold()
        case .invalid, .incomplete:
          startSegment(at: position, stable: true, hangul: false)
          afterInvalid = true
          position += 1
          continue
        }
      }
      let flags =
        value < NormalizationProperties.tableLimit
        ? table[Int(value)] : normalizer.properties.flags(of: value)
      if flags & NormalizationProperties.boundary != 0 || afterInvalid || !segmentOpen {
        startSegment(
          at: position, stable: flags & NormalizationProperties.stable != 0,
          hangul: flags & NormalizationProperties.hangul != 0)
      } else {
        segmentStable = false
        segmentHangul = segmentHangul && flags & NormalizationProperties.hangul != 0
      }
      afterInvalid = false
      position += length
    }
    guard isLast else { return hold() }
    closeSegment(at: count)
    flushPending(upTo: count)
    return count
  }

  /// Writes everything before the open segment; returns where it starts.
  private mutating func hold() -> Int {
    let end = segmentOpen ? segmentStart : pendingStart
    flushPending(upTo: end)
    return end
  }

  @inline(__always)
  private mutating func startSegment(at position: Int, stable: Bool, hangul: Bool) {
    if segmentOpen { closeSegment(at: position) }
    segmentOpen = true
    segmentStart = position
    segmentStable = stable
    segmentHangul = hangul
  }

  @inline(__always)
  private mutating func closeSegment(at end: Int) {
    if segmentStable {
      guard pendingSlow else { return }
      flushPending(upTo: segmentStart)
      pendingSlow = false
    } else if segmentHangul {
      flushPending(upTo: segmentStart)
      writeHangul(from: segmentStart, to: end)
      pendingStart = end
      pendingSlow = false
    } else {
      guard !pendingSlow else { return }
      flushPending(upTo: segmentStart)
      pendingSlow = true
    }
  }

  private mutating func flushPending(upTo end: Int) {
    guard end > pendingStart, let base = input.baseAddress else { return }
    if pendingSlow {
      normalizer.normalizeWithICU(base + pendingStart, count: end - pendingStart, into: sink)
    } else {
      sink.append(base + pendingStart, count: end - pendingStart)
    }
    pendingStart = end
  }

  /// A segment of syllables and conjoining jamo (all three-byte sequences).
  @inline(__always)
  private func writeHangul(from start: Int, to end: Int) {
    @inline(__always) func scalar(at position: Int) -> UInt32 {
      UInt32(input[position] & 0x0F) << 12 | UInt32(input[position + 1] & 0x3F) << 6
        | UInt32(input[position + 2] & 0x3F)
    }
    if normalizer.form.composes {
      var last = scalar(at: start)
      var position = start + 3
      while position < end {
        let next = scalar(at: position)
        if let joined = HangulNormalization.composition(of: last, next) {
          last = joined
        } else {
          sink.appendUTF8(last)
          last = next
        }
        position += 3
      }
      sink.appendUTF8(last)
      return
    }
    var position = start
    while position < end {
      let value = scalar(at: position)
      let index = Int(value &- HangulSyllable.firstScalarValue)
      if index >= 0, index < HangulSyllable.count,
        let table = UnsafeRawPointer(syllables.baseAddress)
      {
        // Copy the entry (at most nine bytes) in 8-byte words.
        let source = index * DecompositionTable.stride
        let length = decompositionLength(index)
        sink.reserve(24)
        let target = UnsafeMutableRawPointer(sink.base + sink.count)
        target.storeBytes(
          of: table.loadUnaligned(fromByteOffset: source, as: UInt64.self), as: UInt64.self)
        target.storeBytes(
          of: table.loadUnaligned(fromByteOffset: source + 8, as: UInt64.self), toByteOffset: 8,
          as: UInt64.self)
        sink.count += length
      } else {
        sink.appendUTF8(value)
      }
      position += 3
    }
  }

  /// The UTF-8 length of a syllable's decomposition: six bytes, nine with a final.
  @inline(__always)
  private func decompositionLength(_ index: Int) -> Int {
    index % 28 == 0 ? 6 : 9
  }
}
