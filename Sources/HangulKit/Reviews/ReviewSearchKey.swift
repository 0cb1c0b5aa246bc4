/// A search column that `hangul-reviews export --search` adds for the
/// content (hangul-reviews(1)), so that a database finds reviews with `LIKE`:
///
/// | key | column | 안녕 ㄻ |
/// | --- | --- | --- |
/// | ``initials`` | `content_initials` | ㅇㄴ ㄹㅁ |
/// | ``jamo`` | `content_jamo` | ㅇㅏㄴㄴㅕㅇ ㄻ |
/// | ``qwerty`` | `content_qwerty` | dkssud fa |
///
///     ReviewSearchKey.initials.key(of: "안녕하세요 ㄻ")   // "ㅇㄴㅎㅅㅇ ㄹㅁ"
///
/// `initials` splits consonant clusters (ㄻ → ㄹㅁ: Windows' input method
/// merges typed initials), so `LIKE '%ㅇㄴ%'` finds 안녕 whichever way the
/// initials were typed; run the query's text through the same key
/// (`hangul-decompose --to initials --split-clusters`). `qwerty` is the
/// 2-set keys without U+200C or U+2060 (``Decomposer/isPlain``): text typed
/// in the wrong 한/영 mode (`dkssud`) matches the Hangul it was meant to
/// be. Everything that is not Hangul is kept in every key.
public enum ReviewSearchKey: String, CaseIterable, Sendable {
  case initials
  case jamo
  case qwerty

  /// The column's name for the content member `field`: `content_initials`.
  public func columnName(for field: String) -> String { "\(field)_\(rawValue)" }

  /// The key of `content` (NFC text, as `hangul-reviews import` writes it).
  public func key(of content: String) -> String {
    switch self {
    case .initials: content.decomposed(to: .initials, splitClusters: true)
    case .jamo: content.decomposed(to: .jamo)
    case .qwerty: content.decomposed(to: .qwerty, plain: true)
    }
  }
}
