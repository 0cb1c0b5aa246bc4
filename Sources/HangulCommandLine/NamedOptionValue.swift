import ArgumentParser
import HangulKit

/// An option value that is one of a fixed set of names (`--form nfc`,
/// `--to nfd`): every program matches them whatever their case (`--form
/// NFC`, `--to NFD`), through this one conformance.
public protocol NamedOptionValue: ExpressibleByArgument, CaseIterable {
  /// The name the option takes for this value, in lower case.
  var optionName: String { get }
}

extension NamedOptionValue {
  /// The value whose name is `argument` in any case.
  static func named(_ argument: String) -> Self? {
    let wanted = argument.lowercased()
    return allCases.first { $0.optionName.lowercased() == wanted }
  }

  public init?(argument: String) {
    guard let value = Self.named(argument) else { return nil }
    self = value
  }

  public var defaultValueDescription: String { optionName }

  public static var allValueStrings: [String] { allCases.map(\.optionName) }
}

extension NamedOptionValue where Self: RawRepresentable, RawValue == String {
  public var optionName: String { rawValue }

  // Chosen over ArgumentParser's own for raw-valued enumerations (exact case).
  public init?(argument: String) {
    guard let value = Self.named(argument) else { return nil }
    self = value
  }

  public var defaultValueDescription: String { optionName }

  public static var allValueStrings: [String] { allCases.map(\.optionName) }
}

extension ICUNormalizer.Form: NamedOptionValue {
  public var optionName: String { name }

  // Its raw values are ICU's numbers: the names are matched here, as for
  // every other value (ArgumentParser's default would read a number).
  public init?(argument: String) {
    guard let value = Self.named(argument) else { return nil }
    self = value
  }

  /// What --help says of each form (keyed by name: the default descriptions
  /// are keyed by the raw value, which shows as empty lines).
  public static var allValueDescriptions: [String: String] {
    [
      "nfc": "composed: 한 and é one code point each",
      "nfd": "decomposed: 한 as ᄒ ᅡ ᆫ, as macOS writes file names",
      "nfkc": "NFC after compatibility mapping (ㄱ → ᄀ, ① → 1)",
      "nfkd": "NFD after compatibility mapping",
    ]
  }
}

extension KeyEncoding: NamedOptionValue {}
extension ComposerOptions.Backspace: NamedOptionValue {}
extension DecompositionForm: NamedOptionValue {}
extension InputMode: NamedOptionValue {}
extension EventLogFilter.Output: NamedOptionValue {}
extension ReviewExportFilter.Shape: NamedOptionValue {}
extension SQLDialect: NamedOptionValue {}
extension ReviewTableWriter.NULPolicy: NamedOptionValue {}
