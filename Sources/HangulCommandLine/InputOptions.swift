import ArgumentParser
import HangulKit

/// The option every program has for input that is not UTF-8.
package struct InputOptions: ParsableArguments {
  @Option(
    name: .customLong("from-code"),
    help: ArgumentHelp(
      "Read input in this encoding (cp949, euc-kr, utf-16le, …) and convert it to UTF-8.",
      valueName: "encoding"),
    completion: .encodings)
  package var encoding: String?

  package init() {}

  package func validate() throws {
    if let encoding {
      do {
        _ = try InputTranscoder(encoding: encoding)
      } catch {
        throw ValidationError("--from-code: \(error.description)")
      }
    }
  }
}
