#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for a
# fixed time, keeping new interesting inputs in fuzz/corpus/TARGET.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]     default: 60 s, all targets
#
# Each target is the library's sources, the shared checks
# (Tests/HangulKitTests/FuzzChecks.swift) and fuzz/targets/entry.swift built
# into one module with the target chosen by a -D flag. A crash leaves its input in
# fuzz/crashes/ and stops with a non-zero status.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(compose roundtrip events json)
build="$root/.build-fuzz"
mkdir -p "$build" "$here/crashes"
sources=$(find "$root/Sources/HangulKit" -name '*.swift' | sort)
total=0
for target in "${targets[@]}"; do
  binary="$build/fuzz-$target"
  flag="FUZZ_$(echo "$target" | tr '[:lower:]' '[:upper:]')"
  swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name HangulKit \
    -D FUZZING -D "$flag" -I "$root/Sources/CICU" -licuuc \
    $sources "$root/Tests/HangulKitTests/FuzzChecks.swift" "$here/targets/entry.swift" \
    -o "$binary" > "$build/$target.build.log" 2>&1 || { cat "$build/$target.build.log"; exit 1; }
  mkdir -p "$here/corpus/$target"
  log="$build/$target.log"
  "$binary" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$here/crashes/$target-" "$here/corpus/$target" 2> "$log" || {
      tail -30 "$log"
      echo "fuzz: $target failed; see $here/crashes" >&2
      exit 1
    }
  # Keep only the inputs that add coverage: that set is the regression corpus.
  rm -rf "$build/min-$target" && mkdir -p "$build/min-$target"
  "$binary" -merge=1 "$build/min-$target" "$here/corpus/$target" > /dev/null 2>&1
  rm -rf "$here/corpus/$target" && mv "$build/min-$target" "$here/corpus/$target"
  runs=$(grep -oE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' | tail -1)
  total=$((total + ${runs:-0}))
  echo "$target: ${runs:-0} executions in ${seconds}s, corpus $(ls "$here/corpus/$target" | wc -l) inputs"
done
echo "total: $total executions"
