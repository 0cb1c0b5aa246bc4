import ArgumentParser
import HangulKit

extension ICUNormalizer.Form: ExpressibleByArgument {
  public init?(argument: String) {
    self.init(name: argument)
  }

  public var defaultValueDescription: String { name }

  public static var allValueStrings: [String] { allCases.map(\.name) }

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
