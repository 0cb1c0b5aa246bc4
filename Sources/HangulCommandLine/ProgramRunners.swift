import HangulKit
import Synchronization

extension InputOptions {
  /// A runner of `files` as the programs run them on one thread: in the
  /// encoding of `--from-code`, large regular files mapped when the
  /// program handles SIGBUS (``MappedInputGuard``).
  package func runner(_ files: [FilePath]) -> FilterRunner {
    var runner = FilterRunner(paths: files, inputEncoding: encoding)
    runner.mapsInputs = MappedInputGuard.isInstalled
    return runner
  }

  /// A runner of `files` on `jobs` threads as the programs run them: as
  /// ``runner(_:)``, and with the allocator set to keep freed memory
  /// before the threads start (``ProgramAllocator/keepFreedMemory()``).
  package func parallelRunner(
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
package enum ProgramAllocator {
  /// Has glibc keep freed memory instead of handing its pages back at once:
  /// each piece of a parallel run makes a fresh filter, which allocates its
  /// tables and buffers again, and glibc would otherwise give their pages
  /// back at every free and fault them in anew (65,000 faults for 1 GB of
  /// text → NFD, a quarter of the CPU time `--jobs 2` spent over
  /// `--jobs 1`). A process-wide setting: the program's, not the library's.
  package static func keepFreedMemory() {
    SystemCalls.keepFreedMemory()
  }
}
