/// The extensions a phone keypad adds to a keyboard file (hangul-keyboard(5)):
/// the jamo a key cycles through when pressed again, how a key changes what
/// the keys before it typed (천지인's vowel strokes ㅣ ㆍ ㅡ, 나랏글's 획추가 and
/// 쌍자음), and the names of keys that have no jamo label.
///
///     let rules = KeyboardLayout(builtIn: "cheonjiin")!.keypad
///     rules.cycles[UInt8(ascii: "4")]                        // [ㄱ, ㅋ, ㄲ] as scalar values
///     rules.next(from: [0x3163], key: UInt8(ascii: "2"))     // [0x314F] (ㅣ + ㆍ = ㅏ)
///     rules.start(key: UInt8(ascii: "4"))                    // [0x3131] (ㄱ)
///
/// Lookups are O(1) hash-table reads (a cycle step also scans its few jamo).
public struct KeypadRules: Sendable, Equatable {
  /// A key pressed on a run state (the compatibility jamo shown so far by the
  /// presses in a row that type one jamo: a jamo, or ㆍ strokes; empty when
  /// no run is in progress).
  public struct Stroke: Sendable, Hashable {
    public var from: [UInt32]
    public var key: UInt8

    public init(from: [UInt32], key: UInt8) {
      self.from = from
      self.key = key
    }
  }

  /// The compatibility jamo each key types on its first, second … press in a
  /// row (after the last, the first again).
  public var cycles: [UInt8: [UInt32]] = [:]
  /// The run state a key leads to from a state (`from` empty: the state a
  /// key starts a run with).
  public var strokes: [Stroke: [UInt32]] = [:]
  /// The names of the keys that have no jamo label (나랏글's `*` 획추가).
  public var keyNames: [UInt8: String] = [:]

  public init() {}

  /// Whether the file gave no keypad rules.
  public var isEmpty: Bool { cycles.isEmpty && strokes.isEmpty }

  /// The state `key` leads to from `from` by a stroke, or `nil`.
  public func stroke(from: [UInt32], key: UInt8) -> [UInt32]? {
    strokes[Stroke(from: from, key: key)]
  }

  /// The state a press of `key` starts a run with: its stroke from nothing,
  /// else the first jamo of its cycle; `nil` when it starts none.
  public func start(key: UInt8) -> [UInt32]? {
    if let state = stroke(from: [], key: key) { return state }
    return cycles[key]?.first.map { [$0] }
  }

  /// The state a press of `key` leads the run in state `from` to: a stroke,
  /// else the next jamo of the key's cycle when `from` is one of them;
  /// `nil` when the press continues no run.
  public func next(from: [UInt32], key: UInt8) -> [UInt32]? {
    guard !from.isEmpty else { return nil }
    if let state = stroke(from: from, key: key) { return state }
    guard from.count == 1, let cycle = cycles[key], let index = cycle.firstIndex(of: from[0])
    else { return nil }
    return [cycle[(index + 1) % cycle.count]]
  }
}
