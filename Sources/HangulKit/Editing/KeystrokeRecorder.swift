/// How `--output keystrokes` writes (`--keystrokes-format`): one JSON object
/// a key, or a CSV table with a header row.
public enum KeystrokesFormat: String, Sendable, Hashable, CaseIterable {
  case jsonl
  case csv
}

/// The objects of `hangul-compose --output keystrokes`, one a key, from a
/// ``HangulInputContext``: what each key committed (after what it deleted)
/// and the preedit after it. ``KeystrokeLogFilter`` (text logs) and
/// ``EventLogFilter`` (event logs) say what each key is; the recorder drives
/// the context and writes.
///
///     var recorder = KeystrokeRecorder(context: HangulInputContext(keyboard: .twoSet))
///     var out: [UInt8] = []
///     recorder.begin()
///     recorder.process(InputKey("ㄱ"), text: Array("ㄱ".utf8))
///     recorder.write(key: Array("ㄱ".utf8), into: &out)
///     // {"n":1,"key":"ㄱ","commit":"","preedit":"ㄱ"}
///
/// Each call is O(1) but for the text it writes.
struct KeystrokeRecorder: Sendable {
  private(set) var context: HangulInputContext
  /// The number of the last key written.
  private(set) var keyCount = 0
  /// What the key at hand committed, and the scalars it deleted before.
  private(set) var commit: [UInt8] = []
  var deleted = 0
  /// The part of ``deleted`` that the context took back (not the caller).
  private(set) var deletedByContext = 0
  /// `--keystrokes-format csv`: a table with a header instead of JSON Lines.
  var writesCSV = false

  init(context: HangulInputContext) {
    self.context = context
  }

  /// Starts a key.
  mutating func begin() {
    commit.removeAll(keepingCapacity: true)
    deleted = 0
    deletedByContext = 0
  }

  /// Types `key`; one the keyboard does not take is `text` (the key as text).
  /// Returns the scalars the context took back before its commit.
  @discardableResult
  mutating func process(_ key: InputKey, text: [UInt8], at time: Double? = nil) -> Int {
    let taken = time.map { context.process(key, at: $0) } ?? context.process(key)
    let count = takeCommit()
    if !taken { insert(text) }
    return count
  }

  /// Backspace: whether the context undid something (else the caller
  /// deletes the character before the cursor and says so in ``deleted``).
  mutating func backspace() -> Bool {
    guard context.backspace() else { return false }
    takeCommit()
    return true
  }

  /// Commits what is composing.
  mutating func flush() {
    context.flush()
    takeCommit()
  }

  /// Text that is no key: it follows what was composing.
  mutating func insert(_ text: [UInt8]) {
    flush()
    commit.append(contentsOf: text)
  }

  /// Drops what is composing (a new document).
  mutating func reset() {
    context.reset()
  }

  /// Takes what the context's last call committed; returns the scalars it
  /// took back first (added to ``deleted`` unless something was committed
  /// by this key before, which it then takes back).
  @discardableResult
  private mutating func takeCommit() -> Int {
    var count = context.deleteCount
    // What this key committed so far goes first.
    while count > 0, !commit.isEmpty {
      commit.removeLastCharacter()
      count -= 1
    }
    deleted += count
    deletedByContext += count
    commit.append(contentsOf: context.commitUTF8)
    return context.deleteCount
  }

  /// Writes the object of the key at hand: `key` (or, for inserted text, a
  /// `"text"` member instead), the document and time as the log spelled
  /// them, commit, preedit, `"delete"` and `"byte"` when they apply, and the
  /// writing-process columns when measured (or, with ``writesCSV``, the
  /// row; the header before the first).
  mutating func write(
    key: [UInt8]?, text: [UInt8]? = nil, document: String? = nil, time: String? = nil,
    byte: UInt8? = nil, measures: KeyMeasures? = nil, into output: inout [UInt8]
  ) {
    keyCount += 1
    var preedit: [UInt8] = []
    context.writePreedit(into: &preedit)
    if writesCSV {
      return writeRow(
        [
          "\(keyCount)", document.map(Self.unquoted), time, key.map(Self.string),
          text.map { Self.string(Self.wellFormed($0)) }, Self.string(Self.wellFormed(commit)),
          Self.string(preedit), deleted > 0 ? "\(deleted)" : nil, byte.map { "\($0)" },
        ] + Self.columns(measures), into: &output)
    }
    output.append(contentsOf: Array("{\"n\":\(keyCount)".utf8))
    if let document { output.append(contentsOf: Array(",\"doc\":\(document)".utf8)) }
    if let time { output.append(contentsOf: Array(",\"t\":\(time)".utf8)) }
    if let key {
      output.append(contentsOf: Array(",\"key\":\"".utf8))
      JSONWriter.appendEscaped(utf8: key, to: &output)
      output.append(0x22)
    }
    if let text {
      output.append(contentsOf: Array(",\"text\":\"".utf8))
      JSONWriter.appendEscaped(utf8: Self.wellFormed(text), to: &output)
      output.append(0x22)
    }
    output.append(contentsOf: Array(",\"commit\":\"".utf8))
    JSONWriter.appendEscaped(utf8: Self.wellFormed(commit), to: &output)
    output.append(contentsOf: Array("\",\"preedit\":\"".utf8))
    JSONWriter.appendEscaped(utf8: preedit, to: &output)
    output.append(0x22)
    if deleted > 0 { output.append(contentsOf: Array(",\"delete\":\(deleted)".utf8)) }
    if let byte { output.append(contentsOf: Array(",\"byte\":\(byte)".utf8)) }
    if let measures {
      var members = ""
      if let interval = measures.interval { members += ",\"iki\":\(Self.number(interval))" }
      if let role = measures.role { members += ",\"role\":\"\(role.rawValue)\"" }
      if let syllable = measures.syllable { members += ",\"syllable\":\(syllable)" }
      members +=
        ",\"pause\":\(measures.pause),\"burst\":\(measures.burst),\"revision\":\(measures.revision)"
      output.append(contentsOf: Array(members.utf8))
    }
    output.append(contentsOf: [0x7D, 0x0A])
  }

  /// The CSV header of ``writesCSV``.
  static let csvHeader =
    "n,doc,t,key,text,commit,preedit,delete,byte,iki,role,syllable,pause,burst,revision\r\n"

  /// The writing-process cells of a row (empty without measures).
  private static func columns(_ measures: KeyMeasures?) -> [String?] {
    guard let measures else { return [nil, nil, nil, nil, nil, nil] }
    return [
      measures.interval.map(number), measures.role?.rawValue, measures.syllable.map { "\($0)" },
      "\(measures.pause)", "\(measures.burst)", "\(measures.revision)",
    ]
  }

  /// One CSV row (RFC 4180: CRLF, a field quoted when it holds a quote,
  /// comma, CR or LF); an absent value is an empty field.
  private func writeRow(_ cells: [String?], into output: inout [UInt8]) {
    if keyCount == 1 { output.append(contentsOf: Array(Self.csvHeader.utf8)) }
    for (index, cell) in cells.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      guard let cell else { continue }
      let bytes = Array(cell.utf8)
      bytes.withUnsafeBufferPointer { ReviewTableWriter.appendCSVField($0, to: &output) }
    }
    output.append(contentsOf: [0x0D, 0x0A])
  }

  /// A number of milliseconds: an integer without a point, else as Swift spells it.
  static func number(_ value: Double) -> String {
    if let integer = Int(exactly: value), abs(integer) < 1 << 53 { return String(integer) }
    return String(value)
  }

  private static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  /// A `"doc"` as the JSON spelled it, without the quotes and escapes of a string.
  private static func unquoted(_ json: String) -> String {
    guard json.hasPrefix("\""), case .string(let text)? = try? JSONParser.parse(Array(json.utf8))
    else { return json }
    return text
  }

  /// The bytes with each byte that is not UTF-8 as U+FFFD (JSON holds text only).
  static func wellFormed(_ bytes: [UInt8]) -> [UInt8] {
    var stream = UTF8Stream()
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    stream.decode(bytes, isLast: true) { unit in
      switch unit {
      case .scalar(let scalar): result.appendUTF8(scalar)
      case .invalidByte: result.appendUTF8("\u{FFFD}")
      }
    }
    return result
  }
}
