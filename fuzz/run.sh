#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each, keeping new interesting inputs
# in fuzz/corpus/TARGET (merge-minimized: only inputs that add coverage).
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]   default: 60 s, all targets
#
# Targets: compose, roundtrip, events, json, rename (the checks are in
# Tests/HangulKitTests/FuzzChecks.swift). Environment:
#   FUZZ_RUNS=N    run each target for N executions (and at most
#                  SECONDS_PER_TARGET, unless that is 0)
#   FUZZ_MAX_LEN=N longest input the fuzzer makes (default 4096)
#   FUZZ_ASAN=0    build without AddressSanitizer (several times faster;
#                  the properties and Swift's own traps are still checked)
#   FUZZ_BUILD_ONLY=1  build, run nothing
#
# HangulInput (pure Swift) is built first as a module of its own, as SwiftPM
# builds it; then the library's sources, the shared checks and
# fuzz/targets/entry.swift are built into one module, HangulKit, into one
# binary for all targets: FUZZ_TARGET chooses the target when it runs. A
# crash leaves its input in fuzz/crashes/ and stops with a non-zero status.
set -euo pipefail
# libFuzzer, not Swift's backtracer, handles a crash: it saves the input.
export SWIFT_BACKTRACE=enable=no
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(compose roundtrip events json rename)
asan=${FUZZ_ASAN:-1}
if [ "$asan" = 0 ]; then sanitize=fuzzer; variant=plain; else sanitize=fuzzer,address; variant=asan; fi
build="$root/.build-fuzz/$variant"
mkdir -p "$build" "$here/crashes"
binary="$build/fuzz"
log="$build/build.log"
input_sources=$(find "$root/Sources/HangulInput" -name '*.swift' | sort)
kit_sources=$(find "$root/Sources/HangulKit" -name '*.swift' | sort)
# Built again only when a source is newer than the binary.
if [ -x "$binary" ] && [ -z "$(find "$root/Sources/HangulInput" "$root/Sources/HangulKit" \
  "$root"/Tests/HangulKitTests/FuzzChecks*.swift "$here/targets" -newer "$binary" | head -1)" ]; then
  :
else
# shellcheck disable=SC2086
{
  swiftc -O -wmo -swift-version 6 -package-name hangul_tools -sanitize="$sanitize" -parse-as-library -module-name HangulInput \
    -emit-module -emit-module-path "$build/HangulInput.swiftmodule" \
    -emit-library -static -o "$build/libHangulInput.a" $input_sources &&
  swiftc -O -wmo -swift-version 6 -package-name hangul_tools -sanitize="$sanitize" -parse-as-library -module-name HangulKit \
    -D FUZZING -I "$build" -L "$build" -lHangulInput \
    -I "$root/Sources/CICU" -I "$root/Sources/CExpat" -I "$root/Sources/CSystemCalls" \
    -licuuc -lexpat \
    $kit_sources "$root"/Tests/HangulKitTests/FuzzChecks*.swift "$here/targets/entry.swift" \
    -o "$binary"
} > "$log" 2>&1 || { cat "$log"; exit 1; }
fi
[ -z "${FUZZ_BUILD_ONLY:-}" ] || exit 0
limit=(-max_total_time="$seconds")
if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS"); fi
# Both: whichever comes first.
if [ -n "${FUZZ_RUNS:-}" ] && [ "$seconds" -gt 0 ]; then limit+=(-max_total_time="$seconds"); fi
total=0
for target in "${targets[@]}"; do
  mkdir -p "$here/corpus/$target"
  log="$build/$target.log"
  start=$(date +%s)
  FUZZ_TARGET=$target "$binary" "${limit[@]}" -max_len="${FUZZ_MAX_LEN:-4096}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$here/crashes/$target-" "$here/corpus/$target" \
    2> "$log" || {
      tail -30 "$log"
      echo "fuzz: $target failed; see $here/crashes" >&2
      exit 1
    }
  elapsed=$(($(date +%s) - start))
  # Keep only the inputs that add coverage: that set is the regression corpus.
  rm -rf "$build/min-$target" && mkdir -p "$build/min-$target"
  FUZZ_TARGET=$target "$binary" -merge=1 -max_len=4096 "$build/min-$target" "$here/corpus/$target" \
    > /dev/null 2>&1
  rm -rf "$here/corpus/$target" && mv "$build/min-$target" "$here/corpus/$target"
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  total=$((total + ${runs:-0}))
  echo "$target ($variant): ${runs:-0} executions in ${elapsed}s, 0 crashes," \
    "corpus $(ls "$here/corpus/$target" | wc -l) inputs, $(du -sh "$here/corpus/$target" | cut -f1)"
done
echo "total: $total executions"
