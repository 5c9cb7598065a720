"""planilla check over a corpus on Spark: one task per file, or per byte range of a large
plain file, each running the planilla Python package; the findings are written as
Parquet (one row per finding, the columns of `planilla check --format jsonl`) and the
summary is printed as the JSON Lines summary line.

    spark-submit scripts/spark/check_corpus.py --output findings.parquet INPUT...

An INPUT is a path or a URI (`file://`, `s3://`, `gs://`, `hdfs://`, ...: whatever
`pyarrow.fs` opens where the job runs), of a file or of a directory, searched
recursively for `*.pgn`, `*.pgn.zst`, `*.pgn.gz` and `*.pgn.bz2` as `planilla check`
searches one (hidden names left out). The driver lists the files and their sizes: a
plain file larger than --split-bytes is indexed once on the driver (`planilla.index`;
or its index is read from `NAME.idx` beside it, as `planilla index -o NAME.idx NAME`
writes it) and split into byte ranges (`range=(start, end)`, docs/cli.md "Byte
ranges") at the index's marks, so that each task reads just its own bytes and numbers
its findings as the whole file numbers them; a compressed file (known by its first
bytes) is one task. Findings reach Spark as Arrow record batches (`mapInArrow` over
`planilla.check_arrow`), and the summary is counted as they are written (an
`Observation`), so the findings are made once. See docs/scale.md.
"""

import argparse
import bisect
import json
import os
import posixpath
import sys

# The first bytes of zstd, gzip and bzip2 data, which the package decodes as it reads.
COMPRESSED = (b"\x28\xb5\x2f\xfd", b"\x1f\x8b", b"BZh")
# What a directory search takes, as `planilla check` takes it.
SUFFIXES = (".pgn", ".pgn.zst", ".pgn.gz", ".pgn.bz2")
COUNTS = ("games", "plies", "errors", "warnings", "notes")
# The columns of the job's Arrow batches: a finding's (planilla.check_arrow's schema, the
# fields of a `--format jsonl` line), then the counts, set on the one summary row each task
# adds (type "summary"), which is counted and never written.
FINDING_COLUMNS = (
    "type string, file string, game bigint, ply int, line bigint, column bigint, "
    "severity string, code string, move string, message string, fen string, "
    "variation array<int>"
)
BATCH_COLUMNS = FINDING_COLUMNS + "".join(f", {c} bigint" for c in COUNTS)


def arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", metavar="INPUT", help="PGN files or directories: paths or URIs")
    parser.add_argument("--output", required=True, help="where the Parquet findings go (a path or any URI Spark writes)")
    parser.add_argument("--split-bytes", "--shard-bytes", dest="split_bytes", type=int, default=64 << 20,
                        help="split plain files larger than this into byte ranges (default 64 MiB)")
    parser.add_argument("--rules", default="by-date")
    parser.add_argument("--lang", default="auto")
    parser.add_argument("--encoding", default="auto")
    parser.add_argument("--select", default=None, help="comma-separated codes")
    parser.add_argument("--ignore", default=None, help="comma-separated codes")
    args = parser.parse_args(argv)
    if args.split_bytes < 1:
        parser.error("--split-bytes must be at least 1")
    return args


def filesystem(name):
    """The pyarrow file system of an input, and its path there: a URI through
    `pyarrow.fs`, a plain path on the local file system."""
    from pyarrow import fs

    if "://" in name:
        return fs.FileSystem.from_uri(name)
    return fs.LocalFileSystem(), os.path.abspath(name)


def listed(name):
    """The files an input names, sorted, each as (name, size): a file is itself; a
    directory's PGN files are named by the input joined with their path below it."""
    from pyarrow import fs

    files, path = filesystem(name)
    info = files.get_file_info(path)
    if info.type == fs.FileType.NotFound:
        raise FileNotFoundError(f"{name}: no such file or directory")
    if info.type != fs.FileType.Directory:
        return [(name, info.size)]
    found = []
    for entry in files.get_file_info(fs.FileSelector(path, recursive=True)):
        below = posixpath.relpath(entry.path, path)
        hidden = any(part.startswith(".") for part in below.split("/"))
        if entry.type == fs.FileType.File and entry.path.endswith(SUFFIXES) and not hidden:
            found.append((name.rstrip("/") + "/" + below, entry.size))
    if not found:
        raise FileNotFoundError(f"{name}: no PGN files (*.pgn, *.pgn.zst, *.pgn.gz, *.pgn.bz2)")
    return sorted(found)


def compressed(name):
    """Whether the file holds compressed data (known by its first bytes, as planilla
    knows it): one unit, which no range could enter in the middle."""
    files, path = filesystem(name)
    with files.open_input_file(path) as f:
        return f.read(4).startswith(COMPRESSED)


def cuts(index, parts):
    """Where a file is cut into about `parts` ranges: at the marks of its index (places
    where games start, at most a mebibyte apart) nearest to equal shares, so that no task
    reads past its own bytes to find its first game. From 0 to the file's size."""
    lines = index.splitlines()
    size = int(lines[1].split()[1])
    marks = [int(line.split()[0]) for line in lines[2:]]
    chosen = {0, size}
    for k in range(1, parts):
        target = k * size // parts
        i = bisect.bisect_left(marks, target)
        near = marks[max(i - 1, 0):i + 1]
        chosen.add(min(near, key=lambda m: abs(m - target)))
    return sorted(chosen)


def stored_index(name, size):
    """The index kept beside a file (`NAME.idx`, as `planilla index -o NAME.idx NAME`
    writes it), if there is one made of a file of this size; else None. Like samtools'
    `.fai`, it is trusted: index a file again after changing it in place."""
    files, path = filesystem(name)
    try:
        with files.open_input_stream(path + ".idx", compression=None) as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    head = text.split("\n", 2)
    if head[:2] != ["planilla index 1", f"size {size}"]:
        return None
    return text


def plan(inputs, split_bytes, encoding="auto", say=lambda message: None):
    """The job's tasks, in input order: (name, start, end) per byte range of a plain file
    over split_bytes, (name, None, None) per other file; and the indexes of the files
    split (name -> text): the one kept beside the file (`NAME.idx`), or one made on the
    driver (one pass at the splitter's speed); `say` is told which."""
    import planilla

    work, indexes = [], {}
    for name, size in (entry for given in inputs for entry in listed(given)):
        if size <= split_bytes or compressed(name):
            work.append((name, None, None))
            continue
        indexes[name] = stored_index(name, size)
        if indexes[name] is None:
            opened = source(name)
            indexes[name] = planilla.index(opened, encoding=encoding)
            if hasattr(opened, "close"):
                opened.close()
            say(f"{name}: indexed on the driver (an index kept beside it, as `planilla index -o NAME.idx NAME` "
                "writes it, skips this)")
        else:
            say(f"{name}: using the index beside it, {name}.idx")
        points = cuts(indexes[name], -(-size // split_bytes))
        work += [(name, start, end) for start, end in zip(points, points[1:])]
    return work, indexes


def source(name):
    """What the package reads for an input: a plain path as a path (the engine opens the
    file itself), a URI, `file://` included, as a pyarrow.fs file object (streamed, or
    read at offsets with `read_at` for a range), so that a `file://` run takes the road
    an `s3://` one takes."""
    from pathlib import Path

    if "://" not in name:
        return Path(name)
    files, path = filesystem(name)
    return files.open_input_file(path)


def check_tasks(batches, work, options, indexes):
    """Runs in an executor over its tasks (Arrow batches of task numbers, `id`, into
    `work`): each task's findings as Arrow batches named by its input, then a summary
    row."""
    import pyarrow as pa

    import planilla

    schema = None
    for tasks_batch in batches:
        for number in tasks_batch.column("id").to_pylist():
            name, start, end = work[number]
            ranged = {} if start is None else {"range": (start, end), "index": indexes[name]}
            opened = source(name)
            findings = planilla.check_arrow(opened, threads=1, **ranged, **options)
            if schema is None:
                # Every column may be null: the summary rows have no finding.
                fields = [f.with_nullable(True) for f in findings.schema]
                schema = pa.schema(fields + [pa.field(c, pa.int64()) for c in COUNTS])
            for batch in findings:
                n = batch.num_rows
                columns = batch.columns
                # Named as given (a URI stays a URI; a path, as the binary names it).
                columns[1] = pa.repeat(name, n).cast(pa.string())
                nulls = [pa.nulls(n, pa.int64()) for _ in COUNTS]
                yield pa.RecordBatch.from_arrays(columns + nulls, schema=schema)
            if hasattr(opened, "close"):
                opened.close()
            summary = findings.summary
            row = {"type": "summary", "file": name, **{c: summary[c] for c in COUNTS}}
            yield pa.RecordBatch.from_pylist([row], schema=schema)


def run(spark, args):
    """Checks the corpus; returns the summary (a dict, as the JSON Lines summary line)."""
    from pyspark.sql import Observation
    from pyspark.sql import functions as F

    split = lambda codes: codes.split(",") if codes else None
    options = {
        "rules": args.rules,
        "lang": args.lang,
        "encoding": args.encoding,
        "select": split(args.select),
        "ignore": split(args.ignore),
    }
    say = lambda message: print(f"planilla: {message}", file=sys.stderr)
    work, indexes = plan(args.inputs, args.split_bytes, args.encoding, say)
    # The tasks and indexes go to the executors once each, not once a task.
    shared = spark.sparkContext.broadcast((work, indexes))
    # The task numbers, one a partition in input order, made by the JVM (a frame made of
    # Python rows would cost each task a second trip through a Python worker).
    numbers = spark.range(0, len(work), 1, len(work))

    def run_tasks(batches):
        work, indexes = shared.value
        return check_tasks(batches, work, options, indexes)

    batches = numbers.mapInArrow(run_tasks, BATCH_COLUMNS)
    totals = Observation("planilla summary")
    observed = batches.observe(
        totals,
        F.count(F.when(F.col("type") == "summary", 1)).alias("tasks"),
        *(F.coalesce(F.sum(c), F.lit(0)).alias(c) for c in COUNTS),
    )
    columns = [c.split(" ")[0] for c in FINDING_COLUMNS.split(", ")]
    findings = observed.filter(F.col("type") == "finding").select(*columns)
    findings.write.mode("overwrite").parquet(args.output)
    counted = totals.get
    if counted["tasks"] != len(work):
        raise RuntimeError(f"{counted['tasks']} of {len(work)} tasks were counted")
    files = len({name for name, _, _ in work})
    return {"type": "summary", "files": files, **{c: counted[c] for c in COUNTS}}


def main(argv):
    from pyspark.sql import SparkSession

    args = arguments(argv)
    spark = SparkSession.builder.appName("planilla check").getOrCreate()
    try:
        print(json.dumps(run(spark, args), separators=(",", ":")))
    finally:
        spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
