// The libFuzzer entry point of every target: the environment variable
// FUZZ_TARGET (compose, roundtrip, events, json, rename) chooses the check
// when the fuzzer starts; the checks themselves are
// Tests/HangulKitTests/FuzzChecks.swift.
#if canImport(Glibc)
  import Glibc
#endif

let fuzzCheck: @Sendable ([UInt8]) -> String? = {
  let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
  guard let check = FuzzChecks.targets[name] else {
    fatalError("FUZZ_TARGET must be one of \(FuzzChecks.targets.keys.sorted()), not '\(name)'")
  }
  return check
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  if let problem = fuzzCheck(input) {
    // Said before the abort, which libFuzzer catches to save the input.
    let message = Array("fuzz check failed: \(problem)\n".utf8)
    _ = write(2, message, message.count)
    abort()
  }
  return 0
}
