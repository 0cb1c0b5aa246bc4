/// Recognising a delimited keystroke log by its first line (`hangul-compose`
/// without `--format`).
extension DelimitedLogFormat {
  /// The format whose header `line` is (its first line, without the line
  /// break; a byte order mark and a final carriage return are allowed), or
  /// `nil`. A header names every required column of the format, as the
  /// logger writes it (tab- or comma-separated, names optionally quoted);
  /// extra columns are allowed (the ITE files add a row number).
  ///
  ///     DelimitedLogFormat.detect(headerLine: Array("id,event_id,down_time,up_time,action_time,activity,down_event,up_event,text_change,cursor_position,word_count".utf8))  // .lwp
  ///
  /// O(line).
  public static func detect(headerLine line: [UInt8]) -> DelimitedLogFormat? {
    guard let (names, _) = headerNames(of: line) else { return nil }
    let present = Set(names)
    // The 136M keystrokes file has INPUT-like columns too: test it first.
    for format in [DelimitedLogFormat.aalto, .lwp, .snapshots]
    where format.requiredColumns.allSatisfy(present.contains) {
      return format
    }
    return nil
  }

  /// The column names of a header line and its delimiter (a tab when the
  /// line has one, else a comma), or `nil` when it has fewer than two columns.
  static func headerNames(of line: [UInt8]) -> ([String], UInt8)? {
    var bytes = line[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    if bytes.last == 0x0D { bytes = bytes.dropLast() }
    let delimiter: UInt8 = bytes.contains(0x09) ? 0x09 : 0x2C
    let names = bytes.split(separator: delimiter, omittingEmptySubsequences: false).map {
      var name = String(decoding: $0, as: UTF8.self)
      name = name.trimmingSpaces()
      if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
        name = String(name.dropFirst().dropLast())
      }
      return name
    }
    return names.count >= 2 ? (names, delimiter) : nil
  }
}

extension DelimitedLogFormat {
  /// ``detect(headerLine:)`` of the first line of the file at `path` (read
  /// up to 64 KiB), or `nil` also when it cannot be opened or read (the run
  /// that reads it then says why).
  public static func detect(file path: FilePath) -> DelimitedLogFormat? {
    guard let start = path.start(upTo: 1 << 16) else { return nil }
    return detect(headerLine: Array(start.prefix { $0 != 0x0A }))
  }
}
