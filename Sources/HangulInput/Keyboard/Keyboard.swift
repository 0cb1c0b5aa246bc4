/// A Hangul keyboard described as data: which jamo each key types and which
/// jamo combine into one.
///
/// The automaton (``SyllableComposer``) reads only these tables, so another
/// keyboard is another value of this type, not new code.
///
///     let keyboard = Keyboard(builtIn: "2")!
///     keyboard.jamo(forASCII: UInt8(ascii: "r"))   // ㄱ
///     keyboard.jamo(forASCII: UInt8(ascii: "R"))   // ㄲ
public struct Keyboard: Sendable, Equatable {
  /// A rule that two jamo typed in a row make a third.
  public struct Combination: Sendable, Hashable {
    public var first: Jamo
    public var second: Jamo
    public var result: Jamo

    public init(_ first: Jamo, _ second: Jamo, _ result: Jamo) {
      self.first = first
      self.second = second
      self.result = result
    }
  }

  /// The keyboard's id, such as "2" for the 2-set layout.
  public var name: String
  /// The keyboard as its file describes it (every keyboard has one).
  public var layout: KeyboardLayout
  /// Whether its keys carry compatibility-jamo labels that the 2-set
  /// automaton (``SyllableComposer``) types: then ``asciiMap`` and the
  /// combination lists below describe it, and `--keys jamo` can be used.
  /// Other keyboards (3-set, old Hangul, romaja) run on ``LayoutComposer``.
  public var hasJamoLabels: Bool
  /// The jamo typed by each ASCII code (128 entries; `nil` where the key types no jamo).
  public var asciiMap: [Jamo?]
  /// Vowels that combine into a compound vowel.
  public var vowelCombinations: [Combination]
  /// Finals that combine into a compound final.
  public var finalCombinations: [Combination]
  /// Initials that combine when `--double-stroke` is on (ㄱㄱ → ㄲ).
  public var doubleStrokeInitials: [Combination]
  /// Finals that combine when `--double-stroke` is on (ㅅㅅ → ㅆ).
  public var doubleStrokeFinals: [Combination]
  /// Vowels that combine when `--extended-vowels` is on (ㅏㅣ → ㅐ).
  public var extendedVowels: [Combination]

  /// The jamo that an ASCII key types, if any.
  @inlinable public func jamo(forASCII code: UInt8) -> Jamo? {
    code < 128 ? asciiMap[Int(code)] : nil
  }

  public init(
    name: String, asciiMap: [Jamo?], vowelCombinations: [Combination],
    finalCombinations: [Combination], doubleStrokeInitials: [Combination],
    doubleStrokeFinals: [Combination], extendedVowels: [Combination],
    layout: KeyboardLayout? = nil
  ) {
    self.name = name
    self.layout = layout ?? KeyboardLayout(id: name, name: name, type: .jamo)
    self.hasJamoLabels = true
    self.asciiMap = asciiMap
    self.vowelCombinations = vowelCombinations
    self.finalCombinations = finalCombinations
    self.doubleStrokeInitials = doubleStrokeInitials
    self.doubleStrokeFinals = doubleStrokeFinals
    self.extendedVowels = extendedVowels
  }
}
