#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
internal import CHunspell

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
final class HunspellDictionary: @unchecked Sendable {
  /// The dictionary's files without their extension (`…/ko` for `ko.aff` and `ko.dic`).
  let path: String
  /// Guards `handle` and `word` (the handle's users are serialized).
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var handle: UnsafeMutableRawPointer?
  /// The word being asked, NUL-terminated.
  private var word: [CChar] = []

  init(path: String) {
    self.path = path
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    if let handle { chunspell_close(handle) }
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  var affixPath: String { path + ".aff" }
  var wordsPath: String { path + ".dic" }

  /// Whether the dictionary has been loaded (it is on the first question).
  var isLoaded: Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return handle != nil
  }

  /// Whether the dictionary accepts `utf8` as a word (with its affixes, and
  /// in the capitalizations Hunspell allows: `Hello` for `hello`).
  func knows(_ utf8: some Collection<UInt8>) -> Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    if handle == nil { handle = chunspell_open(affixPath, wordsPath) }
    guard let handle else { return false }
    word.removeAll(keepingCapacity: true)
    for byte in utf8 { word.append(CChar(bitPattern: byte)) }
    word.append(0)
    return chunspell_knows(handle, word) != 0
  }
}
