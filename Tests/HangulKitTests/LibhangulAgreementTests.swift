import Foundation
import HangulKit
import Testing

/// Agreement with libhangul: the fixture holds random 2-set key lines (with
/// Backspaces, digits and spaces) and what libhangul's hangul_ic_process in
/// a line editor made of them; tools/libhangul-oracle regenerates it.
@Suite("Agreement with libhangul")
struct LibhangulAgreementTests {
  @Test(
    "every fixture line composes as libhangul composed it",
    arguments: [
      ("default.txt", ComposerOptions()),
      ("double-stroke.txt", ComposerOptions(doubleStroke: true)),
      ("no-bare-clusters.txt", ComposerOptions(bareClusters: false)),
    ])
  func agreement(expectedFile: String, options: ComposerOptions) throws {
    let keys = try fixture("libhangul/keys.txt")
    let expected = try fixture("libhangul/\(expectedFile)")
    let output = composedBytes(Array(keys), keys: .qwerty, options: options)
    let ours = output.split(separator: 0x0A, omittingEmptySubsequences: false)
    let theirs = Array(expected).split(separator: 0x0A, omittingEmptySubsequences: false)
    let inputs = Array(keys).split(separator: 0x0A, omittingEmptySubsequences: false)
    #expect(inputs.count > 20_000)
    #expect(ours.count == theirs.count)
    var mismatches = 0
    for (index, (mine, reference)) in zip(ours, theirs).enumerated() where mine != reference {
      mismatches += 1
      if mismatches <= 5 {
        Issue.record(
          """
          line \(index + 1): keys \(String(decoding: inputs[index], as: UTF8.self).debugDescription) \
          gave \(String(decoding: mine, as: UTF8.self)), libhangul \(String(decoding: reference, as: UTF8.self))
          """)
      }
    }
    #expect(mismatches == 0)
  }
}
