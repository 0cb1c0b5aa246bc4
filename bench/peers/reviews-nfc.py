#!/usr/bin/env python3
"""The Python peer of `hangul-reviews import`: the envelope's records as JSON
Lines with their content in NFC (json + unicodedata, the standard library)."""
import json
import sys
import unicodedata

document = json.load(sys.stdin)
write = sys.stdout.write
for record in document["data"]:
    record["content"] = unicodedata.normalize("NFC", record["content"])
    write(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    write("\n")
