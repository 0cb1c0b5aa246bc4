#!/usr/bin/env bash
# Regenerates the per-key libhangul fixtures of the input context:
#   Tests/HangulInputTests/Fixtures/libhangul-keys/ID.OPTIONS.txt.bz2
# for the nine libhangul keyboards ID and OPTIONS one of default,
# auto-reorder, double-stroke, no-bare-clusters: after every key of the
# 3,000 random key strings of Tests/HangulKitTests/Fixtures/libhangul-keyboards/ID.keys
# (the key strings of the line fixtures), what hangul_ic_process or
# hangul_ic_backspace returned, the commit string and the preedit string
# (format: tools/libhangul-oracle/libhangul-keys.c).
# Needs a C compiler, bzip2 and Debian's libhangul-dev (the tests need only bzip2).
# Usage: tools/libhangul-oracle/make-key-fixtures.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
keys="$root/Tests/HangulKitTests/Fixtures/libhangul-keyboards"
out="$root/Tests/HangulInputTests/Fixtures/libhangul-keys"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cc -O2 -Wall -o "$work/libhangul-keys" "$here/libhangul-keys.c" \
  $(pkg-config --cflags --libs libhangul)
mkdir -p "$out"
for id in 2 2y 32 39 3f 3s 3y ro ahn; do
  for set in default:"" auto-reorder:-a double-stroke:-d no-bare-clusters:-n; do
    name=${set%%:*}
    flag=${set#*:}
    # shellcheck disable=SC2086 # an empty flag is no argument
    "$work/libhangul-keys" -k "$id" $flag < "$keys/$id.keys" > "$work/$id.$name.txt"
    bzip2 -9 -c "$work/$id.$name.txt" > "$out/$id.$name.txt.bz2"
  done
done
du -sh "$out"
