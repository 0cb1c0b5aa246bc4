#if !FUZZING
  @testable import HangulKit
#endif

/// The properties the fuzz targets check, shared with the test suite, which
/// replays the kept corpus (fuzz/corpus) through them. Each returns a
/// description of what went wrong, or `nil`.
enum FuzzChecks {
  /// The checks by target name (fuzz/run.sh, fuzz/corpus/TARGET).
  static let targets: [String: @Sendable ([UInt8]) -> String?] = [
    "compose": compose, "roundtrip": roundTrip, "events": events, "json": json,
    "rename": rename,
  ]

  /// The automaton and the text-log filter: the first byte picks the options,
  /// the rest is the log. No trap; output valid UTF-8 when the log was; never
  /// longer than three bytes for each byte in.
  static func compose(_ data: [UInt8]) -> String? {
    guard let flags = data.first else { return nil }
    let input = Array(data.dropFirst())
    let options = ComposerOptions(
      doubleStroke: flags & 1 != 0, bareClusters: flags & 2 == 0, extendedVowels: flags & 4 != 0,
      backspace: flags & 8 != 0 ? .keystroke : .jamo)
    var filter = ComposeFilter(
      keys: flags & 16 != 0 ? .qwerty : .jamo, options: options,
      maximumLineLength: flags & 32 != 0 ? 8 : LineEditor.defaultMaximumLineLength)
    let output = feed(&filter, input, pieces: 2)
    // Each byte types at most one key, and a key commits at most one
    // three-byte scalar; bytes that are not keys are copied.
    if output.count > 3 * input.count + 3 {
      return "output of \(output.count) bytes for \(input.count)"
    }
    if isValidUTF8(input), !isValidUTF8(output) { return "invalid UTF-8 out of valid UTF-8" }
    return nil
  }

  /// Decompose then compose gives the input back, for both key forms.
  static func roundTrip(_ input: [UInt8]) -> String? {
    for (form, keys) in [(DecompositionForm.keys, KeyEncoding.jamo), (.qwerty, .qwerty)] {
      var decompose = DecomposeFilter(form: form)
      let keyLog = feed(&decompose, input, pieces: 3)
      var compose = ComposeFilter(keys: keys)
      if feed(&compose, keyLog, pieces: 2) != input {
        return "round trip through \(form) changed the input"
      }
    }
    return nil
  }

  /// The event-log reader: no trap; at most one error a line; the same
  /// outcome whatever the cut, and lines read as ``JSONParser`` reads them
  /// (``eventsWhateverTheCut(_:)``, ``eventLinesAsJSON(_:)``).
  static func events(_ input: [UInt8]) -> String? {
    // Every third input with a tiny --max-line, so flushing meets the cursor.
    var filter = eventFilter(
      keys: input.count % 2 == 0 ? .jamo : .qwerty, shortLines: input.count % 3 == 0,
      output: .text)
    let errors = eventReports
    _ = feed(&filter, input, pieces: 2)
    let lines = input.split(separator: 0x0A, omittingEmptySubsequences: false).count
    if errors.items.count > lines { return "\(errors.items.count) errors for \(lines) lines" }
    if filter.errorCount != errors.items.count { return "error count differs" }
    if let problem = eventsWhateverTheCut(input) { return problem }
    return eventLinesAsJSON(input)
  }

  /// The JSON reader and record writer: for valid JSON the compact rewrite
  /// parses to the same value, is stable, and is the input without the
  /// whitespace between tokens; the splitter finds it whole in an array.
  /// The import reads the same whatever the cut and resynchronises after
  /// garbage (``reviewsWhateverTheCut(_:)``, ``reviewsAfterGarbage(_:)``).
  static func json(_ input: [UInt8]) -> String? {
    // The import never traps, and counts every record it reads.
    if let problem = reviewImport(input) { return problem }
    if let problem = reviewsWhateverTheCut(input) { return problem }
    if let problem = reviewsAfterGarbage(input) { return problem }
    guard let value = try? JSONParser.parse(input, maximumDepth: 64) else { return nil }
    // Valid JSON is a record (or an array of records) without any problem.
    var checker = JSONRecordSplitter()
    var broken = false
    checker.feed(input, isLast: true) { broken = broken || $0.problem != nil }
    if broken || checker.structureProblemCount > 0 { return "the splitter refused valid JSON" }
    let written = JSONRecordWriter.rewrite(input)
    if (try? JSONParser.parse(written, maximumDepth: 64)) != value {
      return "rewrite changed the value"
    }
    if JSONRecordWriter.rewrite(written) != written { return "rewrite is not stable" }
    if written != withoutWhitespace(input) { return "rewrite changed more than whitespace" }
    var splitter = JSONRecordSplitter()
    var records: [[UInt8]] = []
    let array = Array("[".utf8) + input + Array(",".utf8) + input + Array("]".utf8)
    let cut = array.count / 2
    splitter.feed(Array(array[..<cut]), isLast: false) { records.append($0.bytes) }
    splitter.feed(Array(array[cut...]), isLast: true) { records.append($0.bytes) }
    if records.count != 2 { return "splitter found \(records.count) records" }
    for record in records where (try? JSONParser.parse(record, maximumDepth: 64)) != value {
      return "split record differs"
    }
    return nil
  }

  /// `hangul-reviews import` on any bytes: no trap; read = imported + rejected.
  static func reviewImport(_ input: [UInt8]) -> String? {
    guard var filter = importFilter() else { return "no ICU" }
    let output = feed(&filter, input, pieces: 3)
    if filter.recordsRead != filter.recordsImported + filter.recordsRejected {
      return
        "read \(filter.recordsRead), imported \(filter.recordsImported), rejected \(filter.recordsRejected)"
    }
    if output.filter({ $0 == 0x0A }).count != filter.recordsImported {
      return "\(filter.recordsImported) imported but other lines out"
    }
    if !isValidUTF8(output) { return "invalid UTF-8 out" }
    return nil
  }

  /// Runs `input` through `filter` in blocks that end at `cuts` (ascending
  /// offsets; the rest is the last block).
  static func feed<Filter: ByteFilter>(_ filter: inout Filter, _ input: [UInt8], cuts: [Int])
    -> [UInt8]
  {
    var output: [UInt8] = []
    var start = 0
    for end in cuts + [input.count] {
      try? filter.process(Array(input[start..<end]), into: &output)
      start = end
    }
    try? filter.finish(into: &output)
    return output
  }

  /// Offsets that cut `input` into pieces of 1 to 64 bytes (mostly short),
  /// chosen by a generator seeded with the input: the same for the same input.
  static func randomCuts(_ input: [UInt8], salt: UInt64 = 0) -> [Int] {
    var state = seed(input, salt: salt)
    var cuts: [Int] = []
    var offset = 0
    while true {
      state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = state
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      mixed ^= mixed >> 31
      offset += mixed & 3 == 0 ? Int(mixed >> 8 & 63) + 1 : Int(mixed >> 8 & 3) + 1
      guard offset < input.count else { return cuts }
      cuts.append(offset)
    }
  }

  /// A number that depends on every byte of `input` (FNV-1a).
  static func seed(_ input: [UInt8], salt: UInt64) -> UInt64 {
    var state: UInt64 = 0xCBF2_9CE4_8422_2325 ^ salt
    for byte in input { state = (state ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return state
  }

  /// Runs `input` through `filter` in `pieces` blocks.
  static func feed<Filter: ByteFilter>(_ filter: inout Filter, _ input: [UInt8], pieces: Int)
    -> [UInt8]
  {
    var output: [UInt8] = []
    var start = 0
    for piece in 1...pieces {
      let end = input.count * piece / pieces
      try? filter.process(Array(input[start..<end]), into: &output)
      start = end
    }
    try? filter.finish(into: &output)
    return output
  }

  static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
    var valid = true
    var stream = UTF8Stream()
    stream.decode(bytes, isLast: true) { if case .invalidByte = $0 { valid = false } }
    return valid
  }

  /// `bytes` without the whitespace outside strings.
  static func withoutWhitespace(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        result.append(byte)
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
        result.append(byte)
      } else if ![0x20, 0x0A, 0x0D, 0x09].contains(byte) {
        result.append(byte)
      }
    }
    return result
  }
}
