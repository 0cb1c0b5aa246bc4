import ArgumentParser

/// A size in bytes written as a number with an optional K, M or G suffix (powers of 1024).
public struct ByteCount: ExpressibleByArgument, Sendable {
  public var value: Int

  public init(_ value: Int) { self.value = value }

  public init?(argument: String) {
    let multipliers: [String: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = argument.uppercased()
    var multiplier = 1
    if let last = digits.last, let factor = multipliers[String(last)] {
      multiplier = factor
      digits.removeLast()
    }
    guard let number = Int(digits), number > 0 else { return nil }
    let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
    guard !overflow else { return nil }
    value = product
  }

  public var defaultValueDescription: String {
    value % (1 << 20) == 0 ? "\(value >> 20)M" : "\(value)"
  }
}
