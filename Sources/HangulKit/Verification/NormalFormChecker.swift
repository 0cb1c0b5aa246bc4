/// Checks that text is in a normalization form (`hangul-normalize --verify`
/// and `--check`), with ICU's quick-check tables first and ICU itself only where they cannot
/// decide.
///
/// Text is cut at the boundaries of ``NormalizationProperties``; a segment of
/// one code point that is in the form alone is proven normalized by the
/// table; every other segment is handed to ICU's `unorm2_isNormalized`.
/// Before any text, ``init(form:separator:)`` runs the project's Hangul fast
/// path over all 11,172 syllables (composed and decomposed) and compares the
/// result with ICU's.
///
///     var checker = try NormalFormChecker(form: .nfc)
///     checker.check(Array("가\u{1100}\u{1161}\n".utf8)[...])
///     checker.firstProblem?.column   // 2
///
/// Time O(n) (an ICU call only for segments that are not single code points);
/// memory O(1) apart from ICU's buffers.
package struct NormalFormChecker {
  /// A disagreement found before any text: the fast path differs from ICU.
  package struct FastPathDisagreement: Error, CustomStringConvertible, Sendable {
    package var description: String
  }

  package let form: ICUNormalizer.Form
  /// The byte that ends a record (newline, or NUL for `-z`).
  package let separator: UInt8
  /// The first place where the text is not in the form.
  package private(set) var firstProblem: PositionedError?
  /// How many places are not in the form (with ``recordProblem``: how many records).
  package private(set) var problemCount = 0
  /// When set, gets the first place of each record that is not in the
  /// form (`hangul-normalize --check`): its line in its input, its column
  /// and the message naming the segment there and its code points
  /// (``recordProblemMessage(_:_:_:fastOnly:into:)``); the rest of such a
  /// record is skipped. Else only ``firstProblem`` is kept.
  package var recordProblem:
    ((_ line: Int, _ column: Int, _ message: UnsafeBufferPointer<UInt8>) -> Void)?

  let properties: NormalizationProperties
  /// Which Hangul the form leaves alone (the fast path passes it in blocks).
  private let stable: StableHangul
  let workspace = ICUWorkspace()
  private var inputs = Inputs()
  /// The records begun so far (separators passed).
  package private(set) var record = 0
  private var column = 1
  /// The record whose problem ``recordProblem`` got, and its message.
  private var reportedRecord = -1
  private let message = ByteSink(capacity: 256)
  /// The last segment of the text checked before, when it was longer than
  /// ``UnicodeNormalizer/longestSegment``: where it starts. A segment that
  /// long goes on in the next text only where the normalizer had to cut it.
  private var trailingLongSegment: (record: Int, column: Int)?

  package init(form: ICUNormalizer.Form, separator: UInt8 = 0x0A) throws {
    self.form = form
    self.separator = separator
    properties = try NormalizationProperties(form)
    let properties = properties
    let jamoStable = (UInt32(0x1100)...0x11FF).allSatisfy {
      properties.flags(of: $0) & NormalizationProperties.stable != 0
    }
    let syllablesStable =
      switch form {
      case .nfc: Self.nfcSyllablesStable
      case .nfd: Self.nfdSyllablesStable
      case .nfkc: Self.nfkcSyllablesStable
      case .nfkd: Self.nfkdSyllablesStable
      }
    stable = StableHangul(jamo: jamoStable, syllables: syllablesStable)
    let outcome =
      switch form {
      case .nfc: Self.nfcOutcome
      case .nfd: Self.nfdOutcome
      case .nfkc: Self.nfkcOutcome
      case .nfkd: Self.nfkdOutcome
      }
    if let disagreement = outcome { throw disagreement }
  }

  /// Whether every syllable is in `normalizer`'s form alone with a boundary
  /// before it: each has a boundary before it and the text of all of them
  /// is in the form (cut at those boundaries, it is in the form exactly
  /// when each syllable is). One ICU call for the text instead of filling
  /// 44 blocks of the table (a few milliseconds at every start).
  private static func syllablesStable(_ form: ICUNormalizer.Form) -> Bool {
    guard let normalizer = try? ICUNormalizer(form) else { return false }
    let first = HangulSyllable.firstScalarValue
    let units = (0..<UInt32(HangulSyllable.count)).map { UInt16(truncatingIfNeeded: first + $0) }
    let normalized = units.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.map { normalizer.isNormalized(units: $0, count: buffer.count) } ?? false
    }
    return normalized
      && units.allSatisfy {
        Unicode.Scalar(UInt32($0)).map { normalizer.hasBoundary(before: $0) } ?? false
      }
  }

  // Whether every syllable is stable, once per process for each form.
  private static let nfcSyllablesStable = syllablesStable(.nfc)
  private static let nfdSyllablesStable = syllablesStable(.nfd)
  private static let nfkcSyllablesStable = syllablesStable(.nfkc)
  private static let nfkdSyllablesStable = syllablesStable(.nfkd)

  // What ``checkFastPath(_:)`` found for each form, once per process and
  // only for the forms asked for (a program makes a checker for each piece
  // of its input).
  private static let nfcOutcome = fastPathOutcome(.nfc)
  private static let nfdOutcome = fastPathOutcome(.nfd)
  private static let nfkcOutcome = fastPathOutcome(.nfkc)
  private static let nfkdOutcome = fastPathOutcome(.nfkd)

  private static func fastPathOutcome(_ form: ICUNormalizer.Form) -> FastPathDisagreement? {
    do {
      try checkFastPath(form)
      return nil
    } catch let disagreement as FastPathDisagreement {
      return disagreement
    } catch {
      return FastPathDisagreement(description: "\(error)")
    }
  }

  /// Which Hangul a form leaves alone: each code point of it is in the
  /// form by itself and has a boundary before it.
  struct StableHangul {
    /// U+1100–U+11FF, conjoining jamo (the decomposed forms' Hangul).
    let jamo: Bool
    /// U+AC00–U+D7A3, the syllables (the composed forms' Hangul).
    let syllables: Bool
  }

  /// The inputs checked, each with the record (counted over all inputs) it begins at.
  struct Inputs {
    private var starts: [(firstRecord: Int, name: String)] = []
    /// The index in the inputs of the one that holds the first problem.
    var firstProblemIndex = 0

    mutating func append(named name: String, firstRecord: Int) {
      starts.append((firstRecord, name))
    }

    /// The index of the input that holds `record`, and its name and first
    /// record (`nil` before any input was named).
    func input(holding record: Int) -> (index: Int, name: String, firstRecord: Int)? {
      guard let index = starts.lastIndex(where: { $0.firstRecord <= record }) else { return nil }
      return (index, starts[index].name, starts[index].firstRecord)
    }
  }

  /// What the line of ``firstProblem`` moves by when this checker's first
  /// piece stands at `place` in a parallel run.
  package func problemShift(at place: PiecePlace) -> Int {
    inputs.firstProblemIndex == 0 ? place.recordsBeforeInInput : 0
  }

  /// Notes that the next text comes from the input `name`.
  package mutating func beginInput(named name: String) {
    inputs.append(named: name, firstRecord: record)
  }

  /// Checks `text`, a whole number of segments (a block of normalized output).
  package mutating func check(_ text: ArraySlice<UInt8>) {
    text.withUnsafeBufferPointer { check($0) }
  }

  /// Checks `text`, a whole number of segments (a block of normalized output).
  package mutating func check(_ text: UnsafeBufferPointer<UInt8>) {
    // Nothing written: the segment before may still go on in what comes next.
    guard !text.isEmpty else { return }
    let count = text.count
    let separator = self.separator
    let table = properties.table
    var position = 0
    // The undecided run: segments that are not single stable code points.
    var runStart = -1
    var runColumn = 0
    // The record the run is in: it is decided only after the separator that ends it.
    var runRecord = 0
    var segmentStart = 0
    var segmentStable = true
    var afterInvalid = true
    // Columns are counted only where a run starts: characters from
    // `countedPosition` on have not been counted yet.
    var countedPosition = 0
    var countedColumn = column
    func columnAt(_ end: Int) -> Int {
      while countedPosition < end {
        countedColumn &+= text[countedPosition] & 0xC0 == 0x80 ? 0 : 1
        countedPosition &+= 1
      }
      return countedColumn
    }
    // Closes the segment before `position`: a stable one ends the run, any
    // other starts or extends it (a run grown long is decided first, so
    // that ICU gets runs of about a segment).
    func closeSegment() {
      if segmentStable {
        if runStart >= 0 {
          decide(text, runStart, segmentStart, record: runRecord, column: runColumn)
          runStart = -1
        }
      } else if runStart < 0 || segmentStart - runStart > UnicodeNormalizer.longestSegment {
        if runStart >= 0 {
          decide(text, runStart, segmentStart, record: runRecord, column: runColumn)
          runStart = -1
        }
        if recordProblem != nil, record != reportedRecord,
          hangulProblem(UnsafeBufferPointer(rebasing: text[segmentStart..<position]), into: message)
        {
          // Decomposed Hangul starts the run: the record's first problem,
          // found without reading on to the end of the run.
          return reportMessage(record: record, column: columnAt(segmentStart))
        }
        runStart = segmentStart
        runRecord = record
        runColumn = columnAt(segmentStart)
      }
    }
    if let trailing = trailingLongSegment {
      trailingLongSegment = nil
      if continuesSegment(text) {
        noteProblem(
          record: trailing.record, column: trailing.column,
          message:
            "not \(form.name.uppercased()) as a whole: a run of more than "
            + "\(UnicodeNormalizer.longestExactSegment >> 20) MiB with no normalization boundary")
      }
    }
    while position < count {
      if record == reportedRecord, let base = text.baseAddress {
        // Reported already: on to the separator that ends the record.
        if let found = SystemCalls.firstByte(
          separator, from: base + position, count: count - position)
        {
          position = UnsafeRawPointer(found) - UnsafeRawPointer(base)
        } else {
          position = count
        }
        runStart = -1
        segmentStart = position
        segmentStable = true
        afterInvalid = true
        countedPosition = position
        guard position < count else { break }
      }
      // The common case: stable code points one after another, nothing
      // undecided, through any number of records (their separators counted).
      if runStart < 0, segmentStable, let base = text.baseAddress {
        var last = segmentStart
        var separators = 0
        let stop = Self.passStable(
          base, count, from: position, separator, table, jamoStable: stable.jamo,
          syllablesStable: stable.syllables, last: &last, separators: &separators)
        if stop > position {
          segmentStart = last
          afterInvalid = false
          if separators > 0 {
            // Columns count from the last separator passed, found going back.
            record &+= separators
            var lineStart = stop
            while base[lineStart &- 1] != separator {
              assert(lineStart &- 1 > position, "a separator was passed after position")
              lineStart &-= 1
            }
            countedPosition = lineStart
            countedColumn = 1
          }
          position = stop
        }
        guard position < count else { break }
      }
      let lead = text[position]
      if lead < 0x80 {
        closeSegment()
        segmentStart = position
        segmentStable = true
        afterInvalid = false
        position += 1
        if lead == separator {
          record += 1
          countedPosition = position
          countedColumn = 1
        }
        continue
      }
      guard case .scalar(let value, let length) = UTF8Stream.step(text, at: position) else {
        closeSegment()
        if recordProblem != nil, record != reportedRecord {
          // A byte that is not UTF-8 is not text in any form.
          Self.writeNotUTF8(text[position], into: message)
          reportMessage(record: record, column: columnAt(position))
        }
        segmentStart = position
        segmentStable = true
        afterInvalid = true
        position += 1
        continue
      }
      let flags = properties.flags(of: value)
      // A record's first code point starts a segment even with no boundary
      // before it (a mark): nothing joins the separator, and a run must not
      // reach back into the record before.
      if flags & NormalizationProperties.boundary != 0 || afterInvalid
        || text[segmentStart] == separator
      {
        closeSegment()
        segmentStart = position
        segmentStable = flags & NormalizationProperties.stable != 0
      } else {
        segmentStable = false
      }
      afterInvalid = false
      position += length
    }
    closeSegment()
    if runStart >= 0 { decide(text, runStart, count, record: runRecord, column: runColumn) }
    if count - segmentStart > UnicodeNormalizer.longestSegment, text[segmentStart] != separator {
      trailingLongSegment = (record, columnAt(segmentStart))
    }
    column = columnAt(count)
  }

  /// Whether `text` starts with a code point that has no normalization
  /// boundary before it: it goes on with the segment of the text before.
  private func continuesSegment(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !text.isEmpty, text[0] >= 0x80,
      case .scalar(let value, _) = UTF8Stream.step(text, at: 0)
    else { return false }
    return properties.flags(of: value) & NormalizationProperties.boundary == 0
  }

  /// Counts a place that is not in the form, and keeps the first (with
  /// ``recordProblem``: reports it, unless its record was).
  private mutating func noteProblem(record: Int, column: Int, message text: String) {
    if recordProblem != nil {
      guard record != reportedRecord else { return }
      message.count = 0
      for byte in text.utf8 { message.append(byte) }
      return reportMessage(record: record, column: column)
    }
    problemCount += 1
    guard firstProblem == nil else { return }
    let input = inputs.input(holding: record)
    inputs.firstProblemIndex = input?.index ?? 0
    firstProblem = PositionedError(
      file: input?.name ?? "(standard input)", line: record - (input?.firstRecord ?? 0) + 1,
      column: column, message: text)
  }

  /// Passes the code points from `start` on that are in the form alone and
  /// have a boundary before them (ASCII, and the conjoining jamo or the
  /// syllables when the form keeps every one of them, sixteen bytes at a
  /// time by ``BlockScan``; other ASCII eight bytes at a time, two- and
  /// three-byte code points by the table); stops at anything else.
  /// `last` is where the last code point passed starts; `separators` grows
  /// by the separators passed (the scan goes on through records).
  @inline(never)
  static func passStable(
    _ base: UnsafePointer<UInt8>, _ count: Int, from start: Int, _ separator: UInt8,
    _ table: UnsafeMutablePointer<UInt8>, jamoStable: Bool, syllablesStable: Bool,
    last: inout Int, separators separatorCount: inout Int
  ) -> Int {
    var position = start
    var lastStart = last
    var passedSeparators = 0
    defer {
      last = lastStart
      separatorCount &+= passedSeparators
    }
    let separators = UInt64(separator) &* 0x0101_0101_0101_0101
    let blocks = jamoStable || syllablesStable
    // Where the block scan is tried next: at once after the code point it
    // stopped at, 16 bytes on after one it could not begin with or passed
    // little of.
    var blocksFrom = start
    while position < count {
      if blocks, position >= blocksFrom, position &+ 16 <= count,
        BlockScan.holdsOtherLead(base + position, jamo: jamoStable, syllables: syllablesStable)
      {
        // The block scan would stop in these 16 bytes (text of other
        // scripts): the table takes them first.
        blocksFrom = position &+ 16
      } else if blocks, position >= blocksFrom {
        let stop = BlockScan.passStable(
          base, count, from: position, separator: separator, jamo: jamoStable,
          syllables: syllablesStable, last: &lastStart, separators: &passedSeparators)
        // After a short pass (text of other scripts, where the block scan
        // stops every few bytes) the next 16 bytes go by the table first.
        blocksFrom = stop &- position < 32 ? position &+ 16 : stop &+ 1
        position = stop
        guard position < count else { break }
      }
      // Whole words: the ASCII a word starts with, and conjoining jamo two
      // at a time, until the block scan is tried again.
      while position &+ 8 <= count, !blocks || position < blocksFrom {
        let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
        if word & 0x80 == 0 {
          // The ASCII up to the first byte that is not: its separators counted.
          let stops = word & 0x8080_8080_8080_8080
          let passedBits = stops == 0 ? ~0 : (stops & (0 &- stops)) &- 1
          passedSeparators &+= Self.count(separatorBits(word, separators) & passedBits)
          position &+= stops == 0 ? 8 : stops.trailingZeroBitCount &>> 3
          lastStart = position &- 1
          continue
        }
        guard jamoStable, word & 0xC0FC_FFC0_FCFF == 0x8084_E180_84E1 else { break }
        // Both in U+1100–U+11FF, a block stable in the form: no look-up.
        lastStart = position &+ 3
        position &+= 6
      }
      guard position < count else { break }
      let lead = base[position]
      if lead < 0x80 {
        // Within the last 8 bytes (the word loop passes ASCII before them).
        passedSeparators &+= lead == separator ? 1 : 0
        lastStart = position
        position &+= 1
        continue
      }
      if lead == 0xE1, position &+ 8 <= count {
        // Two conjoining jamo (U+1000–U+13FF: E1 80–8F xx) in one word, as
        // decomposed Hangul is: both stable, both passed.
        let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
        if word & 0xC0F0_FFC0_F0FF == 0x8080_E180_80E1 {
          let first = 0x1000 | (word &>> 2 & 0xFC0) | (word &>> 16 & 0x3F)
          let second = 0x1000 | (word &>> 26 & 0xFC0) | (word &>> 40 & 0x3F)
          if table[Int(first)] & table[Int(second)] & NormalizationProperties.stable != 0 {
            lastStart = position &+ 3
            position &+= 6
            continue
          }
        }
      }
      if lead & 0xE0 == 0xC0 {
        // Two bytes (Latin, Greek, Cyrillic …), by the table as three are:
        // a line of them no longer leaves the loop at every letter.
        guard lead >= 0xC2, position &+ 1 < count, base[position &+ 1] & 0xC0 == 0x80 else {
          return position
        }
        let value = UInt32(lead & 0x1F) << 6 | UInt32(base[position &+ 1] & 0x3F)
        guard table[Int(value)] & NormalizationProperties.stable != 0 else { return position }
        lastStart = position
        position &+= 2
        continue
      }
      guard lead & 0xF0 == 0xE0, position &+ 2 < count else { return position }
      let second = base[position &+ 1]
      let third = base[position &+ 2]
      guard second & 0xC0 == 0x80, third & 0xC0 == 0x80, lead != 0xE0 || second >= 0xA0,
        lead != 0xED || second < 0xA0
      else { return position }
      let value = UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
      guard table[Int(value)] & NormalizationProperties.stable != 0 else { return position }
      lastStart = position
      position &+= 3
    }
    return position
  }

  /// How many bytes of `bits` have their 0x80 bit set (its other bits clear).
  @inline(__always)
  static func count(_ bits: UInt64) -> Int {
    Int(truncatingIfNeeded: ((bits &>> 7) &* 0x0101_0101_0101_0101) &>> 56)
  }

  /// 0x80 in each byte of `word` that equals the separator (`separators`
  /// holds it in every byte), exactly.
  @inline(__always)
  static func separatorBits(_ word: UInt64, _ separators: UInt64) -> UInt64 {
    let difference = word ^ separators
    return
      ~(((difference & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | difference
      | 0x7F7F_7F7F_7F7F_7F7F)
  }

  /// Asks ICU whether the run `start..<end` is in the form. A run longer
  /// than ``UnicodeNormalizer/longestSegment`` with combining marks out of
  /// canonical order is in no form, and is not asked (ICU would take time
  /// quadratic in it); in order, ICU takes linear time.
  private mutating func decide(
    _ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, record: Int, column: Int
  ) {
    guard let base = text.baseAddress, record != reportedRecord else { return }
    let long = end - start > UnicodeNormalizer.longestSegment
    // Decomposed Hangul, the common problem, needs no call to ICU.
    var offset =
      recordProblem == nil
      ? nil : recordProblemMessage(text, start, end, fastOnly: true, into: message)
    if offset == nil,
      !long
        || CanonicalOrdering.isOrdered(base + start, count: end - start, by: properties.normalizer)
    {
      guard !isNormalized(base + start, count: end - start) else { return }
    }
    if recordProblem != nil {
      if offset == nil {
        offset = recordProblemMessage(text, start, end, fastOnly: false, into: message)
      }
      return reportMessage(record: record, column: column + (offset ?? 0))
    }
    guard firstProblem == nil else {
      problemCount += 1
      return
    }
    let scalars = Array(
      String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
        .unicodeScalars)
    let expected: [Unicode.Scalar]
    if long {
      let sink = ByteSink(capacity: (end - start) * 3 + 64)
      CanonicalOrdering.normalize(
        base + start, count: end - start, with: properties.normalizer, into: sink)
      expected = Array(String(decoding: sink.bytes, as: UTF8.self).unicodeScalars)
    } else {
      expected = properties.normalizer.normalized(scalars)
    }
    noteProblem(
      record: record, column: column,
      message:
        "not \(form.name.uppercased()): \(Self.spelling(scalars)), ICU \(form.name.uppercased()) \(Self.spelling(expected))"
    )
  }

  /// Whether ICU finds the valid UTF-8 `start[..<count]` in the form (in
  /// time linear in it when its marks are in canonical order).
  func isNormalized(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
    let units = workspace.utf16(from: start, count: count)
    guard let unitBase = units.baseAddress else { return true }
    return properties.normalizer.isNormalized(units: unitBase, count: units.count)
  }

  /// Hands ``recordProblem`` the message written for `record` (counted
  /// over all inputs) at `column`; the rest of the record is skipped.
  private mutating func reportMessage(record: Int, column: Int) {
    problemCount += 1
    reportedRecord = record
    let firstRecord = inputs.input(holding: record)?.firstRecord ?? 0
    guard let recordProblem else { return }
    recordProblem(record - firstRecord + 1, column, message.bytes)
  }

  /// How a message shows scalars: the text and its code points, the first
  /// ``spelledScalars`` of them.
  static func spelling(_ scalars: [Unicode.Scalar]) -> String {
    let shown = scalars.prefix(spelledScalars)
    let more = scalars.count > shown.count ? " … \(scalars.count) code points" : ""
    return
      "\"\(String(String.UnicodeScalarView(shown)))\(more.isEmpty ? "" : "…")\" (\(CodePointNotation.string(shown))\(more))"
  }

  static let spelledScalars = 24

  /// Runs the fast path over every syllable, composed and decomposed, and
  /// compares with ICU (on UTF-8 bytes, a few milliseconds).
  static func checkFastPath(_ form: ICUNormalizer.Form) throws {
    let icu = try ICUNormalizer(form)
    let ours = try UnicodeNormalizer(form)
    let nfd = try ICUNormalizer(.nfd)
    let workspace = ICUWorkspace()
    func icuNormalized(_ bytes: [UInt8], _ normalizer: ICUNormalizer) -> [UInt8] {
      let sink = ByteSink(capacity: bytes.count * 3 + 64)
      bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        let units = workspace.utf16(from: base, count: buffer.count)
        if let result = workspace.normalize(units, with: normalizer) {
          workspace.appendUTF8(result, to: sink)
        }
      }
      return Array(sink.bytes)
    }
    var syllables: [UInt8] = []
    syllables.reserveCapacity(HangulSyllable.count * 3)
    for index in 0..<HangulSyllable.count {
      if let scalar = Unicode.Scalar(HangulSyllable.firstScalarValue + UInt32(index)) {
        syllables.appendUTF8(scalar)
      }
    }
    for text in [syllables, icuNormalized(syllables, nfd)] {
      let expected = icuNormalized(text, icu)
      let got = ours.normalized(text)
      guard got != expected else { continue }
      let wrong = zip(
        String(decoding: got, as: UTF8.self).unicodeScalars,
        String(decoding: expected, as: UTF8.self).unicodeScalars
      ).first { $0 != $1 }
      throw FastPathDisagreement(
        description:
          "the fast path's \(form.name.uppercased()) of the Hangul syllables differs from ICU's"
          + (wrong.map { " (\(spelling([$0.0])) for \(spelling([$0.1])))" } ?? ""))
    }
  }
}
