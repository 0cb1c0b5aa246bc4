import CExpat

/// An XML file read block by block with expat (the parser the keyboard
/// files are read with): each ``read(_:isFinal:)`` parses one block and
/// returns what it held as ``Item``s, start tags with their place in the
/// file. Text is kept only inside the elements the caller asks for
/// (``keepsText``), up to ``textLimit`` bytes an element.
///
///     let reader = XMLEventReader()
///     reader.read(Array("<log><event type=\"keyboard\">".utf8), isFinal: false)
///     // [.start("log", [:], line 1, column 1), .start("event", ["type": "keyboard"], …)]
///
/// Inputlog writes control characters as references (`&#x8;` for
/// Backspace), which XML 1.0 forbids: a reference to a control character
/// other than tab, newline and carriage return is read as its Control
/// Picture, U+2400 + its value (`␈`).
///
/// Memory: the items of one block and the text of one element; time O(n).
final class XMLEventReader {
  /// What a block held.
  enum Item {
    case start(name: String, attributes: [String: String], line: Int, column: Int)
    /// The end of an element, with its text when it was kept (`nil` when too
    /// long: the place of its start is given to report it).
    case end(name: String, text: String?)
  }

  /// Why the file is not well-formed XML, at its place (the parser stops there).
  struct Failure {
    var line: Int
    var column: Int
    var message: String
  }

  private var parser: XML_Parser?
  private var items: [Item] = []
  /// The text of the element being read, when it is kept.
  private var text: [UInt8] = []
  private var textTooLong = false
  /// The depth of the element being read (the root is 1).
  private var depth = 0
  /// The depth whose text is kept, if any.
  private var keptDepth: Int?
  /// Whether the text of an element named so is kept.
  var keepsText: (String) -> Bool = { _ in false }
  let textLimit: Int
  /// The block being parsed, to count a line's characters for a column.
  private var block: UnsafeBufferPointer<UInt8>?
  private var blockStart = 0
  /// The end of the last block when it may be the start of a character
  /// reference, and the block with its references rewritten.
  private var carried: [UInt8] = []
  private var rewritten: [UInt8] = []

  init(textLimit: Int = 1 << 20) {
    self.textLimit = textLimit
    reset()
  }

  deinit {
    if let parser { XML_ParserFree(parser) }
  }

  /// Starts a new file.
  func reset() {
    if let parser { XML_ParserFree(parser) }
    // The encoding comes from the file's declaration (UTF-8 by default).
    parser = XML_ParserCreate(nil)
    items.removeAll()
    text.removeAll()
    textTooLong = false
    depth = 0
    keptDepth = nil
    blockStart = 0
    carried.removeAll()
    guard let parser else { return }
    XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
    XML_SetElementHandler(
      parser,
      { data, name, attributes in
        guard let data, let name else { return }
        Unmanaged<XMLEventReader>.fromOpaque(data).takeUnretainedValue()
          .startElement(name, attributes)
      },
      { data, name in
        guard let data, let name else { return }
        Unmanaged<XMLEventReader>.fromOpaque(data).takeUnretainedValue().endElement(name)
      })
    cexpat_set_text_handler(parser) { data, text, length in
      guard let data, let text, length > 0 else { return }
      Unmanaged<XMLEventReader>.fromOpaque(data).takeUnretainedValue()
        .takeText(UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), Int(length))
    }
  }

  /// Parses one block (the last one with `isFinal`); returns its items
  /// and, where the file stops being well-formed, why (the items are
  /// those before that place).
  func read(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool) -> (
    items: [Item], failure: Failure?
  ) {
    guard let parser else {
      return ([], Failure(line: 1, column: 1, message: "cannot create an XML parser"))
    }
    items.removeAll(keepingCapacity: true)
    rewriteControlReferences(bytes, isFinal: isFinal)
    blockStart = Int(XML_GetCurrentByteIndex(parser))
    defer { block = nil }
    let status = rewritten.withUnsafeBufferPointer { buffer in
      block = buffer
      return buffer.withMemoryRebound(to: CChar.self) {
        XML_Parse(parser, $0.baseAddress, Int32(clamping: $0.count), isFinal ? 1 : 0)
      }
    }
    guard status == XML_STATUS_ERROR else { return (items, nil) }
    let code = XML_GetErrorCode(parser)
    let reason = XML_ErrorString(code).map { String(cString: $0) } ?? "not well-formed"
    let (line, column) = place()
    return (items, Failure(line: line, column: column, message: "not well-formed XML: \(reason)"))
  }

  /// Puts the carried bytes and `bytes` in ``rewritten``, each reference
  /// to a control character as its Control Picture's, and carries an
  /// unfinished reference at the end to the next block.
  private func rewriteControlReferences(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool) {
    rewritten.removeAll(keepingCapacity: true)
    var input = carried
    input.append(contentsOf: bytes)
    carried.removeAll()
    var index = 0
    while index < input.count {
      let byte = input[index]
      guard byte == UInt8(ascii: "&") else {
        rewritten.append(byte)
        index += 1
        continue
      }
      // `&#` digits `;` or `&#x` hex digits `;`: at most 12 bytes for a value we rewrite.
      var end = index + 1
      while end < input.count, end - index < 12, input[end] != UInt8(ascii: ";") { end += 1 }
      if end == input.count, !isFinal, end - index < 12 {
        carried = Array(input[index...])
        break
      }
      if let value = Self.controlValue(input[index..<min(end, input.count)]) {
        rewritten.append(contentsOf: "&#x\(String(0x2400 + value, radix: 16));".utf8)
        index = end + 1
      } else {
        rewritten.append(byte)
        index += 1
      }
    }
  }

  /// The value of a reference `&#…` (without its `;`) to a control
  /// character XML 1.0 forbids, or `nil`.
  private static func controlValue(_ reference: ArraySlice<UInt8>) -> Int? {
    let text = String(decoding: reference, as: UTF8.self)
    let value: Int?
    if text.hasPrefix("&#x") || text.hasPrefix("&#X") {
      value = Int(text.dropFirst(3), radix: 16)
    } else if text.hasPrefix("&#") {
      value = Int(text.dropFirst(2))
    } else {
      value = nil
    }
    guard let value, value < 0x20, ![0x09, 0x0A, 0x0D].contains(value) else { return nil }
    return value
  }

  /// The parser's place: its line, and its column in characters when the
  /// line starts in this block (else in bytes).
  private func place() -> (line: Int, column: Int) {
    guard let parser else { return (1, 1) }
    let line = Int(XML_GetCurrentLineNumber(parser))
    let byteColumn = Int(XML_GetCurrentColumnNumber(parser))
    let offset = Int(XML_GetCurrentByteIndex(parser)) - blockStart
    guard let block, offset >= byteColumn, offset <= block.count else {
      return (line, byteColumn + 1)
    }
    assert(offset - byteColumn >= 0 && offset <= block.count, "the line lies in the block")
    let characters = block[(offset - byteColumn)..<offset].reduce(0) {
      $0 + ($1 & 0xC0 == 0x80 ? 0 : 1)
    }
    return (line, characters + 1)
  }

  private func startElement(
    _ name: UnsafePointer<XML_Char>, _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?
  ) {
    depth += 1
    let elementName = String(cString: name)
    var pairs: [String: String] = [:]
    var index = 0
    while let attributes, let key = attributes[index], let value = attributes[index + 1] {
      pairs[String(cString: key)] = String(cString: value)
      index += 2
    }
    let (line, column) = place()
    items.append(.start(name: elementName, attributes: pairs, line: line, column: column))
    if keepsText(elementName) {
      keptDepth = depth
      text.removeAll(keepingCapacity: true)
      textTooLong = false
    }
  }

  private func endElement(_ name: UnsafePointer<XML_Char>) {
    var kept: String?
    if keptDepth == depth {
      keptDepth = nil
      kept = textTooLong ? nil : String(decoding: text, as: UTF8.self)
      text.removeAll(keepingCapacity: text.count <= 4096)
    }
    items.append(.end(name: String(cString: name), text: kept))
    depth -= 1
  }

  private func takeText(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
    guard keptDepth != nil, !textTooLong else { return }
    guard text.count + count <= textLimit else {
      textTooLong = true
      text.removeAll()
      return
    }
    text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
  }
}
