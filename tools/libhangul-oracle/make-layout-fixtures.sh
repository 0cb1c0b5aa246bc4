#!/usr/bin/env bash
# Regenerates the libhangul agreement fixtures of every built-in keyboard:
#   Tests/HangulKitTests/Fixtures/libhangul-keyboards/ID.keys           random key lines
#   Tests/HangulKitTests/Fixtures/libhangul-keyboards/ID.OPTIONS.txt    libhangul's text for each
# with OPTIONS one of default, auto-reorder, double-stroke, no-bare-clusters.
# Needs a C compiler and Debian's libhangul-dev (the tests themselves do not).
# Usage: tools/libhangul-oracle/make-layout-fixtures.sh [LINES] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
lines=${1:-3000}
seed=${2:-14}
out="$root/Tests/HangulKitTests/Fixtures/libhangul-keyboards"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cc -O2 -Wall -o "$work/libhangul-lines" "$here/libhangul-lines.c" \
  $(pkg-config --cflags --libs libhangul)
mkdir -p "$out"
for id in 2 2y 32 39 3f 3s 3y ro ahn; do
  python3 "$here/random-layout-keys.py" "$root/keyboards/hangul-keyboard-$id.xml" "$lines" "$seed" \
    > "$out/$id.keys"
  "$work/libhangul-lines" -k "$id" < "$out/$id.keys" > "$out/$id.default.txt"
  "$work/libhangul-lines" -k "$id" -a < "$out/$id.keys" > "$out/$id.auto-reorder.txt"
  "$work/libhangul-lines" -k "$id" -d < "$out/$id.keys" > "$out/$id.double-stroke.txt"
  "$work/libhangul-lines" -k "$id" -n < "$out/$id.keys" > "$out/$id.no-bare-clusters.txt"
done
du -sh "$out"
