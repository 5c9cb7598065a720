"""planilla check over a corpus on Spark: one task per file, or per shard of a large
file, each task running the planilla Python package; the findings are written as
Parquet (one row per finding, the columns of `planilla check --format jsonl`) and the
summary is printed as the JSON Lines summary line.

    spark-submit scripts/spark/check_corpus.py --output findings.parquet games/*.pgn

A file larger than --shard-bytes is split into ceil(size / shard-bytes) tasks with
`shard="K/N"`: each reads the whole file and checks every N-th game, so the union of
the tasks' findings is the unsplit file's (docs/cli.md, --shard). The paths must be
readable by every executor (a shared or mounted file system). See docs/scale.md.
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
                        help="split files larger than this into shards (default 64 MiB)")
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
    """One task per file, or per shard of a plain file over shard_bytes: (path, shard).
    A compressed file is one task whatever its size."""
    out = []
    for path in paths:
        n = 1 if compressed(path) else max(1, math.ceil(os.path.getsize(path) / shard_bytes))
        out += [(path, f"{k}/{n}" if n > 1 else None) for k in range(n)]
    return out


def check_task(task, options):
    """Runs in an executor: the task's findings and counts."""
    from pathlib import Path

    import planilla

    path, shard = task
    # A str would be read as PGN text: a path is a Path.
    report = planilla.check(Path(path), shard=shard, threads=1, **options)
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
    results = (
        spark.sparkContext.parallelize(work, len(work))
        .map(lambda task: check_task(task, options))
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
