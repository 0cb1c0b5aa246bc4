#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A thread that runs one closure, and is joined: the only place the
/// parallel runner deals with pthreads.
///
///     guard let thread = WorkerThread({ schedule.work() }) else { … }  // could not start
///     thread.join()
struct WorkerThread {
  private let thread: pthread_t

  /// Starts a thread that runs `body`; `nil` when none could start.
  init?(_ body: @escaping () -> Void) {
    final class Body {
      let run: () -> Void
      init(_ run: @escaping () -> Void) { self.run = run }
    }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { raw in
        guard let raw else { return nil }
        Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
        return nil
      }, context)
    guard created == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      return nil
    }
    self.thread = thread
  }

  /// Waits for the thread to end.
  func join() {
    pthread_join(thread, nil)
  }
}

/// Wakes threads that wait for a change of state kept elsewhere (under a
/// `Synchronization.Mutex`, which cannot wait): an event count. A waiter
/// reads ``current`` before it looks at the state, and waits with
/// ``wait(past:)`` only if the state did not let it go on; whoever changes
/// the state calls ``wakeAll()`` after. A change made after the waiter
/// looked comes with a wake-up after it read ``current``, so the waiter
/// does not sleep through it.
///
///     let seen = wakeUps.current
///     if !state.withLock({ $0.isReady }) { wakeUps.wait(past: seen) }
final class WakeUps: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// How many wake-ups there were (under `mutex`).
  private var count: UInt64 = 0

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    condition.deallocate()
  }

  /// The number of wake-ups so far.
  var current: UInt64 {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return count
  }

  /// Waits until there has been a wake-up since ``current`` was `seen`.
  func wait(past seen: UInt64) {
    pthread_mutex_lock(mutex)
    while count == seen { pthread_cond_wait(condition, mutex) }
    pthread_mutex_unlock(mutex)
  }

  /// Wakes every waiter.
  func wakeAll() {
    pthread_mutex_lock(mutex)
    count &+= 1
    pthread_cond_broadcast(condition)
    pthread_mutex_unlock(mutex)
  }
}
