import ArgumentParser
import HangulKit

/// The command line as the kernel passed it, for arguments that are not
/// UTF-8.
///
/// `CommandLine.arguments` decodes each argument with U+FFFD for bytes that
/// are not UTF-8, so `$'\xff.txt'` and `$'\xfe.txt'` would both read as
/// `\u{FFFD}.txt`: another file. Here every argument is read from `argv` as
/// bytes. One that is UTF-8 goes to the parser as it is; in one that is not,
/// each byte that is not UTF-8 becomes a marker (a private-use character that
/// no argument holds) and its two hex digits. What the parser hands back,
/// whole or cut after `--option=`, turns back into the exact bytes
/// (``bytes(of:)``), and messages show those bytes as `\xHH` (``display(_:)``).
///
///     // hangul-normalize $'\xff.txt'
///     let files: [FilePath]   // [FilePath(bytes: [0xFF, 0x2E, 0x74, 0x78, 0x74])]
package enum ProgramArguments {
  /// The arguments after the program name, as the parser reads them.
  package static var forParser: [String] { decoded.arguments }

  /// The exact bytes of `value`, a value the parser read from ``forParser``.
  package static func bytes(of value: String) -> [UInt8] {
    guard let marker = decoded.marker, value.unicodeScalars.contains(marker) else {
      return Array(value.utf8)
    }
    var bytes: [UInt8] = []
    var scalars = value.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if scalar == marker, let high = scalars.next(), let low = scalars.next(),
        let byte = UInt8(String([Character(high), Character(low)]), radix: 16)
      {
        bytes.append(byte)
      } else {
        bytes += Array(String(scalar).utf8)
      }
    }
    return bytes
  }

  /// `text` (a message that may quote arguments) with each marked byte as
  /// `\xHH`, and each argument longer than ``longestShown`` characters cut
  /// to that length and `…`: a message names the value without echoing a
  /// million digits of it.
  package static func display(_ text: String) -> String {
    var shown = text
    for argument in forParser where argument.count > longestShown {
      shown = shown.replacing(argument, with: shortened(argument))
    }
    guard let marker = decoded.marker, shown.unicodeScalars.contains(marker) else {
      return shown
    }
    var escaped = String.UnicodeScalarView()
    for scalar in shown.unicodeScalars {
      if scalar == marker { escaped += "\\x".unicodeScalars } else { escaped.append(scalar) }
    }
    return String(escaped)
  }

  /// How many characters of a long value a message shows.
  package static let longestShown = 64

  /// `value` cut to ``longestShown`` characters and `…` when it is longer.
  package static func shortened(_ value: String) -> String {
    value.count > longestShown ? String(value.prefix(longestShown)) + "…" : value
  }

  private static let decoded = decode(
    (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
      guard let argument = CommandLine.unsafeArgv[index] else { return [] }
      return Array(UnsafeBufferPointer(start: argument, count: SystemCalls.length(of: argument)))
        .map {
          UInt8(bitPattern: $0)
        }
    })

  /// The parser's arguments for `arguments` (bytes), and the marker, if
  /// one was needed.
  static func decode(_ arguments: [[UInt8]]) -> (arguments: [String], marker: Unicode.Scalar?) {
    let units = arguments.map { argument -> [DecodedUnit] in
      var units: [DecodedUnit] = []
      var decoder = UTF8Stream()
      decoder.decode(argument, isLast: true) { units.append($0) }
      return units
    }
    let isUTF8 = units.map { !$0.contains { if case .invalidByte = $0 { true } else { false } } }
    guard isUTF8.contains(false) else {
      return (arguments.map { String(decoding: $0, as: UTF8.self) }, nil)
    }
    var used = Set<UInt32>()
    for argumentUnits in units {
      for case .scalar(let scalar) in argumentUnits { used.insert(scalar.value) }
    }
    // The private-use areas hold 137,468 characters, more than a command
    // line can: one is always free.
    let privateUse =
      [0xE000...0xF8FF, 0xF_0000...0xF_FFFD, 0x10_0000...0x10_FFFD] as [ClosedRange<UInt32>]
    let free = privateUse.lazy.flatMap { $0 }.first { !used.contains($0) }
    let marker = free.flatMap(Unicode.Scalar.init) ?? "\u{E000}"
    let parsed = zip(arguments, units).enumerated().map { index, pair -> String in
      let (argument, argumentUnits) = pair
      guard !isUTF8[index] else { return String(decoding: argument, as: UTF8.self) }
      var text = ""
      for unit in argumentUnits {
        switch unit {
        case .scalar(let scalar): text.unicodeScalars.append(scalar)
        case .invalidByte(let byte):
          let digits = String(byte, radix: 16, uppercase: true)
          text.unicodeScalars.append(marker)
          text += (digits.count < 2 ? "0" : "") + digits
        }
      }
      return text
    }
    return (parsed, marker)
  }
}

extension FilePath: ExpressibleByArgument {
  /// The exact bytes of the argument (``ProgramArguments``).
  public init?(argument: String) {
    self.init(bytes: ProgramArguments.bytes(of: argument))
  }

  public var defaultValueDescription: String { description }
}
