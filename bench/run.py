#!/usr/bin/env python3
"""Benchmarks the hangul tools side by side with their peers.

Usage: bench/run.py [--corpus FILE] [--copies N] [--runs N] [--sizes 1M,100M,1G]
                    [--only compose|decompose|normalize|peers|check|export-csv|jobs|recipes|wrongmode|browser|xml-logs|delimited]
                    [--only-reviews] [--jobs-size 1G] [--wrongmode-size 100M] [--browser-size 100M]
                    [--xml-log-size 100M] [--delimited-size 100M]

Builds our release binaries and the C peers in bench/peers (libhangul's
hangul_ic_process loop, ICU's unorm2_normalize, a plain table-mapping loop),
makes the inputs from the corpus (default ../shared/corpus/ko-prose.txt,
copied 12 times; keys by bench/keys.py, NFD by Python's unicodedata), runs
ours and the peer in turn (A B A B …) on one core, checks that the outputs
agree, and prints MB/s of both, the median ratio ours/peer, and our peak
memory. Then hangul-normalize against ICU's unorm2 and uconv (Korean prose and
a generated mixed-script file, all four forms), hangul-normalize against the
strongest peers in CPU seconds (ICU's Normalizer2::normalizeUTF8 in C++,
unorm2 in C, Python's unicodedata line by line, and a plain read/write copy as
the limit; already-normalized inputs too; --only peers runs these rows alone),
the cost of --verify in every program, hangul-normalize --check against normalizing the same input (CPU
time; --only check runs these rows alone), renaming 100,000 NFD names against convmv on /dev/shm, peak memory of
hangul-compose at each size, and the review import side by side with
`jq -c '.data[]'` and a Python json + unicodedata script
(bench/peers/reviews-nfc.py) on a generated envelope of --records records of
the corpus's prose (bench/reviews.py; every fifth content NFD), then the peak
memory of importing one record with a --big-record MB content, then
`hangul-reviews export --to csv` against jq's @csv on an envelope of --records
records, then --jobs 2 against --jobs 1 on --jobs-size files (all cores) and
against GNU parallel's --pipe, --pipe-part and one-job-a-file recipes on the
same bytes (--only recipes runs these rows alone), and last hangul-wrongmode check and fix on --wrongmode-size of mixed comments
(bench/comments.py), which no peer does in bulk; then a raw browser event stream of --browser-size (Chrome on
Windows: keydown, composition, beforeinput, input and keyup events, about 6 a key; --only browser runs this row
alone): MB/s, peak memory and --jobs 2 against --jobs 1 (no peer replays such streams); then an Inputlog
IDFX and a Translog-II log of --xml-log-size each (the same keys as the browser row, one document a file;
--only xml-logs runs these rows alone): MB/s on one core and peak memory, which must stay within 16 MiB.
Then the researchers' delimited files of --delimited-size each (--format snapshots, aalto, lwp, the same
sentences typed; --only delimited runs these rows alone): MB/s and peak memory, outputs checked against the typed
text (one thread: their records need the header line).
A peer that is not installed is skipped with a note.
"""
import argparse
import json
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
                                  "taskset", "-c", "0"] + argv, stdin=source, stdout=sink,
                                 stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        kilobytes = int(report.read().split()[-1])
    if status != 0:
        sys.exit(f"failed: {' '.join(argv)}")
    return seconds, kilobytes / 1024


def timed_cpu(argv, stdin_path, stdout_path):
    """Like timed, also the CPU seconds (user + system), steadier than wall time on a loaded machine."""
    # CPU time from wait4(2) (microseconds; /usr/bin/time prints hundredths,
    # too coarse for runs of 20 ms); it includes /usr/bin/time's and
    # taskset's own start-up, well under a millisecond. Peak memory from
    # /usr/bin/time, as in timed.
    with open(stdin_path, "rb") as source, open(stdout_path, "wb") as sink, \
            tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        child = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", report.name,
                                  "taskset", "-c", "0"] + argv, stdin=source, stdout=sink,
                                 stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        kilobytes = report.read().split()[-1]
    if child.returncode != 0:
        sys.exit(f"failed: {' '.join(argv)}")
    return seconds, usage.ru_utime + usage.ru_stime, int(kilobytes) / 1024


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
    parser.add_argument("--big-record", type=int, default=50)
    parser.add_argument("--only-reviews", action="store_true", help="run only the review import")
    parser.add_argument("--only", choices=["compose", "decompose", "normalize", "peers", "check", "export-csv", "jobs", "recipes", "wrongmode",
                                             "browser", "xml-logs", "delimited"],
                        help="run only this part")
    parser.add_argument("--browser-size", default="100M", help="input size of the browser event stream row")
    parser.add_argument("--xml-log-size", default="100M", help="input size of the IDFX and Translog-II rows")
    parser.add_argument("--delimited-size", default="100M", help="input size of each delimited log row")
    parser.add_argument("--jobs-size", default="1G", help="input size of the --jobs section")
    parser.add_argument("--wrongmode-size", default="100M", help="input size of the hangul-wrongmode rows")
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
        if options.only == "wrongmode":
            wrongmode_section(options, work, lambda name: os.path.join(bin_dir, name))
            return
        peers = os.path.join(ROOT, "bench", "peers")
        sh(f"cc -O2 -o {work}/libhangul-compose {peers}/libhangul-compose.c $(pkg-config --cflags --libs libhangul)")
        sh(f"cc -O2 -o {work}/icu-normalize {peers}/icu-normalize.c $(pkg-config --cflags --libs icu-uc)")
        sh(f"cc -O2 -o {work}/table-map {peers}/table-map.c")
        sh(f"c++ -O2 -o {work}/icu-normalize-utf8 {peers}/icu-normalize-utf8.cpp $(pkg-config --cflags --libs icu-uc)")
        sh(f"cc -O2 -o {work}/copy {peers}/copy.c")
        ours = lambda name: os.path.join(bin_dir, name)
        peer = lambda name: os.path.join(work, name)

        with open(options.corpus, "rb") as corpus:
            text = corpus.read() * options.copies
        inputs = {"text": f"{work}/text.txt"}
        with open(inputs["text"], "wb") as f:
            f.write(text)
        if options.only == "recipes":
            parallel_recipes(options, work, ours, inputs)
            return
        if options.only == "check":
            inputs["nfd"] = f"{work}/nfd.txt"
            with open(inputs["nfd"], "wb") as f:
                f.write(unicodedata.normalize("NFD", text.decode("utf-8")).encode("utf-8"))
            check_section(options, work, ours, inputs)
            return
        if options.only == "browser":
            inputs["qwerty"] = f"{work}/qwerty.keys"
            sh(f"python3 {ROOT}/bench/keys.py qwerty < {inputs['text']} > {inputs['qwerty']}")
            browser_section(options, work, ours, inputs)
            return
        if options.only == "xml-logs":
            inputs["qwerty"] = f"{work}/qwerty.keys"
            sh(f"python3 {ROOT}/bench/keys.py qwerty < {inputs['text']} > {inputs['qwerty']}")
            xml_logs_section(options, work, ours, inputs)
            return
        if options.only == "delimited":
            inputs["qwerty"] = f"{work}/qwerty.keys"
            sh(f"python3 {ROOT}/bench/keys.py qwerty < {inputs['text']} > {inputs['qwerty']}")
            delimited_section(options, work, ours, inputs)
            return
        for kind in ("qwerty", "jamo"):
            inputs[kind] = f"{work}/{kind}.keys"
            sh(f"python3 {ROOT}/bench/keys.py {kind} < {inputs['text']} > {inputs[kind]}")
        inputs["3f"] = f"{work}/3f.keys"
        sh(f"python3 {ROOT}/bench/keys.py {ROOT}/keyboards/hangul-keyboard-3f.xml < {inputs['text']} > {inputs['3f']}")
        inputs["nfd"] = f"{work}/nfd.txt"
        with open(inputs["nfd"], "wb") as f:
            f.write(unicodedata.normalize("NFD", text.decode("utf-8")).encode("utf-8"))

        if options.only == "jobs":
            jobs_section(options, work, ours, inputs)
            return
        if options.only == "peers":
            inputs["mixed"] = f"{work}/mixed.txt"
            with open(inputs["mixed"], "wb") as f:
                f.write(mixed_text(text))
            strongest_peers_section(options, work, ours, peer, inputs, text)
            return
        if options.only == "normalize":
            normalize_section(options, work, ours, peer, inputs, text)
            return
        # task: (name, input, our argv, peer argv, how to compare, size basis)
        tasks = [
            ("2-set QWERTY keys → text", "qwerty", [ours("hangul-compose"), "--keys", "qwerty"],
             [peer("libhangul-compose")], "same", "libhangul"),
            ("jamo keys → text", "jamo", [ours("hangul-compose")], [peer("libhangul-compose"), "-j"], "same", "libhangul"),
            ("3-set (3f) keys → text", "3f", [ours("hangul-compose"), "--keys", "qwerty", "--keyboard", "3f"],
             [peer("libhangul-compose"), "-k", "3f"], "same", "libhangul 3f"),
            ("text → NFD", "text", [ours("hangul-decompose"), "--to", "nfd"], [peer("icu-normalize"), "-d"],
             "nfd", "ICU unorm2 NFD"),
            ("NFD → text (NFC)", "nfd", [ours("hangul-compose")], [peer("icu-normalize"), "-c"], "nfc", "ICU unorm2 NFC"),
            ("text → keys", "text", [ours("hangul-decompose"), "--to", "keys"], [peer("table-map"), "-k"], "roundtrip-jamo",
             "C table loop"),
            ("text → QWERTY", "text", [ours("hangul-decompose"), "--to", "qwerty"], [peer("table-map"), "-q"],
             "roundtrip-qwerty", "C table loop"),
        ]
        # The inputs just written (about 300 MB) would be written back to
        # disk some 30 s from now, in the middle of the first rows: written
        # back now, before anything is timed.
        os.sync()
        print(f"machine: {os.cpu_count()} cores, {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}")
        if options.only_reviews:
            reviews(options, ours, work)
            return
        print(f"input: {options.corpus} × {options.copies} = {len(text) / 1e6:.1f} MB; {options.runs} runs each, "
              f"alternating, one core (taskset -c 0), whole-process wall time\n")
        header = f"{'task':28} {'input MB':>8} {'ours MB/s':>10} {'peer MB/s':>10} {'ratio':>7} {'peak MiB':>9}  peer"
        print(header)
        print("-" * len(header))
        for name, kind, our_argv, peer_argv, compare, peer_name in tasks:
            # --only decompose: the rows of hangul-decompose and of NFD → NFC.
            if options.only == "decompose" and kind in ("qwerty", "jamo", "3f"):
                continue
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
            if options.only == "compose" and kind == "3f":
                return
        if options.only == "decompose":
            return

        normalize_section(options, work, ours, peer, inputs, text)

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

        reviews(options, ours, work)

        print("\nreview export to CSV:")
        export_csv(work, options, ours("hangul-reviews"))

        jobs_section(options, work, ours, inputs)

        wrongmode_section(options, work, ours)

        browser_section(options, work, ours, inputs)

        xml_logs_section(options, work, ours, inputs)
        delimited_section(options, work, ours, inputs)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def reviews(options, ours, work):
    """hangul-reviews import against jq and Python on the same envelope; then one big record."""
    envelope = f"{work}/envelope.json"
    sh(f"python3 {ROOT}/bench/reviews.py envelope {options.records} '{options.corpus}' > {envelope}")
    megabytes = os.path.getsize(envelope) / 1e6
    print(f"\nreview import: {options.records} records, {megabytes:.1f} MB envelope of the corpus's prose "
          f"(every fifth content NFD); {options.runs} runs each, alternating, one core")
    header = (f"{'peer':31} {'ours MB/s':>10} {'peer MB/s':>10} {'ratio':>7} {'CPU ratio':>9} "
              f"{'ours MiB':>9} {'peer MiB':>9}")
    print(header)
    print("-" * len(header))
    ours_argv = [ours("hangul-reviews"), "import"]
    peers = [("jq -c '.data[]'", ["jq", "-c", ".data[]"], shutil.which("jq")),
             ("Python json + unicodedata NFC", ["python3", f"{ROOT}/bench/peers/reviews-nfc.py"],
              shutil.which("python3"))]
    for name, argv, found in peers:
        if not found:
            print(f"{name:31} skipped: {argv[0]} is not installed")
            continue
        our_times, peer_times, our_peaks, peer_peaks, cpu_ratios = [], [], [], [], []
        for _ in range(options.runs):
            seconds, our_cpu, peak = timed_cpu(ours_argv, envelope, f"{work}/ours.out")
            our_times.append(seconds)
            our_peaks.append(peak)
            seconds, peer_cpu, peak = timed_cpu(argv, envelope, f"{work}/peer.out")
            peer_times.append(seconds)
            peer_peaks.append(peak)
            cpu_ratios.append(peer_cpu / our_cpu)
        same = sh_output(f"wc -l < {work}/ours.out") == sh_output(f"wc -l < {work}/peer.out")
        if argv[0] == "python3":
            same = files_equal(f"{work}/ours.out", f"{work}/peer.out")
        ratios = [p / o for o, p in zip(our_times, peer_times)]
        print(f"{name:31} {megabytes / statistics.median(our_times):10.1f} "
              f"{megabytes / statistics.median(peer_times):10.1f} {statistics.median(ratios):6.2f}× "
              f"{statistics.median(cpu_ratios):8.2f}× "
              f"{max(our_peaks):9.1f} {max(peer_peaks):9.1f}{'' if same else '  OUTPUTS DIFFER'}")
    os.remove(envelope)
    big = f"{work}/big.json"
    sh(f"python3 {ROOT}/bench/reviews.py big {options.big_record} '{options.corpus}' > {big}")
    size_mib = os.path.getsize(big) / (1 << 20)
    seconds, peak = timed(ours_argv, big, "/dev/null")
    print(f"one record of {size_mib:.1f} MiB: peak {peak:.1f} MiB (bound 2 × size + 16 = "
          f"{2 * size_mib + 16:.1f} MiB), {seconds:.2f} s")
    os.remove(big)


def sh_output(command):
    return subprocess.run(command, shell=True, check=True, capture_output=True, text=True).stdout.strip()
MIXED_PHRASES = [
    "Crème brûlée, café au lait, naïve façade, Ångström, jalapeño, Øresund",
    "Tiếng Việt có dấu: người, những, được, phở bò, Hà Nội, Đà Nẵng",
    "Ελληνικά: καλημέρα, ἀρχή, ὦ φίλε, Ἀθῆναι, ῥήτωρ",
    "emoji 👍🏽 👨‍👩‍👧 ❤️ 🇰🇷 😀",
    "combining: e\u0301 a\u0308 o\u0323\u0302 A\u030A n\u0303 q\u0307\u0323",
    "ﬁ ① ㈜ ㎏ Ⅻ ｶﾀｶﾅ ＡＢＣ ㄱㅅ ㄳ",
]


def wrongmode_section(options, work, ours):
    """hangul-wrongmode check and fix on mixed comments, one core: MB/s and peak memory."""
    words = "/usr/share/dict/words"
    if not os.path.exists(words):
        print("\nhangul-wrongmode: skipped (no /usr/share/dict/words: apt-get install wamerican)")
        return
    source = f"{work}/comments.txt"
    sh(f"python3 {ROOT}/bench/comments.py {options.corpus} {words} {ours('hangul-compose')} "
       f"{size(options.wrongmode_size)} > {source}")
    megabytes = os.path.getsize(source) / 1e6
    print(f"\nhangul-wrongmode on {megabytes:.1f} MB of mixed comments (bench/comments.py), one core "
          f"(taskset -c 0), median of {options.runs} runs; CPU is user + system")
    header = f"{'task':28} {'MB/s':>8} {'MB/s CPU':>9} {'peak MiB':>9} {'spans':>9}"
    print(header)
    print("-" * len(header))
    for name, argv in [("check (spans → stdout)", [ours("hangul-wrongmode"), "check"]),
                       ("fix (text → stdout)", [ours("hangul-wrongmode"), "fix"])]:
        walls, cpus, peaks = [], [], []
        for _ in range(options.runs):
            wall, cpu, peak = timed_cpu_status(argv + [source], "/dev/null", f"{work}/wrongmode.out")
            walls.append(wall)
            cpus.append(cpu)
            peaks.append(peak)
        spans = ""
        if argv[-1] == "check":
            with open(f"{work}/wrongmode.out", "rb") as f:
                spans = str(sum(1 for _ in f))
        print(f"{name:28} {megabytes / statistics.median(walls):8.1f} "
              f"{megabytes / statistics.median(cpus):9.1f} {max(peaks):9.1f} {spans:>9}")


def timed_cpu_status(argv, stdin_path, stdout_path):
    """timed_cpu for a program whose exit status 1 is an answer (check found spans)."""
    with open(stdin_path, "rb") as source, open(stdout_path, "wb") as sink, \
            tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        status = subprocess.call(["/usr/bin/time", "-f", "%M %U %S", "-o", report.name,
                                  "taskset", "-c", "0"] + argv, stdin=source, stdout=sink,
                                 stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        kilobytes, user, system = report.read().split()[-3:]
    if status not in (0, 1):
        sys.exit(f"failed: {' '.join(argv)}")
    return seconds, float(user) + float(system), int(kilobytes) / 1024


def cpu_seconds(argv, stdin_path, stdout_path, stderr_path):
    """CPU seconds (user + system) of argv on one core, to the microsecond
    (wait4's rusage; /usr/bin/time rounds to 10 ms), and its exit status."""
    with open(stdin_path, "rb") as source, open(stdout_path, "wb") as sink, \
            open(stderr_path, "wb") as errors:
        child = subprocess.Popen(["taskset", "-c", "0"] + argv, stdin=source, stdout=sink, stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def check_section(options, work, ours, inputs):
    """hangul-normalize --check against hangul-normalize on the same input
    (SPEC §6: at least as fast): CPU seconds, median of --runs, alternating;
    --check's messages are written to a file, as normalizing's output is."""
    print("\nhangul-normalize --check against normalizing the same input "
          "(median CPU seconds, user + system; target: check ≤ normalize)")
    header = f"{'input':24} {'MB':>7} {'normalize s':>12} {'--check s':>10} {'ratio':>7} {'lines reported':>15}"
    print(header)
    print("-" * len(header))
    for name, kind in [("Korean prose, NFC", "text"), ("Korean prose, NFD", "nfd")]:
        source = inputs[kind]
        normalize, check = [], []
        for _ in range(options.runs):
            seconds, status = cpu_seconds([ours("hangul-normalize")], source, f"{work}/normalized.out",
                                          f"{work}/normalized.err")
            if status != 0:
                sys.exit(f"failed: hangul-normalize < {source}")
            normalize.append(seconds)
            seconds, status = cpu_seconds([ours("hangul-normalize"), "--check"], source,
                                          f"{work}/check.out", f"{work}/check.err")
            if status not in (0, 1):
                sys.exit(f"failed: hangul-normalize --check < {source}")
            check.append(seconds)
        with open(f"{work}/check.err", "rb") as f:
            reported = sum(1 for line in f if b": not NFC" in line)
        ours_median, check_median = statistics.median(normalize), statistics.median(check)
        print(f"{name:24} {os.path.getsize(source) / 1e6:7.1f} {ours_median:12.4f} {check_median:10.4f} "
              f"{check_median / ours_median:6.2f}× {reported:15,}"
              f"{'' if os.path.getsize(f'{work}/check.out') == 0 else '  WROTE ON STANDARD OUTPUT'}")


def mixed_text(text):
    """The corpus with a line of other scripts after every fifth line, half of
    them in NFD (so that every form has work to do)."""
    lines = text.decode("utf-8").split("\n")
    out = []
    for number, line in enumerate(lines):
        out.append(line)
        if number % 5 == 4:
            phrase = MIXED_PHRASES[(number // 5) % len(MIXED_PHRASES)]
            out.append(unicodedata.normalize("NFD", phrase) if number % 2 else phrase)
    return "\n".join(out).encode("utf-8")


def jobs_section(options, work, ours, inputs):
    """--jobs 2 against --jobs 1 on a --jobs-size file, on every core (no taskset)."""
    target = size(options.jobs_size)
    cores = os.cpu_count()
    print(f"\n--jobs on {options.jobs_size} files ({cores} cores, no taskset; input a file argument, "
          f"output to /dev/null; median of {options.runs} runs, alternating; outputs checked equal by SHA-256)")
    header = f"{'task':28} {'jobs 1 MB/s':>11} {'jobs 2 MB/s':>11} {'speed-up':>9} {'peak MiB j2':>12}"
    print(header)
    print("-" * len(header))
    tasks = [
        ("2-set QWERTY keys → text", "qwerty", [ours("hangul-compose"), "--keys", "qwerty"]),
        ("text → NFD", "text", [ours("hangul-decompose"), "--to", "nfd"]),
        ("text → keys", "text", [ours("hangul-decompose")]),
        ("NFD → NFC (normalize)", "nfd", [ours("hangul-normalize")]),
        ("key events → text", "events", [ours("hangul-compose"), "--format", "events"]),
        ("review import", "reviews", [ours("hangul-reviews"), "import", "-q"]),
    ]
    # An event log from the jamo keys: one {"key":…} a line, a new "doc" every 20 lines of text.
    inputs = dict(inputs, events=f"{work}/events.jsonl")
    with open(inputs["jamo"], encoding="utf-8") as source, open(inputs["events"], "w", encoding="utf-8") as f:
        for number, line in enumerate(source.read(4_000_000).splitlines()):
            document = f',"doc":{number // 20}'
            for key in line:
                f.write(f'{{"key":{json.dumps(key, ensure_ascii=False)}{document}}}\n')
                document = ""
            f.write('{"key":"Enter"}\n')
    # A review envelope of the corpus's prose (bench/reviews.py: one record a line, every fifth content
    # NFD), as large as the other inputs: the records are repeated, the envelope kept whole.
    inputs["reviews"] = f"{work}/reviews-jobs.json"
    sh(f"python3 {ROOT}/bench/reviews.py envelope 20000 '{options.corpus}' > {work}/reviews-unit.json")
    with open(f"{work}/reviews-unit.json", "rb") as f:
        unit = f.read()
    first, last = unit.index(b"[\n") + 2, unit.rindex(b"\n],")
    body = unit[first:last]
    with open(inputs["reviews"], "wb") as f:
        f.write(unit[:first])
        written = first
        while written < target:
            f.write(body if written == first else b",\n" + body)
            written += len(body) + 2
        f.write(unit[last:])
    for name, kind, argv in tasks:
        path = f"{work}/jobs-input"
        if kind == "reviews":
            os.replace(inputs[kind], path)
            # Written just before: its write-out would compete with the first timed runs.
            os.sync()
        else:
            with open(inputs[kind], "rb") as f:
                data = f.read()
            cut = data.rfind(b"\n") + 1
            data = data[:cut] or data
            write_repeated(data, path, target)
            # The system writes the new file out now, not during the first timed runs.
            os.sync()
        one, two, peak, same = jobs_one_and_two(argv, path, options.runs, peak_of="2")
        megabytes = os.path.getsize(path) / 1e6
        print(f"{name:28} {megabytes / one:11.1f} {megabytes / two:11.1f} {one / two:8.2f}× {peak:12.1f}"
              f"{'' if same else '  OUTPUTS DIFFER'}")
        os.remove(path)
    parallel_recipes(options, work, ours, inputs)


def browser_events(keystrokes):
    """The events Chrome on Windows fires for one key of `hangul-compose --output keystrokes` (its preedit
    and commit): keydown Process with the physical code, the composition's events, beforeinput and input,
    keyup; a key the input method does not take is a plain keydown and an insertText."""
    key, commit, preedit = keystrokes["key"], keystrokes["commit"], keystrokes["preedit"]
    quoted = lambda text: json.dumps(text, ensure_ascii=False)
    if len(key) == 1 and key.isalpha():
        code = "Key" + key.upper()
        shift = "true" if key.isupper() else "false"
        events = [f'{{"type":"keydown","key":"Process","code":"{code}","keyCode":229,"shiftKey":{shift}}}']
        if commit:
            events.append(f'{{"type":"compositionend","data":{quoted(commit)}}}')
            events.append('{"type":"compositionstart","data":""}')
        events.append(f'{{"type":"compositionupdate","data":{quoted(preedit)}}}')
        events.append(f'{{"type":"beforeinput","inputType":"insertCompositionText","data":{quoted(preedit)}}}')
        events.append(f'{{"type":"input","inputType":"insertCompositionText","data":{quoted(preedit)}}}')
        events.append(f'{{"type":"keyup","key":"Process","code":"{code}","keyCode":229}}')
        return events
    name = "Enter" if key == "Enter" else key
    events = [f'{{"type":"keydown","key":{quoted(name)},"keyCode":{13 if key == "Enter" else 0}}}']
    if key == "Enter":
        events.append('{"type":"input","inputType":"insertLineBreak"}')
    else:
        events.append(f'{{"type":"input","inputType":"insertText","data":{quoted(key)}}}')
    events.append(f'{{"type":"keyup","key":{quoted(name)}}}')
    return events


def browser_section(options, work, ours, inputs):
    """A raw browser event stream of --browser-size: MB/s and peak memory, and --jobs 2 against --jobs 1
    (every core), outputs checked equal."""
    target = size(options.browser_size)
    with open(inputs["qwerty"], "rb") as f:
        keys = f.read(2_000_000)
    keys = keys[: keys.rfind(b"\n") + 1]
    recorded = subprocess.run([ours("hangul-compose"), "--keys", "qwerty", "--output", "keystrokes"], input=keys,
                              check=True, capture_output=True).stdout.decode("utf-8")
    lines, document, events = [], 0, 0
    for number, line in enumerate(recorded.splitlines()):
        keystrokes = json.loads(line)
        for index, event in enumerate(browser_events(keystrokes)):
            # A new document every 200 keys, at a keydown: the piece boundary of --jobs.
            if index == 0 and number % 200 == 0:
                document += 1
                event = f'{{"doc":{document},' + event[1:]
            lines.append(event)
            events += 1
    unit = ("\n".join(lines) + "\n").encode("utf-8")
    path = f"{work}/browser.jsonl"
    write_repeated(unit, path, target)
    os.sync()
    megabytes = os.path.getsize(path) / 1e6
    print(f"\nbrowser event stream ({options.browser_size}, Chrome on Windows, {events / len(recorded.splitlines()):.1f} "
          f"events a key, a document every 200 keys; median of {options.runs} runs)")
    header = f"{'task':28} {'input MB':>8} {'jobs 1 MB/s':>11} {'peak MiB':>9} {'jobs 2 MB/s':>11} {'speed-up':>9}"
    print(header)
    print("-" * len(header))
    argv = [ours("hangul-compose"), "--format", "events"]
    one, two, peak, same = jobs_one_and_two(argv, path, options.runs, peak_of="1")
    print(f"{'browser events → text':28} {megabytes:8.1f} {megabytes / one:11.1f} {peak:9.1f} {megabytes / two:11.1f} "
          f"{one / two:8.2f}×{'' if same else '  OUTPUTS DIFFER'}")
    os.remove(path)


def xml_log_events(keys, format):
    """The keys and their events, one a key, of an Inputlog IDFX or a Translog-II log typing `keys` (QWERTY key positions of
    2-set, a newline Enter) over and over, 90 ms apart: virtual keys / Translog IME keys, spaces and Enter as
    such, anything else as its character."""
    index = -1
    while True:
        for key in keys:
            index += 1
            yield key, xml_log_event(key, index, format)


def xml_log_event(key, index, format):
    """One key's event in an IDFX or Translog-II log (xml_log_events)."""
    escaped = key.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    if format == "idfx":
        if key.isascii() and key.isalpha():
            name, value = "VK_" + key.upper(), key
        else:
            name, value = {" ": ("VK_SPACE", " "), "\n": ("VK_RETURN", "")}.get(key, ("NONE", escaped))
        return (f'    <event id="{index}" type="keyboard">\n'
                f'        <part type="wordlog"><documentLength>{index + 1}</documentLength></part>\n'
                f'        <part type="winlog">\n            <startTime>{index * 90}</startTime>\n'
                f'            <key>{name}</key>\n            <value>{value}</value>\n'
                f'        </part>\n    </event>\n')
    if key.isascii() and key.isalpha():
        return f'    <Key Time="{index * 90}" Type="IME" Value="{key}" />\n'
    if key == "\n":
        return f'    <Key Time="{index * 90}" Type="return" Value="[Return]" />\n'
    return f'    <Key Time="{index * 90}" Type="insert" Value="{escaped}" />\n'


def xml_logs_section(options, work, ours, inputs):
    """An Inputlog IDFX and a Translog-II log of --xml-log-size each, one document a file, one core: MB/s and
    peak memory (bound 16 MiB), the text checked against the same keys composed as a text log."""
    target = size(options.xml_log_size)
    with open(inputs["qwerty"], "rb") as f:
        keys = f.read(2_000_000)
    keys = keys[: keys.rfind(b"\n") + 1].decode("utf-8")
    print(f"\nresearch loggers' XML logs ({options.xml_log_size} each, one document a file, one core "
          f"(taskset -c 0), median of {options.runs} runs; peak bound 16 MiB)")
    header = f"{'task':28} {'input MB':>8} {'MB/s':>8} {'peak MiB':>9} {'keys':>11}"
    print(header)
    print("-" * len(header))
    heads = {"idfx": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<log>\n',
             "translog": '<?xml version="1.0" encoding="utf-8"?>\n<LogFile>\n  <Events>\n'}
    tails = {"idfx": "</log>\n", "translog": "  </Events>\n</LogFile>\n"}
    for format in ("idfx", "translog"):
        path = f"{work}/log.{format}"
        count = 0
        with open(path, "w", encoding="utf-8") as f:
            f.write(heads[format])
            written = 0
            # Whole lines: a text log's unended last line would be written without its newline.
            for key, event in xml_log_events(keys, format):
                f.write(event)
                written += len(event.encode("utf-8"))
                count += 1
                if written >= target and key == "\n":
                    break
            f.write(tails[format])
        megabytes = os.path.getsize(path) / 1e6
        argv = [ours("hangul-compose"), "--format", format, path]
        times, peak = [], 0.0
        for _ in range(options.runs):
            seconds, memory = timed(argv, "/dev/null", f"{work}/{format}.out")
            times.append(seconds)
            peak = max(peak, memory)
        # The same keys as a text log (whole copies of them, then the rest) must give the same text.
        typed = keys * (count // len(keys)) + keys[: count % len(keys)]
        with open(f"{work}/typed.keys", "w", encoding="utf-8") as f:
            f.write(typed)
        timed([ours("hangul-compose"), "--keys", "qwerty"], f"{work}/typed.keys", f"{work}/typed.out")
        same = files_equal(f"{work}/{format}.out", f"{work}/typed.out")
        print(f"{format + ' → text':28} {megabytes:8.1f} {megabytes / statistics.median(times):8.1f} "
              f"{peak:9.1f} {count:11,}{'' if peak <= 16 else '  OVER 16 MiB'}{'' if same else '  OUTPUTS DIFFER'}")
def delimited_logs(recorded):
    """The sentences of `hangul-compose --output keystrokes` (one a line of keys) as the three delimited
    formats: a list of (snapshots TSV rows, aalto TSV rows, lwp CSV rows, the text the sentence shows at its
    end), one a sentence."""
    from keys import QWERTY
    jamo_of = {letter: jamo for jamo, letter in QWERTY.items()}
    sentences, rows = [], ([], [], [])
    section, shown, committed, time_ms = 1, "", "", 1_500_000_000_000
    for line in recorded.splitlines():
        keystroke = json.loads(line)
        key = keystroke["key"]
        if key == "Enter":
            if shown:
                sentences.append(rows + (shown,))
                section += 1
            rows, shown, committed = ([], [], []), "", ""
            continue
        time_ms += 150
        committed += keystroke["commit"]
        shown = committed + keystroke["preedit"]
        rows[0].append(f"{section}\t{time_ms}\t{time_ms}\tUnidentified\t{shown}")
        code = ord(key.upper()) if key.isascii() and key.isalpha() else 32 if key == " " else 0
        rows[1].append(f"1\t{section}\tsentence {section}\t\t{time_ms}\t{time_ms}\t{time_ms + 80}\t{key}\t{code}")
        change = jamo_of.get(key, jamo_of.get(key.lower(), key))
        change = '","' if change == "," else '""""' if change == '"' else change
        rows[2].append(f"{section},{time_ms},{time_ms},{time_ms + 80},80,Input,q,q,{change},{len(shown)},0")
    return sentences


def delimited_section(options, work, ours, inputs):
    """The researchers' delimited files of --delimited-size, the same sentences (the corpus's lines, up to 120
    keys each) in each format: MB/s (median of --runs) and peak memory; the output checked against the text
    typed."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    target = size(options.delimited_size)
    with open(inputs["qwerty"], "rb") as f:
        keys = f.read(2_000_000)
    keys = b"".join(line[:120].rstrip(b"\n").replace(b"\t", b" ") + b"\n"
                    for line in keys.splitlines(keepends=True)[:-1])
    recorded = subprocess.run([ours("hangul-compose"), "--keys", "qwerty", "--output", "keystrokes"], input=keys,
                              check=True, capture_output=True).stdout.decode("utf-8")
    sentences = delimited_logs(recorded)
    headers = {
        "snapshots": "TEST_SECTION_ID\tLOG_DATA_ID\tTIMESTAMP\tKEY\tINPUT",
        "aalto": "PARTICIPANT_ID\tTEST_SECTION_ID\tSENTENCE\tUSER_INPUT\tKEYSTROKE_ID\tPRESS_TIME\tRELEASE_TIME"
                 "\tLETTER\tKEYCODE",
        "lwp": "id,event_id,down_time,up_time,action_time,activity,down_event,up_event,text_change,cursor_position,"
               "word_count",
    }
    print(f"\ndelimited keystroke logs ({options.delimited_size} each, the corpus's lines as sentences of up to "
          f"120 keys, repeated; median of {options.runs} runs, one thread)")
    header = f"{'task':28} {'input MB':>8} {'MB/s':>8} {'peak MiB':>9}"
    print(header)
    print("-" * len(header))
    for column, name in enumerate(("snapshots", "aalto", "lwp")):
        # Sentences up to 8 MB (or the whole size), written again and again: every copy is the same
        # documents again (their section numbers come back), and the output the same texts.
        unit, texts, length = [], [], 0
        for sentence in sentences:
            piece = ("\n".join(sentence[column]) + "\n").encode("utf-8")
            if length + len(piece) > min(target, 8_000_000):
                break
            unit.append(piece)
            texts.append(sentence[3])
            length += len(piece)
        unit = b"".join(unit)
        path = f"{work}/{name}.log"
        copies = max(1, target // len(unit))
        with open(path, "wb") as f:
            f.write((headers[name] + "\n").encode("utf-8"))
            for _ in range(copies):
                f.write(unit)
        megabytes = os.path.getsize(path) / 1e6
        argv = [ours("hangul-compose"), "--format", name, path]
        expected = ("\n".join(texts) + "\n") * copies
        output = subprocess.run(argv, check=True, capture_output=True).stdout.decode("utf-8")
        times, peak = [], 0.0
        for _ in range(options.runs):
            with tempfile.NamedTemporaryFile("r") as report:
                start = time.perf_counter()
                status = subprocess.call(["/usr/bin/time", "-f", "%M", "-o", report.name] + argv,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times.append(time.perf_counter() - start)
                peak = max(peak, int(report.read().split()[-1]) / 1024)
            if status != 0:
                sys.exit(f"failed: {' '.join(argv)}")
        seconds = statistics.median(times)
        print(f"{name + ' → text':28} {megabytes:8.1f} {megabytes / seconds:8.1f} {peak:9.1f}"
              f"{'' if output == expected else '  OUTPUT DIFFERS FROM THE TYPED TEXT'}")
        os.remove(path)


def write_repeated(data, path, target):
    """Writes `data` (whole lines) over and over to `path` until `target`
    bytes, the last copy cut after a newline: the file ends with a whole
    line (an event log's last line must be whole JSON)."""
    with open(path, "wb") as f:
        written = 0
        while written < target:
            piece = data[: target - written]
            if len(piece) < len(data):
                piece = piece[: piece.rfind(b"\n") + 1]
                f.write(piece)
                break
            f.write(piece)
            written += len(piece)


def parallel_recipes(options, work, ours, inputs):
    """GNU parallel's ways of cutting one file (--pipe, --pipe-part) and many
    files (one job a file) against --jobs 2, both cores, on the same input,
    output to /dev/null, median wall seconds; outputs checked equal."""
    if shutil.which("parallel") is None:
        print("\nGNU parallel recipes: skipped (no parallel)")
        return
    target = size(options.jobs_size)
    path = f"{work}/recipes-input"
    with open(inputs["text"], "rb") as f:
        data = f.read()
    data = data[: data.rfind(b"\n") + 1]
    write_repeated(data, path, target)
    # The same bytes as eight files, for the one-job-a-file recipes.
    parts = []
    with open(path, "rb") as f:
        whole = f.read()
    cut = 0
    for index in range(8):
        end = len(whole) if index == 7 else whole.index(b"\n", len(whole) * (index + 1) // 8) + 1
        parts.append(f"{work}/recipes-part{index}")
        with open(parts[-1], "wb") as f:
            f.write(whole[cut:end])
        cut = end
    del whole
    os.sync()
    megabytes = os.path.getsize(path) / 1e6
    runs = min(options.runs, 3)
    print(f"\nGNU parallel recipes against --jobs 2 on one {megabytes:.0f} MB file (and the same bytes as "
          f"8 files), both cores, output to /dev/null; median of {runs} wall seconds; outputs checked equal")
    header = f"{'task':22} {'recipe':58} {'seconds':>8} {'MB/s':>8} {'vs --jobs 2':>12}"
    print(header)
    print("-" * len(header))
    for name, argv in [("text → NFD", [ours("hangul-decompose"), "--to", "nfd"]),
                       ("text → NFC (already)", [ours("hangul-normalize")])]:
        program = " ".join(argv)
        short = " ".join([os.path.basename(argv[0])] + argv[1:])
        recipes = [
            (f"{short} --jobs 2 FILE", f"{program} --jobs 2 {path}"),
            ("parallel --pipe-part -a FILE --block -1 -k -j2 …",
             f"parallel --pipe-part -a {path} --block -1 --keep-order -j2 {program}"),
            ("parallel --pipe-part -a FILE --block 10M -k -j2 …",
             f"parallel --pipe-part -a {path} --block 10M --keep-order -j2 {program}"),
            ("parallel --pipe --block 10M -k -j2 … < FILE",
             f"parallel --pipe --block 10M --keep-order -j2 {program} < {path}"),
            (f"{short} --jobs 2 FILE1 … FILE8", f"{program} --jobs 2 {' '.join(parts)}"),
            ("parallel -k -j2 … ::: FILE1 … FILE8",
             f"parallel --keep-order -j2 {program} ::: {' '.join(parts)}"),
        ]
        digests = set()
        for _, command in recipes:
            digests.add(subprocess.run(command + " | sha256sum", shell=True, check=True,
                                       capture_output=True, text=True).stdout)
        times = {label: [] for label, _ in recipes}
        for _ in range(runs):
            for label, command in recipes:
                start = time.perf_counter()
                subprocess.run(command + " > /dev/null", shell=True, check=True, stderr=subprocess.DEVNULL)
                times[label].append(time.perf_counter() - start)
        ours_seconds = statistics.median(times[recipes[0][0]])
        for label, _ in recipes:
            seconds = statistics.median(times[label])
            print(f"{name:22} {label:58} {seconds:8.2f} {megabytes / seconds:8.1f} {ours_seconds / seconds:11.2f}×"
                  f"{'' if len(digests) == 1 else '  OUTPUTS DIFFER'}")
            name = ""
    for part in parts + [path]:
        os.remove(part)


def jobs_one_and_two(argv, path, runs, peak_of):
    """Runs argv on path with --jobs 1 and 2, alternating, no taskset (--jobs 2 needs two cores):
    (median seconds of 1, of 2, peak MiB of the runs with --jobs peak_of, whether both outputs agree)."""
    digests = set()
    for jobs in ("1", "2"):
        digests.add(subprocess.run(" ".join(argv + ["--jobs", jobs, path]) + " | sha256sum", shell=True,
                                   check=True, capture_output=True, text=True).stdout)
    times = {"1": [], "2": []}
    peak = 0.0
    for _ in range(runs):
        for jobs in ("1", "2"):
            with tempfile.NamedTemporaryFile("r") as report:
                start = time.perf_counter()
                status = subprocess.call(["/usr/bin/time", "-f", "%M", "-o", report.name] + argv
                                         + ["--jobs", jobs, path], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
                times[jobs].append(time.perf_counter() - start)
                if jobs == peak_of:
                    peak = max(peak, int(report.read().split()[-1]) / 1024)
            if status != 0:
                sys.exit(f"failed: {' '.join(argv)} --jobs {jobs}")
    return statistics.median(times["1"]), statistics.median(times["2"]), peak, len(digests) == 1


def timed_runs(argv, source, work, runs, name):
    times = []
    for _ in range(runs):
        seconds, _ = timed(argv, source, f"{work}/{name}.out")
        times.append(seconds)
    return statistics.median(times)


def strongest_peers_section(options, work, ours, peer, inputs, text):
    """hangul-normalize against ICU's fastest API (Normalizer2::normalizeUTF8,
    C++), ICU's UTF-16 C API, Python's unicodedata line by line, and the copy
    limit (read/write with no work), in CPU seconds (user + system), median of
    alternating runs. Floors (issue 31): ≥ 3× normalizeUTF8 and ≥ 10× Python
    on every row; rows whose input is already in the form ≥ 0.5× the copy
    limit (copy time / our time)."""
    def write(name, data):
        inputs[name] = f"{work}/{name}.txt"
        with open(inputs[name], "wb") as f:
            f.write(data)
    mixed = open(inputs["mixed"], "rb").read().decode("utf-8")
    write("mixed-nfc", unicodedata.normalize("NFC", mixed).encode("utf-8"))
    os.sync()  # written back before anything is timed, as in main
    # ASCII: the QWERTY keys of the corpus (English-like letters, spaces, punctuation).
    flags = {"nfc": "-c", "nfd": "-d", "nfkc": "-C", "nfkd": "-D"}
    rows = [("Korean NFC → NFC (already)", "text", "nfc", True),
            ("Korean NFD → NFD (already)", "nfd", "nfd", True),
            ("mixed NFC → NFC (already)", "mixed-nfc", "nfc", True),
            ("ASCII → NFC", "qwerty", "nfc", True),
            ("Korean NFD → NFC", "nfd", "nfc", False),
            ("Korean text → NFD", "text", "nfd", False),
            ("mixed scripts → NFC", "mixed", "nfc", False),
            ("mixed scripts → NFKC", "mixed", "nfkc", False)]
    python_runs = min(options.runs, 3)
    print("\nhangul-normalize against the strongest peers, CPU seconds (user + system), median of "
          f"{options.runs} alternating runs ({python_runs} for Python), one core, output to a file;\n"
          "ratios are peer time / our time; floors: ≥ 3× ICU normalizeUTF8, ≥ 10× Python, "
          "already-normalized rows ≥ 0.5× the copy limit")
    header = (f"{'task':28} {'MB':>6} {'ours MB/s':>10} {'ICU UTF-8':>10} {'ICU UTF-16':>11} "
              f"{'Python':>8} {'copy':>7} {'peak MiB':>9}")
    print(header)
    print("-" * len(header))
    missed = []
    for name, kind, form, already in rows:
        source = inputs[kind]
        megabytes = os.path.getsize(source) / 1e6
        argv = [ours("hangul-normalize"), "--form", form]
        times = {"ours": [], "utf8": [], "utf16": [], "copy": []}
        peaks = []
        for _ in range(options.runs):
            _, seconds, peak = timed_cpu(argv, source, f"{work}/ours.out")
            times["ours"].append(seconds)
            peaks.append(peak)
            times["utf8"].append(timed_cpu([peer("icu-normalize-utf8"), flags[form]], source,
                                           f"{work}/peer.out")[1])
            times["utf16"].append(timed_cpu([peer("icu-normalize"), flags[form]], source,
                                            f"{work}/peer16.out")[1])
            times["copy"].append(timed_cpu([peer("copy")], source, f"{work}/copy.out")[1])
        python = [timed_cpu(["python3", os.path.join(ROOT, "bench", "peers", "python-normalize.py"),
                             form.upper()], source, f"{work}/python.out")[1] for _ in range(python_runs)]
        same = (files_equal(f"{work}/ours.out", f"{work}/peer.out")
                and files_equal(f"{work}/ours.out", f"{work}/peer16.out")
                and files_equal(f"{work}/ours.out", f"{work}/python.out"))
        # CPU time can read 0.00 for a tiny run: count it as 5 ms, /usr/bin/time's resolution is 10 ms.
        ours_time = max(statistics.median(times["ours"]), 0.005)
        ratio = lambda key: max(statistics.median(times[key]), 0.005) / ours_time
        python_ratio = max(statistics.median(python), 0.005) / ours_time
        print(f"{name:28} {megabytes:6.1f} {megabytes / ours_time:10.1f} {ratio('utf8'):9.2f}× "
              f"{ratio('utf16'):10.2f}× {python_ratio:7.1f}× {ratio('copy') if already else float('nan'):6.2f}× "
              f"{max(peaks):9.1f}" + ("" if same else "  OUTPUTS DIFFER"))
        if ratio("utf8") < 3:
            missed.append(f"{name}: {ratio('utf8'):.2f}× ICU normalizeUTF8 (floor 3×)")
        if python_ratio < 10:
            missed.append(f"{name}: {python_ratio:.1f}× Python (floor 10×)")
        if already and ratio("copy") < 0.5:
            missed.append(f"{name}: {ratio('copy'):.2f}× the copy limit (floor 0.5×)")
    print("floors: " + ("all met" if not missed else "missed: " + "; ".join(missed)))

    print("\n--verify on the same rows (CPU seconds, median; target ≤ 1.5×)")
    for name, kind, form, _ in rows:
        argv = [ours("hangul-normalize"), "--form", form]
        plain = statistics.median([timed_cpu(argv, inputs[kind], f"{work}/ours.out")[1]
                                   for _ in range(options.runs)])
        verified = statistics.median([timed_cpu(argv + ["--verify"], inputs[kind], f"{work}/ours.out")[1]
                                      for _ in range(options.runs)])
        print(f"  {name:32} {plain:6.3f} s  --verify {verified:6.3f} s  {verified / max(plain, 0.005):5.2f}×")


def normalize_section(options, work, ours, peer, inputs, text):
    """hangul-normalize against ICU's unorm2, uconv and convmv; --verify cost."""
    uconv = shutil.which("uconv")
    convmv = shutil.which("convmv")
    inputs["mixed"] = f"{work}/mixed.txt"
    with open(inputs["mixed"], "wb") as f:
        f.write(mixed_text(text))
    os.sync()  # written back before anything is timed, as in main
    flags = {"nfc": "-c", "nfd": "-d", "nfkc": "-C", "nfkd": "-D"}
    rows = [("Korean NFD → NFC", "nfd", [ours("hangul-normalize")], "nfc"),
            ("Korean text → NFD", "text", [ours("hangul-normalize"), "--form", "nfd"], "nfd"),
            ("  hangul-decompose --to nfd", "text", [ours("hangul-decompose"), "--to", "nfd"], "nfd")]
    for form in ("nfc", "nfd", "nfkc", "nfkd"):
        rows.append((f"mixed scripts → {form.upper()}", "mixed", [ours("hangul-normalize"), "--form", form], form))
    print("\nhangul-normalize against ICU's unorm2_normalize (C) and uconv; "
          "outputs compared byte for byte (median of runs, alternating)")
    header = f"{'task':30} {'input MB':>8} {'ours MB/s':>10} {'ICU MB/s':>9} {'ratio':>7} {'uconv MB/s':>11} {'ratio':>7}"
    print(header)
    print("-" * len(header))
    for name, kind, argv, form in rows:
        source = inputs[kind]
        megabytes = os.path.getsize(source) / 1e6
        our_times, icu_times = [], []
        for _ in range(options.runs):
            our_times.append(timed(argv, source, f"{work}/ours.out")[0])
            icu_times.append(timed([peer("icu-normalize"), flags[form]], source, f"{work}/peer.out")[0])
        same = files_equal(f"{work}/ours.out", f"{work}/peer.out")
        ratio = statistics.median([p / o for o, p in zip(our_times, icu_times)])
        line = (f"{name:30} {megabytes:8.1f} {megabytes / statistics.median(our_times):10.1f} "
                f"{megabytes / statistics.median(icu_times):9.1f} {ratio:6.2f}×")
        if uconv:
            seconds = timed_runs([uconv, "-f", "utf-8", "-t", "utf-8", "-x", f"any-{form}"], source, work, 1, "uconv")
            line += f" {megabytes / seconds:11.1f} {seconds / statistics.median(our_times):6.1f}×"
        else:
            line += f" {'(no uconv)':>11}"
        print(line + ("" if same else "  OUTPUTS DIFFER"))

    strongest_peers_section(options, work, ours, peer, inputs, text)

    print("\n--verify: the same run with and without it (median wall seconds; target ≤ 1.5×)")
    for name, kind, argv in [
        ("hangul-decompose --to nfd", "text", [ours("hangul-decompose"), "--to", "nfd"]),
        ("hangul-decompose (keys)", "text", [ours("hangul-decompose")]),
        ("hangul-compose (NFD in)", "nfd", [ours("hangul-compose")]),
        ("hangul-compose --keys qwerty", "qwerty", [ours("hangul-compose"), "--keys", "qwerty"]),
        ("hangul-normalize (NFD → NFC)", "nfd", [ours("hangul-normalize")]),
        ("hangul-normalize --form nfd", "text", [ours("hangul-normalize"), "--form", "nfd"]),
        ("hangul-normalize mixed → NFKC", "mixed", [ours("hangul-normalize"), "--form", "nfkc"]),
    ]:
        plain = timed_runs(argv, inputs[kind], work, options.runs, "plain")
        verified = timed_runs(argv + ["--verify"], inputs[kind], work, options.runs, "verified")
        print(f"  {name:32} {plain:6.3f} s  --verify {verified:6.3f} s  {verified / plain:5.2f}×")

    check_section(options, work, ours, inputs)

    count = 100_000
    print(f"\nrenaming {count:,} NFD names (100 folders of 1,000) to NFC on /dev/shm")
    if not os.path.isdir("/dev/shm"):
        print("  skipped: no /dev/shm")
        return
    def make_tree(root):
        words = ["한글", "회의록", "사진", "보고서", "메모", "여행", "정상", "수정본", "최종", "문서"]
        os.mkdir(root)
        for folder in range(100):
            directory = os.path.join(root, unicodedata.normalize("NFD", f"폴더{folder:03d}"))
            os.mkdir(directory)
            for index in range(count // 100):
                name = unicodedata.normalize("NFD", f"{words[index % 10]}_{words[index // 10 % 10]} {index:04d}.txt")
                os.close(os.open(os.path.join(directory, name), os.O_CREAT | os.O_WRONLY, 0o644))
    def rename_seconds(argv):
        root = tempfile.mkdtemp(prefix="hangul-rename-", dir="/dev/shm")
        try:
            tree = os.path.join(root, "tree")
            make_tree(tree)
            start = time.perf_counter()
            subprocess.run(argv + [tree], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            seconds = time.perf_counter() - start
            names = [n for _, dirs, files in os.walk(tree) for n in dirs + files]
            correct = len(names) == count + 100 and all(unicodedata.is_normalized("NFC", n) for n in names)
            return seconds, correct
        finally:
            shutil.rmtree(root, ignore_errors=True)
    ours_seconds, ours_ok = rename_seconds([ours("hangul-normalize"), "--rename", "--recursive"])
    print(f"  hangul-normalize --rename --recursive: {ours_seconds:7.2f} s{'' if ours_ok else '  NAMES WRONG'}")
    if convmv:
        peer_seconds, peer_ok = rename_seconds([convmv, "-f", "utf8", "-t", "utf8", "--nfc", "-r", "--notest"])
        print(f"  convmv -f utf8 -t utf8 --nfc -r --notest: {peer_seconds:7.2f} s{'' if peer_ok else '  NAMES WRONG'}")
        print(f"  ratio: {peer_seconds / ours_seconds:.1f}× (target ≥ 10×)")
    else:
        print("  convmv: skipped (not installed; Debian package convmv)")


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
    our_times, jq_times, peaks, cpu_ratios = [], [], [], []
    for _ in range(options.runs):
        seconds, our_cpu, peak = timed_cpu(ours_argv, source, f"{work}/ours.csv")
        our_times.append(seconds)
        peaks.append(peak)
        seconds, jq_cpu, _ = timed_cpu(jq_argv, source, f"{work}/jq.csv")
        jq_times.append(seconds)
        cpu_ratios.append(jq_cpu / our_cpu)
    with open(f"{work}/ours.csv", newline="", encoding="utf-8") as a, \
            open(f"{work}/jq.csv", newline="", encoding="utf-8") as b:
        same = list(csv.reader(a))[1:] == list(csv.reader(b))
    megabytes = os.path.getsize(source) / 1e6
    ratios = [j / o for o, j in zip(our_times, jq_times)]
    print(f"  {options.records} records, {megabytes:.1f} MB: ours {statistics.median(our_times):.2f} s, "
          f"jq {statistics.median(jq_times):.2f} s, {statistics.median(ratios):.2f}× faster "
          f"(CPU time {statistics.median(cpu_ratios):.2f}×), "
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
