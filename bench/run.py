#!/usr/bin/env python3
"""Benchmarks the hangul tools side by side with their peers.

Usage: bench/run.py [--corpus FILE] [--copies N] [--runs N] [--sizes 1M,100M,1G] [--only export-csv]

Builds our release binaries and the C peers in bench/peers (libhangul's
hangul_ic_process loop, ICU's unorm2_normalize, a plain table-mapping loop),
makes the inputs from the corpus (default ../shared/corpus/ko-prose.txt,
copied 12 times; keys by bench/keys.py, NFD by Python's unicodedata), runs
ours and the peer in turn (A B A B …) on one core, checks that the outputs
agree, and prints MB/s of both, the median ratio ours/peer, and our peak
memory. Then peak memory of hangul-compose at each size, the review import,
and `hangul-reviews export --to csv` against jq's @csv on an envelope of
--records records made from the corpus (skipped when jq is not installed).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(command, **kwargs):
    return subprocess.run(command, shell=True, check=True, **kwargs)


def timed(argv, stdin_path, stdout_path):
    """Runs argv on one core; returns (wall seconds, peak RSS in MiB).

    Peak memory comes from /usr/bin/time: on Linux a child's ru_maxrss as
    seen by this script would include this script's own memory.
    """
    with open(stdin_path, "rb") as source, open(stdout_path, "wb") as sink, \
            tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        status = subprocess.call(["/usr/bin/time", "-f", "%M", "-o", report.name,
                                  "taskset", "-c", "0"] + argv, stdin=source, stdout=sink)
        seconds = time.perf_counter() - start
        kilobytes = int(report.read().split()[-1])
    if status != 0:
        sys.exit(f"failed: {' '.join(argv)}")
    return seconds, kilobytes / 1024


def size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "ko-prose.txt"))
    parser.add_argument("--copies", type=int, default=12)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="1M,100M,1G")
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--only", choices=["export-csv"], help="run only this part")
    options = parser.parse_args()

    work = tempfile.mkdtemp(prefix="hangul-bench-")
    try:
        sh(f"cd {ROOT} && swift build -c release >/dev/null")
        bin_dir = subprocess.run(f"cd {ROOT} && swift build -c release --show-bin-path", shell=True,
                                 check=True, capture_output=True, text=True).stdout.strip()
        if options.only == "export-csv":
            print("review export to CSV:")
            export_csv(work, options, os.path.join(bin_dir, "hangul-reviews"))
            return
        peers = os.path.join(ROOT, "bench", "peers")
        sh(f"cc -O2 -o {work}/libhangul-compose {peers}/libhangul-compose.c $(pkg-config --cflags --libs libhangul)")
        sh(f"cc -O2 -o {work}/icu-normalize {peers}/icu-normalize.c $(pkg-config --cflags --libs icu-uc)")
        sh(f"cc -O2 -o {work}/table-map {peers}/table-map.c")
        ours = lambda name: os.path.join(bin_dir, name)
        peer = lambda name: os.path.join(work, name)

        with open(options.corpus, "rb") as corpus:
            text = corpus.read() * options.copies
        inputs = {"text": f"{work}/text.txt"}
        with open(inputs["text"], "wb") as f:
            f.write(text)
        for kind in ("qwerty", "jamo"):
            inputs[kind] = f"{work}/{kind}.keys"
            sh(f"python3 {ROOT}/bench/keys.py {kind} < {inputs['text']} > {inputs[kind]}")
        inputs["nfd"] = f"{work}/nfd.txt"
        with open(inputs["nfd"], "wb") as f:
            f.write(unicodedata.normalize("NFD", text.decode("utf-8")).encode("utf-8"))

        # task: (name, input, our argv, peer argv, how to compare, size basis)
        tasks = [
            ("2-set QWERTY keys → text", "qwerty", [ours("hangul-compose"), "--keys", "qwerty"],
             [peer("libhangul-compose")], "same", "libhangul"),
            ("jamo keys → text", "jamo", [ours("hangul-compose")], [peer("libhangul-compose"), "-j"], "same", "libhangul"),
            ("text → NFD", "text", [ours("hangul-decompose"), "--to", "nfd"], [peer("icu-normalize"), "-d"],
             "nfd", "ICU unorm2 NFD"),
            ("NFD → text (NFC)", "nfd", [ours("hangul-compose")], [peer("icu-normalize"), "-c"], "nfc", "ICU unorm2 NFC"),
            ("text → keys", "text", [ours("hangul-decompose"), "--to", "keys"], [peer("table-map"), "-k"], "roundtrip-jamo",
             "C table loop"),
            ("text → QWERTY", "text", [ours("hangul-decompose"), "--to", "qwerty"], [peer("table-map"), "-q"],
             "roundtrip-qwerty", "C table loop"),
        ]
        print(f"machine: {os.cpu_count()} cores, {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}")
        print(f"input: {options.corpus} × {options.copies} = {len(text) / 1e6:.1f} MB; {options.runs} runs each, "
              f"alternating, one core (taskset -c 0), whole-process wall time\n")
        header = f"{'task':28} {'input MB':>8} {'ours MB/s':>10} {'peer MB/s':>10} {'ratio':>7} {'peak MiB':>9}  peer"
        print(header)
        print("-" * len(header))
        for name, kind, our_argv, peer_argv, compare, peer_name in tasks:
            source = inputs[kind]
            megabytes = os.path.getsize(source) / 1e6
            our_times, peer_times, peaks = [], [], []
            for _ in range(options.runs):
                seconds, peak = timed(our_argv, source, f"{work}/ours.out")
                our_times.append(seconds)
                peaks.append(peak)
                seconds, _ = timed(peer_argv, source, f"{work}/peer.out")
                peer_times.append(seconds)
            agreement = check(compare, work, source, peer)
            ratios = [p / o for o, p in zip(our_times, peer_times)]
            print(f"{name:28} {megabytes:8.1f} {megabytes / statistics.median(our_times):10.1f} "
                  f"{megabytes / statistics.median(peer_times):10.1f} {statistics.median(ratios):6.2f}× "
                  f"{max(peaks):9.1f}  {peer_name}{'' if agreement else '  OUTPUTS DIFFER'}")

        print("\npeak memory of hangul-compose --keys qwerty as the input grows:")
        with open(inputs["qwerty"], "rb") as f:
            keys = f.read()
        for text_size in options.sizes.split(","):
            target = size(text_size)
            path = f"{work}/sized.keys"
            with open(path, "wb") as f:
                written = 0
                while written < target:
                    piece = keys[: target - written]
                    f.write(piece)
                    written += len(piece)
            seconds, peak = timed([ours("hangul-compose"), "--keys", "qwerty"], path, "/dev/null")
            print(f"  {text_size:>6}: peak {peak:6.1f} MiB, {target / 1e6 / seconds:7.1f} MB/s")
            os.remove(path)

        print("\nreview import:")
        sh(f"{ROOT}/bench/reviews-memory.sh {options.records} | sed 's/^/  /'")

        print("\nreview export to CSV:")
        export_csv(work, options, ours("hangul-reviews"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def review_envelope(path, corpus, count):
    """An API envelope of `count` review records whose contents are the corpus's lines."""
    import json
    with open(corpus, encoding="utf-8") as f:
        lines = [line.strip() for line in f if line.strip()]
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"data":[\n')
        for i in range(count):
            record = {"_id": "%024x" % i, "user": {"_id": "%024x" % (i * 7), "isAdmin": False,
                      "userName": "사용자%d" % i, "profileImage": "https://cdn.example.com/p/%d.png" % i},
                      "theme": "61e8b80c08e35fb8f37c30eb", "parentReview": None, "childReviews": [], "likes": [],
                      "isBuy": i % 2 == 0, "isTop": False, "isCreator": False, "isGhost": False, "hide": False,
                      "content": "Rating: ⭐⭐⭐⭐\nReview: \"%s\"" % lines[i % len(lines)],
                      "createdAt": "2022-07-21T11:53:58.652Z", "updatedAt": "2022-07-21T11:53:58.652Z", "__v": 0}
            out.write(("  " if i == 0 else ",\n  ") + json.dumps(record, ensure_ascii=False))
        out.write("\n]}\n")


def export_csv(work, options, reviews):
    """`export --to csv` against jq's @csv on the same envelope: time, ratio, memory, same rows."""
    import csv
    jq = shutil.which("jq")
    if jq is None:
        print("  skipped: jq is not installed (apt-get install jq)")
        return
    source = f"{work}/envelope.json"
    review_envelope(source, options.corpus, options.records)
    ours_argv = [reviews, "export", "-q", "--to", "csv", "--columns", "_id,user.userName,content,createdAt"]
    jq_argv = [jq, "-r", ".data[] | [._id, .user.userName, .content, .createdAt] | @csv"]
    our_times, jq_times, peaks = [], [], []
    for _ in range(options.runs):
        seconds, peak = timed(ours_argv, source, f"{work}/ours.csv")
        our_times.append(seconds)
        peaks.append(peak)
        seconds, _ = timed(jq_argv, source, f"{work}/jq.csv")
        jq_times.append(seconds)
    with open(f"{work}/ours.csv", newline="", encoding="utf-8") as a, \
            open(f"{work}/jq.csv", newline="", encoding="utf-8") as b:
        same = list(csv.reader(a))[1:] == list(csv.reader(b))
    megabytes = os.path.getsize(source) / 1e6
    ratios = [j / o for o, j in zip(our_times, jq_times)]
    print(f"  {options.records} records, {megabytes:.1f} MB: ours {statistics.median(our_times):.2f} s, "
          f"jq {statistics.median(jq_times):.2f} s, {statistics.median(ratios):.2f}× faster, "
          f"peak {max(peaks):.1f} MiB{'' if same else '  ROWS DIFFER'}")
    os.remove(source)


def check(compare, work, source, peer):
    """Whether our output agrees with the peer's."""
    ours_path, peer_path = f"{work}/ours.out", f"{work}/peer.out"
    if compare == "same":
        return files_equal(ours_path, peer_path)
    if compare in ("nfd", "nfc"):
        # We normalize Hangul only; ICU normalizes everything. Our output put
        # through ICU must give ICU's output.
        flag = "-d" if compare == "nfd" else "-c"
        sh(f"{peer('icu-normalize')} {flag} < {ours_path} > {work}/check.out")
        return files_equal(f"{work}/check.out", peer_path)
    # Key forms: ours must compose back to the input exactly.
    keys = "--keys qwerty" if compare.endswith("qwerty") else ""
    bin_dir = os.path.dirname(subprocess.run(f"cd {ROOT} && swift build -c release --show-bin-path", shell=True,
                                             capture_output=True, text=True).stdout.strip() + "/x")
    sh(f"{bin_dir}/hangul-compose {keys} < {ours_path} > {work}/check.out")
    return files_equal(f"{work}/check.out", source)


def files_equal(a, b):
    return subprocess.run(["cmp", "-s", a, b]).returncode == 0


if __name__ == "__main__":
    main()
