import Foundation
import Testing

/// `--verify` and `--nfc` as a user runs them.
@Suite("ICU options end to end")
struct ICUCommandTests {
  let compose = Executable("hangul-compose")
  let decompose = Executable("hangul-decompose")

  @Test("hangul-compose --nfc: e + U+0301 becomes é, Hangul is composed as always")
  func nfc() throws {
    let result = try compose.run(["--nfc"], input: Data("ㄱㅏ e\u{301}\n".utf8))
    #expect(result.stdout == Data("가 é\n".utf8))
    let plain = try compose.run([], input: Data("ㄱㅏ e\u{301}\n".utf8))
    #expect(plain.stdout == Data("가 e\u{301}\n".utf8))
  }

  @Test("hangul-compose --verify passes on the samples and NFD names, status 0")
  func verifyCompose() throws {
    for (arguments, file) in [
      (["--keys", "qwerty"], "samples/qwerty-keys.txt"), ([], "samples/phone-review.keys"),
      ([], "samples/macos-nfd-names.txt"),
    ] {
      let result = try compose.run(["--verify"] + arguments + [repositoryFile(file).path])
      #expect(result.status == 0)
      #expect(result.stderr.isEmpty)
    }
  }

  @Test(
    "hangul-decompose --verify passes for every form", arguments: ["keys", "jamo", "nfd", "qwerty"])
  func verifyDecompose(form: String) throws {
    let result = try decompose.run(
      ["--verify", "--to", form, repositoryFile("samples/qwerty-keys.expected.txt").path])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
  }

  @Test("--help lists the ICU options")
  func help() throws {
    let result = try compose.run(["--help"])
    #expect(result.text.contains("--verify"))
    #expect(result.text.contains("--nfc"))
    #expect(try decompose.run(["--help"]).text.contains("--verify"))
  }
}
