import HangulKit
import Testing

/// SPEC §5 dates: every tzset(3) zone form, milliseconds, the default locale.
@Suite("Review time zones and dates")
struct ReviewTimeTests {
  /// 2022-07-21T11:53:58Z, in summer.
  static let summer = 1_658_404_438.0

  @Test(
    "every form tzset(3) reads, and ISO offsets",
    arguments: [
      ("Asia/Seoul", 32_400), (":Asia/Seoul", 32_400), ("KST-9", 32_400), ("<+09>-9", 32_400),
      ("+09:00", 32_400), ("+09", 32_400), ("-0500", -18_000), ("UTC", 0), ("GMT", 0), ("", 0),
      ("EST5EDT,M3.2.0,M11.1.0", -14_400), ("EST5EDT,M3.2.0/2,M11.1.0/2:00:00", -14_400),
      ("America/New_York", -14_400), (":/usr/share/zoneinfo/Asia/Seoul", 32_400),
      ("IST-5:30", 19_800),
    ])
  func zoneForms(name: String, offset: Int) throws {
    let zone = try #require(ReviewTimeZone(name))
    #expect(zone.offset(at: Self.summer) == offset)
  }

  @Test(
    "a value that names no zone is refused",
    arguments: [
      "Nowhere/Land", "Mars/Olympus", "KST", ":KST-9", "+25:00", "+09:0", "../etc/passwd",
      "/etc/passwd", ":/etc/passwd", "KST-9,", "EST5EDT,M3.2.0", "Asia/Seoul/",
    ])
  func notZones(name: String) {
    #expect(ReviewTimeZone(name) == nil)
  }

  @Test("the system's local zone is /etc/localtime")
  func localZone() throws {
    let file = try #require(ReviewTimeZone(":/etc/localtime"))
    #expect(ReviewTimeZone.local.offset(at: Self.summer) == file.offset(at: Self.summer))
  }

  @Test(
    "a number of 10^11 or more is milliseconds",
    arguments: [
      ("1658404438", 1_658_404_438.0), ("1658404438652", 1_658_404_438.652),
      ("99999999999", 99_999_999_999.0), ("100000000000", 100_000_000.0),
      ("1.5e12", 1_500_000_000.0),
    ])
  func milliseconds(spelling: String, seconds: Double) throws {
    let date = try ReviewDate(json: .number(spelling), timeZone: .utc)
    #expect(abs(date.secondsSince1970 - seconds) < 1e-6)
  }

  @Test(
    "--locale's default: LC_ALL, else LC_TIME, else LANG, when known and not C; else ko_KR",
    arguments: [
      (["LANG": "en_US.UTF-8"], "en_US.UTF-8"), (["LC_ALL": "de_DE", "LANG": "en_US"], "de_DE"),
      (["LC_ALL": "", "LC_TIME": "en_GB.UTF-8", "LANG": "en_US"], "en_GB.UTF-8"),
      (["LC_ALL": "xx_YY", "LANG": "en_US"], "ko_KR"), (["LANG": "C.UTF-8"], "ko_KR"),
      (["LANG": "POSIX"], "ko_KR"), ([:], "ko_KR"),
    ])
  func defaultLocale(environment: [String: String], expected: String) {
    #expect(NumericDateStyle.defaultLocale { environment[$0] } == expected)
  }
}
