"""Proves spark/hangul_pipe.py in local mode: one Spark session, four programs.

    python spark/check_local.py --bin DIR [--corpus FILE] [--work DIR]

For hangul-normalize, hangul-decompose --to jamo, hangul-compose --keys qwerty
and hangul-reviews import, the job's output on 4 partitions, its part files
concatenated, must be byte for byte what one process writes for the whole
input. The text holds CR LF, NUL, U+200C, U+2060, NFD, emoji sequences, empty
and long lines, and lines that are not UTF-8 (which must come back, exactly,
as the job's rejects, and nowhere else). The traps the job's documentation
names are shown to be real on this machine: the JVM's default charset in
Scala's pipe, strict UTF-8 decoding of the program's output, a record with a
newline, the exit status, and the U+FFFD of reading lines as strings.
Prints one line a check and "N passed, N failed"; status 1 when any failed.
"""

import argparse
import base64
import glob
import json
import os
import subprocess
import sys
import tempfile
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hangul_pipe  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARTITIONS = 4


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def expect(self, condition, message, detail=""):
        if condition:
            self.passed += 1
            print(f"ok: {message}", flush=True)
        else:
            self.failed += 1
            print(f"FAILED: {message}\n{detail}", flush=True)


def sample(name):
    with open(os.path.join(REPOSITORY, "samples", name), "rb") as file:
        return file.read()


def text_lines(corpus):
    """Valid UTF-8 lines (without their newline) that exercise the pipe."""
    lines = []
    if corpus and os.path.exists(corpus):
        with open(corpus, "rb") as file:
            lines += file.read(1_500_000).split(b"\n")[:-1]
    else:
        lines += sample("qwerty-keys.expected.txt").split(b"\n")[:-1] * 400
    lines += sample("macos-nfd-names.txt").split(b"\n")[:-1]
    specials = [
        "",
        "   ",
        "윈도우 줄 끝\r",
        "\r",
        "NUL\x00안에",
        "분리\u200c자와 단어\u2060결합자",
        "이모지 👩\u200d💻 ❤\ufe0f 🇰🇷",
        unicodedata.normalize("NFD", "한글 자모 NFD 갔다 왔다"),
        "ㄱㅅ ㄳ ㅇㅏ 각ㅏ",
        "café e\u0301 Å",
        "ᄀᆞᆯ 옛한글",
        "긴 줄 " * 30_000,
    ]
    lines += [line.encode("utf-8") for line in specials]
    return lines


NOT_UTF8 = [b"\xff", b"\xea\xb0 cut", b"over\xc0\x80long", b"\xed\xa0\x80 surrogate", b"ok\xfe"]


def write(path, data):
    with open(path, "wb") as file:
        file.write(data)


def one_process(command, bin_folder, input_path):
    """What one process writes for the whole input."""
    program = os.path.join(bin_folder, command[0])
    result = subprocess.run(
        [program, *command[1:], input_path],
        stdout=subprocess.PIPE,
        env=hangul_pipe.pipe_environment(bin_folder),
        check=False,
    )
    return result.returncode, result.stdout


def job_output(folder):
    parts = sorted(glob.glob(os.path.join(folder, "part-*")))
    data = b""
    for part in parts:
        with open(part, "rb") as file:
            data += file.read()
    return len(parts), data


def first_difference(left, right):
    for index, (a, b) in enumerate(zip(left, right)):
        if a != b:
            return f"first difference at byte {index}: {left[index:index + 40]!r} / {right[index:index + 40]!r}"
    return f"lengths {len(left)} and {len(right)}"


def run_job(spark, work, name, inputs, command, bin_folder):
    output = os.path.join(work, f"out-{name}")
    options = hangul_pipe.parse_arguments(
        ["--partitions", str(PARTITIONS), "--bin", bin_folder, output, *inputs, "--", *command]
    )
    status = hangul_pipe.run(spark, options)
    return status, output


def check_programs(spark, checks, work, bin_folder, corpus):
    lines = text_lines(corpus)
    text = b"".join(line + b"\n" for line in lines)
    write(os.path.join(work, "text.txt"), text)
    # The same lines with others that are not UTF-8 among them.
    mixed = list(lines)
    for index, line in enumerate(NOT_UTF8):
        mixed.insert((index + 1) * len(lines) // (len(NOT_UTF8) + 1), line)
    write(os.path.join(work, "mixed.txt"), b"".join(line + b"\n" for line in mixed))

    _, keys = one_process(["hangul-decompose", "--to", "qwerty"], bin_folder, os.path.join(work, "text.txt"))
    keys += sample("qwerty-keys.txt")
    write(os.path.join(work, "keys.txt"), keys)

    reviews = []
    for index, line in enumerate(lines[:3000]):
        content = line.decode("utf-8")
        nfd = unicodedata.normalize("NFD", content)
        record = json.dumps({"_id": f"r{index}", "content": f"{nfd}\n{content}"}, ensure_ascii=index % 2 == 0)
        reviews.append(record[:-1] + ', "rating": 1.50, "createdAt": "2022-07-25T09:12:00Z"}')
    reviews.append(sample("reviews-keys.expected.jsonl").decode("utf-8").rstrip("\n"))
    write(os.path.join(work, "reviews.jsonl"), ("\n".join(reviews) + "\n").encode("utf-8"))

    programs = [
        ("normalize", "mixed.txt", ["hangul-normalize"], "text.txt"),
        ("jamo", "text.txt", ["hangul-decompose", "--to", "jamo"], "text.txt"),
        ("compose", "keys.txt", ["hangul-compose", "--keys", "qwerty"], "keys.txt"),
        ("reviews", "reviews.jsonl", ["hangul-reviews", "import", "-q"], "reviews.jsonl"),
    ]
    for name, source, command, reference in programs:
        status, expected = one_process(command, bin_folder, os.path.join(work, reference))
        checks.expect(status == 0 and expected, f"{' '.join(command)}: one process writes output")
        job_status, output = run_job(spark, work, name, [os.path.join(work, source)], command, bin_folder)
        parts, actual = job_output(output)
        checks.expect(parts == PARTITIONS, f"{' '.join(command)}: {PARTITIONS} partitions", f"{parts} part files")
        checks.expect(
            actual == expected,
            f"{' '.join(command)}: the job's output is byte for byte one process's ({len(expected):,} bytes)",
            first_difference(actual, expected),
        )
        if source == "mixed.txt":
            checks.expect(job_status == 65, "lines that are not UTF-8: the job's status is 65", str(job_status))
            _, rejected = job_output(output + ".rejects")
            records = [json.loads(line) for line in rejected.decode("utf-8").splitlines()]
            back = [base64.b64decode(record["base64"]) for record in records]
            checks.expect(back == NOT_UTF8, "each line that is not UTF-8 is in the rejects, in order", repr(back))
            checks.expect(
                records and records[0]["reason"] == "invalid UTF-8: byte 0xFF at column 1",
                "a reject says which byte and where",
                repr(records[:1]),
            )
        else:
            checks.expect(job_status == 0, f"{' '.join(command)}: the job's status is 0", str(job_status))


def check_traps(spark, checks, work, bin_folder):
    context = spark.sparkContext
    jvm = context._jvm

    # Exit status: checkCode=True fails the task, and the job takes the status.
    bad = os.path.join(work, "bad-review.jsonl")
    write(bad, '{"content":"좋아요"}\n{"content":"별로","createdAt":"어제"}\n'.encode("utf-8"))
    status, _ = run_job(spark, work, "bad-review", [bad], ["hangul-reviews", "import", "-q"], bin_folder)
    checks.expect(status == 65, "a rejected review fails the job with status 65 (checkCode=True)", str(status))
    ignored = context.parallelize(["x"], 1).pipe("sh -c 'cat; exit 65'").collect()
    checks.expect(ignored == ["x"], "without checkCode, RDD.pipe ignores a status of 65")

    # Strict UTF-8: a byte passed through unchanged fails the task.
    try:
        context.parallelize(["x"], 1).pipe("printf '\\377\\n'", checkCode=True).collect()
        checks.expect(False, "PySpark's pipe fails on output that is not UTF-8")
    except Exception as error:
        checks.expect("UnicodeDecodeError" in str(error), "PySpark's pipe fails on output that is not UTF-8")

    # A record with a newline comes back as two.
    split = context.parallelize(["위\n아래"], 1).pipe("cat", env={"PATH": "/usr/bin:/bin"}).collect()
    checks.expect(split == ["위", "아래"], "a record holding a newline becomes two records", repr(split))

    # Lines read as strings lose the bytes that are not UTF-8 without a word.
    path = os.path.join(work, "mixed.txt")
    as_strings = spark.read.option("lineSep", "\n").text(path).rdd.map(lambda row: row[0]).collect()
    checks.expect("\ufffd" in as_strings, "reading lines as strings turns 0xFF into U+FFFD")

    # Scala's pipe encodes with the JVM's default charset.
    charset = jvm.java.nio.charset.Charset.defaultCharset().name()
    java_lines = jvm.java.util.ArrayList()
    java_lines.add("안녕")
    java_rdd = context._jsc.parallelize(java_lines, 1)
    cat = jvm.java.util.ArrayList()
    cat.add("cat")
    utf8 = list(java_rdd.pipe(cat, jvm.java.util.HashMap(), False, 8192, "UTF-8").collect())
    checks.expect(utf8 == ["안녕"], "Scala's pipe with encoding UTF-8 keeps 안녕", repr(utf8))
    if os.environ.get("LC_ALL", os.environ.get("LANG", "C")) in ("C", "POSIX"):
        default = list(java_rdd.pipe("cat").collect())
        checks.expect(
            charset == "US-ASCII" and default == ["??"],
            f"under LANG=C the JVM's default charset is {charset}: Scala's pipe turns 안녕 into {default}",
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="the folder of the built programs")
    parser.add_argument("--corpus", help="Korean prose to pipe (samples otherwise)")
    parser.add_argument("--work", help="a folder for the inputs and outputs (a new temporary one otherwise)")
    options = parser.parse_args()
    work = options.work or tempfile.mkdtemp(prefix="hangul-spark-")
    spark = hangul_pipe.session(f"local[{PARTITIONS}]", "hangul-pipe-check")
    spark.sparkContext.setLogLevel("OFF")
    checks = Checks()
    try:
        check_programs(spark, checks, work, os.path.abspath(options.bin), options.corpus)
        check_traps(spark, checks, work, os.path.abspath(options.bin))
    finally:
        spark.stop()
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
