/// A thread that runs one closure, and is joined: the only place the
/// parallel runner deals with pthreads.
///
///     guard let thread = WorkerThread({ schedule.work() }) else { … }  // could not start
///     thread.join()
struct WorkerThread {
  private let thread: SystemCalls.ThreadHandle

  /// Starts a thread that runs `body`; `nil` when none could start.
  init?(_ body: @escaping () -> Void) {
    final class Body {
      let run: () -> Void
      init(_ run: @escaping () -> Void) { self.run = run }
    }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let created = SystemCalls.startThread(context: context) { raw in
      guard let raw else { return nil }
      Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
      return nil
    }
    guard let thread = created else {
      Unmanaged<Body>.fromOpaque(context).release()
      return nil
    }
    self.thread = thread
  }

  /// Waits for the thread to end.
  func join() {
    SystemCalls.join(thread)
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
  private let mutex = UnsafeMutablePointer<SystemCalls.MutexStorage>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<SystemCalls.ConditionStorage>.allocate(capacity: 1)
  /// How many wake-ups there were (under `mutex`).
  private var count: UInt64 = 0

  init() {
    SystemCalls.initialize(mutex, condition)
  }

  deinit {
    SystemCalls.destroy(mutex, condition)
    mutex.deallocate()
    condition.deallocate()
  }

  /// The number of wake-ups so far.
  var current: UInt64 {
    SystemCalls.lock(mutex)
    defer { SystemCalls.unlock(mutex) }
    return count
  }

  /// Waits until there has been a wake-up since ``current`` was `seen`.
  func wait(past seen: UInt64) {
    SystemCalls.lock(mutex)
    while count == seen { SystemCalls.wait(condition, mutex) }
    SystemCalls.unlock(mutex)
  }

  /// Wakes every waiter.
  func wakeAll() {
    SystemCalls.lock(mutex)
    count &+= 1
    SystemCalls.broadcast(condition)
    SystemCalls.unlock(mutex)
  }
}
