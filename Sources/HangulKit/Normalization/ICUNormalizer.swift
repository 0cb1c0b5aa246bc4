internal import CICU

/// Unicode normalization by ICU, the independent oracle the project checks
/// its own Hangul algebra against.
///
///     let nfc = try ICUNormalizer(.nfc)
///     nfc.normalized("e\u{301}")              // "é"
///     try ICUNormalizer(.nfd).normalized("닭")  // "\u{1103}\u{1161}\u{11B0}"
///
/// Normalizing is O(n) in the text. Bytes that are not UTF-8 are copied
/// through unchanged by ``normalize(utf8:into:)``; they are boundaries that
/// nothing composes across.
public struct ICUNormalizer: @unchecked Sendable {
  /// A Unicode normalization form.
  public enum Form: Int32, Sendable, CaseIterable {
    case nfc = 0
    case nfd = 1
    case nfkc = 2
    case nfkd = 3

    /// The form's name in lower case, as options spell it: `nfc`, `nfd`, `nfkc`, `nfkd`.
    public var name: String {
      switch self {
      case .nfc: "nfc"
      case .nfd: "nfd"
      case .nfkc: "nfkc"
      case .nfkd: "nfkd"
      }
    }

    /// The form called `name` (`nfc`, `NFKD`, …).
    public init?(name: String) {
      guard let form = Self.allCases.first(where: { $0.name == name.lowercased() }) else {
        return nil
      }
      self = form
    }

    /// Whether the form composes (NFC, NFKC) rather than only decomposes.
    public var composes: Bool { self == .nfc || self == .nfkc }
  }

  /// An error ICU reported.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public let form: Form
  // ICU's normalizer instances are immutable singletons, safe to share.
  private let instance: UnsafeRawPointer

  public init(_ form: Form) throws {
    var error: Int32 = 0
    guard let instance = cicu_normalizer(form.rawValue, &error), cicu_success(error) != 0 else {
      throw Failure(
        description: "ICU normalizer unavailable: \(String(cString: cicu_error_name(error)))")
    }
    self.form = form
    self.instance = instance
  }

  /// `text` in this normalization form.
  public func normalized(_ text: String) -> String {
    let units = normalize(utf16: Array(text.utf16))
    return String(decoding: units, as: UTF16.self)
  }

  /// `scalars` in this normalization form.
  public func normalized(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var units: [UInt16] = []
    units.reserveCapacity(scalars.count)
    for scalar in scalars { UTF16.encode(scalar) { units.append($0) } }
    // Decoded directly, with no string between (as String would, U+FFFD for a fault).
    var result: [Unicode.Scalar] = []
    var decoder = UTF16()
    var iterator = normalize(utf16: units).makeIterator()
    result.reserveCapacity(units.count)
    decoding: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): result.append(scalar)
      case .error: result.append("\u{FFFD}")
      case .emptyInput: break decoding
      }
    }
    return result
  }

  /// Normalizes UTF-16 code units.
  public func normalize(utf16 source: [UInt16]) -> [UInt16] {
    guard !source.isEmpty else { return [] }
    // NFC rarely grows text, NFD at most triples it: start small and ask
    // ICU for the exact size when it does not fit.
    var capacity = source.count + source.count / 8 + 16
    while true {
      var error: Int32 = 0
      var destination = [UInt16](repeating: 0, count: capacity)
      let length = source.withUnsafeBufferPointer { input in
        destination.withUnsafeMutableBufferPointer { output in
          cicu_normalize(
            instance, input.baseAddress, Int32(input.count), output.baseAddress,
            Int32(output.count), &error)
        }
      }
      if cicu_buffer_overflow(error) != 0 {
        capacity = Int(length)
        continue
      }
      guard cicu_success(error) != 0 else { return source }
      destination.removeSubrange(Int(length)...)
      return destination
    }
  }

  /// Normalizes UTF-8 bytes, appending the result to `output`. Bytes that are
  /// not UTF-8 are copied unchanged.
  public func normalize(utf8 bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    var pending: [UInt16] = []
    func flush() {
      for scalar in String(decoding: normalize(utf16: pending), as: UTF16.self).unicodeScalars {
        output.appendUTF8(scalar)
      }
      pending.removeAll(keepingCapacity: true)
    }
    var decoder = UTF8Stream()
    decoder.decode(bytes, isLast: true) { unit in
      switch unit {
      case .scalar(let scalar):
        UTF16.encode(scalar) { pending.append($0) }
      case .invalidByte(let byte):
        flush()
        output.append(byte)
      }
    }
    flush()
  }

  /// Normalizes `count` UTF-16 units at `source` into `destination`. Returns
  /// the length written, or, when `capacity` is too small, the capacity
  /// needed negated; `nil` when ICU fails.
  func normalize(
    units source: UnsafePointer<UInt16>, count: Int,
    into destination: UnsafeMutablePointer<UInt16>, capacity: Int
  ) -> Int? {
    var error: Int32 = 0
    let length = cicu_normalize(
      instance, source, Int32(count), destination, Int32(capacity), &error)
    if cicu_buffer_overflow(error) != 0 { return -Int(length) }
    guard cicu_success(error) != 0 else { return nil }
    return Int(length)
  }

  /// Whether `count` UTF-16 units at `source` are already in this form.
  func isNormalized(units source: UnsafePointer<UInt16>, count: Int) -> Bool {
    var error: Int32 = 0
    let answer = cicu_is_normalized(instance, source, Int32(count), &error) != 0
    return answer && cicu_success(error) != 0
  }

  /// Whether `scalar` alone is already in this form.
  public func isNormalized(_ scalar: Unicode.Scalar) -> Bool {
    var units: (UInt16, UInt16) = (0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &units) { raw in
      let pointer = raw.bindMemory(to: UInt16.self)
      UTF16.encode(scalar) {
        pointer[count] = $0
        count += 1
      }
    }
    return withUnsafeBytes(of: &units) { raw in
      guard let base = raw.bindMemory(to: UInt16.self).baseAddress else { return false }
      return isNormalized(units: base, count: count)
    }
  }

  /// Appends the full decomposition of the scalar value `value` by this
  /// normalizer (NFD: canonical; NFKD: compatibility) to `scalars`, or
  /// `value` itself when it has none: one character's, with no reordering.
  func appendDecomposition(of value: UInt32, to scalars: inout [UInt32]) {
    var error: Int32 = 0
    let decomposition = withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 32) {
      buffer -> [UInt32]? in
      guard let base = buffer.baseAddress else { return nil }
      let length = cicu_decomposition(instance, Int32(bitPattern: value), base, 32, &error)
      guard length >= 0, cicu_success(error) != 0 else { return nil }
      var decoded: [UInt32] = []
      var index = 0
      while index < Int(length) {
        let unit = UInt32(base[index])
        if unit & 0xFC00 == 0xD800, index + 1 < Int(length) {
          decoded.append(0x1_0000 + (unit - 0xD800) << 10 + (UInt32(base[index + 1]) - 0xDC00))
          index += 2
        } else {
          decoded.append(unit)
          index += 1
        }
      }
      return decoded
    }
    if let decomposition { scalars += decomposition } else { scalars.append(value) }
  }

  /// The canonical combining class of the scalar value `value` (0 for a starter).
  func combiningClass(of value: UInt32) -> UInt8 {
    cicu_combining_class(instance, Int32(bitPattern: value))
  }

  /// Whether normalization never changes text across a boundary before `scalar`:
  /// text may be cut there and the pieces normalized apart.
  public func hasBoundary(before scalar: Unicode.Scalar) -> Bool {
    cicu_has_boundary_before(instance, Int32(bitPattern: scalar.value)) != 0
  }
}
