import ArgumentParser
import HangulKit

extension ICUNormalizer.Form: ExpressibleByArgument {
  public init?(argument: String) {
    self.init(name: argument)
  }

  public var defaultValueDescription: String { name }

  public static var allValueStrings: [String] { allCases.map(\.name) }
}
