/// The research loggers' delimited text formats that `hangul-compose`
/// replays (SPEC 3.6, 3.7; hangul-keylog(5)), and how to recognise each by
/// its header line.
///
///     DelimitedLogFormat.detect(headerLine: Array("id,event_id,down_time".utf8))  // nil
///     DelimitedLogFormat.detect(
///       headerLine: Array("TEST_SECTION_ID\tLOG_DATA_ID\tTIMESTAMP\tKEY\tINPUT".utf8))  // .snapshots
public enum DelimitedLogFormat: String, Sendable, Hashable, CaseIterable {
  /// The field's text after each event (Aalto/ITE mobile typing tests):
  /// `TEST_SECTION_ID`, `TIMESTAMP`, `INPUT`; keys rebuilt from the texts.
  case snapshots
  /// The Aalto 136M keystrokes TSV: `TEST_SECTION_ID`, `SENTENCE`,
  /// `PRESS_TIME`, `LETTER`, `KEYCODE` (JavaScript keyCode).
  case aalto
  /// Kaggle "Linking Writing Processes" / KLiCKe CSV: `id`, `down_time`,
  /// `activity`, `down_event`, `text_change`, `cursor_position`.
  case lwp

  /// The columns a file of the format must have (by header name).
  var requiredColumns: [String] {
    switch self {
    case .snapshots: ["TEST_SECTION_ID", "INPUT"]
    case .aalto: ["TEST_SECTION_ID", "SENTENCE", "PRESS_TIME", "LETTER", "KEYCODE"]
    case .lwp: ["id", "down_time", "activity", "down_event", "text_change", "cursor_position"]
    }
  }

  /// How the format quotes: the Aalto TSV files not at all (a `"` is a
  /// character of the sentence), a CSV as RFC 4180.
  func quoting(delimiter: UInt8) -> DelimitedRecordReader.Quoting {
    delimiter == 0x09 ? .none : .rfc4180
  }
}
