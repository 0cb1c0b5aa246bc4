// The one file of HangulKit that imports the C library: every system call
// the library makes goes through the small wrappers below, so that what the
// library needs from the system is in one place (as swift-system does it).
#if canImport(Glibc)
  import Glibc

  /// What stat(2) says of a file (the C library's `struct stat`).
  package typealias FileStatus = Glibc.stat
#elseif canImport(Musl)
  import Musl

  /// What stat(2) says of a file (the C library's `struct stat`).
  package typealias FileStatus = Musl.stat
#else
  // Linux only: the library relies on Linux system calls and flags
  // (renameat2(2) with RENAME_NOREPLACE, mmap(2) with MAP_POPULATE,
  // madvise(2) with MADV_DONTNEED dropping mapped pages), which other
  // systems spell differently or lack. A port adds its branch here.
  #error("HangulKit builds on Linux only (Glibc or Musl): see the comment above")
#endif
internal import CSystemCalls

/// Thin wrappers of the C library's system calls: same arguments, same
/// results, `errno` left as the call set it (callers retry on
/// ``interrupted`` and map error numbers as before). Each is O(1) apart
/// from the work of the call itself.
///
///     let count = SystemCalls.read(descriptor, buffer.baseAddress, buffer.count)
///     if count < 0, SystemCalls.errorNumber == SystemCalls.interrupted { /* again */ }
@usableFromInline
enum SystemCalls {
  /// The working directory, for the `*at` calls (AT_FDCWD).
  @usableFromInline
  static let currentDirectory = AT_FDCWD

  // MARK: - errno

  /// `errno`: the error of the last call that failed on this thread.
  static var errorNumber: Int32 {
    get { errno }
    set { errno = newValue }
  }

  static let interrupted = EINTR
  static let brokenPipe = EPIPE
  static let isDirectoryError = EISDIR
  static let invalidArgument = EINVAL
  static let exists = EEXIST

  /// strerror(3): the system's text for an error number, if it has one.
  static func errorText(_ code: Int32) -> String? {
    guard let text = strerror(code) else { return nil }
    return String(cString: text)
  }

  // MARK: - Descriptors

  /// Flags of open(2).
  enum OpenFlag {
    static let readOnly = O_RDONLY
    static let closeOnExec = O_CLOEXEC
    static let nonBlocking = O_NONBLOCK
    static let directory = O_DIRECTORY
    static let noFollow = O_NOFOLLOW
  }

  /// openat(2): a descriptor, or -1 with errno.
  static func open(
    _ path: UnsafePointer<CChar>, _ flags: Int32, mode: UInt32 = 0, relativeTo directory: Int32
  ) -> Int32 {
    openat(directory, path, flags, mode_t(mode))
  }

  /// read(2).
  @inline(__always)
  static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    cRead(descriptor, buffer, count)
  }

  /// pread(2).
  @inline(__always)
  static func pread(
    _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, at offset: Int
  ) -> Int {
    cPread(descriptor, buffer, count, off_t(offset))
  }

  /// write(2).
  @inline(__always)
  static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    cWrite(descriptor, buffer, count)
  }

  /// writev(2) of two buffers, one after the other.
  @inline(__always)
  static func write(
    _ descriptor: Int32, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer
  ) -> Int {
    var vectors = (
      iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
      iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count)
    )
    return withUnsafePointer(to: &vectors) {
      $0.withMemoryRebound(to: iovec.self, capacity: 2) { writev(descriptor, $0, 2) }
    }
  }

  /// Whether `descriptor` was opened to append (O_APPEND): each write(2)
  /// then goes to the end of the file, wherever the offset is.
  static func isAppending(_ descriptor: Int32) -> Bool {
    let flags = fcntl(descriptor, F_GETFL)
    return flags >= 0 && flags & O_APPEND != 0
  }

  /// close(2).
  @discardableResult
  static func close(_ descriptor: Int32) -> Int32 {
    cClose(descriptor)
  }

  /// lseek(2) to the current offset: where the next read starts, or -1.
  static func currentOffset(_ descriptor: Int32) -> Int {
    Int(lseek(descriptor, 0, SEEK_CUR))
  }

  /// lseek(2) to `offset` from the file's start: the new offset, or -1.
  @discardableResult
  static func moveOffset(_ descriptor: Int32, to offset: Int) -> Int {
    Int(lseek(descriptor, off_t(offset), SEEK_SET))
  }

  // MARK: - File status

  /// fstatat(2) of a path (relative to the working directory), following a
  /// last symbolic link or not: `nil` with errno set when it fails.
  static func status(
    ofPath path: UnsafePointer<CChar>, relativeTo directory: Int32 = AT_FDCWD,
    followingLinks: Bool
  ) -> FileStatus? {
    var info = stat()
    let flags = followingLinks ? 0 : AT_SYMLINK_NOFOLLOW
    return fstatat(directory, path, &info, flags) == 0 ? info : nil
  }

  /// dup(2), fdopendir(3), readdir(3) to the end, closedir(3): the names
  /// of the entries of the open directory `descriptor` (`.` and `..`
  /// too) and whether each is a directory (`nil`: the file system does not
  /// say); the descriptor stays open. On failure, the errno of the call that failed.
  static func entries(ofDirectory descriptor: Int32) -> Result<
    [(name: [UInt8], isDirectory: Bool?)], SystemError
  > {
    // fdopendir takes the descriptor over; the caller keeps its own.
    let copy = dup(descriptor)
    guard copy >= 0, let stream = fdopendir(copy) else { return .failure(SystemError(errno)) }
    defer { closedir(stream) }
    var entries: [(name: [UInt8], isDirectory: Bool?)] = []
    while true {
      errno = 0
      guard let entry = readdir(stream) else {
        if errno != 0 { return .failure(SystemError(errno)) }
        break
      }
      let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: UInt8.self, capacity: 256) { bytes in
          Array(
            UnsafeBufferPointer(
              start: bytes,
              count: strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))))
        }
      }
      let type = entry.pointee.d_type
      entries.append((name, type == UInt8(DT_UNKNOWN) ? nil : type == UInt8(DT_DIR)))
    }
    return .success(entries)
  }

  /// An errno value, as an error.
  struct SystemError: Error {
    var code: Int32
    init(_ code: Int32) { self.code = code }
  }

  /// renameat2(2) with RENAME_NOREPLACE, one name to another in one
  /// directory; where the file system or kernel cannot do it (EINVAL,
  /// ENOSYS), renameat(2) after checking that the new name is free.
  /// Returns 0 or an errno value (``exists`` when the new name is taken).
  static func renameWithoutReplacing(
    in directory: Int32, _ old: UnsafePointer<CChar>, to new: UnsafePointer<CChar>
  ) -> Int32 {
    if csys_rename_no_replace(directory, old, directory, new) == 0 { return 0 }
    let code = errno
    guard code == EINVAL || code == ENOSYS else { return code }
    var info = stat()
    if fstatat(directory, new, &info, AT_SYMLINK_NOFOLLOW) == 0 { return EEXIST }
    return renameat(directory, old, directory, new) == 0 ? 0 : errno
  }

  /// fstat(2): the status of an open file, or `nil` (errno says why).
  static func status(of descriptor: Int32) -> FileStatus? {
    var info = stat()
    return fstat(descriptor, &info) == 0 ? info : nil
  }

  static func isRegularFile(_ info: FileStatus) -> Bool { info.st_mode & S_IFMT == S_IFREG }

  static func isDirectory(_ info: FileStatus) -> Bool { info.st_mode & S_IFMT == S_IFDIR }

  /// The modification time, as seconds and nanoseconds since 1970.
  static func modificationTime(_ info: FileStatus) -> (seconds: Int, nanoseconds: Int) {
    (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
  }

  /// The first `count` bytes of the file at `path` (fopen(3), fread(3)):
  /// fewer when it is shorter, `nil` when it cannot be opened.
  static func firstBytes(ofFile path: String, count: Int) -> [UInt8]? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes = [UInt8](repeating: 0, count: count)
    let read = fread(&bytes, 1, count, file)
    return Array(bytes[..<read])
  }

  // MARK: - Local time

  /// setenv(3) of TZ to `value`, then tzset(3): local time is that zone's
  /// (for the whole process: callers serialize this with their use of it).
  static func setTimeZone(_ value: String) {
    setenv("TZ", value, 1)
    tzset()
  }

  /// localtime_r(3): seconds east of UTC at `seconds` since 1970 in the
  /// local time zone, or `nil` when the time cannot be converted.
  static func localOffset(atSecondsSince1970 seconds: Int) -> Int? {
    var time = time_t(seconds)
    var parts = tm()
    guard localtime_r(&time, &parts) != nil else { return nil }
    return Int(parts.tm_gmtoff)
  }

  // MARK: - Memory mappings

  /// mmap(2) of `length` bytes of a file from `offset` (a multiple of
  /// ``pageSize``), read-only and private. `nil` when mapping fails.
  static func mapReadOnly(
    _ descriptor: Int32, length: Int, offset: Int
  ) -> UnsafeMutableRawPointer? {
    guard let mapping = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, off_t(offset)),
      mapping != MAP_FAILED
    else { return nil }
    return mapping
  }

  /// madvise(2) MADV_SEQUENTIAL: the mapping is read in order (read ahead).
  static func adviseSequential(_ mapping: UnsafeMutableRawPointer, length: Int) {
    _ = madvise(mapping, length, MADV_SEQUENTIAL)
  }

  /// madvise(2) MADV_DONTNEED: drop the pages from the program's memory
  /// (a file's pages stay in the system's cache).
  static func adviseDropPages(_ pages: UnsafeMutableRawPointer?, length: Int) {
    _ = madvise(pages, length, MADV_DONTNEED)
  }

  /// munmap(2).
  static func unmap(_ mapping: UnsafeMutableRawPointer, length: Int) {
    munmap(mapping, length)
  }

  /// sysconf(_SC_PAGESIZE).
  static var pageSize: Int { sysconf(Int32(_SC_PAGESIZE)) }

  /// sysconf(_SC_NPROCESSORS_ONLN): the processors online (-1 if unknown).
  static var onlineProcessors: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }

  // MARK: - Threads (WorkerThread and WakeUps are their only users)

  typealias ThreadHandle = pthread_t
  typealias MutexStorage = pthread_mutex_t
  typealias ConditionStorage = pthread_cond_t
  typealias ThreadStart = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?

  /// pthread_create(3) of a thread that runs `start(context)`: its handle, or `nil`.
  static func startThread(context: UnsafeMutableRawPointer, _ start: ThreadStart) -> ThreadHandle? {
    var thread = pthread_t()
    return pthread_create(&thread, nil, start, context) == 0 ? thread : nil
  }

  /// pthread_join(3), the thread's result dropped.
  static func join(_ thread: ThreadHandle) {
    pthread_join(thread, nil)
  }

  /// pthread_mutex_init(3) and pthread_cond_init(3), default attributes.
  static func initialize(
    _ mutex: UnsafeMutablePointer<MutexStorage>, _ condition: UnsafeMutablePointer<ConditionStorage>
  ) {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  /// pthread_cond_destroy(3) and pthread_mutex_destroy(3).
  static func destroy(
    _ mutex: UnsafeMutablePointer<MutexStorage>, _ condition: UnsafeMutablePointer<ConditionStorage>
  ) {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
  }

  static func lock(_ mutex: UnsafeMutablePointer<MutexStorage>) { pthread_mutex_lock(mutex) }

  static func unlock(_ mutex: UnsafeMutablePointer<MutexStorage>) { pthread_mutex_unlock(mutex) }

  /// pthread_cond_wait(3): `mutex` is held, released while waiting, held again after.
  static func wait(
    _ condition: UnsafeMutablePointer<ConditionStorage>, _ mutex: UnsafeMutablePointer<MutexStorage>
  ) {
    pthread_cond_wait(condition, mutex)
  }

  static func broadcast(_ condition: UnsafeMutablePointer<ConditionStorage>) {
    pthread_cond_broadcast(condition)
  }

  // MARK: - Bytes in memory

  /// strdup(3): a C string of the system's allocator (for a signal handler
  /// to read), freed with ``freeCString(_:)``.
  static func cString(_ text: String) -> UnsafeMutablePointer<CChar>? {
    strdup(text)
  }

  /// free(3) of a string from ``cString(_:)``.
  static func freeCString(_ text: UnsafeMutablePointer<CChar>?) {
    free(text)
  }

  /// memchr(3): the first `byte` in `count` bytes from `start`.
  @inline(__always)
  static func firstByte(_ byte: UInt8, from start: UnsafeRawPointer, count: Int)
    -> UnsafeRawPointer?
  {
    UnsafeRawPointer(memchr(start, Int32(byte), count))
  }

  /// memcmp(3) == 0: whether `count` bytes at `first` and at `second` are equal.
  @inline(__always)
  static func bytesEqual(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool
  {
    memcmp(first, second, count) == 0
  }
}

// The C functions under names of their own: inside ``SystemCalls`` the
// wrappers' names hide them (and the module is Glibc or Musl).
private func cRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}

private func cPread(
  _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t
) -> Int {
  pread(descriptor, buffer, count, offset)
}

private func cWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}

private func cClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
