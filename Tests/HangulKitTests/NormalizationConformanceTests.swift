import Foundation
import HangulKit
import Testing

/// The Unicode Character Database's NormalizationTest.txt (Debian
/// `unicode-data`), the conformance test of every normalizer: all five
/// columns and every invariant, in all four forms, through the streaming
/// filter. Skipped, and said so, when the file is not installed.
@Suite(
  "NormalizationTest.txt conformance",
  .enabled(
    if: NormalizationTestFile.text != nil,
    "NormalizationTest.txt not installed (Debian package unicode-data); CI installs it"))
struct NormalizationConformanceTests {
  /// One line of the test: its five columns and its line number.
  struct Case {
    var line: Int
    var columns: [[Unicode.Scalar]]
  }

  static let cases: [Case] = {
    guard let text = NormalizationTestFile.text else { return [] }
    var cases: [Case] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      guard let first = line.first, first.isHexDigit else { continue }
      let fields = line.split(separator: ";", omittingEmptySubsequences: false).prefix(5)
      let columns = fields.map { field in
        field.split(separator: " ").compactMap {
          UInt32($0, radix: 16).flatMap(Unicode.Scalar.init)
        }
      }
      cases.append(Case(line: number + 1, columns: columns))
    }
    return cases
  }()

  /// Code points named in part 1: every other one must be unchanged by every form.
  static let partOne: Set<UInt32> = {
    guard let text = NormalizationTestFile.text,
      let start = text.range(of: "@Part1"), let end = text.range(of: "@Part2")
    else { return [] }
    var values = Set<UInt32>()
    for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
      guard let field = line.split(separator: ";").first, !field.contains(" "),
        let value = UInt32(field, radix: 16)
      else { continue }
      values.insert(value)
    }
    return values
  }()

  /// Which column each column becomes in `form`, per the file's header:
  /// c2 = NFC(c1..c3), c4 = NFC(c4..c5), c3 = NFD(c1..c3), c5 = NFD(c4..c5),
  /// c4 = NFKC(c1..c5), c5 = NFKD(c1..c5) (0-based below).
  static func expectedColumn(_ column: Int, in form: ICUNormalizer.Form) -> Int {
    switch form {
    case .nfc: column < 3 ? 1 : 3
    case .nfd: column < 3 ? 2 : 4
    case .nfkc: 3
    case .nfkd: 4
    }
  }

  @Test("the file has all its parts")
  func fileIsComplete() {
    #expect(Self.cases.count > 19_000)
    #expect(Self.partOne.count > 10_000)
  }

  @Test(
    "every column of every line normalizes as the invariants say",
    arguments: ICUNormalizer.Form.allCases)
  func columns(form: ICUNormalizer.Form) throws {
    let normalizer = try UnicodeNormalizer(form)
    var checked = 0
    var failures = 0
    for testCase in Self.cases where testCase.columns.count == 5 {
      for column in 0..<5 {
        let source = testCase.columns[column]
        let expected = testCase.columns[Self.expectedColumn(column, in: form)]
        let output = Array(
          normalizer.normalized(String(String.UnicodeScalarView(source))).unicodeScalars)
        checked += 1
        if output != expected {
          failures += 1
          if failures <= 10 {
            Issue.record(
              "line \(testCase.line) column \(column + 1) \(form.name): \(hex(output)) ≠ \(hex(expected))"
            )
          }
        }
      }
    }
    #expect(failures == 0)
    #expect(checked == Self.cases.count * 5)
  }

  @Test(
    "all lines at once through the streaming filter, in blocks of odd sizes",
    arguments: ICUNormalizer.Form.allCases)
  func streamed(form: ICUNormalizer.Form) throws {
    // Each case on its own line: newline is a boundary, so the output must
    // be each expected column on its line.
    var input: [UInt8] = []
    var expected: [UInt8] = []
    for testCase in Self.cases where testCase.columns.count == 5 {
      for column in 0..<5 {
        input += Array(String(String.UnicodeScalarView(testCase.columns[column])).utf8) + [0x0A]
        expected +=
          Array(
            String(
              String.UnicodeScalarView(testCase.columns[Self.expectedColumn(column, in: form)])
            )
            .utf8) + [0x0A]
      }
    }
    for blockSize in [1, 7, 4096, 1 << 17] {
      var filter = try NormalizeFilter(form: form)
      var output: [UInt8] = []
      var start = 0
      while start < input.count {
        let end = min(start + blockSize, input.count)
        try filter.process(Array(input[start..<end]), into: &output)
        start = end
      }
      filter.finish(into: &output)
      #expect(output == expected, "block size \(blockSize)")
    }
  }

  @Test(
    "every code point not in part 1 is unchanged by the form",
    arguments: ICUNormalizer.Form.allCases)
  func unlisted(form: ICUNormalizer.Form) throws {
    var text: [UInt8] = []
    var count = 0
    for value in UInt32(0)...0x10FFFF where !Self.partOne.contains(value) {
      guard let scalar = Unicode.Scalar(value), value != 0x0A else { continue }
      text.appendScalar(scalar)
      text.append(0x0A)
      count += 1
    }
    let output = try UnicodeNormalizer(form).normalized(text)
    #expect(count > 1_000_000)
    #expect(output == text)
  }
}

/// The text of NormalizationTest.txt, plain or compressed as Debian ships it.
enum NormalizationTestFile {
  static let text: String? = {
    let plain = "/usr/share/unicode/NormalizationTest.txt"
    if let data = FileManager.default.contents(atPath: plain) {
      return String(decoding: data, as: UTF8.self)
    }
    let compressed = plain + ".bz2"
    guard FileManager.default.fileExists(atPath: compressed) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bzcat")
    process.arguments = [compressed]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
  }()
}

func hex(_ scalars: [Unicode.Scalar]) -> String {
  scalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
}

extension Array where Element == UInt8 {
  mutating func appendScalar(_ scalar: Unicode.Scalar) {
    append(contentsOf: Array(String(scalar).utf8))
  }
}
