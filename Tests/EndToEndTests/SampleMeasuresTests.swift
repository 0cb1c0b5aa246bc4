import Foundation
import Testing

/// Every research sample in `samples/` replayed by `hangul-compose --stats
/// --stats-format json`, each document's figures against values worked out by
/// hand from the sample and the definitions of hangul-compose(1) (`--stats`)
/// and hangul-keylog(5) (MEASURES), as issue 29 asks: "each replayed by a test
/// to its expected text and measures" (the texts are checked by
/// ResearchLogCommandTests and DelimitedLogCommandTests).
///
/// Conventions of the derivations below:
/// - keys: every key event `--stats` counts (Shift, 한/영 and Backspace
///   included; a paste, a mouse event or a record that changed nothing is not
///   one); characters: the Unicode scalars of the final text (the newline the
///   output adds is not counted); syllables: its Hangul syllables;
///   typingTimeMs: last key's time - first key's time; charactersPerMinute:
///   characters * 60000 / typingTimeMs (1 decimal); kspc: keys / characters
///   (3 decimals).
/// - Keys are numbered from 1 in each document; a key's interval (iki) is
///   its time minus the time of the key before, so the intervals add up to
///   typingTimeMs and their mean is typingTimeMs / ikiCount.
/// - No interval of any sample reaches 2000 ms, so pauseCount is 0 and
///   burstCount 1 everywhere, and burstMeanCharacters is the characters produced.
/// - Ratios are rounded to 3 decimals, means, medians and characters per minute
///   to 1, characters a burst and error rates to 2, as the JSON writes them.
@Suite("Sample measures: each research sample's --stats json against hand values")
struct SampleMeasuresTests {
  let compose = Executable("hangul-compose")

  /// A figure as the JSON writes it: a whole number, or a fraction rounded to
  /// `places` decimals.
  enum Figure: Sendable {
    case count(Int)
    case rounded(Double, places: Int)
  }

  /// The hand values of one document: `stats` are the members of the
  /// document's entry, `process` those of its "process" object.
  struct Document: Sendable {
    var doc: String?
    var stats: [(String, Figure)]
    var process: [(String, Figure)]
  }

  struct Sample: Sendable, CustomTestStringConvertible {
    var format: String
    var file: String
    var documents: [Document]
    var testDescription: String { "--format \(format) samples/\(file)" }
  }

  /// The members every document checks, in the order of the brief: the basic
  /// statistics, then the writing-process measures.
  static func document(
    _ doc: String?, keys: Int, backspaces: Int, characters: Int, syllables: Int,
    typingTimeMs: Int, keySpanMs: Int? = nil, produced: Int, deleted: Int,
    backspacesInSyllable: Int,
    backspacesDeletingText: Int, ikiCount: Int, ikiMedianMs: Double,
    places: (withinSyllable: Int, betweenSyllables: Int, betweenWords: Int, aroundRevision: Int),
    revisionEpisodes: Int,
    errors: [(String, Figure)] = []
  ) -> Document {
    let kept = characters
    return Document(
      doc: doc,
      stats: [
        ("keys", .count(keys)),
        ("backspaces", .count(backspaces)),
        ("characters", .count(characters)),
        ("syllables", .count(syllables)),
        ("typingTimeMs", .count(typingTimeMs)),
        (
          "charactersPerMinute",
          .rounded(Double(characters) * 60000 / Double(typingTimeMs), places: 1)
        ),
        ("kspc", .rounded(Double(keys) / Double(characters), places: 3)),
      ],
      process: [
        ("pauseThresholdMs", .count(2000)),
        ("charactersProduced", .count(produced)),
        ("charactersKept", .count(kept)),
        ("productProcessRatio", .rounded(Double(kept) / Double(produced), places: 3)),
        ("ikiCount", .count(ikiCount)),
        // The intervals add up to the time from the first key to the last
        // (each key's time minus the one before it): the typing time, unless
        // a click comes first (`keySpanMs`).
        ("ikiMeanMs", .rounded(Double(keySpanMs ?? typingTimeMs) / Double(ikiCount), places: 1)),
        ("ikiMedianMs", .rounded(ikiMedianMs, places: 1)),
        ("ikiWithinSyllableCount", .count(places.withinSyllable)),
        ("ikiBetweenSyllablesCount", .count(places.betweenSyllables)),
        ("ikiBetweenWordsCount", .count(places.betweenWords)),
        ("ikiAroundRevisionCount", .count(places.aroundRevision)),
        ("pauseCount", .count(0)),
        ("pauseTotalMs", .rounded(0, places: 1)),
        ("pauseShare", .rounded(0, places: 3)),
        ("burstCount", .count(1)),
        ("burstMeanCharacters", .rounded(Double(produced), places: 2)),
        ("backspacesInSyllable", .count(backspacesInSyllable)),
        ("backspacesDeletingText", .count(backspacesDeletingText)),
        ("charactersDeleted", .count(deleted)),
        ("revisionEpisodes", .count(revisionEpisodes)),
      ] + errors)
  }

  static let samples: [Sample] = [
    // Inputlog: 36 keyboard events, one document (2-set; value letters are
    // key positions in Korean mode).
    //  1 d ㅇ 1000 initial       2 k ㅏ 1150 아           3 s ㄴ 1337 안
    //  4 s ㄴ 1561 commits 안    5 u ㅕ 1822 녀           6 d ㅇ 2120 녕
    //  7 g ㅎ 2455 commits 녕    8 k ㅏ 2627 하           9 s ㄴ 2836 한
    // 10 VK_BACK 3082: undoes ㄴ (in the syllable; episode 1)
    // 11 t ㅅ 3365 핫           12 p ㅔ 3685 하|세        13 d ㅇ 3842 셍
    // 14 y ㅛ 4036 세|요        15 VK_SPACE 4267 commits 요, types " "
    // 16 VK_HANGUL 4535 (English)  17 VK_SHIFT 4840  18 H 5182  19 i 5361
    // 20 VK_HANGUL 5577 (Korean)   21 VK_SPACE 5830
    // 22 g ㅎ 6120   23 k ㅏ 6447   24 s ㄴ 6611 한   25 r ㄱ 6812 commits 한
    // 26 n ㅜ 7050   27 r ㄱ 7325 국   28 VK_SPACE 7637 commits 국, " "
    // 29 VK_BACK 7986 deletes " "; 30 VK_BACK 8172 deletes 국 (episode 2)
    // 31 r ㄱ 8395   32 n ㅜ 8655   33 r ㄱ 8952 국   34 d ㅇ 9286 commits 국
    // 35 j ㅓ 9457   36 VK_OEM_PERIOD 9665 commits 어, types "."
    Sample(
      format: "idfx", file: "inputlog-korean.idfx",
      documents: [
        document(
          nil,
          keys: 36,  // the 36 keyboard events, VK_HANGUL and VK_SHIFT included
          backspaces: 3,  // keys 10, 29, 30
          characters: 13,  // 안녕하세요 Hi 한국어. = 5 + " " + 2 + " " + 3 + "."
          syllables: 8,  // 안 녕 하 세 요 한 국 어
          typingTimeMs: 8665,  // 9665 - 1000; 13 * 60000 / 8665 = 90.02 a minute
          produced: 15,  // 안 녕 하 세 요 " " H i " " 한 국 " " (12), then 국 어 . (3)
          deleted: 2,  // " " and 국 (keys 29, 30); kept 13, ratio 13 / 15 = 0.867
          backspacesInSyllable: 1,  // key 10
          backspacesDeletingText: 2,  // keys 29, 30
          // 35 intervals: 150 187 224 261 298 335 172 209 246 283 320 157 194
          // 231 268 305 342 179 216 253 290 327 164 201 238 275 312 349 186 223
          // 260 297 334 171 208; sum 8665, mean 247.57; sorted, the 18th is
          // 246 (17 below it: 150 157 164 171 172 179 186 187 194 201 208 209
          // 216 223 224 231 238).
          ikiCount: 35, ikiMedianMs: 246,
          // Places, in the order of hangul-keylog(5): around revisions keys
          // 10, 11 (after 10), 29, 30, 31; between words 16 and 22 (after a
          // Space); within a syllable 2 3 5 6 8 9 13 23 24 26 27 32 33 35;
          // between syllables the other 14: 4 7 12 14 (a jamo beginning a
          // syllable), 15 17 18 19 20 21 28 36 (no jamo), 25 34.
          places: (withinSyllable: 14, betweenSyllables: 14, betweenWords: 2, aroundRevision: 5),
          revisionEpisodes: 2,  // key 10; keys 29-30
          // VK_SHIFT (key 17) is a key, as hangul-keylog(5) counts Shift
          // among the keys (the Aalto SHIFT and the LWP Shift below are
          // too); without it: 35 keys, 34 intervals, median 242.
        )
      ]),
    // Translog-II: 30 <Key> events (the <Mouse>, <System> and <Interface>
    // events are no keys), one document.
    //  1 ㅇ 1500  2 ㅏ 1770  3 ㄴ 2060 안  4 ㄴ 2340 commits 안  5 ㅕ 2540
    //  6 ㅇ 2780 녕  7 ㅎ 3000 commits 녕  8 ㅏ 3230  9 ㄴ 3370 한
    // 10 [Back] 3640 undoes ㄴ (episode 1)  11 ㅅ 3930 핫  12 ㅔ 4210 하|세
    // 13 ㅇ 4410 셍  14 ㅛ 4650 세|요  15 " " 4870 commits 요
    // 16 ㅎ 5100  17 ㅏ 5240  18 ㄴ 5510 한  19 ㄱ 5800 commits 한  20 ㅜ 6080
    // 21 ㄱ 6280 국  22 " " 6520 commits 국
    // 23 [Back] 6740 deletes " ", 24 [Back] 6970 deletes 국 (episode 2)
    // 25 ㄱ 7110  26 ㅜ 7380  27 ㄱ 7670 국  28 ㅇ 7950 commits 국  29 ㅓ 8150
    // 30 . 8390 commits 어, types "."
    Sample(
      format: "translog", file: "translog-korean.xml",
      documents: [
        document(
          nil,
          keys: 30,
          backspaces: 3,  // keys 10, 23, 24
          characters: 10,  // 안녕하세요 한국어. = 5 + " " + 3 + "."
          syllables: 8,  // 안 녕 하 세 요 한 국 어
          // The typing time runs from the first timed event to the last
          // (hangul-keylog(5): "from the first key or click to the last"):
          // the <Mouse> Down at 900, a click and no key, to key 30 at 8390;
          // 8390 - 900 = 7490, 10 * 60000 / 7490 = 80.1 a minute (the keys
          // alone span 8390 - 1500 = 6890; <System> START at 0 is the
          // logger's, no event of the writer).
          typingTimeMs: 7490, keySpanMs: 6890,
          produced: 12,  // 안 녕 하 세 요 " " 한 국 " " (9), then 국 어 . (3)
          deleted: 2,  // " " and 국 (keys 23, 24); kept 10, ratio 10 / 12 = 0.833
          backspacesInSyllable: 1,  // key 10
          backspacesDeletingText: 2,  // keys 23, 24
          // 29 intervals: 270 290 280 200 240 220 230 140, then 270 290 280 200
          // 240 220 230 140 three more times (keys 10-17, 18-25, 26-30: the
          // last 270 290 280 200 240); sum 6890, mean 237.59; sorted: 140 x3,
          // 200 x4, 220 x3, 230 x3 (13 values), 240 x4: the 15th is 240.
          ikiCount: 29, ikiMedianMs: 240,
          // Around revisions keys 10, 11, 23, 24, 25; between words 16; within
          // a syllable 2 3 5 6 8 9 13 17 18 20 21 26 27 29; between syllables
          // 4 7 12 14 19 28 (a jamo beginning a syllable), 15 22 30.
          places: (withinSyllable: 14, betweenSyllables: 9, betweenWords: 1, aroundRevision: 5),
          revisionEpisodes: 2,  // key 10; keys 23-24
        )
      ]),
    // Linking Writing Processes: two essays; down_time is the time.
    // essay1: 19 keys of --stats: events 1-18 and 20 (event 13, Nonproduction
    // Shift, is a key that types nothing; event 19, Paste 과일도, is text, not
    // a keystroke, but a key of the measures as every "text" event is).
    //  1 ㄷ 4736  2 ㅏ 4946  3 ㄹ 5156  4 ㄱ 5366 닭  5 ㅇ 5576 commits 닭
    //  6 ㅜ 5786 우  7 Backspace 5996 undoes ㅜ (episode 1)  8 ㅡ 6206 으
    //  9 ㄹ 6416 을 10 " " 6626 commits 을  11 ㅅ 6836  12 ㅏ 7046 사
    // 13 Shift 7256  14 ㅆ 7466 샀  15 ㄷ 7676 commits 샀  16 ㅏ 7886 다
    // 17 , 8096 commits 다  18 " " 8306  (paste 과일도 at 8516)  19 . 8726
    // essay2: ㄴ 1210, ㅔ 1420: 네.
    Sample(
      format: "lwp", file: "lwp-essay.csv",
      documents: [
        document(
          "essay1",
          keys: 19,
          backspaces: 1,  // event 7
          characters: 11,  // 닭을 샀다, 과일도. = 닭 을 " " 샀 다 , " " 과 일 도 .
          syllables: 7,  // 닭 을 샀 다 과 일 도
          typingTimeMs: 3990,  // 8726 - 4736; 11 * 60000 / 3990 = 165.41 a minute
          produced: 11,  // all of them; the ㅜ undone was a jamo, never committed
          deleted: 0,  // ratio 11 / 11 = 1.000
          backspacesInSyllable: 1,  // event 7
          backspacesDeletingText: 0,
          // 19 intervals: events 2-20, each 210 ms after the one before (the
          // paste at 8516 included); sum 3990, mean 210, median 210.
          ikiCount: 19, ikiMedianMs: 210,
          // Around revisions events 7, 8; between words 11 and the paste, 19
          // (after a space); within a syllable 2 3 4 6 9 12 14 16; between
          // syllables 5 15 (a new syllable), 10 13 17 18 20.
          places: (withinSyllable: 8, betweenSyllables: 7, betweenWords: 2, aroundRevision: 2),
          revisionEpisodes: 1),  // event 7
        document(
          "essay2",
          keys: 2, backspaces: 0,
          characters: 1,  // 네
          syllables: 1,
          typingTimeMs: 210,  // 1420 - 1210; 60000 / 210 = 285.71 a minute
          produced: 1, deleted: 0,  // 네, committed at the end
          backspacesInSyllable: 0, backspacesDeletingText: 0,
          ikiCount: 1, ikiMedianMs: 210,  // the one interval, 210
          places: (withinSyllable: 1, betweenSyllables: 0, betweenWords: 0, aroundRevision: 0),
          revisionEpisodes: 0),
      ]),
    // Aalto: three sections, PRESS_TIME every 150 ms within each, so every
    // interval is 150 (mean and median 150) and typingTimeMs is 150 * (keys -
    // 1). KEYCODE 8 is Backspace, 16 Shift, 32 Space; 65-90 a key position of
    // the 2-set layout (T after SHIFT is ㅆ); 229 the jamo in LETTER.
    // The target is each section's SENTENCE; every section ends as its
    // SENTENCE, so MSD = 0, the character error rate 0.00, correct C =
    // max(|P|, |T|) - 0 = |T| and INF = 0.
    Sample(
      format: "aalto", file: "aalto-keystrokes.tsv",
      documents: [
        // 5101: r ㄱ, h ㅗ, k ㅏ (과), d ㅇ (광), l ㅣ (과|이), d ㅇ (잉),
        // BKSP (undoes ㅇ: episode 1), f ㄹ (일), Space (commits 일),
        // t ㅅ, k ㅏ, SHIFT, T ㅆ (샀), d ㅇ (commits 샀), j ㅓ (어).
        document(
          "5101",
          keys: 15, backspaces: 1,
          characters: 5,  // 과일 샀어
          syllables: 4,
          typingTimeMs: 2100,  // 14 * 150; 5 * 60000 / 2100 = 142.86 a minute
          produced: 5, deleted: 0,  // 과 일 " " 샀 어; ratio 1.000
          backspacesInSyllable: 1, backspacesDeletingText: 0,
          ikiCount: 14, ikiMedianMs: 150,
          // Keys 7 (BKSP), 8 around revisions; 10 (ㅅ after Space) between
          // words; 2 3 4 6 11 13 15 within; 5 (ㅣ: 과|이) 9 12 14 between.
          places: (withinSyllable: 7, betweenSyllables: 4, betweenWords: 1, aroundRevision: 2),
          revisionEpisodes: 1,
          errors: [
            ("msdCharacters", .count(0)),
            ("characterErrorRate", .rounded(0, places: 2)),
            ("correct", .count(5)),  // |T| = 5
            ("incorrectFixed", .count(0)),  // the ㅇ undone is a jamo, not a character
            ("incorrectNotFixed", .count(0)),
            ("totalErrorRate", .rounded(0, places: 2)),
          ]),
        // 5102: t ㅅ, k ㅏ, f ㄹ (살), k ㅏ (사|라), d ㅇ (랑), g ㅎ (commits
        // 랑), o ㅐ (해), Space (commits 해), BKSP (deletes " "), BKSP
        // (deletes 해): one episode; g ㅎ, k ㅏ, s ㄴ (한), e ㄷ, k ㅏ (다).
        document(
          "5102",
          keys: 15, backspaces: 2,
          characters: 4,  // 사랑한다
          syllables: 4,
          typingTimeMs: 2100,  // 14 * 150; 4 * 60000 / 2100 = 114.29 a minute
          produced: 6,  // 사 랑 해 " ", then 한 다
          deleted: 2,  // 해 and " "; ratio 4 / 6 = 0.667
          backspacesInSyllable: 0, backspacesDeletingText: 2,
          ikiCount: 14, ikiMedianMs: 150,
          // Keys 9, 10 (BKSP), 11 around revisions; 2 3 5 7 12 13 15 within;
          // 4 (ㅏ: 사|라) 6 8 14 between; none after a space.
          places: (withinSyllable: 7, betweenSyllables: 4, betweenWords: 0, aroundRevision: 3),
          revisionEpisodes: 1,
          errors: [
            ("msdCharacters", .count(0)),
            ("characterErrorRate", .rounded(0, places: 2)),
            ("correct", .count(4)),  // |T| = 4
            ("incorrectFixed", .count(2)),  // 해 and " ", produced and deleted
            ("incorrectNotFixed", .count(0)),
            // (INF + IF) / (C + INF + IF) = 2 / 6
            ("totalErrorRate", .rounded(200.0 / 6, places: 2)),
          ]),
        // 5103: ㄷ ㅏ ㄹ ㄱ (닭), Space, ㅎ ㅏ ㄴ (한), Space, ㅁ ㅏ ㄹ (말),
        // ㅣ (마|리): no Backspace.
        document(
          "5103",
          keys: 13, backspaces: 0,
          characters: 6,  // 닭 한 마리
          syllables: 4,
          typingTimeMs: 1800,  // 12 * 150; 6 * 60000 / 1800 = 200.0 a minute
          produced: 6, deleted: 0,
          backspacesInSyllable: 0, backspacesDeletingText: 0,
          ikiCount: 12, ikiMedianMs: 150,
          // Keys 6 and 10 after a Space; 2 3 4 7 8 11 12 within; 5 9 (Space)
          // and 13 (ㅣ: 마|리) between.
          places: (withinSyllable: 7, betweenSyllables: 3, betweenWords: 2, aroundRevision: 0),
          revisionEpisodes: 0,
          errors: [
            ("msdCharacters", .count(0)),
            ("characterErrorRate", .rounded(0, places: 2)),
            ("correct", .count(6)),  // |T| = 6
            ("incorrectFixed", .count(0)),
            ("incorrectNotFixed", .count(0)),
            ("totalErrorRate", .rounded(0, places: 2)),
          ]),
      ]),
    // Snapshots: the keys are rebuilt from each record's INPUT against the one
    // before; the keys a record rebuilds take its TIMESTAMP, and a record
    // whose text did not change is no key. Records come every 173 ms.
    Sample(
      format: "snapshots", file: "snapshots-phone.tsv",
      documents: [
        // 101: ㄱ | 고: ㅗ | 과: ㅏ | 과이: ㅇ ㅣ (two keys, one time) | 과잉: ㅇ
        // | 과이: Backspace in the syllable (episode 1) | 과일: ㄹ | "과일 ":
        // Space | ㅅ | 사: ㅏ | 샀: ㅆ | 샀ㅇ: ㅇ | 샀어: ㅓ. 14 keys.
        document(
          "101",
          keys: 14, backspaces: 1,
          characters: 5,  // 과일 샀어
          syllables: 4,
          typingTimeMs: 2076,  // 12 * 173 (13 records); 5 * 60000 / 2076 = 144.51
          produced: 5, deleted: 0,  // 과 일 " " 샀 어
          backspacesInSyllable: 1, backspacesDeletingText: 0,
          // 13 intervals: 173 173 173, 0 (the ㅣ at the time of its ㅇ), then
          // 173 x9; sum 2076, mean 159.69; sorted 0 then 173 x12: the 7th, 173.
          ikiCount: 13, ikiMedianMs: 173,
          // Keys 7 (Backspace), 8 around revisions; 10 (ㅅ after Space)
          // between words; 2 3 5 6 11 12 14 within; between syllables 4 (ㅇ
          // after 과 begins a syllable), 9 (Space), 13 (ㅇ after 샀).
          places: (withinSyllable: 7, betweenSyllables: 3, betweenWords: 1, aroundRevision: 2),
          revisionEpisodes: 1),
        // 102: ㅅ | 사: ㅏ | 살: ㄹ | 사라: ㅏ (the final moves on) | 사랑: ㅇ |
        // 사랑ㅎ: ㅎ | 사랑해: ㅐ | "사랑해 ": Space | 사랑해: Backspace deleting
        // " " | 사랑: Backspace deleting 해 (one episode) | ㅎ | 하: ㅏ | 한: ㄴ
        // | 한ㄷ: ㄷ | 다: ㅏ. 15 keys, one a record.
        document(
          "102",
          keys: 15, backspaces: 2,
          characters: 4,  // 사랑한다
          syllables: 4,
          typingTimeMs: 2422,  // 14 * 173; 4 * 60000 / 2422 = 99.09 a minute
          produced: 6,  // 사 랑 해 " ", then 한 다
          deleted: 2,  // " " and 해; ratio 4 / 6 = 0.667
          backspacesInSyllable: 0, backspacesDeletingText: 2,
          ikiCount: 14, ikiMedianMs: 173,  // 14 x 173
          // As Aalto's 5102: keys 9, 10, 11 around revisions; 2 3 5 7 12 13 15
          // within; 4 6 8 14 between.
          places: (withinSyllable: 7, betweenSyllables: 4, betweenWords: 0, aroundRevision: 3),
          revisionEpisodes: 1),
        // 103: ㄴ | 나: ㅏ | 남: ㅁ | 나무: ㅜ (the final moves on) | 나무 again
        // (the Shift record): no key | "나 무": Space typed after 나 (the
        // cursor moves there first, no key) | 나 무ㅇ: ㅇ | 나 무야: ㅑ. 7 keys,
        // at 0 173 346 519 865 1038 1211 ms after the first record.
        document(
          "103",
          keys: 7, backspaces: 0,
          characters: 4,  // 나 무야
          syllables: 3,
          typingTimeMs: 1211,  // 7 * 173; 4 * 60000 / 1211 = 198.18 a minute
          produced: 4, deleted: 0,  // 나 무 " " 야
          backspacesInSyllable: 0, backspacesDeletingText: 0,
          // 6 intervals: 173 173 173 346 173 173; sum 1211, mean 201.83;
          // sorted 173 x5, 346: the 3rd and 4th are 173.
          ikiCount: 6, ikiMedianMs: 173,
          // Keys 2 3 7 within; 4 (ㅜ: 나|무) and 5 (the Space) between
          // syllables; 6 (ㅇ, after the Space) between words.
          places: (withinSyllable: 3, betweenSyllables: 2, betweenWords: 1, aroundRevision: 0),
          revisionEpisodes: 0),
      ]),
  ]

  @Test(
    "--stats --stats-format json: every document's figures as worked out by hand",
    arguments: samples)
  func measures(sample: Sample) throws {
    let result = try compose.run([
      "--format", sample.format, "--stats", "--stats-format", "json",
      repositoryFile("samples/\(sample.file)").path,
    ])
    #expect(result.status == 0)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any])
    let documents = try #require(report["documents"] as? [[String: Any]])
    try #require(documents.count == sample.documents.count)
    for (entry, expected) in zip(documents, sample.documents) {
      let name = expected.doc ?? sample.file
      if let doc = expected.doc {
        #expect(entry["doc"].map { "\($0)" } == doc)
      }
      let process = try #require(entry["process"] as? [String: Any], "\(name): no process")
      let figures =
        expected.stats.map { ($0.1, entry[$0.0], "\(name) \($0.0)") }
        + expected.process.map { ($0.1, process[$0.0], "\(name) process.\($0.0)") }
      for (figure, value, what) in figures {
        check(value, figure, what)
      }
    }
  }

  /// A JSON number against a figure: a count exactly, a fraction as the
  /// nearest number of `places` decimals (halves away from zero).
  func check(
    _ value: Any?, _ figure: Figure, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let number = value as? NSNumber else {
      Issue.record(
        "\(what): \(String(describing: value)) is not a number", sourceLocation: sourceLocation)
      return
    }
    switch figure {
    case .count(let count):
      #expect(
        number.doubleValue == Double(count), "\(what)", sourceLocation: sourceLocation)
    case .rounded(let exact, let places):
      let scale = (0..<places).reduce(1.0) { scale, _ in scale * 10 }
      let expected = (exact * scale).rounded(.toNearestOrAwayFromZero) / scale
      #expect(
        number.doubleValue == expected, "\(what): exactly \(exact)",
        sourceLocation: sourceLocation)
    }
  }
}
