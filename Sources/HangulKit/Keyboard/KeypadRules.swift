/// The extensions a phone keypad adds to a keyboard file (hangul-keyboard(5)):
/// the jamo a consonant key cycles through when pressed again, and how each
/// vowel key changes the vowel typed so far (천지인's strokes ㅣ ㆍ ㅡ).
///
///     let rules = try KeyboardLayout.builtIn(id: "cheonjiin").keypad
///     rules.cycles[UInt8(ascii: "4")]          // [ㄱ, ㅋ, ㄲ] as scalar values
///     rules.stroke(from: [0x3163], key: UInt8(ascii: "2"))   // [0x314F] (ㅏ)
///
/// Lookups are O(1) hash-table reads.
public struct KeypadRules: Sendable, Equatable {
  /// A vowel key pressed on a stroke state (the compatibility jamo shown so
  /// far: a vowel, or ㆍ strokes; empty when no vowel is being typed).
  public struct Stroke: Sendable, Hashable {
    public var from: [UInt32]
    public var key: UInt8

    public init(from: [UInt32], key: UInt8) {
      self.from = from
      self.key = key
    }
  }

  /// The compatibility jamo each consonant key types on its first, second …
  /// press in a row.
  public var cycles: [UInt8: [UInt32]] = [:]
  /// The stroke state each vowel key leads to.
  public var strokes: [Stroke: [UInt32]] = [:]

  public init() {}

  /// Whether the file gave no keypad rules.
  public var isEmpty: Bool { cycles.isEmpty && strokes.isEmpty }

  /// The state `key` leads to from `from`, or `nil` when it continues none.
  public func stroke(from: [UInt32], key: UInt8) -> [UInt32]? {
    strokes[Stroke(from: from, key: key)]
  }
}
