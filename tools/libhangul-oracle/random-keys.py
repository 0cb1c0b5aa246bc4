#!/usr/bin/env python3
"""Writes random 2-set QWERTY key lines for the libhangul agreement fixture.

Usage: random-keys.py COUNT [SEED]

Each line mixes syllable-shaped key runs (consonant, vowel, final, cluster),
plain random letters, Shift letters, Backspaces (BS, sometimes DEL), digits and
spaces, so that every branch of the automaton is reached many times.
"""
import random
import sys

CONSONANTS = "rRseEfaqQtTdwWczxvg"
VOWELS = "koiOjpuPhynbml"
LETTERS = "qwertyuiopasdfghjklzxcvbnmQWERTOPASDFGHJKLZXCVBNMYUI"


def syllable(rng):
    keys = []
    if rng.random() < 0.9:
        keys.append(rng.choice(CONSONANTS))
        if rng.random() < 0.1:
            keys.append(rng.choice(CONSONANTS))
    keys.append(rng.choice(VOWELS))
    if rng.random() < 0.35:
        keys.append(rng.choice(VOWELS))
    if rng.random() < 0.5:
        keys.append(rng.choice(CONSONANTS))
        if rng.random() < 0.3:
            keys.append(rng.choice(CONSONANTS))
    return keys


def line(rng):
    keys = []
    for _ in range(rng.randint(1, 12)):
        roll = rng.random()
        if roll < 0.55:
            keys += syllable(rng)
        elif roll < 0.75:
            keys += [rng.choice(LETTERS) for _ in range(rng.randint(1, 4))]
        elif roll < 0.9:
            keys += [rng.choice("\b\b\b\x7f")] * rng.randint(1, 4)
        elif roll < 0.95:
            keys.append(rng.choice("0123456789"))
        else:
            keys.append(" ")
    return "".join(keys)


def main():
    count = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 2)
    out = sys.stdout.buffer
    for _ in range(count):
        out.write(line(rng).encode("ascii") + b"\n")


if __name__ == "__main__":
    main()
