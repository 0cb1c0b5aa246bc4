/// A lazy sequence of the text a keystroke log types, as `hangul-compose`
/// composes a text log.
///
///     let text = "ㄷㅏㄹㄱㅏ\nㅎㅘ".unicodeScalars.composed()
///     String(String.UnicodeScalarView(text))   // "달가\n화"
///     Array("dkssud".unicodeScalars.composed(keys: .qwerty))   // ["안", "녕"]
///
/// A line's text comes out when its newline has been read (Backspace can
/// still change it before then), so memory is bounded by the longest line.
/// Each key takes amortized O(1).
public struct ComposedScalars<Base: Sequence>: Sequence where Base.Element == Unicode.Scalar {
  let base: Base
  let keys: KeyEncoding
  let options: ComposerOptions

  public struct Iterator: IteratorProtocol {
    var base: Base.Iterator
    var editor: LineEditor
    var interpreter: KeyInterpreter
    var pending: [Unicode.Scalar] = []
    var position = 0
    var finished = false

    public mutating func next() -> Unicode.Scalar? {
      while position == pending.count {
        guard !finished else { return nil }
        pending.removeAll(keepingCapacity: true)
        position = 0
        if let scalar = base.next() {
          interpreter.apply(.scalar(scalar), to: &editor)
        } else {
          editor.finish()
          finished = true
        }
        guard !editor.output.isEmpty else { continue }
        var decoder = UTF8Stream()
        decoder.decode(editor.output, isLast: true) { unit in
          if case .scalar(let scalar) = unit { pending.append(scalar) }
        }
        editor.output.removeAll(keepingCapacity: true)
      }
      defer { position += 1 }
      return pending[position]
    }
  }

  public func makeIterator() -> Iterator {
    Iterator(
      base: base.makeIterator(), editor: LineEditor(options: options),
      interpreter: KeyInterpreter(keys: keys, keyboard: .twoSet))
  }
}

extension Sequence where Element == Unicode.Scalar {
  /// The text these keys type, lazily (see ``ComposedScalars``).
  public func composed(
    keys: KeyEncoding = .jamo, options: ComposerOptions = ComposerOptions()
  ) -> ComposedScalars<Self> {
    ComposedScalars(base: self, keys: keys, options: options)
  }
}
