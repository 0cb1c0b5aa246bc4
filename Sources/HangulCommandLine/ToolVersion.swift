/// The version every program and subcommand answers to `--version`.
///
/// Kept in this one place so that the four programs cannot disagree.
package let toolVersion = "0.3.0"

/// What `PROGRAM --version` writes, as GNU programs write it:
///
///     versionLine("hangul-compose")   // "hangul-compose (hangul-tools) 0.3.0"
package func versionLine(_ program: String) -> String {
  "\(program) (hangul-tools) \(toolVersion)"
}
