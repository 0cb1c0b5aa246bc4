/// The version every program and subcommand answers to `--version`.
///
/// Kept in this one place so that the four programs cannot disagree.
public let toolVersion = "0.3.0"
