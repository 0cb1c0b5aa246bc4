#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#else
  #error("the programs handle SIGBUS with glibc's or musl's sigaction")
#endif
internal import CSystemCalls
import HangulKit
import Synchronization

extension InputOptions {
  /// A runner of `files` as the programs run them on one thread: in the
  /// encoding of `--from-code`, large regular files mapped when the
  /// program handles SIGBUS (``MappedInputGuard``).
  public func runner(_ files: [FilePath]) -> FilterRunner {
    var runner = FilterRunner(paths: files, inputEncoding: encoding)
    runner.mapsInputs = MappedInputGuard.isInstalled
    return runner
  }

  /// A runner of `files` on `jobs` threads as the programs run them: as
  /// ``runner(_:)``, and with the allocator set to keep freed memory
  /// before the threads start (``ProgramAllocator/keepFreedMemory()``).
  public func parallelRunner(
    _ files: [FilePath], jobs: Int, separator: UInt8 = 0x0A
  ) -> ParallelFilterRunner {
    var runner = ParallelFilterRunner(
      paths: files, jobs: jobs, separator: separator, inputEncoding: encoding)
    runner.mapsInputs = MappedInputGuard.isInstalled
    runner.willStartThreads = { ProgramAllocator.keepFreedMemory() }
    return runner
  }
}

/// The programs' allocator settings.
public enum ProgramAllocator {
  /// Has glibc keep freed memory instead of handing its pages back at once:
  /// each piece of a parallel run makes a fresh filter, which allocates its
  /// tables and buffers again, and glibc would otherwise give their pages
  /// back at every free and fault them in anew (65,000 faults for 1 GB of
  /// text → NFD, a quarter of the CPU time `--jobs 2` spent over
  /// `--jobs 1`). A process-wide setting: the program's, not the library's.
  public static func keepFreedMemory() {
    csys_keep_freed_memory()
  }
}

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
public enum MappedInputGuard {
  /// `PROGRAM: `.
  nonisolated(unsafe) private static var prefix: UnsafeMutablePointer<CChar>?
  /// The message of a fault in a mapping without a message of its own.
  nonisolated(unsafe) private static var generalMessage: UnsafeMutablePointer<CChar>?
  /// What SIGBUS did before the handler.
  nonisolated(unsafe) private static var previous = sigaction()
  private static let installed = Atomic<Bool>(false)

  /// Whether the handler is installed: the runners may map files.
  public static var isInstalled: Bool { installed.load(ordering: .acquiring) }

  /// Installs the handler (once; later calls do nothing).
  public static func install(program: String) {
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
