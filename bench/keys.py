#!/usr/bin/env python3
"""Writes the 2-set keys that type a text: the benchmark's own generator,
independent of hangul-decompose.

Usage: keys.py qwerty|jamo|KEYBOARD.xml < text > keys

Hangul syllables and compatibility jamo become their keys (compound vowels
and finals split, ㄲ ㅆ ㅐ … single keys); everything else is copied. With
qwerty the keys are QWERTY letters, with jamo compatibility jamo. With a
3-set keyboard file (keyboards/hangul-keyboard-3f.xml) the keys are that
keyboard's: a key for each initial, vowel and final, or two keys whose jamo
combine into it.
"""
import os
import sys
import xml.etree.ElementTree as ElementTree

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


def layout_table(path):
    """The 3-set keys of every syllable, from a keyboard file and what it includes."""
    direct, combined = {}, {}
    def read(file):
        for element in ElementTree.parse(file).getroot().iter():
            if element.tag == "item" and element.get("key"):
                value = int(element.get("value"), 0)
                direct.setdefault(value, chr(int(element.get("key"), 0)))
            elif element.tag == "item":
                result = int(element.get("result"), 0)
                combined.setdefault(result, (int(element.get("first"), 0), int(element.get("second"), 0)))
            elif element.tag == "include":
                read(os.path.join(os.path.dirname(file), element.get("file")))
    read(path)
    def keys(jamo):
        if jamo in direct:
            return direct[jamo]
        first, second = combined[jamo]
        return direct[first] + direct[second]
    mapping = {}
    for index in range(11172):
        final = index % 28
        mapping[0xAC00 + index] = (keys(0x1100 + index // 588) + keys(0x1161 + (index // 28) % 21)
                                   + (keys(0x11A7 + final) if final else ""))
    return mapping


def main():
    mode = sys.argv[1]
    mapping = layout_table(mode) if mode.endswith(".xml") else table(mode == "qwerty")
    for line in sys.stdin.buffer:
        sys.stdout.write(line.decode("utf-8", "surrogateescape").translate(mapping)
                         .encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape"))


if __name__ == "__main__":
    sys.stdout = open(sys.stdout.fileno(), "w", encoding="utf-8", errors="surrogateescape", closefd=False)
    main()
