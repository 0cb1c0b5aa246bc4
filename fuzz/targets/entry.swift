// The libFuzzer entry point. The target is chosen when building, with
// -D FUZZ_COMPOSE, -D FUZZ_ROUNDTRIP, -D FUZZ_EVENTS or -D FUZZ_JSON; the
// checks themselves are Tests/HangulKitTests/FuzzChecks.swift.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  #if FUZZ_COMPOSE
    let problem = FuzzChecks.compose(input)
  #elseif FUZZ_ROUNDTRIP
    let problem = FuzzChecks.roundTrip(input)
  #elseif FUZZ_EVENTS
    let problem = FuzzChecks.events(input)
  #else
    let problem = FuzzChecks.json(input)
  #endif
  if let problem { preconditionFailure(problem) }
  return 0
}
