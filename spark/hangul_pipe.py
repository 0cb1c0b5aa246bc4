"""Run a hangul-tools program over a partitioned text data set with Spark.

    spark-submit spark/hangul_pipe.py [--partitions N] [--bin DIR] [--rejects DIR]
        OUTPUT INPUT... -- PROGRAM [ARGUMENT...]

Each line of the INPUTs (files, directories of part files, globs; read in that
order, a directory's files in name order) is a record. Every partition is
piped through one PROGRAM process with PySpark's RDD.pipe (checkCode=True),
and the output lines are saved as text part files in OUTPUT: concatenated in
part order they are byte for byte what one PROGRAM process writes for the
concatenated input (each input line ends with a newline in the output, the
last one too). Examples:

    spark-submit spark/hangul_pipe.py nfc/ comments/ -- hangul-normalize
    spark-submit spark/hangul_pipe.py keys/ text.txt -- hangul-decompose --to qwerty
    spark-submit spark/hangul_pipe.py out/ reviews.jsonl -- hangul-reviews import -q

How it meets each trap of piping through Spark:

- Bytes that are not UTF-8. PySpark's pipe writes str records as UTF-8 and
  decodes what the program writes with strict UTF-8: a byte our programs pass
  through unchanged would fail the task with UnicodeDecodeError, and Spark's
  string columns cannot hold it anyway (reading the lines as strings turns it
  into U+FFFD without a word). So the job reads each line as its exact bytes
  (the text source's value cast to binary) and rejects a line that is not
  UTF-8 *before the pipe*: it is written, with its file, the reason (byte and
  column) and its bytes in base64, as JSON Lines to the rejects folder
  (--rejects, default OUTPUT.rejects), counted on standard error, and the
  job's status is 65 as our programs' is for bad data. The other lines go on.
  A data set in a legacy encoding (EUC-KR, CP949) is converted before Spark
  (iconv, or `hangul-decompose --from-code CP949` on one machine); a record
  cannot carry bytes through the pipe in any form our programs would give back.
- Records holding a newline. The pipe writes one record a line and makes one
  record of each output line, so a value with a newline in it would become
  several records. Lines are the records here (the text source cuts at "\n"
  only, so a CR stays in its line), so none holds a newline. A column whose
  values hold newlines is piped as JSON Lines (to_json of a struct, newlines
  escaped as \n) through `hangul-reviews import`, which rewrites `content` and
  keeps every other member byte for byte, one line a record.
- The exit status. RDD.pipe ignores it unless checkCode=True: then a status
  other than 0 fails the task, and this job ends with that status (65 when
  hangul-reviews import rejected a record). Standard error of the program goes
  to the executor's log.
- The environment. PySpark starts the program with exactly the environment it
  is given (none by default: no PATH, no locale). The job gives PATH (with
  --bin DIR first, the folder that holds the programs on every node), LANG and
  LC_ALL C.UTF-8, and TZ when the driver has it (give hangul-reviews
  --time-zone to read local times the same on every node).
- The JVM's default charset. Scala's RDD.pipe writes records in the JVM's
  default charset, US-ASCII on JDK 17 under LANG=C: every Hangul syllable
  reaches the program as "?". PySpark's pipe runs in the Python worker and
  does not use it; from Scala or Java pass encoding = "UTF-8" to pipe.
"""

import argparse
import base64
import json
import math
import os
import re
import shlex
import sys
import time

USAGE_STATUS = 64
DATA_STATUS = 65


def parse_arguments(arguments):
    """The job's options, its OUTPUT and INPUTs, and the program's command line."""
    if "--" not in arguments:
        fail_usage("give the program after --, e.g. -- hangul-normalize --form nfc")
    split = arguments.index("--")
    command = arguments[split + 1 :]
    parser = argparse.ArgumentParser(
        prog="hangul_pipe.py",
        description="Pipe each partition of a text data set through a hangul-tools program.",
    )
    parser.add_argument(
        "--partitions",
        type=int,
        metavar="N",
        help="cut the input into about N partitions (default: Spark's split size)",
    )
    parser.add_argument(
        "--bin", metavar="DIR", help="the folder that holds the programs on every node"
    )
    parser.add_argument(
        "--rejects",
        metavar="DIR",
        help="where lines that are not UTF-8 go (default OUTPUT.rejects)",
    )
    parser.add_argument(
        "--master", metavar="URL", help="Spark master when not run by spark-submit"
    )
    parser.add_argument("output", metavar="OUTPUT", help="the output folder (must not exist)")
    parser.add_argument("inputs", metavar="INPUT", nargs="+", help="text files or folders")
    options = parser.parse_args(arguments[:split])
    if not command:
        fail_usage("no program after --")
    if options.partitions is not None and options.partitions < 1:
        fail_usage("--partitions must be at least 1")
    options.command = command
    return options


def fail_usage(message):
    print(f"hangul_pipe.py: {message}", file=sys.stderr)
    print("Try 'hangul_pipe.py --help'.", file=sys.stderr)
    sys.exit(USAGE_STATUS)


def pipe_environment(bin_folder=None):
    """The whole environment the program gets: RDD.pipe passes nothing else."""
    path = os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin")
    if bin_folder:
        path = os.path.abspath(bin_folder) + os.pathsep + path
    environment = {"PATH": path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    if "TZ" in os.environ:
        environment["TZ"] = os.environ["TZ"]
    return environment


def pipe_command(command):
    """The command line RDD.pipe splits with shlex (found in the PATH it is given)."""
    return shlex.join(command)


def input_files(spark, inputs):
    """Each INPUT's files in order: a folder's files by name, without _ and . names."""
    jvm = spark.sparkContext._jvm
    configuration = spark.sparkContext._jsc.hadoopConfiguration()
    files = []
    for name in inputs:
        pattern = jvm.org.apache.hadoop.fs.Path(name)
        system = pattern.getFileSystem(configuration)
        matches = system.globStatus(pattern)
        if not matches:
            print(f"hangul_pipe.py: {name}: no such file or folder", file=sys.stderr)
            sys.exit(66)
        for match in sorted(matches, key=lambda status: status.getPath().toString()):
            if match.isDirectory():
                inside = sorted(
                    (status.getPath().toString(), status.getLen())
                    for status in system.listStatus(match.getPath())
                    if status.isFile() and not status.getPath().getName().startswith(("_", "."))
                )
                files.extend(inside)
            else:
                files.append((match.getPath().toString(), match.getLen()))
    return files


def read_lines(spark, files, partitions=None):
    """One RDD of (file, line bytes) in input order, cut into about `partitions` pieces.

    Lines are cut at "\\n" only and kept as their exact bytes: the text source
    stores a line's bytes unchecked, and a cast to binary gives them back (its
    string would turn a byte that is not UTF-8 into U+FFFD). Spark packs the
    splits of several files largest first, so each file is read on its own
    and the reads are joined in order.
    """
    from pyspark.sql.functions import col

    settings = {}
    if partitions:
        total = sum(size for _, size in files)
        split = str(max(1, math.ceil(total / partitions)))
        # A file's cost to open as large as a split: one split a partition,
        # and Spark's split size (at most the bytes per core) is exactly this.
        settings = {
            "spark.sql.files.maxPartitionBytes": split,
            "spark.sql.files.openCostInBytes": split,
        }
    saved = {name: spark.conf.get(name, None) for name in settings}
    for name, value in settings.items():
        spark.conf.set(name, value)
    try:
        pieces = []
        for name, _ in files:
            frame = spark.read.option("lineSep", "\n").text(name)
            rows = frame.select(col("value").cast("binary")).rdd  # splits are made here
            pieces.append(rows.map(lambda row, name=name: (name, bytes(row[0]))))
    finally:
        for name, value in saved.items():
            if value is None:
                spark.conf.unset(name)
            else:
                spark.conf.set(name, value)
    return spark.sparkContext.union(pieces)


def not_utf8_reason(line):
    """Why `line` is not UTF-8, or None when it is."""
    try:
        line.decode("utf-8")
        return None
    except UnicodeDecodeError as error:
        column = len(line[: error.start].decode("utf-8")) + 1
        return f"invalid UTF-8: byte 0x{line[error.start]:02X} at column {column}"


def reject_record(name, line):
    """A rejected line as one JSON Lines record."""
    return json.dumps(
        {
            "file": name,
            "reason": not_utf8_reason(line),
            "text": line.decode("utf-8", "backslashreplace"),
            "base64": base64.b64encode(line).decode("ascii"),
        },
        ensure_ascii=False,
    )


def pipe_lines(spark, records, command, environment):
    """The program's output lines for the UTF-8 lines of `records`, and counters."""
    context = spark.sparkContext
    lines = context.accumulator(0)
    octets = context.accumulator(0)
    rejected = context.accumulator(0)

    def decoded(partition):
        for _, line in partition:
            lines.add(1)
            octets.add(len(line) + 1)
            try:
                yield line.decode("utf-8")
            except UnicodeDecodeError:
                rejected.add(1)

    text = records.mapPartitions(decoded, preservesPartitioning=True)
    return text.pipe(command, env=environment, checkCode=True), (lines, octets, rejected)


def pipe_failure_status(error):
    """The program's exit status named in a failed job's message, else 70."""
    found = re.search(r"exited with error code (\d+)", str(error))
    return int(found.group(1)) if found else 70


def run(spark, options):
    """Pipes the INPUTs into OUTPUT; returns the job's exit status."""
    files = input_files(spark, options.inputs)
    records = read_lines(spark, files, options.partitions)
    command = pipe_command(options.command)
    piped, (lines, octets, rejected) = pipe_lines(
        spark, records, command, pipe_environment(options.bin)
    )
    start = time.monotonic()
    try:
        piped.saveAsTextFile(options.output)
    except Exception as error:  # Spark wraps the task's failure in a Py4J error.
        status = pipe_failure_status(error)
        print(
            f"hangul_pipe.py: {command} failed on a partition (status {status}; "
            "its messages are in the executor's standard error)",
            file=sys.stderr,
        )
        return status
    seconds = time.monotonic() - start
    print(
        f"hangul_pipe.py: {lines.value} lines, {octets.value / 1e6:.1f} MB in "
        f"{records.getNumPartitions()} partitions through {command}: {seconds:.1f} s, "
        f"{lines.value / seconds:,.0f} lines/s, {octets.value / 1e6 / seconds:.1f} MB/s",
        file=sys.stderr,
    )
    if rejected.value == 0:
        return 0
    rejects = options.rejects or options.output.rstrip("/") + ".rejects"
    bad = records.filter(lambda record: not_utf8_reason(record[1]) is not None)
    bad = bad.map(lambda record: reject_record(*record)).cache()  # only the rejects
    bad.saveAsTextFile(rejects)
    count = bad.count()
    print(
        f"hangul_pipe.py: {count} line{'' if count == 1 else 's'} rejected before the pipe"
        f" (not UTF-8): see {rejects}",
        file=sys.stderr,
    )
    return DATA_STATUS


def session(master=None, name="hangul-pipe"):
    """A Spark session; workers run this Python unless PYSPARK_PYTHON says otherwise."""
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (
        SparkSession.builder.appName(name)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
    )
    if master:
        builder = builder.master(master)
    spark = builder.getOrCreate()
    # The workers unpickle this module's functions by name when it is imported.
    spark.sparkContext.addPyFile(os.path.abspath(__file__))
    return spark


def main(arguments):
    options = parse_arguments(arguments)
    spark = session(options.master)
    spark.sparkContext.setLogLevel("ERROR")
    try:
        return run(spark, options)
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
