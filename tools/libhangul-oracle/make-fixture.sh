#!/usr/bin/env bash
# Regenerates the libhangul agreement fixture used by the tests:
#   Tests/HangulKitTests/Fixtures/libhangul/keys.txt      random 2-set key lines
#   Tests/HangulKitTests/Fixtures/libhangul/default.txt    libhangul's text for each line
#   Tests/HangulKitTests/Fixtures/libhangul/double-stroke.txt
#   Tests/HangulKitTests/Fixtures/libhangul/no-bare-clusters.txt
# Needs a C compiler and Debian's libhangul-dev (the tests themselves do not).
# Usage: tools/libhangul-oracle/make-fixture.sh [LINES] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
lines=${1:-25000}
seed=${2:-2}
out="$root/Tests/HangulKitTests/Fixtures/libhangul"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cc -O2 -Wall -o "$work/libhangul-lines" "$here/libhangul-lines.c" \
  $(pkg-config --cflags --libs libhangul)
mkdir -p "$out"
python3 "$here/random-keys.py" "$lines" "$seed" > "$out/keys.txt"
"$work/libhangul-lines" < "$out/keys.txt" > "$out/default.txt"
"$work/libhangul-lines" -d < "$out/keys.txt" > "$out/double-stroke.txt"
"$work/libhangul-lines" -n < "$out/keys.txt" > "$out/no-bare-clusters.txt"
wc -l "$out"/*.txt
