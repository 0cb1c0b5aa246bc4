/// Key presses rebuilt from a snapshot log (`--format snapshots`, SPEC 3.6,
/// hangul-keylog(5)): each record holds the field's whole text after an
/// event, and the difference from the text before is typed as keys.
///
/// The two texts are aligned by their longest common start and then their
/// longest common end (in Unicode scalars); what lies between is the edit.
/// - The edit is made where our cursor is: when it is elsewhere, the cursor
///   first moves there (a tap, not a key; it commits the syllable being
///   composed).
/// - When the edit replaces just the syllable being composed, the keys are
///   rebuilt as the browser's composition data are
///   (``UIEventStream/reconstruct(to:)``): Backspaces for the jamo past the
///   keys both share, then the new keys (가 → 간 → 가나: ㄴ, ㅏ).
/// - Otherwise the syllable is committed, each character deleted is one
///   Backspace, and the new text is typed as its keys (``UIEventStream/keys(of:)``).
/// - New text those keys do not type back exactly on the keyboard (two
///   jamo a keyboard would join, ㄱ then ㅅ shown as ㄱㅅ) is inserted as
///   text, and counted as text.
///
///     var snapshots = FieldSnapshots()
///     snapshots.change(to: Array("간".unicodeScalars), preedit: "가", ...)  // ㄴ
///
/// Memory: the field's text; time O(text) a record.
struct FieldSnapshots {
  /// What the field showed after the last record.
  private(set) var shown: [Unicode.Scalar] = []
  /// Where our cursor stands in ``shown`` (a scalar offset).
  private(set) var cursor = 0

  /// How to get from one text to the next: move the cursor by `move`
  /// characters (negative: to the left), then take the steps.
  struct Edit {
    var move = 0
    var steps: [UIEventStream.Step] = []
  }

  /// A context of the editor's keyboard that checks that rebuilt keys type
  /// their text (kept: a copy a record cost a sixth of the time).
  private var checker: HangulInputContext?

  /// Starts a new document: an empty field (the checker is kept).
  mutating func startDocument() {
    shown.removeAll(keepingCapacity: true)
    cursor = 0
  }

  /// The edit that turns the last text into `text`; `preedit` is the
  /// syllable our editor is composing before the cursor, `stream` rebuilds
  /// the keys, and `context` (copied once, reset) checks that they type the text.
  mutating func change(
    to text: [Unicode.Scalar], preedit: String, stream: inout UIEventStream,
    context: HangulInputContext
  ) -> Edit {
    var start = 0
    while start < shown.count, start < text.count, shown[start] == text[start] { start += 1 }
    var shared = 0  // the common end, after the common start
    while shared < shown.count - start, shared < text.count - start,
      shown[shown.count - 1 - shared] == text[text.count - 1 - shared]
    {
      shared += 1
    }
    let removedEnd = shown.count - shared
    let added = Array(text[start..<(text.count - shared)])
    var edit = Edit(move: removedEnd - cursor)
    let removed = removedEnd - start
    let composing = edit.move == 0 ? Array(preedit.unicodeScalars) : []
    defer {
      shown = text
      cursor = start + added.count
    }
    if removed == 0 && added.isEmpty { return edit }
    let keys = UIEventStream.keys(ofScalars: added)
    // One key types itself (a jamo the keyboard has no key for is inserted as it is).
    var typesBack = keys.count <= 1
    if !typesBack {
      var checker = self.checker ?? context
      self.checker = nil
      typesBack = Self.typed(keys, with: &checker) == added
      self.checker = checker
    }
    if removed == 1, composing.count == 1, composing[0] == shown[start], typesBack {
      // The syllable being composed changed: rebuild its keys.
      stream.composition.typed = UIEventStream.keys(of: preedit)
      edit.steps = stream.reconstruct(to: keys)
      return edit
    }
    edit.steps.append(.commit)
    edit.steps += Array(repeating: .reconstructed(.named(.backspace)), count: removed)
    guard !added.isEmpty else { return edit }
    if typesBack {
      stream.composition.typed = []
      edit.steps += stream.reconstruct(to: keys)
    } else {
      edit.steps.append(.text(String(String.UnicodeScalarView(added))))
    }
    return edit
  }

  /// The text `keys` type in a fresh `context`, as ``EventLogFilter``
  /// types them: a jamo is a key, anything else is inserted after the
  /// syllable is committed.
  static func typed(_ keys: [Unicode.Scalar], with context: inout HangulInputContext)
    -> [Unicode.Scalar]
  {
    context.reset()
    var text: [Unicode.Scalar] = []
    func take() {
      text.removeLast(min(context.deleteCount, text.count))
      text += context.commitString.unicodeScalars
    }
    for key in keys {
      if Jamo(key) != nil, context.process(InputKey(key)) {
        take()
        continue
      }
      take()
      context.flush()
      take()
      text.append(key)
    }
    context.flush()
    take()
    return text
  }
}
