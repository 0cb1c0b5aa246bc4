#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// A review's creation time in one of the forms the keyboard apps wrote
/// (SPEC §5), kept with how it was written.
///
/// | form | example |
/// | --- | --- |
/// | ISO 8601 in UTC or with an offset | `2022-07-21T11:53:58.652Z`, `2022-07-21T20:53:58+09:00` |
/// | local time, no zone (read in the given time zone) | `2022-07-23T19:00:00` |
/// | date, time and numeric offset | `2022-07-23 10:00:00 +0000` |
/// | unix seconds (a JSON number) | `1658404438` |
///
///     let date = try ReviewDate(json: .string("2022-07-21T11:53:58.652Z"), timeZone: .utc)
///     date.secondsSince1970   // 1658404438.652
public struct ReviewDate: Sendable, Equatable {
  /// Seconds since 1970-01-01T00:00:00Z.
  public var secondsSince1970: Double

  public init(secondsSince1970: Double) {
    self.secondsSince1970 = secondsSince1970
  }

  /// Why a value is not a date.
  public struct Invalid: Error, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Reads a JSON value: a string in one of the forms, or a number of seconds.
  public init(json value: JSONValue, timeZone: ReviewTimeZone) throws(Invalid) {
    switch value {
    case .number(let spelling):
      guard let seconds = Double(spelling), seconds.isFinite else {
        throw Invalid(description: "\(spelling) is not a number of seconds")
      }
      self.init(secondsSince1970: seconds)
    case .string(let text):
      try self.init(text, timeZone: timeZone)
    default:
      throw Invalid(
        description: "a date must be a string or a number of seconds, not \(value.kindName)")
    }
  }

  /// Reads a date string in one of the forms.
  public init(_ text: String, timeZone: ReviewTimeZone) throws(Invalid) {
    let bytes = Array(text.utf8)
    var reader = DigitReader(bytes: bytes)
    func invalid() -> Invalid {
      Invalid(
        description:
          "\(JSONWriter.quoted(text)) is not a date like 2022-07-21T11:53:58.652Z, 2022-07-23T19:00:00 or 2022-07-23 10:00:00 +0000"
      )
    }
    guard let year = reader.number(digits: 4), reader.take("-"),
      let month = reader.number(digits: 2),
      reader.take("-"), let day = reader.number(digits: 2)
    else { throw invalid() }
    let separator = reader.peek
    guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: " ") else { throw invalid() }
    reader.position += 1
    guard let hour = reader.number(digits: 2), reader.take(":"),
      let minute = reader.number(digits: 2),
      reader.take(":"), let second = reader.number(digits: 2)
    else { throw invalid() }
    var fraction = 0.0
    if reader.take(".") {
      var scale = 0.1
      var digits = 0
      while let digit = reader.digit() {
        fraction += Double(digit) * scale
        scale /= 10
        digits += 1
      }
      guard digits > 0 else { throw invalid() }
    }
    guard (1...12).contains(month), (1...Calendar.daysIn(month: month, year: year)).contains(day),
      (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
    else { throw invalid() }
    let local =
      Double(
        Calendar.daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute
          * 60 + second)
      + fraction
    var offset: Int?
    if separator == UInt8(ascii: "T") {
      if reader.take("Z") {
        offset = 0
      } else if let sign = reader.sign() {
        guard let hours = reader.number(digits: 2), reader.take(":"),
          let minutes = reader.number(digits: 2)
        else { throw invalid() }
        offset = sign * (hours * 3600 + minutes * 60)
      }
    } else {
      guard reader.take(" "), let sign = reader.sign(), let hours = reader.number(digits: 2),
        let minutes = reader.number(digits: 2)
      else { throw invalid() }
      offset = sign * (hours * 3600 + minutes * 60)
    }
    guard reader.atEnd else { throw invalid() }
    if let offset {
      secondsSince1970 = local - Double(offset)
    } else {
      secondsSince1970 = timeZone.instant(fromLocal: local)
    }
  }

  /// The civil date (year, month, day) in `timeZone`.
  public func civilDate(in timeZone: ReviewTimeZone) -> (year: Int, month: Int, day: Int) {
    let local = secondsSince1970 + Double(timeZone.offset(at: secondsSince1970))
    let days = Int((local / 86_400).rounded(.down))
    return Calendar.civil(fromDaysSince1970: days)
  }

  /// Proleptic Gregorian calendar arithmetic.
  enum Calendar {
    static func isLeap(_ year: Int) -> Bool {
      year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysIn(month: Int, year: Int) -> Int {
      switch month {
      case 2: isLeap(year) ? 29 : 28
      case 4, 6, 9, 11: 30
      default: 31
      }
    }

    /// Days from 1970-01-01 to the given date (negative before it).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
      // Count from March so that the leap day ends the year.
      let shiftedYear = month <= 2 ? year - 1 : year
      let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
      let yearOfEra = shiftedYear - era * 400
      let monthFromMarch = (month + 9) % 12
      let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
      let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
      return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    static func civil(fromDaysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
      let shifted = days + 719_468
      let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
      let dayOfEra = shifted - era * 146_097
      let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
      let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
      let monthFromMarch = (5 * dayOfYear + 2) / 153
      let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
      let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
      let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
      return (year, month, day)
    }
  }

  struct DigitReader {
    let bytes: [UInt8]
    var position = 0

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }
    var atEnd: Bool { position == bytes.count }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
      guard peek == UInt8(truncatingIfNeeded: character.value) else { return false }
      position += 1
      return true
    }

    mutating func digit() -> Int? {
      guard let byte = peek, byte >= 0x30, byte <= 0x39 else { return nil }
      position += 1
      return Int(byte - 0x30)
    }

    mutating func number(digits: Int) -> Int? {
      var value = 0
      for _ in 0..<digits {
        guard let digit = digit() else { return nil }
        value = value * 10 + digit
      }
      return value
    }

    mutating func sign() -> Int? {
      if take("+") { return 1 }
      if take("-") { return -1 }
      return nil
    }
  }
}

/// The time zone that local times are read in and dates are shown in.
public struct ReviewTimeZone: Sendable, Equatable {
  private enum Kind: Equatable, Sendable {
    case fixed(Int)
    case named(String)
  }

  private let kind: Kind
  /// The name as given.
  public let name: String

  /// UTC.
  public static let utc = ReviewTimeZone(kind: .fixed(0), name: "UTC")

  private init(kind: Kind, name: String) {
    self.kind = kind
    self.name = name
  }

  /// `UTC`, an offset (`+09:00`, `-0500`), or an IANA name (`Asia/Seoul`);
  /// `nil` when it is none of them.
  public init?(_ name: String) {
    if name == "UTC" || name == "Z" || name == "GMT" {
      self.init(kind: .fixed(0), name: name)
      return
    }
    var reader = ReviewDate.DigitReader(bytes: Array(name.utf8))
    if let sign = reader.sign() {
      guard let hours = reader.number(digits: 2) else { return nil }
      _ = reader.take(":")
      guard let minutes = reader.number(digits: 2), reader.atEnd, hours < 24, minutes < 60 else {
        return nil
      }
      self.init(kind: .fixed(sign * (hours * 3600 + minutes * 60)), name: name)
      return
    }
    guard SystemTimeZones.exists(name) else { return nil }
    self.init(kind: .named(name), name: name)
  }

  /// Seconds east of UTC at the instant `seconds` since 1970.
  public func offset(at seconds: Double) -> Int {
    switch kind {
    case .fixed(let offset): return offset
    case .named(let identifier):
      return SystemTimeZones.offset(of: identifier, at: seconds)
    }
  }

  /// The instant of a local time given as seconds since 1970 on a UTC clock.
  func instant(fromLocal local: Double) -> Double {
    let guess = local - Double(offset(at: local))
    return local - Double(offset(at: guess))
  }
}

/// How a locale writes a date in numbers.
public struct NumericDateStyle: Sendable, Equatable {
  public enum Part: Sendable { case year, month, day }

  /// The parts in order.
  public var order: [Part]
  /// What goes between the parts.
  public var separator: String
  /// What follows the last part.
  public var suffix: String

  /// Known locales and their numeric date styles (ko_KR: `2022. 07. 21.`).
  public static let byLocale: [String: NumericDateStyle] = [
    "ko_KR": NumericDateStyle(order: [.year, .month, .day], separator: ". ", suffix: "."),
    "ja_JP": NumericDateStyle(order: [.year, .month, .day], separator: "/", suffix: ""),
    "zh_CN": NumericDateStyle(order: [.year, .month, .day], separator: "/", suffix: ""),
    "zh_TW": NumericDateStyle(order: [.year, .month, .day], separator: "/", suffix: ""),
    "en_US": NumericDateStyle(order: [.month, .day, .year], separator: "/", suffix: ""),
    "en_GB": NumericDateStyle(order: [.day, .month, .year], separator: "/", suffix: ""),
    "fr_FR": NumericDateStyle(order: [.day, .month, .year], separator: "/", suffix: ""),
    "de_DE": NumericDateStyle(order: [.day, .month, .year], separator: ".", suffix: ""),
    "C": NumericDateStyle(order: [.year, .month, .day], separator: "-", suffix: ""),
  ]

  /// The style of a locale name (`ko_KR`, `ko-KR`, `ko_KR.UTF-8`, `POSIX`), if known.
  public init?(locale: String) {
    var name = locale.split(separator: ".").first.map(String.init) ?? locale
    name = String(name.map { $0 == "-" ? "_" : $0 })
    if name == "POSIX" || name == "en_US_POSIX" { name = "C" }
    guard let style = Self.byLocale[name] else { return nil }
    self = style
  }

  public init(order: [Part], separator: String, suffix: String) {
    self.order = order
    self.separator = separator
    self.suffix = suffix
  }

  /// The date in this style, with a four-digit year and two-digit month and day.
  public func format(year: Int, month: Int, day: Int) -> String {
    func padded(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return order.map { part in
      switch part {
      case .year: padded(year, 4)
      case .month: padded(month, 2)
      case .day: padded(day, 2)
      }
    }.joined(separator: separator) + suffix
  }
}

/// The `"elapsed"` wording of `--relative-time` (SPEC §5).
public struct RelativeTime: Sendable {
  public var now: ReviewDate
  public var timeZone: ReviewTimeZone
  public var style: NumericDateStyle

  public init(now: ReviewDate, timeZone: ReviewTimeZone, style: NumericDateStyle) {
    self.now = now
    self.timeZone = timeZone
    self.style = style
  }

  /// `N초 전` under a minute, `N분 전` under an hour, `N시간 전` under a day,
  /// else the date in the locale's numeric style; `nil` for a date in the
  /// future (the caller keeps the raw value).
  public func description(of date: ReviewDate) -> String? {
    let elapsed = (now.secondsSince1970 - date.secondsSince1970).rounded(.down)
    guard elapsed >= 0 else { return nil }
    let seconds = Int(elapsed)
    switch seconds {
    case ..<60: return "\(seconds)초 전"
    case ..<3600: return "\(seconds / 60)분 전"
    case ..<86_400: return "\(seconds / 3600)시간 전"
    default:
      let civil = date.civilDate(in: timeZone)
      return style.format(year: civil.year, month: civil.month, day: civil.day)
    }
  }
}

/// Named time zones from the system's tz database (/usr/share/zoneinfo), read
/// through the C library: TZ is set and localtime_r asked for the offset.
/// TZ is process-wide, so a lock keeps the calls apart.
enum SystemTimeZones {
  private static let lock = Mutex<String?>(nil)
  static let folder = "/usr/share/zoneinfo/"

  /// Whether `name` is a zone of the database (not a path out of it).
  static func exists(_ name: String) -> Bool {
    guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
      return false
    }
    var info = stat()
    guard stat(folder + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    // A zone file starts with the magic "TZif".
    guard let file = fopen(folder + name, "r") else { return false }
    defer { fclose(file) }
    var magic = [UInt8](repeating: 0, count: 4)
    return fread(&magic, 1, 4, file) == 4 && magic == Array("TZif".utf8)
  }

  /// Seconds east of UTC in zone `name` at the instant `seconds` since 1970.
  static func offset(of name: String, at seconds: Double) -> Int {
    lock.withLock { current in
      if current != name {
        setenv("TZ", ":" + name, 1)
        tzset()
        current = name
      }
      var time = time_t(seconds.rounded(.down))
      var parts = tm()
      guard localtime_r(&time, &parts) != nil else { return 0 }
      return Int(parts.tm_gmtoff)
    }
  }
}
