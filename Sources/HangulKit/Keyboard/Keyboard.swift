/// A Hangul keyboard described as data: which jamo each key types and which
/// jamo combine into one.
///
/// The automaton (``SyllableComposer``) reads only these tables, so another
/// keyboard is another value of this type, not new code.
///
///     let keyboard = Keyboard.twoSet
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

  /// A short name, such as "2" for the 2-set layout.
  public var name: String
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
    doubleStrokeFinals: [Combination], extendedVowels: [Combination]
  ) {
    self.name = name
    self.asciiMap = asciiMap
    self.vowelCombinations = vowelCombinations
    self.finalCombinations = finalCombinations
    self.doubleStrokeInitials = doubleStrokeInitials
    self.doubleStrokeFinals = doubleStrokeFinals
    self.extendedVowels = extendedVowels
  }
}

extension Keyboard {
  /// The standard 2-set (두벌식, KS X 5002) layout on a QWERTY keyboard, with
  /// the combinations of libhangul's keyboard "2".
  public static let twoSet: Keyboard = {
    var map = [Jamo?](repeating: nil, count: 128)
    let letters = "qwertyuiopasdfghjklzxcvbnm"
    let jamo = JamoTables.jamo("ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔㅁㄴㅇㄹㅎㅗㅓㅏㅣㅋㅌㅊㅍㅠㅜㅡ")
    for (letter, typed) in zip(letters.utf8, jamo) {
      map[Int(letter)] = typed
      map[Int(letter) - 0x20] = typed  // a capital types the same jamo …
    }
    for (letter, typed) in zip("QWERTOP".utf8, JamoTables.jamo("ㅃㅉㄸㄲㅆㅒㅖ")) {
      map[Int(letter)] = typed  // … except the Shift keys of the layout
    }
    return Keyboard(
      name: "2", asciiMap: map,
      vowelCombinations: rules("ㅗㅏㅘ ㅗㅐㅙ ㅗㅣㅚ ㅜㅓㅝ ㅜㅔㅞ ㅜㅣㅟ ㅡㅣㅢ"),
      finalCombinations: rules("ㄱㅅㄳ ㄴㅈㄵ ㄴㅎㄶ ㄹㄱㄺ ㄹㅁㄻ ㄹㅂㄼ ㄹㅅㄽ ㄹㅌㄾ ㄹㅍㄿ ㄹㅎㅀ ㅂㅅㅄ"),
      doubleStrokeInitials: rules("ㄱㄱㄲ ㄷㄷㄸ ㅂㅂㅃ ㅅㅅㅆ ㅈㅈㅉ"),
      doubleStrokeFinals: rules("ㄱㄱㄲ ㅅㅅㅆ"),
      extendedVowels: rules("ㅏㅣㅐ ㅑㅣㅒ ㅓㅣㅔ ㅕㅣㅖ ㅘㅣㅙ ㅝㅣㅞ"))
  }()

  /// Parses space-separated groups "first second result".
  static func rules(_ groups: String) -> [Combination] {
    JamoTables.triples(groups).map { Combination($0.0, $0.1, $0.2) }
  }
}
