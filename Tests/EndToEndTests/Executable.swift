import Foundation

/// Runs a built executable of this package and collects what it did.
struct Executable {
  struct Result {
    var status: Int32
    var stdout: Data
    var stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
  }

  let url: URL

  /// The executable `name` beside the test bundle in the build folder.
  init(_ name: String) {
    let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var folder = bundle.deletingLastPathComponent()
    // The test bundle may sit inside a .xctest folder.
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path),
      folder.path != "/"
    {
      folder = folder.deletingLastPathComponent()
    }
    url = folder.appendingPathComponent(name)
  }

  /// Runs with `arguments`, feeding `input` on standard input; `environment`
  /// sets variables (a `nil` value removes one).
  func run(
    _ arguments: [String], input: Data = Data(), currentDirectory: URL? = nil,
    environment: [String: String?] = [:]
  ) throws
    -> Result
  {
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    if !environment.isEmpty {
      var variables = ProcessInfo.processInfo.environment
      for (name, value) in environment { variables[name] = value }
      process.environment = variables
    }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Write and read concurrently so that large data cannot deadlock the pipes.
    let writer = Thread {
      stdin.fileHandleForWriting.write(input)
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let errors = ErrorCollector(stderr.fileHandleForReading)
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(status: process.terminationStatus, stdout: output, stderr: errors.finish())
  }

  /// Runs a shell command line with `$EXE` set to the executable's path.
  func shell(_ command: String) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", command]
    process.environment = ProcessInfo.processInfo.environment.merging(["EXE": url.path]) { $1 }
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errors = ErrorCollector(stderr.fileHandleForReading)
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(status: process.terminationStatus, stdout: output, stderr: errors.finish())
  }
}

/// Reads a pipe to its end on another thread.
final class ErrorCollector: @unchecked Sendable {
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread {
      self.data = handle.readDataToEndOfFile()
      self.done.signal()
    }.start()
  }

  func finish() -> String {
    done.wait()
    return String(decoding: data, as: UTF8.self)
  }
}

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A file in the repository.
func repositoryFile(_ path: String) -> URL {
  repositoryRoot.appendingPathComponent(path)
}

/// A fresh temporary folder.
func temporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "hangul-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
