"""The Spark job in local mode with two cores over the shared real files: the union
of its Parquet findings equals `planilla check --format jsonl` over the same files,
finding for finding, and so does its summary."""

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

sys.path.insert(0, str(Path(__file__).parent))
import check_corpus  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REAL = sorted((ROOT.parent / "shared" / "corpora" / "real").glob("*.pgn"))
BINARY = os.environ.get("PLANILLA_BIN", str(ROOT / "target" / "debug" / "planilla"))


@pytest.fixture(scope="module")
def spark():
    # The executors' Python is this one, which has the planilla package.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("planilla check test")
        .config("spark.ui.enabled", "false")
        # Everything on the loopback address: the driver and its executors talk to no
        # other interface of the machine.
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    # The executors import the job's module as spark-submit ships it to them.
    session.sparkContext.addPyFile(check_corpus.__file__)
    yield session
    session.stop()


def cli(args):
    out = subprocess.run([BINARY, "check", "--no-config", "--format", "jsonl", "--fail-on", "never", *args],
                         capture_output=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def as_key(record):
    """A finding as a hashable value (its JSON text, keys in order)."""
    return json.dumps({**record, "variation": list(record["variation"])})


@pytest.mark.parametrize("shard_bytes,options", [
    (64 << 20, []),
    # Shards of 512 KiB: the larger real files are split across tasks.
    (512 << 10, ["--ignore", "missing-tag"]),
])
def test_the_parquet_findings_are_the_binary_s(spark, tmp_path, shard_bytes, options):
    assert len(REAL) >= 7, "the shared real corpus is missing"
    paths = [str(p) for p in REAL]
    args = check_corpus.arguments(
        ["--output", str(tmp_path / "findings.parquet"), "--shard-bytes", str(shard_bytes), *options, *paths]
    )
    assert len(check_corpus.tasks(paths, shard_bytes)) >= len(paths)
    summary = check_corpus.run(spark, args)
    rows = spark.read.parquet(str(tmp_path / "findings.parquet")).collect()
    expected = cli(options + paths)
    assert summary == expected[-1]
    assert Counter(as_key(row.asDict()) for row in rows) == Counter(as_key(r) for r in expected[:-1])
    assert len(rows) == len(expected) - 1 > 100


def test_a_compressed_file_is_one_task_read_as_the_binary_reads_it(spark, tmp_path):
    """A gzip file, whatever its size, is one task, decoded by the package as the binary
    decodes it: the same findings, numbers included."""
    import gzip

    source = next(p for p in REAL if p.name == "twic0920.pgn")
    path = tmp_path / "twic0920.pgn.gz"
    path.write_bytes(gzip.compress(source.read_bytes()))
    assert check_corpus.tasks([str(path)], 1024) == [(str(path), None)]
    args = check_corpus.arguments(["--output", str(tmp_path / "gz.parquet"), "--shard-bytes", "1024", str(path)])
    summary = check_corpus.run(spark, args)
    rows = spark.read.parquet(str(tmp_path / "gz.parquet")).collect()
    expected = cli([str(path)])
    assert summary == expected[-1]
    assert Counter(as_key(row.asDict()) for row in rows) == Counter(as_key(r) for r in expected[:-1])
