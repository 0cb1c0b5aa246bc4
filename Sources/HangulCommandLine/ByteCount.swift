import ArgumentParser

/// A size in bytes written as a number with an optional K, M or G suffix (powers of 1024).
///
///     try ByteCount.parse("64K").value  // 65536
package struct ByteCount: ExpressibleByArgument, Sendable {
  package var value: Int

  package init(_ value: Int) { self.value = value }

  package init?(argument: String) {
    guard let count = try? Self.parse(argument) else { return nil }
    self = count
  }

  /// Reads `argument`, saying what is wrong with it when it is not a size.
  package static func parse(_ argument: String) throws -> ByteCount {
    let multipliers: [String: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = argument.uppercased()
    var multiplier = 1
    if let last = digits.last, let factor = multipliers[String(last)] {
      multiplier = factor
      digits.removeLast()
    }
    guard let number = Int(digits) else {
      throw ValidationError(
        "'\(argument)' is not a size; write a number of bytes such as 65536, 64K or 1M")
    }
    guard number > 0 else {
      throw ValidationError("the size must be at least 1 byte, such as 64K or 1M")
    }
    let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
    guard !overflow else { throw ValidationError("'\(argument)' is too large") }
    return ByteCount(product)
  }

  package var defaultValueDescription: String {
    value % (1 << 20) == 0 ? "\(value >> 20)M" : "\(value)"
  }
}
