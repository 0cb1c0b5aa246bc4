import Synchronization

/// A review's creation time in one of the forms the keyboard apps wrote
/// (hangul-reviews(1)), kept with how it was written.
///
/// | form | example |
/// | --- | --- |
/// | ISO 8601 in UTC or with an offset | `2022-07-21T11:53:58.652Z`, `2022-07-21T20:53:58+09:00` |
/// | local time, no zone (read in the given time zone) | `2022-07-23T19:00:00` |
/// | date, time and numeric offset | `2022-07-23 10:00:00 +0000` |
/// | unix seconds (a JSON number) | `1658404438` |
/// | unix milliseconds (a number of 10^11 or more) | `1658404438652` |
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
  package init(json value: JSONValue, timeZone: ReviewTimeZone) throws(Invalid) {
    switch value {
    case .number(let spelling):
      guard let number = Double(spelling), number.isFinite else {
        throw Invalid(
          description: "\(MessageExcerpt.text(spelling)) is not a number of seconds")
      }
      // Ten to the eleventh seconds is the year 5138: such a number is milliseconds.
      self.init(secondsSince1970: abs(number) >= 1e11 ? number / 1000 : number)
    case .string(let text):
      try self.init(text, timeZone: timeZone)
    default:
      throw Invalid(
        description: "a date must be a string or a number of seconds, not \(value.kindName)")
    }
  }

  /// Reads a date string in one of the forms.
  public init(_ text: String, timeZone: ReviewTimeZone) throws(Invalid) {
    try self.init(utf8: Array(text.utf8), timeZone: timeZone)
  }

  /// Reads a date string in one of the forms, given as UTF-8.
  public init(utf8 bytes: [UInt8], timeZone: ReviewTimeZone) throws(Invalid) {
    var reader = DigitReader(bytes: bytes)
    func invalid() -> Invalid {
      Invalid(
        description:
          "\(MessageExcerpt.quoted(utf8: bytes)) is not a date like 2022-07-21T11:53:58.652Z, 2022-07-23T19:00:00 or 2022-07-23 10:00:00 +0000"
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
      guard timeZone.isUsable else {
        let text = JSONWriter.quoted(String(decoding: bytes, as: UTF8.self))
        throw Invalid(
          description:
            "\(text) has no time zone, and TZ '\(timeZone.name)' names none; set TZ or --time-zone")
      }
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

/// The time zone that local times are read in and dates are shown in: every
/// form `tzset(3)` reads, and ISO 8601 offsets.
///
/// | form | example |
/// | --- | --- |
/// | UTC | `UTC`, `GMT`, `Z` (and an empty `TZ`) |
/// | an offset (ISO 8601 sign: east is +) | `+09:00`, `-0500`, `+09` |
/// | a zone of the tz database, with or without `:` | `Asia/Seoul`, `:Asia/Seoul` |
/// | a zone file by its path | `:/etc/localtime` |
/// | a POSIX TZ rule (POSIX sign: east is −) | `KST-9`, `EST5EDT,M3.2.0,M11.1.0` |
///
///     ReviewTimeZone("KST-9")?.offset(at: 0)        // 32400
///     ReviewTimeZone("Nowhere/Land")                // nil
///
/// Offsets of named zones and rules come from the C library (localtime_r).
public struct ReviewTimeZone: Sendable, Equatable {
  private enum Kind: Equatable, Sendable {
    case fixed(Int)
    /// A value for the TZ variable.
    case rule(String)
    /// A zone that names none (an invalid `TZ`): reading a local time in it
    /// is an error, so that it is one only when a local time is read.
    case unusable
  }

  private let kind: Kind
  /// The name as given.
  public let name: String

  /// UTC.
  public static let utc = ReviewTimeZone(kind: .fixed(0), name: "UTC")
  /// The system's local time zone (/etc/localtime; UTC when there is none).
  public static let local = ReviewTimeZone(kind: .rule(":/etc/localtime"), name: "localtime")

  /// A zone given as `name` that names none: a date without a zone read in
  /// it is invalid (``ReviewDate/init(utf8:timeZone:)`` says so); offsets
  /// are 0.
  public static func unusable(_ name: String) -> ReviewTimeZone {
    ReviewTimeZone(kind: .unusable, name: name)
  }

  /// Whether local times can be read in the zone (it is not ``unusable(_:)``).
  public var isUsable: Bool { kind != .unusable }

  private init(kind: Kind, name: String) {
    self.kind = kind
    self.name = name
  }

  /// The zone `name` names in one of the forms above; `nil` when it names none.
  public init?(_ name: String) {
    if name.isEmpty || name == "UTC" || name == "Z" || name == "GMT" {
      self.init(kind: .fixed(0), name: name)
      return
    }
    var reader = ReviewDate.DigitReader(bytes: Array(name.utf8))
    if let sign = reader.sign() {
      guard let hours = reader.number(digits: 2) else { return nil }
      var minutes = 0
      if !reader.atEnd {
        _ = reader.take(":")
        guard let value = reader.number(digits: 2) else { return nil }
        minutes = value
      }
      guard reader.atEnd, hours < 24, minutes < 60 else { return nil }
      self.init(kind: .fixed(sign * (hours * 3600 + minutes * 60)), name: name)
      return
    }
    let hasColon = name.hasPrefix(":")
    let file = hasColon ? String(name.dropFirst()) : name
    if file.hasPrefix("/") {
      guard SystemTimeZones.isZoneFile(file) else { return nil }
      self.init(kind: .rule(":" + file), name: name)
    } else if SystemTimeZones.exists(file) {
      self.init(kind: .rule(":" + file), name: name)
    } else if !hasColon, Self.isPOSIXRule(Array(name.utf8)) {
      self.init(kind: .rule(name), name: name)
    } else {
      return nil
    }
  }

  /// Whether `bytes` is a POSIX TZ rule: `std offset [dst [offset] [,start[/time],end[/time]]]`.
  static func isPOSIXRule(_ bytes: [UInt8]) -> Bool {
    var position = 0
    func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }
    func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    func zoneName() -> Bool {
      let start = position
      if peek() == UInt8(ascii: "<") {
        position += 1
        while let byte = peek(), byte != UInt8(ascii: ">") {
          guard isLetter(byte) || isDigit(byte) || byte == 0x2B || byte == 0x2D else {
            return false
          }
          position += 1
        }
        guard peek() == UInt8(ascii: ">"), position - start - 1 >= 3 else { return false }
        position += 1
        return true
      }
      while let byte = peek(), isLetter(byte) { position += 1 }
      return position - start >= 3
    }
    func number(maximumDigits: Int) -> Bool {
      let start = position
      while isDigit(peek()), position - start < maximumDigits { position += 1 }
      return position > start
    }
    func time(hourDigits: Int) -> Bool {
      if peek() == 0x2B || peek() == 0x2D { position += 1 }
      guard number(maximumDigits: hourDigits) else { return false }
      for _ in 0..<2 where peek() == UInt8(ascii: ":") {
        position += 1
        guard number(maximumDigits: 2) else { return false }
      }
      return true
    }
    func date() -> Bool {
      switch peek() {
      case UInt8(ascii: "J"):
        position += 1
        return number(maximumDigits: 3)
      case UInt8(ascii: "M"):
        position += 1
        guard number(maximumDigits: 2), peek() == UInt8(ascii: ".") else { return false }
        position += 1
        guard number(maximumDigits: 1), peek() == UInt8(ascii: ".") else { return false }
        position += 1
        return number(maximumDigits: 1)
      default:
        return number(maximumDigits: 3)
      }
    }
    func ruleDate() -> Bool {
      guard date() else { return false }
      if peek() == UInt8(ascii: "/") {
        position += 1
        return time(hourDigits: 3)
      }
      return true
    }
    guard zoneName(), time(hourDigits: 2) else { return false }
    if peek() == nil { return true }
    guard zoneName() else { return false }
    if let byte = peek(), isDigit(byte) || byte == 0x2B || byte == 0x2D {
      guard time(hourDigits: 2) else { return false }
    }
    if peek() == nil { return true }
    for _ in 0..<2 {
      guard peek() == UInt8(ascii: ",") else { return false }
      position += 1
      guard ruleDate() else { return false }
    }
    return peek() == nil
  }

  /// Seconds east of UTC at the instant `seconds` since 1970.
  public func offset(at seconds: Double) -> Int {
    switch kind {
    case .fixed(let offset): return offset
    case .rule(let value):
      return SystemTimeZones.offset(of: value, at: seconds)
    case .unusable: return 0
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

  /// The locale dates are written in when none is given: that of `LC_ALL`,
  /// else `LC_TIME`, else `LANG` (the first that is set and not empty), when
  /// it is one of ``byLocale`` other than C and POSIX (what a system has when
  /// nobody chose a locale); else `ko_KR`.
  ///
  ///     NumericDateStyle.defaultLocale { ["LANG": "en_US.UTF-8"][$0] }   // "en_US"
  public static func defaultLocale(environment: (String) -> String?) -> String {
    let fallback = "ko_KR"
    var found: String?
    for name in ["LC_ALL", "LC_TIME", "LANG"] {
      if let value = environment(name), !value.isEmpty {
        found = value
        break
      }
    }
    guard let value = found, let style = NumericDateStyle(locale: value),
      style != NumericDateStyle.byLocale["C"]
    else { return fallback }
    return value
  }

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

/// The `"elapsed"` wording of `--relative-time` (hangul-reviews(1)).
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
    return isZoneFile(folder + name)
  }

  /// Whether `path` is a regular file in the tz database's format (it starts with "TZif").
  static func isZoneFile(_ path: String) -> Bool {
    let info = path.withCString { SystemCalls.status(ofPath: $0, followingLinks: true) }
    guard let info, SystemCalls.isRegularFile(info) else { return false }
    return SystemCalls.firstBytes(ofFile: path, count: 4) == Array("TZif".utf8)
  }

  /// Seconds east of UTC at the instant `seconds` since 1970, with TZ set to `value`.
  static func offset(of value: String, at seconds: Double) -> Int {
    lock.withLock { current in
      if current != value {
        SystemCalls.setTimeZone(value)
        current = value
      }
      return SystemCalls.localOffset(atSecondsSince1970: Int(seconds.rounded(.down))) ?? 0
    }
  }
}
