#!/usr/bin/env python3
"""Makes the review-import benchmark inputs from the Korean prose corpus.

Usage:
  bench/reviews.py envelope RECORDS CORPUS > envelope.json
      one API envelope {"success":true,"data":[...],"page":1} of RECORDS records
      (one record a line, as APIs write them); each content is 1-4 lines of the
      corpus, every fifth one in NFD (as macOS writes it).
  bench/reviews.py big MEGABYTES CORPUS > big.json
      one record whose content is MEGABYTES of the corpus.
"""
import json
import sys
import unicodedata


def main():
    kind, count, corpus = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(corpus, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    out = sys.stdout
    if kind == "big":
        text, size, index = [], 0, 0
        while size < count * 1_000_000:
            line = lines[index % len(lines)]
            text.append(line)
            size += len(line.encode("utf-8")) + 1
            index += 1
        out.write(json.dumps({"_id": "big", "content": "\n".join(text), "createdAt": 1658404438652},
                             ensure_ascii=False) + "\n")
        return
    out.write('{"success":true,"data":[\n')
    position = 0
    for i in range(count):
        take = 1 + i % 4
        content = "\n".join(lines[(position + k) % len(lines)] for k in range(take))
        position += take
        if i % 5 == 4:
            content = unicodedata.normalize("NFD", content)
        record = {"_id": "%024x" % (i * 7919), "user": {"_id": "%024x" % (i * 7), "isAdmin": False,
                  "userName": "사용자%d" % i, "profileImage": "https://cdn.example.com/p/%d.png" % i},
                  "theme": "61e8b80c08e35fb8f37c30eb", "parentReview": None, "childReviews": [], "likes": [],
                  "isBuy": i % 2 == 0, "isTop": False, "isCreator": False, "isGhost": False, "hide": False,
                  "content": content, "createdAt": "2022-07-21T11:53:58.652Z",
                  "updatedAt": "2022-07-21T11:53:58.652Z", "__v": 0}
        out.write(("" if i == 0 else ",\n") + json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    out.write('\n],"page":1}\n')


if __name__ == "__main__":
    main()
