#!/usr/bin/env bash
# The full-size robustness checks of SPEC §3.3 and §7, on a release build
# (the test suite runs smaller versions of each):
#   - a 300 MB line with no newline through hangul-compose and hangul-decompose,
#     peak memory under 64 MiB
#   - 10^6 Backspaces in a row
#   - an event log with a 100 MB "text"
#   - a review with a 50 MB content
#   - JSON nested 10^6 deep (a clear error, no stack overflow)
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

exit $failed
