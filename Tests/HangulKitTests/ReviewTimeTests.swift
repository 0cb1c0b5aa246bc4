import Foundation
import HangulKit
import Testing

/// hangul-reviews(1) dates: every tzset(3) zone form, milliseconds, the default locale.
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

/// `hangul-reviews import --dates iso`: ISO 8601 in UTC with milliseconds, as
/// JavaScript's toISOString writes it.
@Suite("Review dates as ISO 8601")
struct ReviewDateISOTests {
  @Test(
    "the boundaries of the form: years, signs, milliseconds, the ECMAScript range",
    arguments: [
      (0.0, "1970-01-01T00:00:00.000Z"), (-0.001, "1969-12-31T23:59:59.999Z"),
      (1_658_404_438.652, "2022-07-21T11:53:58.652Z"),
      (1_658_404_438.6529, "2022-07-21T11:53:58.652Z"),
      (-62_167_219_200.0, "0000-01-01T00:00:00.000Z"),
      (-62_167_219_200.001, "-000001-12-31T23:59:59.999Z"),
      (253_402_300_799.999, "9999-12-31T23:59:59.999Z"),
      (253_402_300_800.0, "+010000-01-01T00:00:00.000Z"),
      (8.64e12, "+275760-09-13T00:00:00.000Z"), (-8.64e12, "-271821-04-20T00:00:00.000Z"),
    ])
  func boundaries(seconds: Double, text: String) {
    #expect(ReviewDate(secondsSince1970: seconds).iso8601 == text)
  }

  @Test(
    "beyond 10^8 days from 1970, or not finite: nothing",
    arguments: [8.64e12 + 1, -8.64e12 - 1, 1e300, .infinity, .nan])
  func outOfRange(seconds: Double) {
    #expect(ReviewDate(secondsSince1970: seconds).iso8601 == nil)
  }

  @Test(
    "agrees with Foundation's Gregorian calendar in UTC on 20,000 random milliseconds (1601–9999)")
  func agreesWithFoundation() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    var generator = SeededGenerator(seed: 34)
    for _ in 0..<20_000 {
      let milliseconds = Int64.random(
        in: -11_644_473_600_000...253_402_300_799_999, using: &generator)
      let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      let parts = calendar.dateComponents(
        [.year, .month, .day, .hour, .minute, .second], from: date)
      let millisecond = Int(((milliseconds % 1000) + 1000) % 1000)
      let expected = String(
        format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year ?? 0, parts.month ?? 0,
        parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, millisecond)
      #expect(
        ReviewDate(secondsSince1970: Double(milliseconds) / 1000).iso8601 == expected,
        "\(milliseconds)")
    }
  }
}
