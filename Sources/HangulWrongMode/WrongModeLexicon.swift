import HangulKit

/// What the wrong-mode judge knows about the two languages, all of it from
/// outside the code: Hunspell's Korean and English dictionaries (asked word by
/// word through libhunspell), which pairs of keys the words of each
/// dictionary are typed with (for the Korean one, on the keyboard in use),
/// and which syllables are KS X 1001's 2,350 (ICU's EUC-KR converter).
///
///     let lexicon = try WrongModeLexicon(typing: WrongModeTyping(keyboard: .twoSet))
///     lexicon.englishKnows(Array("world".utf8))          // true
///     lexicon.keyPairEvidence(Array("dkssud".utf8))      // 1.1: typed like Korean
///
/// Shared by every thread of a run (immutable but for the dictionaries,
/// which serialize their callers). Making it reads both word files once
/// (0.05 s); the Hunspell dictionaries load when first asked.
public final class WrongModeLexicon: Sendable {
  /// A dictionary file that cannot be read.
  public struct DictionaryError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var reason: String
    public var description: String {
      "cannot read dictionary \(path): \(reason) (Debian: apt-get install hunspell-ko hunspell-en-us)"
    }
  }

  /// Debian's `hunspell-ko` and `hunspell-en-us`, without the file extension.
  public static let debianKoreanDictionary = "/usr/share/hunspell/ko"
  public static let debianEnglishDictionary = "/usr/share/hunspell/en_US"

  public let typing: WrongModeTyping
  let korean: HunspellDictionary
  let english: HunspellDictionary
  /// log P(pair | Korean words' keys) − log P(pair | English words) for each
  /// pair of key classes (``KeyClass``), row by the first.
  let pairEvidence: [Float]
  /// Whether each of the 11,172 syllables is in KS X 1001.
  let commonSyllables: [Bool]

  public init(
    typing: WrongModeTyping, koreanDictionary: String = debianKoreanDictionary,
    englishDictionary: String = debianEnglishDictionary
  ) throws(DictionaryError) {
    self.typing = typing
    korean = HunspellDictionary(path: koreanDictionary)
    english = HunspellDictionary(path: englishDictionary)
    for path in [korean.affixPath, korean.wordsPath, english.affixPath, english.wordsPath] {
      guard SystemCalls.isReadable(path) else {
        throw DictionaryError(path: path, reason: SystemCalls.errorText(SystemCalls.errorNumber))
      }
    }
    var koreanPairs = KeyPairCounts()
    var englishPairs = KeyPairCounts()
    let nfc = try? ICUNormalizer(.nfc)
    var keys: [UInt8] = []
    try Self.forEachWord(in: korean.wordsPath) { word in
      // Debian's ko.dic spells its words in conjoining jamo (NFD).
      let scalars = String(decoding: word, as: UTF8.self).unicodeScalars
      let composed = nfc?.normalized(Array(scalars)) ?? Array(scalars)
      guard composed.allSatisfy({ HangulSyllable($0) != nil }),
        typing.keys(typing: composed, into: &keys)
      else { return }
      koreanPairs.add(keys)
    }
    try Self.forEachWord(in: english.wordsPath) { word in
      guard word.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return }
      englishPairs.add(word)
    }
    pairEvidence = koreanPairs.logRatio(over: englishPairs)
    commonSyllables = Self.ksX1001Syllables()
  }

  /// Whether the English dictionary knows `word` (UTF-8).
  public func englishKnows(_ word: some Collection<UInt8>) -> Bool { english.knows(word) }

  /// Whether the Korean dictionary knows `word` (UTF-8, NFC).
  public func koreanKnows(_ word: some Collection<UInt8>) -> Bool { korean.knows(word) }

  /// Whether the Korean dictionary has been loaded (it is when first asked).
  public var koreanDictionaryIsLoaded: Bool { korean.isLoaded }

  /// Whether `scalar` is a syllable of KS X 1001 (the 2,350 of EUC-KR).
  public func isCommonSyllable(_ scalar: Unicode.Scalar) -> Bool {
    let index = Int(scalar.value) - 0xAC00
    return index >= 0 && index < commonSyllables.count && commonSyllables[index]
  }

  /// The mean, over the pairs of neighbouring keys of `keys` (with the word's
  /// start and end), of how much likelier the pair is in the keys of Korean
  /// words than in English words, as a natural logarithm: above 0 the keys
  /// are typed like Korean, below 0 spelled like English. O(keys).
  public func keyPairEvidence(_ keys: some Collection<UInt8>) -> Double {
    var total: Float = 0
    var previous = KeyClass.boundary
    for key in keys {
      let current = KeyClass.of(key)
      total += pairEvidence[previous * KeyClass.count + current]
      previous = current
    }
    total += pairEvidence[previous * KeyClass.count + KeyClass.boundary]
    return Double(total) / Double(keys.count + 1)
  }

  /// Calls `body` with each word of a Hunspell word file (`.dic`): the part
  /// of each line before its flags, after the first line (the count). Reads
  /// the file 64 KiB at a time.
  private static func forEachWord(
    in path: String, _ body: (ArraySlice<UInt8>) throws -> Void
  ) throws(DictionaryError) {
    let descriptor = SystemCalls.openForReading(path)
    guard descriptor >= 0 else {
      throw DictionaryError(path: path, reason: SystemCalls.errorText(SystemCalls.errorNumber))
    }
    defer { SystemCalls.close(descriptor) }
    var block = [UInt8](repeating: 0, count: 1 << 16)
    var line: [UInt8] = []
    var lineNumber = 0
    func take(_ line: [UInt8]) {
      defer { lineNumber += 1 }
      guard lineNumber > 0 else { return }
      let end = line.firstIndex { $0 == 0x2F || $0 == 0x09 || $0 == 0x20 } ?? line.count
      if end > 0 { try? body(line[..<end]) }
    }
    while true {
      let count = block.withUnsafeMutableBytes {
        SystemCalls.read(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0 {
        if SystemCalls.errorNumber == SystemCalls.interrupted { continue }
        throw DictionaryError(path: path, reason: SystemCalls.errorText(SystemCalls.errorNumber))
      }
      if count == 0 { break }
      for byte in block[..<count] {
        if byte == 0x0A {
          take(line)
          line.removeAll(keepingCapacity: true)
        } else {
          line.append(byte)
        }
      }
    }
    if !line.isEmpty { take(line) }
  }

  /// The syllables of KS X 1001, as ICU's EUC-KR converter (IBM 970) reads
  /// every two-byte code: one line of output per code.
  private static func ksX1001Syllables() -> [Bool] {
    var common = [Bool](repeating: false, count: HangulSyllable.count)
    guard let converter = try? InputTranscoder(encoding: "ibm-970") else { return common }
    var codes: [UInt8] = []
    for lead in UInt8(0xA1)...0xFE {
      for trail in UInt8(0xA1)...0xFE { codes += [lead, trail, 0x0A] }
    }
    var text: [UInt8] = []
    codes.withUnsafeBufferPointer { converter.transcode($0, isLast: true, into: &text) }
    for line in text.split(separator: 0x0A) {
      let scalars = Array(String(decoding: line, as: UTF8.self).unicodeScalars)
      if scalars.count == 1, HangulSyllable(scalars[0]) != nil {
        common[Int(scalars[0].value - HangulSyllable.firstScalarValue)] = true
      }
    }
    return common
  }
}

/// The classes of keys that key-pair statistics count: a word's start or
/// end, each letter (either case), and any other key.
enum KeyClass {
  static let boundary = 0
  static let other = 27
  static let count = 28

  @inline(__always)
  static func of(_ key: UInt8) -> Int {
    let folded = key | 0x20
    return folded >= 0x61 && folded <= 0x7A ? Int(folded - 0x60) : other
  }
}

/// How often each pair of key classes occurs in a list of words.
struct KeyPairCounts {
  var counts = [Double](repeating: 0, count: KeyClass.count * KeyClass.count)
  var total = 0.0

  mutating func add(_ keys: some Collection<UInt8>) {
    var previous = KeyClass.boundary
    for key in keys {
      let current = KeyClass.of(key)
      counts[previous * KeyClass.count + current] += 1
      previous = current
    }
    counts[previous * KeyClass.count + KeyClass.boundary] += 1
    total += Double(keys.count + 1)
  }

  /// log P(pair | self) − log P(pair | other), each pair seen half a time
  /// more than it was (so that an unseen pair weighs, not divides by zero).
  func logRatio(over other: KeyPairCounts) -> [Float] {
    let cells = Double(counts.count)
    return counts.indices.map { index in
      let mine = (counts[index] + 0.5) / (total + 0.5 * cells)
      let theirs = (other.counts[index] + 0.5) / (other.total + 0.5 * cells)
      return Float(SystemCalls.logarithm(mine / theirs))
    }
  }
}
