import CExpat

/// Reads keyboard files in libhangul's XML format with expat:
///
///     <hangul-keyboard id="3f" type="jaso">
///       <name>Sebeolsik Final</name>
///       <map id="0"><item key="0x6b" value="0x1100"/></map>
///       <include file="hangul-combination-default.xml"/>
///     </hangul-keyboard>
///
/// `include` names a file relative to the including one, or one of the
/// built-in files of keyboards/ (compiled into HangulInput as data) when no
/// such file is on the disk. Elements it does not know are skipped, as
/// libhangul skips them. Time and memory are linear in the files.
struct KeyboardFileParser {
  /// What the files built so far.
  private(set) var layout = KeyboardLayout(id: "", name: "", type: .jamo)
  private var sawKeyboard = false
  /// The file names being read, the outermost first (to catch include loops).
  private var openFiles: [FilePath] = []

  init() {}

  /// Parses a keyboard file and returns its keyboard.
  static func layout(fromFile path: FilePath) throws(KeyboardFileError) -> KeyboardLayout {
    var parser = KeyboardFileParser()
    try parser.parse(file: path, isRoot: true)
    guard parser.sawKeyboard else {
      throw KeyboardFileError(
        file: path.description, line: 1, column: 1, message: "no hangul-keyboard element")
    }
    if parser.layout.name.isEmpty { parser.layout.name = parser.layout.id }
    return parser.layout
  }

  /// Parses one file (the keyboard, or a file it includes).
  mutating func parse(file path: FilePath, isRoot: Bool) throws(KeyboardFileError) {
    guard openFiles.count < 16, !openFiles.contains(path) else {
      throw KeyboardFileError(file: path.description, message: "included from itself")
    }
    let bytes: [UInt8]
    switch Self.readFile(path) {
    case .success(let read): bytes = read
    case .failure(let error):
      return try readBuiltIn(file: path, isRoot: isRoot, failure: error.message)
    }
    openFiles.append(path)
    defer { openFiles.removeLast() }
    let context = ParseContext(parser: self, file: path, bytes: bytes, isRoot: isRoot)
    try context.run()
    self = context.parser
  }

  /// Reads a file that is not on the disk (or cannot be read: `failure`
  /// says why) as the built-in file of its name: a combination file's rules
  /// replace the combinations so far (as its one `combination` table would),
  /// a keyboard file is the built-in keyboard.
  private mutating func readBuiltIn(file path: FilePath, isRoot: Bool, failure: String)
    throws(KeyboardFileError)
  {
    let lastName = path.bytes.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? []
    let name = String(decoding: lastName, as: UTF8.self)
    if let rules = KeyboardLayout.builtInCombinations(ofFile: name) {
      layout.removeAllCombinations()
      for (first, second, result) in rules { layout.addCombination(first, second, result) }
      return
    }
    let id =
      name.hasPrefix("hangul-keyboard-") && name.hasSuffix(".xml")
      ? String(name.dropFirst("hangul-keyboard-".count).dropLast(".xml".count)) : nil
    if let id, let builtIn = KeyboardLayout(builtIn: id) {
      guard isRoot else {
        throw KeyboardFileError(
          file: path.description, message: "an included file cannot hold a hangul-keyboard")
      }
      layout = builtIn
      sawKeyboard = true
      return
    }
    throw KeyboardFileError(file: path.description, message: failure)
  }

  /// The path an `include` names, seen from the file that includes it.
  func resolve(_ name: String, from including: FilePath) -> FilePath {
    guard !name.hasPrefix("/"), let slash = including.bytes.lastIndex(of: UInt8(ascii: "/"))
    else { return FilePath(name) }
    return FilePath(bytes: including.bytes[...slash] + Array(name.utf8))
  }

  /// The largest keyboard file read: no keyboard is that large.
  static let largestFile = 16 << 20

  private struct ReadError: Error {
    var message: String
  }

  /// The bytes of a file on the disk, or why they cannot be had.
  private static func readFile(_ path: FilePath) -> Result<[UInt8], ReadError> {
    let descriptor = path.open(SystemCalls.OpenFlag.readOnly | SystemCalls.OpenFlag.closeOnExec)
    guard descriptor >= 0 else {
      return .failure(
        ReadError(
          message: "cannot open: \(StreamError.reason(SystemCalls.errorNumber))"))
    }
    defer { SystemCalls.close(descriptor) }
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = block.withUnsafeMutableBytes {
        SystemCalls.read(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0 {
        let error = SystemCalls.errorNumber
        if error == SystemCalls.interrupted { continue }
        let verb = error == SystemCalls.isDirectoryError ? "cannot open" : "cannot read"
        return .failure(ReadError(message: "\(verb): \(StreamError.reason(error))"))
      }
      if count == 0 { return .success(bytes) }
      bytes.append(contentsOf: block[..<count])
      if bytes.count > largestFile {
        return .failure(
          ReadError(message: "larger than 16 MiB: not a keyboard file (see hangul-keyboard(5))"))
      }
    }
  }

  // MARK: Elements

  /// What the element being read adds to.
  enum Section {
    case none
    case name(korean: Bool, ignored: Bool)
    case map(used: Bool)
    case combination(used: Bool)
  }

  mutating func start(
    _ element: String, _ attributes: [String: String], section: inout Section, isRoot: Bool
  ) throws(ElementError) {
    switch element {
    case "hangul-keyboard":
      guard isRoot else { throw ElementError("an included file cannot hold a hangul-keyboard") }
      guard let id = attributes["id"], !id.isEmpty else {
        throw ElementError("hangul-keyboard needs an id attribute")
      }
      guard let typeName = attributes["type"] else {
        throw ElementError(
          "hangul-keyboard needs a type attribute (jamo, jamo-yet, jaso, jaso-yet, romaja or keypad)"
        )
      }
      guard let type = KeyboardLayout.KeyboardType(rawValue: typeName) else {
        throw ElementError(
          "unknown keyboard type \"\(typeName)\" (jamo, jamo-yet, jaso, jaso-yet, romaja or keypad)"
        )
      }
      layout.id = id
      layout.type = type
      sawKeyboard = true
    case "name":
      let language = attributes["xml:lang"]
      let korean = language.map { $0.hasPrefix("ko") } ?? false
      section = .name(korean: korean, ignored: language != nil && !korean)
      if !korean, language == nil { layout.name = "" } else if korean { layout.koreanName = "" }
    case "map":
      section = .map(used: try Self.tableIdentifier(attributes) == 0)
    case "combination":
      let used = try Self.tableIdentifier(attributes) == 0
      if used { layout = layout.withoutCombinations() }
      section = .combination(used: used)
    case "item":
      switch section {
      case .map(let used):
        let key = try Self.number("key", attributes)
        let value = try Self.number("value", attributes)
        guard key < 128 else { throw ElementError("key \(key) is not an ASCII code (0–127)") }
        guard value <= 0x10FFFF, Unicode.Scalar(value) != nil else {
          throw ElementError("value \(value) is not a Unicode scalar")
        }
        if used { layout.map(key: UInt8(key), to: value) }
        if used, let name = attributes["name"] { layout.keypad.keyNames[UInt8(key)] = name }
      case .combination(let used):
        let first = try Self.number("first", attributes)
        let second = try Self.number("second", attributes)
        let result = try Self.number("result", attributes)
        if used { layout.addCombination(first, second, result) }
      default:
        throw ElementError("item outside a map or combination")
      }
    case "cycle":
      let key = try Self.number("key", attributes)
      let values = try Self.numbers("values", attributes)
      guard key < 128, !values.isEmpty else {
        throw ElementError("a cycle needs an ASCII key and at least one value")
      }
      layout.keypad.cycles[UInt8(key)] = values
    case "stroke":
      let key = try Self.number("key", attributes)
      let from = attributes["from"] == nil ? [] : try Self.numbers("from", attributes)
      let to = try Self.numbers("to", attributes)
      guard key < 128, !to.isEmpty else {
        throw ElementError("a stroke needs an ASCII key and a result")
      }
      layout.keypad.strokes[KeypadRules.Stroke(from: from, key: UInt8(key))] = to
    default:
      break
    }
  }

  mutating func text(_ text: String, section: Section) {
    guard case .name(let korean, let ignored) = section, !ignored else { return }
    if korean {
      layout.koreanName = (layout.koreanName ?? "") + text
    } else {
      layout.name += text
    }
  }

  /// A table's `id` (0 … 3, as in libhangul; only table 0 is used).
  private static func tableIdentifier(_ attributes: [String: String]) throws(ElementError) -> UInt32
  {
    guard attributes["id"] != nil else { return 0 }
    let id = try number("id", attributes)
    guard id < 4 else { throw ElementError("table id \(id) is not 0, 1, 2 or 3") }
    return id
  }

  /// A list of numbers separated by spaces, such as "0x3131 0x314b".
  static func numbers(_ name: String, _ attributes: [String: String]) throws(ElementError)
    -> [UInt32]
  {
    guard let text = attributes[name] else { throw ElementError("missing attribute \(name)") }
    var values: [UInt32] = []
    for word in text.split(separator: " ") {
      values.append(try number(name, [name: String(word)]))
    }
    return values
  }

  /// A number attribute, written as C writes it: 0x1100, 4352 or 010400.
  static func number(_ name: String, _ attributes: [String: String]) throws(ElementError) -> UInt32
  {
    guard let text = attributes[name] else { throw ElementError("missing attribute \(name)") }
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    let value: UInt32?
    if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
      value = UInt32(trimmed.dropFirst(2), radix: 16)
    } else if trimmed.hasPrefix("0"), trimmed.count > 1 {
      value = UInt32(trimmed.dropFirst(), radix: 8)
    } else {
      value = UInt32(trimmed, radix: 10)
    }
    guard let value else { throw ElementError("\(name)=\"\(text)\" is not a number") }
    return value
  }
}

/// An error found at the element being read (its place is added by the caller).
struct ElementError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

extension KeyboardLayout {
  fileprivate func withoutCombinations() -> KeyboardLayout {
    var layout = KeyboardLayout(
      id: id, name: name, koreanName: koreanName, type: type, keyMap: keyMap, combinations: [:])
    layout.keypad = keypad
    return layout
  }
}

/// One run of expat over one file; the callbacks reach it through expat's user data.
private final class ParseContext {
  var parser: KeyboardFileParser
  let path: FilePath
  /// The path as messages show it.
  let file: String
  let bytes: [UInt8]
  let isRoot: Bool
  var error: KeyboardFileError?
  var section = KeyboardFileParser.Section.none
  var expat: XML_Parser?

  init(parser: KeyboardFileParser, file: FilePath, bytes: [UInt8], isRoot: Bool) {
    self.parser = parser
    self.path = file
    self.file = file.description
    self.bytes = bytes
    self.isRoot = isRoot
  }

  func run() throws(KeyboardFileError) {
    guard let expat = XML_ParserCreate("UTF-8") else {
      throw KeyboardFileError(file: file, message: "cannot create an XML parser")
    }
    self.expat = expat
    defer {
      XML_ParserFree(expat)
      self.expat = nil
    }
    XML_SetUserData(expat, Unmanaged.passUnretained(self).toOpaque())
    XML_SetElementHandler(
      expat,
      { data, name, attributes in
        guard let data, let name else { return }
        let context = Unmanaged<ParseContext>.fromOpaque(data).takeUnretainedValue()
        context.startElement(String(cString: name), attributes)
      },
      { data, name in
        guard let data, let name else { return }
        let context = Unmanaged<ParseContext>.fromOpaque(data).takeUnretainedValue()
        context.endElement(String(cString: name))
      })
    cexpat_set_text_handler(expat) { data, text, length in
      guard let data, let text, length > 0 else { return }
      let context = Unmanaged<ParseContext>.fromOpaque(data).takeUnretainedValue()
      let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
      context.parser.text(
        String(decoding: UnsafeBufferPointer(start: bytes, count: Int(length)), as: UTF8.self),
        section: context.section)
    }
    let status = bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        XML_Parse(expat, $0.baseAddress, Int32(clamping: $0.count), 1)
      }
    }
    if let error { throw error }
    if status == XML_STATUS_ERROR {
      let code = XML_GetErrorCode(expat)
      let reason = XML_ErrorString(code).map { String(cString: $0) } ?? "not well-formed"
      throw place("XML: \(reason)")
    }
  }

  func startElement(_ name: String, _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) {
    guard error == nil else { return }
    var pairs: [String: String] = [:]
    var index = 0
    while let attributes, let key = attributes[index], let value = attributes[index + 1] {
      pairs[String(cString: key)] = String(cString: value)
      index += 2
    }
    if name == "include" {
      guard let included = pairs["file"] else {
        return fail(place("include needs a file attribute"))
      }
      // Read in place, as libhangul reads it: a later combination table replaces it.
      do {
        try parser.parse(file: parser.resolve(included, from: path), isRoot: false)
      } catch let inner {
        let here = place("include \"\(included)\": \(inner.message)")
        fail(inner.line > 0 ? inner : here)
      }
      return
    }
    do {
      try parser.start(name, pairs, section: &section, isRoot: isRoot)
    } catch {
      fail(place(error.message))
    }
  }

  func endElement(_ name: String) {
    switch name {
    case "name", "map", "combination": section = .none
    default: break
    }
  }

  private func fail(_ error: KeyboardFileError) {
    self.error = error
    if let expat { XML_StopParser(expat, XML_FALSE) }
  }

  /// The current place in the file, the column counted in characters.
  private func place(_ message: String) -> KeyboardFileError {
    guard let expat else { return KeyboardFileError(file: file, message: message) }
    let line = Int(XML_GetCurrentLineNumber(expat))
    let offset = min(max(Int(XML_GetCurrentByteIndex(expat)), 0), bytes.count)
    var start = offset
    while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
    let column = bytes[start..<offset].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    return KeyboardFileError(file: file, line: line, column: column, message: message)
  }
}
