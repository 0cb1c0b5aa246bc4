extension ReviewDate {
  /// The latest instant ECMAScript dates (and so ``iso8601`` here) reach:
  /// 10^8 days either side of 1970, in milliseconds.
  static let largestMilliseconds = 8.64e15

  /// The instant as ISO 8601 in UTC with milliseconds, as JavaScript's
  /// `Date.prototype.toISOString` writes it: `2022-07-21T11:53:58.652Z`
  /// (a year outside 0000–9999 as a sign and six digits, `+275760`). Time
  /// finer than a millisecond is cut (to the millisecond at or before it);
  /// `nil` beyond 10^8 days from 1970, which that form cannot write.
  ///
  ///     ReviewDate(secondsSince1970: 1658404438.652).iso8601   // "2022-07-21T11:53:58.652Z"
  public var iso8601: String? {
    let scaled = secondsSince1970 * 1000
    guard scaled.isFinite, abs(scaled) <= Self.largestMilliseconds else { return nil }
    // A whole millisecond that floating point put a hair below stays whole:
    // seconds times 1000 is off by a few units in the last place at most.
    let nearest = scaled.rounded()
    let tolerance = max(1e-3, 4 * scaled.ulp)
    let milliseconds = Int(abs(scaled - nearest) < tolerance ? nearest : scaled.rounded(.down))
    let day = 86_400_000
    let days = milliseconds >= 0 ? milliseconds / day : -((-milliseconds + day - 1) / day)
    let time = milliseconds - days * day
    let (year, month, dayOfMonth) = Calendar.civil(fromDaysSince1970: days)
    func padded(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let yearText =
      (0...9999).contains(year) ? padded(year, 4) : (year < 0 ? "-" : "+") + padded(abs(year), 6)
    return "\(yearText)-\(padded(month, 2))-\(padded(dayOfMonth, 2))T"
      + "\(padded(time / 3_600_000, 2)):\(padded(time / 60_000 % 60, 2)):"
      + "\(padded(time / 1000 % 60, 2)).\(padded(time % 1000, 3))Z"
  }
}
