#!/usr/bin/env python3
"""Writes SIZE bytes of mixed user comments for the hangul-wrongmode benchmark.

Usage: comments.py CORPUS WORDS HANGUL_COMPOSE SIZE > comments.txt

Each line is a comment: a clause of the Korean corpus, English words from
WORDS (Debian's /usr/share/dict/words), or both, with about one word in
ten typed in the wrong mode (a Korean word as its 2-set QWERTY keys, by
bench/keys.py's table; an English word as Korean mode types it, by
HANGUL_COMPOSE --keys qwerty), and now and then a URL, an e-mail address,
a mention, an identifier, hex or base64. Seeded: the same file every run.
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import keys  # noqa: E402

NOISE = ["https://example.com/item?id=42", "foo@example.org", "@minjun_kim", "user_1234",
         "getElementById", "9f86d081884c7d65", "SGVsbG8gd29ybGQ=", "README.md", "v2.3.1", "iPhone",
         "ㅋㅋㅋ", "ㅠㅠ", "^^", "!!", "10,000원", "2024-05-01"]


def main():
    corpus, words_path, compose, target = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    rng = random.Random(30)
    clauses = [c.strip() for line in open(corpus, encoding="utf-8")
               for c in re.split(r"[.,!?]\s+", line) if len(c.strip()) > 4]
    words = [w for w in open(words_path, encoding="utf-8").read().split() if w.isascii() and w.isalpha()]
    english = rng.sample(words, 20_000)
    typed = subprocess.run([compose, "--keys", "qwerty"], input="\n".join(english) + "\n",
                           capture_output=True, text=True, check=True).stdout.split("\n")
    korean_mode = dict(zip(english, typed))
    qwerty = keys.table(True)

    def english_mode(word):
        return "".join(qwerty.get(ord(c), c) for c in word)

    out = sys.stdout
    written = 0
    while written < target:
        kind = rng.random()
        parts = []
        if kind < 0.6:
            parts = rng.choice(clauses).split(" ")
        if kind >= 0.4:
            parts += [rng.choice(english) for _ in range(rng.randint(2, 10))]
        for index, word in enumerate(parts):
            if rng.random() < 0.1:
                if word in korean_mode:
                    parts[index] = korean_mode[word]
                elif word and all(0xAC00 <= ord(c) <= 0xD7A3 for c in word):
                    parts[index] = english_mode(word)
        if rng.random() < 0.3:
            parts.insert(rng.randint(0, len(parts)), rng.choice(NOISE))
        line = " ".join(parts) + "\n"
        out.write(line)
        written += len(line.encode("utf-8"))


if __name__ == "__main__":
    main()
