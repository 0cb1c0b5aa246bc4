#!/usr/bin/env bash
# The full-size robustness checks of SPEC §3.3 and §7, on a release build
# (the test suite runs smaller versions of each):
#   - a 300 MB line with no newline through hangul-compose and hangul-decompose,
#     peak memory under 64 MiB
#   - 10^6 Backspaces in a row
#   - an event log with a 100 MB "text"
#   - a review with a 50 MB content
#   - JSON nested 10^6 deep (a clear error, no stack overflow)
#   - a broken review record mid-line, then 2,000,000 good lines: all
#     imported, peak memory under 64 MiB (issue 35)
#   - a 200 MB event line (an unused member, and binary garbage): bounded peak
#   - hangul-normalize --rename --recursive on a tree 8,000 levels deep
#   - a name holding U+FF0F under --rename --form nfkc: refused (65), left alone
# Usage: tools/robustness.sh        prints one line a check, exits 1 on a failure
set -uo pipefail
cd "$(dirname "$0")/.."
swift build -c release >/dev/null || exit 1
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# check NAME LIMIT_KB COMMAND...: runs COMMAND under /usr/bin/time, prints status and peak.
check() {
  local name=$1 limit=$2
  shift 2
  /usr/bin/time -f '%M %e' -o "$work/time" "$@" > "$work/out" 2> "$work/err"
  local status=$?
  echo "$status" > "$work/status"
  read -r peak seconds < <(tail -1 "$work/time")
  local verdict=ok
  if [ "$peak" -gt "$limit" ]; then verdict="FAILED (peak over $((limit / 1024)) MiB)"; failed=1; fi
  printf '%-44s status %-3s peak %6s MiB  %6ss  %s\n' "$name" "$status" "$((peak / 1024))" "$seconds" "$verdict"
}

python3 -c "
import sys
piece = b'dkssudgktpdy rkqtdl qlTkek ' * 4096
with open('$work/line', 'wb') as f:
    for _ in range(300 * 1024 * 1024 // len(piece)): f.write(piece)
"
check "hangul-compose, 300 MB line" $((64 * 1024)) "$bin/hangul-compose" --keys qwerty "$work/line"
check "hangul-compose --backspace keystroke, 300 MB" $((64 * 1024)) "$bin/hangul-compose" --keys qwerty --backspace keystroke "$work/line"
"$bin/hangul-compose" --keys qwerty "$work/line" > "$work/text"
check "hangul-decompose --to qwerty, 300 MB line" $((64 * 1024)) "$bin/hangul-decompose" --to qwerty "$work/text"
check "hangul-decompose --to nfd, 300 MB line" $((64 * 1024)) "$bin/hangul-decompose" --to nfd "$work/text"
rm -f "$work/line" "$work/text"

python3 -c "
import sys
sys.stdout.buffer.write('ㄱㅏ'.encode() + b'\b' * 1000000 + 'ㄴㅏ\n'.encode())" > "$work/backspaces"
check "10^6 Backspaces" $((64 * 1024)) "$bin/hangul-compose" "$work/backspaces"
[ "$(cat "$work/out")" = "나" ] || { echo "  wrong output"; failed=1; }

python3 -c "
import json
print(json.dumps({'text': '가나다라 ' * (100 * 1024 * 1024 // 13)}, ensure_ascii=False))" > "$work/events"
check "event with a 100 MB text" $((1024 * 1024)) "$bin/hangul-compose" --format events --max-line 128M "$work/events"

python3 -c "
import json
print(json.dumps({'content': '리뷰 ' * (50 * 1024 * 1024 // 7), 'createdAt': 1658404438}, ensure_ascii=False))" > "$work/review"
check "review with a 50 MB content" $((1024 * 1024)) "$bin/hangul-reviews" import "$work/review"

python3 -c "print('[' * 1000000 + ']' * 1000000)" > "$work/deep"
# An event line is rejected at its first character unless it opens an object.
python3 -c "print('{\"key\":\"a\",\"x\":' + '[' * 1000000 + ']' * 1000000 + '}')" > "$work/deep-event"
check "event line nested 10^6 deep" $((64 * 1024)) "$bin/hangul-compose" --format events "$work/deep-event"
grep -q "nesting deeper than 512" "$work/err" || { echo "  no nesting error"; failed=1; }
check "review nested 10^6 deep" $((64 * 1024)) "$bin/hangul-reviews" import "$work/deep"
grep -q "nesting deeper than 512" "$work/err" || { echo "  no nesting error"; failed=1; }

# A broken record after another value on its line: reading resumes at the
# next line that starts a value, so every good line after it is imported.
python3 -c "
import sys
out = sys.stdout.buffer
out.write(b'{\"content\":\"z\"} {\n')
line = '{\"_id\":%d,\"content\":\"리뷰 좋아요\"}\n'
for i in range(0, 2000000, 1000):
    out.write(''.join(line % n for n in range(i, i + 1000)).encode())" > "$work/resync"
check "broken record mid-line, 2*10^6 good lines" $((64 * 1024)) "$bin/hangul-reviews" import "$work/resync"
[ "$(wc -l < "$work/out")" = 2000001 ] || { echo "  $(wc -l < "$work/out") records imported, not 2000001"; failed=1; }
rm -f "$work/resync"

python3 -c "
import sys
out = sys.stdout.buffer
out.write(b'{\"key\":\"a\",\"junk\":\"')
for _ in range(200): out.write(b'x' * (1024 * 1024))
out.write(b'\"}\n{\"key\":\"b\"}\n')" > "$work/long-event"
check "event line with an unused 200 MB member" $((64 * 1024)) "$bin/hangul-compose" --format events --keys qwerty "$work/long-event"
[ "$(cat "$work/out")" = "뮤" ] || { echo "  wrong output: $(head -c 100 "$work/out")"; failed=1; }
python3 -c "
import os, sys
out = sys.stdout.buffer
out.write(b'{')
for _ in range(200): out.write(os.urandom(1024 * 1024).replace(b'\n', b'.'))
out.write(b'\n')" > "$work/garbage-event"
check "event line of 200 MB of garbage" $((64 * 1024)) "$bin/hangul-compose" --format events "$work/garbage-event"
# One error for the line (and a warning about its first byte that is not UTF-8).
[ "$(grep -vc 'warning:' "$work/err")" = 1 ] || { echo "  not one error: $(head -c 300 "$work/err")"; failed=1; }
rm -f "$work/long-event" "$work/garbage-event"

# 8,000 directories deep (far past PATH_MAX), every tenth with a name in NFD.
python3 -c "
import os
os.mkdir('$work/deep-tree')
os.chdir('$work/deep-tree')
for level in range(8000):
    name = '\u1112\u1161\u11ab' if level % 10 == 0 else 'd'
    os.mkdir(name)
    os.chdir(name)
open('leaf-\u1112\u1161\u11ab', 'w').close()"
check "--rename --recursive, 8,000 levels deep" $((64 * 1024)) "$bin/hangul-normalize" --rename --recursive "$work/deep-tree"
renamed=$(grep -c ' → ' "$work/out")
[ "$renamed" = 801 ] || { echo "  $renamed renamed, not 801: $(head -c 300 "$work/err")"; failed=1; }
rm -rf "$work/deep-tree"

mkdir -p "$work/slash/in"
touch "$work/slash/in/x／..／..／f"
check "--rename --form nfkc of a name with U+FF0F" $((64 * 1024)) "$bin/hangul-normalize" --rename --form nfkc "$work/slash/in/x／..／..／f"
status=$(grep -oE '^[0-9]+' "$work/status")
[ "$status" = 65 ] || { echo "  status $status, not 65"; failed=1; }
[ -e "$work/slash/in/x／..／..／f" ] && [ ! -e "$work/f" ] && [ ! -e "$work/slash/f" ] \
  || { echo "  the file was moved"; failed=1; }
grep -q "holds a slash" "$work/err" || { echo "  no message: $(cat "$work/err")"; failed=1; }

exit $failed
