import Foundation
import HangulKit
import Testing

/// Input that is not UTF-8: the converter behind --from-code, and the check
/// that warns about the first byte that is not UTF-8.
@Suite("Input encodings")
struct EncodingTests {
  /// `text` converted by glibc's iconv, an independent converter.
  func iconv(_ text: String, to encoding: String) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
    process.arguments = ["-f", "UTF-8", "-t", encoding]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let writer = Thread {
      input.fileHandleForWriting.write(Data(text.utf8))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let bytes = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return [UInt8](bytes)
  }

  /// Converts `bytes` in chunks of `size` bytes.
  func transcoded(_ bytes: [UInt8], from encoding: String, chunk size: Int) throws -> [UInt8] {
    let transcoder = try InputTranscoder(encoding: encoding)
    var output: [UInt8] = []
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + size)
      Array(bytes[start..<end]).withUnsafeBufferPointer {
        transcoder.transcode($0, isLast: false, into: &output)
      }
      start = end
    }
    transcoder.transcode(UnsafeBufferPointer(start: nil, count: 0), isLast: true, into: &output)
    #expect(transcoder.invalidSequences == 0)
    return output
  }

  static let allSyllables =
    HangulSyllable.all.map { String($0.scalar) }.joined() + "\n한글 ABC ㄱㅏ 똠 쀍\n"

  @Test(
    "every syllable read from CP949 (UHC), EUC-KR text and UTF-16, in chunks of any size",
    arguments: [("cp949", "CP949"), ("utf-16le", "UTF-16LE"), ("utf-16be", "UTF-16BE")],
    [1, 2, 3, 7, 4096])
  func readsEncodings(names: (ours: String, iconv: String), chunk: Int) throws {
    let encoded = try iconv(Self.allSyllables, to: names.iconv)
    #expect(encoded.count > 20_000)
    let output = try transcoded(encoded, from: names.ours, chunk: chunk)
    #expect(String(decoding: output, as: UTF8.self) == Self.allSyllables)
  }

  @Test("Korean names of code page 949 all read UHC, which ICU's own cp949 does not")
  func codePage949Names() throws {
    let encoded = try iconv("똠방각하 쀍\n", to: "CP949")
    for name in ["cp949", "CP949", "ms949", "uhc", "euc-kr", "EUC_KR", "windows-949"] {
      #expect(try transcoded(encoded, from: name, chunk: 5) == Array("똠방각하 쀍\n".utf8), "\(name)")
    }
  }

  @Test("a byte sequence the encoding does not have is copied through and counted")
  func invalidSequences() throws {
    let transcoder = try InputTranscoder(encoding: "cp949")
    var output: [UInt8] = []
    // 0xC9 leads the user-defined area of KS X 1001: no character.
    [0xC7, 0xD1, 0xC9, 0x20, 0xB1, 0xDB, 0x0A].withUnsafeBufferPointer {
      transcoder.transcode($0, isLast: true, into: &output)
    }
    #expect(output == Array("한".utf8) + [0xC9] + Array(" 글\n".utf8))
    #expect(transcoder.invalidSequences == 1)
  }

  @Test("an unknown encoding is an error that names some known ones")
  func unknownEncoding() {
    #expect(throws: InputTranscoder.UnknownEncoding.self) {
      try InputTranscoder(encoding: "martian")
    }
  }

  /// The first invalid byte that the validator finds in `bytes`.
  func firstInvalid(_ bytes: [UInt8], chunk: Int = 1 << 20) -> UTF8Validator.InvalidByte? {
    var validator = UTF8Validator()
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + chunk)
      Array(bytes[start..<end]).withUnsafeBufferPointer { validator.scan($0) }
      start = end
    }
    validator.finish()
    return validator.firstInvalid
  }

  @Test(
    "the first byte that is not UTF-8: line, column in characters, byte",
    arguments: [
      (Array("abc\n가나".utf8) + [0xFF], 2, 3, 0xFF),
      ([0x61, 0x0A, 0x62, 0xC7, 0xD1], 2, 2, 0xC7),
      (Array("0123456789abcdef\nxy".utf8) + [0x80], 2, 3, 0x80),
      (Array("한".utf8) + [0xED, 0xA0, 0x80], 1, 2, 0xED),  // a surrogate
      ([0xF4, 0x90, 0x80, 0x80], 1, 1, 0xF4),  // past U+10FFFF
      ([0xC0, 0x80], 1, 1, 0xC0),  // overlong
      (Array("가".utf8) + [0xEA, 0xB0], 1, 2, 0xEA),  // cut off at the end
    ])
  func positions(bytes: [UInt8], line: Int, column: Int, byte: UInt8) {
    for chunk in [1, 2, 3, 1 << 20] {
      let invalid = firstInvalid(bytes, chunk: chunk)
      #expect(invalid?.line == line, "chunk \(chunk)")
      #expect(invalid?.column == column, "chunk \(chunk)")
      #expect(invalid?.byte == byte, "chunk \(chunk)")
    }
  }

  /// The first ill-formed sequence of `bytes` found scalar by scalar by
  /// ``UTF8Stream``: its line, its column in characters and its first byte.
  func referenceFirstInvalid(_ bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8)? {
    var stream = UTF8Stream()
    var line = 1
    var column = 1
    var found: (line: Int, column: Int, byte: UInt8)?
    stream.decode(bytes, isLast: true) { unit in
      guard found == nil else { return }
      switch unit {
      case .invalidByte(let byte): found = (line, column, byte)
      case .scalar("\n"):
        line += 1
        column = 1
      case .scalar: column += 1
      }
    }
    return found
  }

  @Test("the word-at-a-time validator finds the same line, column and byte as a scalar walk")
  func positionsAgreeWithScalarWalk() {
    var generator = SeededGenerator(seed: 1309)
    let pieces: [[UInt8]] = [
      Array("a".utf8), Array("\n".utf8), Array("abcdefghijklmnop".utf8), Array("가".utf8),
      Array("한국어 문장입니다. ".utf8), Array("é".utf8), Array("😀".utf8), Array("\u{1100}".utf8),
      [0x80], [0xC3], [0xED, 0xA0, 0x80], [0xF0, 0x9F], [0xE0, 0x80, 0x80], [0xFF],
    ]
    for round in 0..<3000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        // Mostly well-formed text, so that the error comes late.
        let index = Int.random(in: 0..<(round % 2 == 0 ? 8 : pieces.count), using: &generator)
        bytes += pieces[index]
      }
      if round % 3 == 0 {
        bytes.insert(0xFF, at: Int.random(in: 0...bytes.count, using: &generator))
      }
      let expected = referenceFirstInvalid(bytes)
      for chunk in [1, 3, 7, 8, 9, 64, 1 << 20] {
        let found = firstInvalid(bytes, chunk: chunk)
        #expect(found?.line == expected?.line, "chunk \(chunk): \(bytes)")
        #expect(found?.column == expected?.column, "chunk \(chunk): \(bytes)")
        #expect(found?.byte == expected?.byte, "chunk \(chunk): \(bytes)")
      }
    }
  }

  @Test("the validator agrees with the standard library on random bytes")
  func agreesWithStandardLibrary() {
    var generator = SystemRandomNumberGenerator()
    let pieces: [[UInt8]] = [
      Array("a\n".utf8), Array("가".utf8), Array("😀".utf8), [0x80], [0xC3], [0xED, 0xA0, 0x80],
      [0xF0, 0x9F], Array("abcdefgh".utf8), [0xE0, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
      [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEF, 0xBF, 0xBF], [0xE0, 0x9F, 0xBF],
    ]
    for _ in 0..<5000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...12, using: &generator) {
        bytes += pieces.randomElement(using: &generator) ?? []
      }
      let valid = String(validating: bytes, as: UTF8.self) != nil
      #expect((firstInvalid(bytes, chunk: Int.random(in: 1...9)) == nil) == valid, "\(bytes)")
    }
  }

  @Test("the warning suggests the encoding the bytes read well in")
  func suggestions() throws {
    let cp949 = try iconv("오래된 파일\n", to: "CP949")
    #expect(firstInvalid(cp949)?.likelyEncoding == "cp949")
    let utf16 = try iconv("\u{FEFF}한글\n", to: "UTF-16LE")
    #expect(firstInvalid(utf16)?.likelyEncoding == "utf-16")
    #expect(firstInvalid([0x61, 0xC9, 0x20, 0x62])?.likelyEncoding == nil)
    #expect(
      firstInvalid(cp949)?.warning(file: "old.txt")
        == "old.txt:1:1: warning: byte 0xBF is not UTF-8; the file looks like CP949: "
        + "try --from-code cp949")
  }
}
