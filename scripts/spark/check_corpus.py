"""planilla check over a corpus on Spark: one task per file, or per shard of a large
file, each task running the planilla Python package; the findings are written as
Parquet (one row per finding, the columns of `planilla check --format jsonl`) and the
summary is printed as the JSON Lines summary line.

    spark-submit scripts/spark/check_corpus.py --output findings.parquet games/*.pgn

A plain file larger than --shard-bytes is split into ceil(size / shard-bytes) byte
ranges, one task each (`range=(start, end)`, docs/cli.md "Byte ranges"): the driver
indexes the file once (`planilla.index`) and every task reads about its own range, so the
tasks' findings are the file's, numbered as in the whole file. A compressed file is one
task. The paths must be readable by every executor (a shared or mounted file system).
See docs/scale.md.
"""

import argparse
import json
import math
import os
import sys

from pyspark.sql import SparkSession
from pyspark.sql.types import (
    ArrayType,
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
)

# The JSON Lines fields of a finding, in order, with their Parquet types.
FINDING_SCHEMA = StructType(
    [
        StructField("type", StringType(), False),
        StructField("file", StringType(), False),
        StructField("game", LongType(), False),
        StructField("ply", IntegerType(), True),
        StructField("line", LongType(), False),
        StructField("column", LongType(), False),
        StructField("severity", StringType(), False),
        StructField("code", StringType(), False),
        StructField("move", StringType(), True),
        StructField("message", StringType(), False),
        StructField("fen", StringType(), True),
        StructField("variation", ArrayType(IntegerType(), False), False),
    ]
)
COUNTS = ("games", "plies", "errors", "warnings", "notes")


def arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="PGN files (plain text)")
    parser.add_argument("--output", required=True, help="where the Parquet findings go")
    parser.add_argument("--shard-bytes", type=int, default=64 << 20,
                        help="split plain files larger than this into byte ranges (default 64 MiB)")
    parser.add_argument("--rules", default="fide-2023")
    parser.add_argument("--lang", default="auto")
    parser.add_argument("--encoding", default="auto")
    parser.add_argument("--select", default=None, help="comma-separated codes")
    parser.add_argument("--ignore", default=None, help="comma-separated codes")
    return parser.parse_args(argv)


# The first bytes of zstd, gzip and bzip2 data, which the package decodes as it reads.
COMPRESSED = (b"\x28\xb5\x2f\xfd", b"\x1f\x8b", b"BZh")


def compressed(path):
    """Whether the file holds compressed data (known by its first bytes, as planilla
    knows it): one unit, which every shard would have to decode whole."""
    with open(path, "rb") as f:
        return f.read(4).startswith(COMPRESSED)


def tasks(paths, shard_bytes):
    """One task per file, or per byte range of a plain file over shard_bytes:
    (path, (start, end) or None). A compressed file is one task whatever its size."""
    out = []
    for path in paths:
        size = os.path.getsize(path)
        n = 1 if compressed(path) else max(1, math.ceil(size / shard_bytes))
        if n == 1:
            out.append((path, None))
        else:
            out += [(path, (k * size // n, (k + 1) * size // n)) for k in range(n)]
    return out


def indexes(work):
    """The index of every file split into ranges, made once on the driver: path -> text."""
    from pathlib import Path

    import planilla

    split = sorted({path for path, rng in work if rng is not None})
    return {path: planilla.index(Path(path)) for path in split}


def check_task(task, options, indexes):
    """Runs in an executor: the task's findings and counts."""
    from pathlib import Path

    import planilla

    path, rng = task
    # A str would be read as PGN text: a path is a Path.
    ranged = {"range": rng, "index": indexes[path]} if rng is not None else {}
    report = planilla.check(Path(path), threads=1, **ranged, **options)
    return report.findings, report.summary


def run(spark, args):
    """Checks the corpus; returns the summary (a dict, as the JSON Lines summary line)."""
    split = lambda codes: codes.split(",") if codes else None
    options = {
        "rules": args.rules,
        "lang": args.lang,
        "encoding": args.encoding,
        "select": split(args.select),
        "ignore": split(args.ignore),
    }
    work = tasks(args.paths, args.shard_bytes)
    # The indexes go to the executors once each, not once a task.
    shared = spark.sparkContext.broadcast(indexes(work))
    results = (
        spark.sparkContext.parallelize(work, len(work))
        .map(lambda task: check_task(task, options, shared.value))
        .cache()
    )
    findings = results.flatMap(lambda result: result[0])
    spark.createDataFrame(findings, FINDING_SCHEMA).write.mode("overwrite").parquet(args.output)
    counts = results.map(lambda result: [result[1][c] for c in COUNTS]).reduce(
        lambda a, b: [x + y for x, y in zip(a, b)]
    )
    results.unpersist()
    return {"type": "summary", "files": len(args.paths), **dict(zip(COUNTS, counts))}


def main(argv):
    args = arguments(argv)
    spark = SparkSession.builder.appName("planilla check").getOrCreate()
    try:
        print(json.dumps(run(spark, args), separators=(",", ":")))
    finally:
        spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
