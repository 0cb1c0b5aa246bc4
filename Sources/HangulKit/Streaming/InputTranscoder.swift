internal import CICU

/// Converts input in another encoding (CP949, EUC-KR, UTF-16, …) to UTF-8 as
/// it streams, through ICU's converters.
///
///     let cp949 = try InputTranscoder(encoding: "cp949")
///     var output: [UInt8] = []
///     [0xC7, 0xD1, 0xB1, 0xDB].withUnsafeBufferPointer {
///       cp949.transcode($0, isLast: true, into: &output)
///     }
///     // String(decoding: output, as: UTF8.self) == "한글"
///
/// A character cut between two chunks is completed by the next one. A byte
/// sequence that the encoding does not have is copied through unchanged and
/// counted in ``invalidSequences``, so nothing is lost. Time is O(n); memory
/// is one buffer of 64 Ki UTF-16 units.
package final class InputTranscoder {
  /// An encoding that ICU does not know.
  package struct UnknownEncoding: Error, CustomStringConvertible {
    package var name: String
    package var description: String {
      "unknown encoding '\(name)'; name one that ICU's converters know, such as "
        + "cp949, euc-kr, utf-16, utf-16le, utf-16be or iso-8859-1"
    }
  }

  /// ICU's name of the encoding (`cp949` is `windows-949-2000`).
  package let encodingName: String
  /// Byte sequences not in the encoding, copied through, since the last ``reset()``.
  package private(set) var invalidSequences = 0

  private let converter: UnsafeMutableRawPointer
  private var units: [UInt16]
  /// A high surrogate whose low half has not come yet.
  private var pendingHighSurrogate: UInt16?

  /// Names of Korean encodings that mean Microsoft's code page 949 (Unified
  /// Hangul Code), a superset of EUC-KR. ICU's own `cp949` is IBM's code page
  /// 949, which lacks the 8,822 syllables UHC adds (똠, 쀍, …); like the WHATWG
  /// Encoding Standard that browsers follow, `euc-kr` is read as UHC too.
  static let codePage949Names: Set<String> = [
    "cp949", "ms949", "uhc", "windows949", "euckr", "ksc56011987", "korean", "csksc56011987",
  ]

  /// The ICU converter name for an encoding named as users name it.
  static func converterName(_ name: String) -> String {
    let key = String(name.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" })
    return codePage949Names.contains(key) ? "windows-949-2000" : name
  }

  package init(encoding: String) throws(UnknownEncoding) {
    var error: Int32 = 0
    guard let converter = cicu_converter_open(Self.converterName(encoding), &error) else {
      throw UnknownEncoding(name: encoding)
    }
    guard cicu_success(error) != 0 else {
      cicu_converter_close(converter)
      throw UnknownEncoding(name: encoding)
    }
    self.converter = converter
    encodingName = cicu_converter_name(converter, &error).map { String(cString: $0) } ?? encoding
    units = [UInt16](repeating: 0, count: 1 << 16)
  }

  deinit {
    cicu_converter_close(converter)
  }

  /// Forgets a character cut off at the end of the last input; starts counting anew.
  package func reset() {
    cicu_converter_reset(converter)
    invalidSequences = 0
    pendingHighSurrogate = nil
  }

  /// Converts `chunk`, appending UTF-8 to `output`; `isLast` ends the input.
  package func transcode(
    _ chunk: UnsafeBufferPointer<UInt8>, isLast: Bool, into output: inout [UInt8]
  ) {
    let empty: [UInt8] = [0]
    if chunk.isEmpty {
      guard isLast else { return }
      empty.withUnsafeBufferPointer {
        convert(UnsafeBufferPointer(rebasing: $0[..<0]), isLast, &output)
      }
    } else {
      convert(chunk, isLast, &output)
    }
    if isLast { flushPendingSurrogate(into: &output) }
  }

  private func convert(
    _ chunk: UnsafeBufferPointer<UInt8>, _ isLast: Bool, _ output: inout [UInt8]
  ) {
    guard let base = chunk.baseAddress else { return }
    base.withMemoryRebound(to: CChar.self, capacity: max(chunk.count, 1)) { bytes in
      var source: UnsafePointer<CChar>? = bytes
      let sourceLimit = bytes + chunk.count
      units.withUnsafeMutableBufferPointer { buffer in
        guard let start = buffer.baseAddress else { return }
        while true {
          var target: UnsafeMutablePointer<UInt16>? = start
          var error: Int32 = 0
          cicu_to_unicode(
            converter, &target, start + buffer.count, &source, sourceLimit, isLast ? 1 : 0, &error)
          let written = (target ?? start) - start
          assert(written >= 0 && written <= buffer.count, "ICU wrote inside the units buffer")
          appendUTF8(UnsafeBufferPointer(start: start, count: written), to: &output)
          if cicu_buffer_overflow(error) != 0 { continue }
          if cicu_success(error) != 0 { return }
          // A sequence the encoding does not have: copy its bytes through and go on.
          var invalid = [CChar](repeating: 0, count: 32)
          let length = cicu_invalid_bytes(converter, &invalid, 32)
          assert(length >= 0 && length <= 32, "ICU's invalid bytes fit the buffer given")
          flushPendingSurrogate(into: &output)
          output.append(contentsOf: invalid[..<Int(length)].map { UInt8(bitPattern: $0) })
          invalidSequences += 1
        }
      }
    }
  }

  private func appendUTF8(_ utf16: UnsafeBufferPointer<UInt16>, to output: inout [UInt8]) {
    for unit in utf16 {
      if unit < 0x80, pendingHighSurrogate == nil {
        output.append(UInt8(unit))
        continue
      }
      if let high = pendingHighSurrogate {
        pendingHighSurrogate = nil
        if unit & 0xFC00 == 0xDC00 {
          let value = 0x10000 + (UInt32(high & 0x3FF) << 10 | UInt32(unit & 0x3FF))
          output.appendUTF8(Unicode.Scalar(value) ?? "\u{FFFD}")
          continue
        }
        output.appendUTF8("\u{FFFD}")
      }
      if unit & 0xFC00 == 0xD800 {
        pendingHighSurrogate = unit
      } else {
        output.appendUTF8(Unicode.Scalar(unit) ?? "\u{FFFD}")
      }
    }
  }

  private func flushPendingSurrogate(into output: inout [UInt8]) {
    if pendingHighSurrogate != nil { output.appendUTF8("\u{FFFD}") }
    pendingHighSurrogate = nil
  }
}
