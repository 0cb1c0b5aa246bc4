extension Keyboard {
  /// A built-in keyboard by id ("2", "3f", …) or a keyboard file by path.
  ///
  ///     let keyboard = try Keyboard(id: "3f")
  ///     InputAutomaton.takesJamoLabels(keyboard)   // false: type it with --keys qwerty
  ///
  /// An argument that names a built-in id is that keyboard; anything else is
  /// read as a file (libhangul's XML format, with expat). Throws
  /// ``KeyboardFileError`` naming the place of a fault.
  public init(id: String) throws(KeyboardFileError) {
    if let builtIn = Keyboard(builtIn: id) {
      self = builtIn
      return
    }
    try self.init(file: FilePath(id))
  }

  /// Reads the keyboard file at `path` (the exact bytes given), even where
  /// its name is a built-in id.
  public init(file path: FilePath) throws(KeyboardFileError) {
    self.init(layout: try KeyboardFileParser.layout(fromFile: path))
  }
}
