// The one file of HangulCommandLine that imports the C library: the
// programs' system calls (small wrappers, as in HangulKit's SystemCalls.swift)
// and their SIGBUS handler, which is written against sigaction(2) itself.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#else
  // Linux only, as HangulKit: the SIGBUS handler reads the fault address
  // from glibc's or musl's siginfo_t layout, and the allocator setting is glibc's.
  #error("the programs build on Linux only (Glibc or Musl): see the comment above")
#endif
internal import CSystemCalls
import HangulKit
import Synchronization

/// Thin wrappers of the C library for the programs: same arguments and
/// results, `errno` left as the call set it. `package`: the executables use
/// them too, and import no C library of their own.
package enum SystemCalls {
  /// `errno` of the last call that failed on this thread.
  package static var errorNumber: Int32 { errno }
  static let noEntry = ENOENT
  /// EPIPE: the reader of a pipe went away.
  package static let brokenPipe = EPIPE

  /// Ignores SIGPIPE, so that a write to a closed pipe fails with EPIPE
  /// (reported, or taken as the end of the output) instead of ending the
  /// program silently: a policy of the programs, set first thing in `run`.
  package static func ignoreBrokenPipeSignal() { _ = signal(SIGPIPE, SIG_IGN) }

  /// Flags of open(2).
  enum OpenFlag {
    static let readOnly = O_RDONLY
    static let writeOnly = O_WRONLY
    static let create = O_CREAT
    static let truncate = O_TRUNC
    static let closeOnExec = O_CLOEXEC
  }

  /// open(2) of a path given as a C string: a descriptor, or -1 with errno.
  static func open(_ path: String, _ flags: Int32) -> Int32 {
    cOpen(path, flags)
  }

  /// write(2).
  static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    cWrite(descriptor, buffer, count)
  }

  /// close(2).
  static func close(_ descriptor: Int32) -> Int32 { cClose(descriptor) }

  /// fcntl(2) F_GETFD: whether `descriptor` is open.
  static func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) >= 0 }

  /// dup2(2): `descriptor` becomes a copy of `opened`; returns `descriptor` or -1.
  static func duplicate(_ opened: Int32, onto descriptor: Int32) -> Int32 {
    dup2(opened, descriptor)
  }

  /// isatty(3).
  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) != 0 }

  /// exit(3): the process ends, its output flushed.
  static func exit(_ status: Int32) -> Never { cExit(status) }

  /// _exit(2): the process ends at once (safe in a signal handler).
  static func exitImmediately(_ status: Int32) -> Never { _exit(status) }

  /// strlen(3).
  static func length(of cString: UnsafePointer<CChar>) -> Int { strlen(cString) }

  /// getenv(3).
  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// clock_gettime(2) of CLOCK_REALTIME: seconds since 1970.
  static func secondsSince1970() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// mallopt(3) settings that keep freed memory (see ``InputOptions/keepFreedMemory()``).
  static func keepFreedMemory() { csys_keep_freed_memory() }
}

// The C functions under names of their own: the wrappers' names hide them.
private func cOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func cWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
private func cClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func cExit(_ status: Int32) -> Never { exit(status) }

/// The program's SIGBUS handler, for input files that the runners map: a
/// file truncated by someone else while it is mapped raises SIGBUS at the
/// next access past its new end. The handler writes `PROGRAM: NAME: the
/// file changed while it was read` (the name of the file whose mapping the
/// fault is in, ``MappedFileFaults``) and exits with status 74, the status
/// of a read error, instead of dumping core. A SIGBUS while no file is
/// mapped is not this handler's: it does what SIGBUS did before.
///
///     MappedInputGuard.install(program: "hangul-normalize")
///     var runner = FilterRunner(paths: files)
///     runner.mapsInputs = MappedInputGuard.isInstalled
///
/// The handler reads only atomics and messages made before it was
/// installed: nothing in it allocates or locks.
package enum MappedInputGuard {
  /// `PROGRAM: `.
  nonisolated(unsafe) private static var prefix: UnsafeMutablePointer<CChar>?
  /// The message of a fault in a mapping without a message of its own.
  nonisolated(unsafe) private static var generalMessage: UnsafeMutablePointer<CChar>?
  /// What SIGBUS did before the handler.
  nonisolated(unsafe) private static var previous = sigaction()
  private static let installed = Atomic<Bool>(false)

  /// Whether the handler is installed: the runners may map files.
  package static var isInstalled: Bool { installed.load(ordering: .acquiring) }

  /// Installs the handler (once; later calls do nothing).
  package static func install(program: String) {
    guard !isInstalled else { return }
    MappedFileFaults.prepare()
    prefix = strdup("\(program): ")
    generalMessage = strdup("an input file changed while it was read\n")
    var action = sigaction()
    action.__sigaction_handler.sa_sigaction = { signal, info, _ in
      let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
      let message =
        MappedFileFaults.message(forFaultAt: address)
        ?? (MappedFileFaults.anyFileIsMapped ? UnsafePointer(MappedInputGuard.generalMessage) : nil)
      guard let message else {
        // Not a mapped input's: as before the handler (the access faults again).
        sigaction(signal, &MappedInputGuard.previous, nil)
        return
      }
      if let prefix = MappedInputGuard.prefix { _ = write(2, prefix, strlen(prefix)) }
      _ = write(2, message, strlen(message))
      _exit(74)
    }
    action.sa_flags = SA_SIGINFO
    sigemptyset(&action.sa_mask)
    guard sigaction(SIGBUS, &action, &previous) == 0 else { return }
    installed.store(true, ordering: .releasing)
  }
}
