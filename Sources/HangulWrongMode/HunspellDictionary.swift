internal import CHunspell
import Synchronization

/// A Hunspell dictionary read by libhunspell, loaded the first time it is
/// asked (Debian's `ko` takes 1.7 s and about 50 MB to load; many inputs
/// never need it) and asked by one thread at a time (libhunspell's handles
/// are not thread-safe).
///
///     let english = HunspellDictionary(path: "/usr/share/hunspell/en_US")
///     english.knows(Array("world".utf8))   // true
///
/// Each question takes what libhunspell takes (microseconds): callers keep
/// their own caches.
final class HunspellDictionary: Sendable {
  /// The dictionary's files without their extension (`…/ko` for `ko.aff` and `ko.dic`).
  let path: String
  /// The handle, once loaded, and the word being asked (NUL-terminated),
  /// used by one thread at a time.
  private struct State {
    var handle: UnsafeMutableRawPointer?
    var word: [CChar] = []
  }
  private let state = Mutex(State())

  init(path: String) {
    self.path = path
  }

  deinit {
    state.withLock { state in
      if let handle = state.handle { chunspell_close(handle) }
    }
  }

  var affixPath: String { path + ".aff" }
  var wordsPath: String { path + ".dic" }

  /// Whether the dictionary has been loaded (it is on the first question).
  var isLoaded: Bool { state.withLock { $0.handle != nil } }

  /// Whether the dictionary accepts `utf8` as a word (with its affixes, and
  /// in the capitalizations Hunspell allows: `Hello` for `hello`).
  func knows(_ utf8: some Collection<UInt8>) -> Bool {
    let (affixPath, wordsPath) = (self.affixPath, self.wordsPath)
    return state.withLock { state in
      if state.handle == nil { state.handle = chunspell_open(affixPath, wordsPath) }
      guard let handle = state.handle else { return false }
      state.word.removeAll(keepingCapacity: true)
      for byte in utf8 { state.word.append(CChar(bitPattern: byte)) }
      state.word.append(0)
      return chunspell_knows(handle, state.word) != 0
    }
  }
}
