import ArgumentParser
import HangulKit

extension CompletionKind {
  /// Time zone names as tzdata installs them, for --time-zone.
  public static var timeZones: CompletionKind {
    .shellCommand(
      "find /usr/share/zoneinfo -type f ! -name '*.*' ! -path '*/posix/*' ! -path '*/right/*' "
        + "| sed 's|^/usr/share/zoneinfo/||'")
  }

  /// The locales whose numeric date style the programs know, for --locale.
  public static var dateLocales: CompletionKind {
    .list(NumericDateStyle.byLocale.keys.sorted())
  }
}
