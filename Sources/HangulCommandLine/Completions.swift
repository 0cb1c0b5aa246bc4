import ArgumentParser
import HangulKit

extension CompletionKind {
  /// Time zone names as tzdata installs them, for --time-zone.
  package static var timeZones: CompletionKind {
    .shellCommand(
      "find /usr/share/zoneinfo -type f ! -name '*.*' ! -path '*/posix/*' ! -path '*/right/*' "
        + "| sed 's|^/usr/share/zoneinfo/||'")
  }

  /// The locales whose numeric date style the programs know, for --locale.
  package static var dateLocales: CompletionKind {
    .list(NumericDateStyle.byLocale.keys.sorted())
  }

  /// The encodings a TAB offers for --from-code: the Korean ones first, then
  /// the Unicode forms and the usual neighbours. --from-code takes any other
  /// name ICU's converters know too; a test checks that each of these opens.
  package static var encodings: CompletionKind {
    .list([
      "cp949", "euc-kr", "iso-2022-kr", "utf-8", "utf-16", "utf-16le", "utf-16be", "utf-32",
      "utf-32le", "utf-32be", "iso-8859-1", "windows-1252", "shift_jis", "euc-jp", "gb18030",
      "big5",
    ])
  }
}
