#!/usr/bin/env python3
"""Writes random key lines for a keyboard file, for the libhangul agreement fixtures.

Usage: random-layout-keys.py KEYBOARD.xml COUNT [SEED]

The keys are sorted by what the keyboard maps them to (initials, vowels,
finals, symbols, nothing). Each line mixes syllable-shaped runs (initial,
vowel, final, each sometimes doubled so that combinations happen, sometimes
out of order so that --auto-reorder has work), random keys, Backspaces (BS,
sometimes DEL) and spaces.
"""
import random
import sys
import xml.etree.ElementTree as ElementTree


def kind(value):
    if 0x1100 <= value <= 0x115F or 0xA960 <= value <= 0xA97C:
        return "initial"
    if 0x1160 <= value <= 0x11A7 or 0xD7B0 <= value <= 0xD7C6:
        return "vowel"
    if 0x11A8 <= value <= 0x11FF or 0xD7CB <= value <= 0xD7FB:
        return "final"
    return "symbol"


def main():
    path, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 14)
    keys = {"initial": [], "vowel": [], "final": [], "symbol": []}
    mapped = set()
    for item in ElementTree.parse(path).getroot().iter("item"):
        if item.get("key") is None:
            continue
        key, value = int(item.get("key"), 0), int(item.get("value"), 0)
        if value and 0x20 <= key < 0x7F:
            keys[kind(value)].append(chr(key))
            mapped.add(chr(key))
    unmapped = [chr(c) for c in range(0x21, 0x7F) if chr(c) not in mapped] or ["1"]
    # A 2-set keyboard types finals with its initial keys.
    finals = keys["final"] or keys["initial"]
    every = sorted(mapped)

    def syllable():
        parts = []
        if rng.random() < 0.85:
            parts.append([rng.choice(keys["initial"]) for _ in range(1 + (rng.random() < 0.15))])
        parts.append([rng.choice(keys["vowel"]) for _ in range(1 + (rng.random() < 0.3))])
        if rng.random() < 0.5:
            parts.append([rng.choice(finals) for _ in range(1 + (rng.random() < 0.3))])
        if rng.random() < 0.12:
            rng.shuffle(parts)
        return [key for part in parts for key in part]

    out = sys.stdout.buffer
    for _ in range(count):
        line = []
        for _ in range(rng.randint(1, 8)):
            roll = rng.random()
            if roll < 0.55:
                line += syllable()
            elif roll < 0.72:
                line += [rng.choice(every) for _ in range(rng.randint(1, 4))]
            elif roll < 0.88:
                line += [rng.choice("\b\b\b\x7f")] * rng.randint(1, 4)
            elif roll < 0.94:
                line.append(rng.choice(unmapped))
            else:
                line.append(" ")
        out.write("".join(line).encode("ascii") + b"\n")


if __name__ == "__main__":
    main()
