#!/usr/bin/env bash
# Builds HangulInput in Embedded Swift, the proof that it needs nothing but
# Swift's standard library:
#   - Sources/HangulInput as a module for wasm32-unknown-none-wasm and for
#     arm64-apple-ios18 (an iOS keyboard extension), with the C interface of
#     tools/embedded/HangulInputC.swift compiled against each;
#   - hangul-input.wasm: the C interface linked with wasm-ld, with the few C
#     functions it needs from tools/embedded/wasm-support.c (no C library).
# Output goes to OUT (default .build/embedded). Needs the toolchain's swiftc,
# clang and wasm-ld (this one has them in /opt/swift/usr/bin).
# Usage: tools/embedded/build.sh [OUT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/.build/embedded}
mkdir -p "$out"
# clang and wasm-ld from the toolchain of swiftc (a system clang may lack wasm32).
toolchain=$(dirname "$(command -v swiftc)")
clang=$toolchain/clang
wasm_ld=$toolchain/wasm-ld
[ -x "$clang" ] || clang=clang
[ -x "$wasm_ld" ] || wasm_ld=wasm-ld
sources=()
while IFS= read -r -d '' file; do sources+=("$file"); done \
  < <(find "$root/Sources/HangulInput" -name '*.swift' -print0 | sort -z)

# HangulInput imports only the standard library: any other import is an error here.
if grep -h '^\s*import ' "${sources[@]}" | grep -v '^\s*import Swift$' | grep -q .; then
  echo "build.sh: Sources/HangulInput imports more than Swift:" >&2
  grep -n '^\s*import ' "${sources[@]}" >&2
  exit 1
fi

embedded=(-enable-experimental-feature Embedded -wmo -Osize -parse-as-library
  -Xfrontend -disable-stack-protector -package-name hangul_tools)

for target in wasm32-unknown-none-wasm arm64-apple-ios18; do
  dir="$out/$target"
  mkdir -p "$dir"
  echo "swiftc -target $target (Embedded): HangulInput"
  swiftc -target "$target" "${embedded[@]}" -module-name HangulInput \
    -emit-module -emit-module-path "$dir/HangulInput.swiftmodule" \
    -c -o "$dir/HangulInput.o" "${sources[@]}"
  echo "swiftc -target $target (Embedded): the C interface"
  swiftc -target "$target" "${embedded[@]}" -module-name HangulInputC -I "$dir" \
    -c -o "$dir/HangulInputC.o" "$here/HangulInputC.swift"
done

dir="$out/wasm32-unknown-none-wasm"
echo "clang --target=wasm32: wasm-support.c"
"$clang" --target=wasm32 -O2 -nostdlib -ffreestanding -fno-builtin -c \
  -o "$dir/wasm-support.o" "$here/wasm-support.c"
echo "wasm-ld: hangul-input.wasm"
exports=()
for name in new delete process process_at backspace flush reset delete_count commit preedit; do
  exports+=("--export=hangul_input_$name")
done
"$wasm_ld" --no-entry --gc-sections "${exports[@]}" --export=malloc --export=free \
  -o "$out/hangul-input.wasm" "$dir/HangulInput.o" "$dir/HangulInputC.o" "$dir/wasm-support.o"
ls -l "$out/hangul-input.wasm" "$out"/*/HangulInput.o
