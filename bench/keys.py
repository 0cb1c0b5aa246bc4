#!/usr/bin/env python3
"""Writes the 2-set keys that type a text: the benchmark's own generator,
independent of hangul-decompose.

Usage: keys.py qwerty|jamo < text > keys

Hangul syllables and compatibility jamo become their keys (compound vowels
and finals split, ㄲ ㅆ ㅐ … single keys); everything else is copied. With
qwerty the keys are QWERTY letters, with jamo compatibility jamo.
"""
import sys

INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
FINALS = [""] + list("ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ")
SPLIT = {"ㅘ": "ㅗㅏ", "ㅙ": "ㅗㅐ", "ㅚ": "ㅗㅣ", "ㅝ": "ㅜㅓ", "ㅞ": "ㅜㅔ", "ㅟ": "ㅜㅣ", "ㅢ": "ㅡㅣ",
         "ㄳ": "ㄱㅅ", "ㄵ": "ㄴㅈ", "ㄶ": "ㄴㅎ", "ㄺ": "ㄹㄱ", "ㄻ": "ㄹㅁ", "ㄼ": "ㄹㅂ", "ㄽ": "ㄹㅅ",
         "ㄾ": "ㄹㅌ", "ㄿ": "ㄹㅍ", "ㅀ": "ㄹㅎ", "ㅄ": "ㅂㅅ"}
QWERTY = dict(zip("ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔㅁㄴㅇㄹㅎㅗㅓㅏㅣㅋㅌㅊㅍㅠㅜㅡㅃㅉㄸㄲㅆㅒㅖ",
                  "qwertyuiopasdfghjklzxcvbnmQWERTOP"))


def table(qwerty):
    """The keys of every syllable and compatibility jamo."""
    def keys(jamo):
        split = "".join(SPLIT.get(j, j) for j in jamo)
        return "".join(QWERTY[k] for k in split) if qwerty else split
    mapping = {}
    for index in range(11172):
        parts = INITIALS[index // 588] + VOWELS[(index // 28) % 21] + FINALS[index % 28]
        mapping[0xAC00 + index] = keys(parts)
    for code in range(0x3131, 0x3164):
        mapping[code] = keys(chr(code))
    return mapping


def main():
    mapping = table(sys.argv[1] == "qwerty")
    for line in sys.stdin.buffer:
        sys.stdout.write(line.decode("utf-8", "surrogateescape").translate(mapping)
                         .encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape"))


if __name__ == "__main__":
    sys.stdout = open(sys.stdout.fileno(), "w", encoding="utf-8", errors="surrogateescape", closefd=False)
    main()
