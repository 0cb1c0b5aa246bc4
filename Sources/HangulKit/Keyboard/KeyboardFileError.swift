/// Why a keyboard file could not be loaded, with the place in it.
///
///     KeyboardFileError(file: "my.xml", line: 3, column: 5, message: "…").description
///     // "my.xml:3:5: …"
public struct KeyboardFileError: Error, Equatable, CustomStringConvertible {
  /// The file, as named on the command line or in an `include`.
  public var file: String
  /// Line and column (in characters) from 1; 0 when the error has no place
  /// (a file that cannot be opened).
  public var line: Int
  public var column: Int
  public var message: String

  public init(file: String, line: Int = 0, column: Int = 0, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  public var description: String {
    line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
  }
}
