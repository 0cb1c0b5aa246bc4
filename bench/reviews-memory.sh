#!/usr/bin/env bash
# Peak memory of `hangul-reviews import` on a generated API envelope of
# RECORDS records (default 200,000), release build. Usage:
#   bench/reviews-memory.sh [RECORDS]
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-200000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product hangul-reviews >/dev/null
python3 - "$records" > "$work/envelope.json" <<'PY'
import json, sys
count = int(sys.argv[1])
out = sys.stdout
out.write('{"data":[\n')
for i in range(count):
    record = {"_id": "%024x" % i, "user": {"_id": "%024x" % (i * 7), "isAdmin": False,
              "userName": "사용자%d" % i, "profileImage": "https://cdn.example.com/p/%d.png" % i},
              "theme": "61e8b80c08e35fb8f37c30eb", "parentReview": None, "childReviews": [], "likes": [],
              "isBuy": i % 2 == 0, "isTop": False, "isCreator": False, "isGhost": False, "hide": False,
              "content": "Rating: ⭐⭐⭐⭐\nReview: 리뷰 번호 %d 입니다" % i,
              "createdAt": "2022-07-21T11:53:58.652Z", "updatedAt": "2022-07-21T11:53:58.652Z", "__v": 0}
    out.write(("  " if i == 0 else ",\n  ") + json.dumps(record, ensure_ascii=False))
out.write('\n]}\n')
PY
size=$(stat -c %s "$work/envelope.json")
/usr/bin/time -f '%M %e' -o "$work/time" .build/release/hangul-reviews import "$work/envelope.json" > "$work/out.jsonl" 2> "$work/err"
read -r kilobytes seconds < "$work/time"
echo "records: $records  input: $((size / 1048576)) MiB  output lines: $(wc -l < "$work/out.jsonl")"
echo "peak memory: $((kilobytes / 1024)) MiB  time: ${seconds} s  ($(python3 -c "print(round($records / max($seconds, 0.01)))") records/s)"
tail -1 "$work/err"
