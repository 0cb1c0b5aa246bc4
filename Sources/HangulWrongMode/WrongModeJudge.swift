import HangulKit

/// The thresholds of the wrong-mode filter (`--min-length`, `--min-score`).
public struct WrongModeOptions: Sendable, Equatable {
  /// The fewest keys a span may take (a span of letters: its letters).
  public var minLength = 2
  /// The lowest score reported, 0 … 1.
  public var minScore = 0.5
  /// The most keys a span may take: a longer run is not a word.
  public static let maxLength = 40
  /// The score of a span reported for its neighbours (see ``WrongModeScanner``).
  public static let contextScore = 0.6

  public init(minLength: Int = 2, minScore: Double = 0.5) {
    self.minLength = minLength
    self.minScore = minScore
  }
}

/// The judge's word on one run of letters or Hangul.
enum WrongModeVerdict: Equatable {
  /// Typed in the wrong mode: meant as `to` (UTF-8), with its score.
  case report(to: [UInt8], score: Double)
  /// Both readings are words (`tn` is English, and 수 Korean): reported only
  /// between spans reported in the same direction.
  case ambiguous
  /// Not reported.
  case no
}

/// Judges runs of letters (typed in English mode?) and of Hangul (typed in
/// Korean mode?) by their shape, their key pairs and the dictionaries, and
/// keeps what it asked the dictionaries (the costly part) in bounded caches.
///
/// Letters `s` that type Hangul `T` are reported when T is whole syllables of
/// KS X 1001, the English dictionary does not know s, and the evidence
/// e = pairs(s) − 0.5 is at least 0, or, when it falls short, e + 2 is and the
/// Korean dictionary knows T. Hangul `h` typed by keys `k` (and typed by them
/// exactly) is reported when the English dictionary knows k (as typed,
/// capitalized, in small or in capital letters) and e is at least 0: for h
/// with jamo outside syllables e = 2.5 − pairs(k), less 1.5 for two keys; for
/// whole syllables that the Korean dictionary does not know e = 0.5 −
/// pairs(k), plus 1 when a syllable is not in KS X 1001. pairs() is
/// ``WrongModeLexicon/keyPairEvidence(_:)``; the score is 1 / (1 + exp(−2e)).
struct WrongModeJudge {
  let lexicon: WrongModeLexicon
  let options: WrongModeOptions
  /// This judge's own copy (its automata are reset after each use).
  private var typing: WrongModeTyping
  var englishCache = WordCache()
  var koreanCache = WordCache()
  /// Scratch space, kept between runs.
  private var text: [Unicode.Scalar] = []
  private var keys: [UInt8] = []
  private var word: [UInt8] = []

  init(lexicon: WrongModeLexicon, options: WrongModeOptions) {
    self.lexicon = lexicon
    self.options = options
    typing = lexicon.typing
  }

  static func score(_ evidence: Double) -> Double {
    1 / (1 + SystemCalls.exponential(-2 * evidence))
  }

  // MARK: Letters typed in English mode

  /// Judges a run of keys (ASCII) that may be Korean typed in English mode.
  mutating func judge(letters run: UnsafeBufferPointer<UInt8>) -> WrongModeVerdict {
    guard composesCleanly(run) else { return .no }
    if englishKnows(run) || englishKnowsLowercased(run) { return .ambiguous }
    var evidence = lexicon.keyPairEvidence(run) - 0.5
    if evidence < 0 {
      guard koreanKnows(text) else { return .no }
      evidence += 2
    }
    let score = Self.score(evidence)
    guard evidence >= 0, score >= options.minScore else { return .no }
    return .report(to: utf8(text), score: score)
  }

  /// What an ambiguous run of letters means between spans typed in English
  /// mode: its Hangul, when the Korean dictionary knows it.
  mutating func contextReading(letters run: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    guard composesCleanly(run), koreanKnows(text) else { return nil }
    return utf8(text)
  }

  /// Whether the run has a length the options allow, no Shift that Korean
  /// does not use, is not hex, and types whole syllables of KS X 1001 (left
  /// in `text`).
  private mutating func composesCleanly(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
    guard run.count >= options.minLength, run.count <= WrongModeOptions.maxLength else {
      return false
    }
    var capitals = 0
    var hexDigits = 0
    for key in run {
      if key >= 0x41, key <= 0x5A {
        if typing.capitalTypesSmall[Int(key)] { return false }
        capitals += 1
      }
      if (key | 0x20) >= 0x61, (key | 0x20) <= 0x66 { hexDigits += 1 }
    }
    // CAPITALS are an acronym, or Caps Lock, not Korean; a long run of a–f is hex.
    if run.count >= 2, capitals == run.count { return false }
    if run.count >= 8, hexDigits == run.count { return false }
    typing.hangul(typedBy: run, into: &text)
    return text.allSatisfy { lexicon.isCommonSyllable($0) }
  }

  // MARK: Hangul typed in Korean mode

  /// Judges a run of Hangul (syllables and compatibility jamo) that may be
  /// English typed in Korean mode.
  mutating func judge(hangul run: [Unicode.Scalar]) -> WrongModeVerdict {
    guard isWordShaped(run) else { return .no }
    let hasJamo = run.contains { HangulSyllable($0) == nil }
    let pairs = lexicon.keyPairEvidence(keys)
    var evidence: Double
    if hasJamo {
      evidence = 2.5 - pairs - (keys.count <= 2 ? 1.5 : 0)
      guard evidence >= 0 else { return .no }
    } else {
      let uncommon = run.contains { !lexicon.isCommonSyllable($0) }
      evidence = 0.5 - pairs + (uncommon ? 1 : 0)
      // Typed like Korean: a Korean word unless its neighbours say otherwise.
      guard evidence >= 0 else { return .ambiguous }
    }
    guard typedExactly(run), let english = englishReading(of: keys) else { return .no }
    if !hasJamo, koreanKnows(run) { return .ambiguous }
    let score = Self.score(evidence)
    guard score >= options.minScore else { return .no }
    return .report(to: english, score: score)
  }

  /// What an ambiguous run of Hangul means between spans typed in Korean
  /// mode: its keys, when the English dictionary knows them.
  mutating func contextReading(hangul run: [Unicode.Scalar]) -> [UInt8]? {
    guard isWordShaped(run), typedExactly(run),
      !run.contains(where: { HangulSyllable($0) == nil })
    else { return nil }
    return englishReading(of: keys)
  }

  /// Whether the run is more than one jamo, not one jamo over and over
  /// (ㅋㅋㅋ, ㅠㅠ), and takes keys (left in `keys`) in a length the options allow.
  private mutating func isWordShaped(_ run: [Unicode.Scalar]) -> Bool {
    guard let first = run.first else { return false }
    if HangulSyllable(first) == nil, run.allSatisfy({ $0 == first }) { return false }
    return typing.keys(typing: run, into: &keys) && keys.count >= options.minLength
      && keys.count <= WrongModeOptions.maxLength
  }

  /// Whether `keys` (of the run, by ``isWordShaped(_:)``) type exactly the run.
  private mutating func typedExactly(_ run: [Unicode.Scalar]) -> Bool {
    typing.hangul(typedBy: keys, into: &text)
    return text == run
  }

  /// The first of the keys as typed, capitalized, in small letters and in
  /// capitals that the English dictionary knows. (Shift is lost in Korean
  /// mode but for the tense consonants and ㅒ ㅖ.)
  private mutating func englishReading(of keys: [UInt8]) -> [UInt8]? {
    var candidates = [keys]
    var capitalized = keys
    if let first = capitalized.first, first >= 0x61, first <= 0x7A { capitalized[0] = first - 0x20 }
    candidates.append(capitalized)
    candidates.append(keys.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 })
    candidates.append(keys.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 })
    var tried: [[UInt8]] = []
    for candidate in candidates where !tried.contains(candidate) {
      if englishCache.answer(candidate, lexicon.englishKnows) { return candidate }
      tried.append(candidate)
    }
    return nil
  }

  // MARK: Dictionaries, through the caches

  private mutating func englishKnows(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
    word.removeAll(keepingCapacity: true)
    word.append(contentsOf: run)
    return englishCache.answer(word, lexicon.englishKnows)
  }

  /// Whether the dictionary knows the run in small letters, when it has capitals.
  private mutating func englishKnowsLowercased(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
    guard run.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return false }
    word.removeAll(keepingCapacity: true)
    for key in run { word.append(key >= 0x41 && key <= 0x5A ? key + 0x20 : key) }
    return englishCache.answer(word, lexicon.englishKnows)
  }

  private mutating func koreanKnows(_ scalars: [Unicode.Scalar]) -> Bool {
    koreanCache.answer(utf8(scalars), lexicon.koreanKnows)
  }

  private func utf8(_ scalars: [Unicode.Scalar]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(scalars.count * 3)
    for scalar in scalars { bytes.appendUTF8(scalar) }
    return bytes
  }
}

/// A dictionary's answers to the words it was asked: a table of
/// ``slotCount`` slots of ``slotSize`` bytes, each holding one word (up to
/// ``longestWord`` bytes; longer ones are not kept) and its answer, at the
/// slot its hash names (a word there before is replaced). All of it is
/// allocated once: a cache that allocated each word it kept (a dictionary of
/// arrays) fragmented the heap as it was emptied and filled again, and a
/// run's memory grew with its input. A lookup is O(word).
struct WordCache {
  static let slotCount = 1 << 15
  static let slotSize = 64
  /// Bytes of a slot: the word's length, the answer, the word.
  static let longestWord = slotSize - 2
  /// The slots, made on the first answer (a run may never ask).
  private var slots: [UInt8] = []
  /// Slots filled.
  private var filled = 0

  mutating func answer(_ word: [UInt8], _ ask: ([UInt8]) -> Bool) -> Bool {
    guard word.count <= Self.longestWord, !word.isEmpty else { return ask(word) }
    if slots.isEmpty { slots = [UInt8](repeating: 0, count: Self.slotCount * Self.slotSize) }
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in word { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    let start = (Int(truncatingIfNeeded: hash >> 17) & (Self.slotCount - 1)) * Self.slotSize
    let found: Bool? = slots.withUnsafeBufferPointer { table in
      guard Int(table[start]) == word.count else { return nil }
      for index in word.indices where table[start + 2 + index] != word[index] { return nil }
      return table[start + 1] != 0
    }
    if let found { return found }
    let known = ask(word)
    slots.withUnsafeMutableBufferPointer { table in
      assert(start + 2 + word.count <= table.count, "a slot holds the longest word")
      if table[start] == 0 { filled += 1 }
      table[start] = UInt8(word.count)
      table[start + 1] = known ? 1 : 0
      for index in word.indices { table[start + 2 + index] = word[index] }
    }
    return known
  }

  /// Takes over `other`'s answers when it holds more (a piece's filter
  /// handing its cache to the next piece's).
  mutating func adopt(_ other: WordCache) {
    if other.filled > filled { self = other }
  }
}
