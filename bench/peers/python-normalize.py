"""python-normalize: what a data engineer writes, the Python peer of
hangul-normalize in the benchmark: unicodedata.normalize line by line.

    python3 python-normalize.py NFC < in > out
"""
import sys
import unicodedata

form = sys.argv[1] if len(sys.argv) > 1 else "NFC"
# UTF-8 whatever the locale, and line ends as they are.
sys.stdin.reconfigure(encoding="utf-8", newline="")
sys.stdout.reconfigure(encoding="utf-8", newline="")
out = sys.stdout
for line in sys.stdin:
    out.write(unicodedata.normalize(form, line))
