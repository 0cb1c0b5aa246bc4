/// A keyboard as a keyboard file describes it (libhangul's XML format, see
/// hangul-keyboard(5)): which Unicode jamo or symbol each ASCII key types,
/// which jamo combine, and which automaton type reads it.
///
///     let layout = KeyboardLayout(builtIn: "3f")!
///     layout.value(forKey: UInt8(ascii: "k"))   // 0x1100 (initial ᄀ)
///     layout.type                                // .jaso
///
/// Lookups are O(1); combinations are a hash table.
public struct KeyboardLayout: Sendable, Equatable {
  /// The automaton a keyboard is read by, with libhangul's type names.
  public enum KeyboardType: String, Sendable, CaseIterable {
    /// Keys are jamo without a position (2-set): a consonant becomes initial
    /// or final by where it is typed.
    case jamo
    /// As `jamo`, for old Hangul: no double-stroke rule, any final allowed.
    case jamoYet = "jamo-yet"
    /// Keys are initials, vowels and finals (3-set).
    case jaso
    /// As `jaso`, for old Hangul.
    case jasoYet = "jaso-yet"
    /// Latin letters spell Korean sounds (romaja).
    case romaja
    /// A phone keypad (천지인): keys cycle and vowels are stroke sequences, by
    /// the ``KeypadRules`` of the file; read by ``KeypadComposer``.
    case keypad

    /// Whether the type writes old Hangul: finals need not be modern.
    var isOldHangul: Bool { self == .jamoYet || self == .jasoYet }
  }

  /// The short id, such as "3f".
  public var id: String
  /// The name in English, and in Korean where the file gives one.
  public var name: String
  public var koreanName: String?
  public var type: KeyboardType
  /// What each ASCII code types (128 entries; 0 where the key types nothing).
  public private(set) var keyMap: [UInt32]
  /// `first << 32 | second` → result.
  public private(set) var combinations: [UInt64: UInt32]
  /// The keypad extensions (cycles and vowel strokes); empty on other types.
  public var keypad = KeypadRules()

  public init(
    id: String, name: String, koreanName: String? = nil, type: KeyboardType,
    keyMap: [UInt32] = [UInt32](repeating: 0, count: 128), combinations: [UInt64: UInt32] = [:]
  ) {
    self.id = id
    self.name = name
    self.koreanName = koreanName
    self.type = type
    self.keyMap = keyMap.count == 128 ? keyMap : [UInt32](repeating: 0, count: 128)
    self.combinations = combinations
  }

  /// The layout of the built-in keyboard `id` ("2", "3f", "cheonjiin" …),
  /// or `nil` when there is none of that id. The built-in keyboards are the
  /// files of the repository's keyboards/ folder, compiled in as data.
  public init?(builtIn id: String) {
    guard let layout = BuiltInKeyboards.layout(id: id) else { return nil }
    self = layout
  }

  /// The ids of the built-in keyboards, in the order of `--list-keyboards`.
  public static var builtInIDs: [String] { BuiltInKeyboards.ids }

  /// The rules of a built-in combination file ("hangul-combination-default.xml",
  /// "hangul-combination-full.xml"), which a keyboard file may include even
  /// where the file is not on the disk: (first, second, result) triples, or `nil`.
  public static func builtInCombinations(ofFile name: String) -> [(UInt32, UInt32, UInt32)]? {
    guard let rules = BuiltInKeyboards.combinations(ofFile: name) else { return nil }
    return stride(from: 0, to: rules.count, by: 3).map { (rules[$0], rules[$0 + 1], rules[$0 + 2]) }
  }

  /// Removes every combination (a keyboard file's later combination table
  /// replaces the one before it).
  public mutating func removeAllCombinations() {
    combinations.removeAll()
  }

  /// The Unicode scalar value a key types, or 0.
  @inline(__always) public func value(forKey code: UInt8) -> UInt32 {
    code < 128 ? keyMap[Int(code)] : 0
  }

  /// Makes `code` type `value` (0: nothing).
  public mutating func map(key code: UInt8, to value: UInt32) {
    if code < 128 { keyMap[Int(code)] = value }
  }

  /// The jamo that `first` and `second` typed in a row make, or 0.
  @inline(__always) public func combine(_ first: UInt32, _ second: UInt32) -> UInt32 {
    combinations[UInt64(first) << 32 | UInt64(second)] ?? 0
  }

  /// Adds a combination; the first one given for a pair wins.
  public mutating func addCombination(_ first: UInt32, _ second: UInt32, _ result: UInt32) {
    let key = UInt64(first) << 32 | UInt64(second)
    if combinations[key] == nil { combinations[key] = result }
  }

  /// The keys (ASCII codes) that type something, in code order.
  public var mappedKeys: [UInt8] {
    (0..<128).compactMap { keyMap[$0] != 0 ? UInt8($0) : nil }
  }
}
