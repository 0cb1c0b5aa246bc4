import ArgumentParser
import HangulKit

/// The checks every program makes before it reads anything, so that it never
/// reads what it writes (`prog FILE >> FILE` would read its own output
/// until the disk is full) nor writes two outputs into one file. Files are
/// compared by device and inode (``FileIdentity``); each refusal is a usage
/// error (64).
package enum OutputChecks {
  /// Refuses a standard output that is one of `inputs` (no inputs: standard
  /// input), opened to write over it or to append to it.
  package static func standardOutput(isNotOneOf inputs: [FilePath]) throws {
    if let input = FileIdentity.input(onDescriptor: 1, inputs: inputs) {
      throw ValidationError(
        "standard output is the input \(name(input)); write the output to another file")
    }
  }

  /// Refuses an output file (`--rejects`) that is one of `inputs` or is
  /// the file standard output writes to.
  package static func outputFile(_ output: FilePath, option: String, inputs: [FilePath]) throws {
    if let input = FileIdentity.input(overwrittenBy: output, inputs: inputs) {
      throw ValidationError(
        "\(option) \(output) is the input \(name(input)); name a file that is not an input")
    }
    if let target = FileIdentity(path: output), target == FileIdentity(regularFileOn: 1) {
      throw ValidationError(
        "\(option) \(output) is where standard output goes; name another file")
    }
  }

  private static func name(_ input: FilePath) -> String {
    input.isStandardInput ? "(standard input)" : input.description
  }
}
