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


def job(spark, tmp_path, inputs, *options):
    """The job's summary and its Parquet rows (as dicts), run in local mode."""
    out = tmp_path / "findings.parquet"
    summary = check_corpus.run(spark, check_corpus.arguments(["--output", str(out), *options, *inputs]))
    return summary, [row.asDict() for row in spark.read.parquet(str(out)).collect()]


def same_findings(rows, expected, names=None):
    """The Parquet rows are the binary's findings, finding for finding, global numbers
    included (the file named by `names`' mapping where the job was given URIs)."""
    names = names or {}
    keys = Counter(as_key({**r, "file": names.get(r["file"], r["file"])}) for r in rows)
    assert keys == Counter(as_key(r) for r in expected)


@pytest.mark.parametrize("split_bytes,options", [
    (64 << 20, []),
    # Ranges of 512 KiB: the larger real files are split across tasks.
    (512 << 10, ["--ignore", "missing-tag"]),
])
def test_the_parquet_findings_are_the_binary_s(spark, tmp_path, split_bytes, options):
    assert len(REAL) >= 7, "the shared real corpus is missing"
    paths = [str(p) for p in REAL]
    work, _ = check_corpus.plan(paths, split_bytes)
    assert len(work) > len(paths) if split_bytes < 1 << 20 else len(work) == len(paths)
    summary, rows = job(spark, tmp_path, paths, "--split-bytes", str(split_bytes), *options)
    expected = cli(options + paths)
    assert summary == expected[-1]
    same_findings(rows, expected[:-1])
    assert len(rows) == len(expected) - 1 > 100


def test_compressed_files_given_as_uris_are_one_task_each(spark, tmp_path):
    """A zstd file and a gzip file given as file:// URIs are one task each whatever their
    size, decoded by the package as the binary decodes them: the same findings, numbers
    included, named by their URIs."""
    import gzip

    import pyarrow as pa

    source = next(p for p in REAL if p.name == "twic0920.pgn")
    gz = tmp_path / "twic0920.pgn.gz"
    gz.write_bytes(gzip.compress(source.read_bytes()))
    zst = tmp_path / "twic0920.pgn.zst"
    with pa.CompressedOutputStream(str(zst), "zstd") as out:
        out.write(source.read_bytes())
    assert zst.read_bytes().startswith(check_corpus.COMPRESSED[0])
    uris = [p.as_uri() for p in (zst, gz)]
    assert check_corpus.plan(uris, 1024) == ([(u, None, None) for u in uris], {})
    summary, rows = job(spark, tmp_path, uris, "--split-bytes", "1024")
    expected = cli([str(zst), str(gz)])
    assert summary == expected[-1]
    same_findings(rows, expected[:-1], {u: str(p) for u, p in zip(uris, (zst, gz))})


def test_a_directory_uri_is_searched_as_the_binary_searches_it(spark, tmp_path):
    """A directory given as a file:// URI: its PGN files (not hidden ones, not other
    names), split into ranges, each named by the URI joined with its path."""
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / ".hidden").mkdir()
    real = {p.name: p for p in REAL}
    for name, where in [("twic0920.pgn", corpus / "sub"), ("dortmund.pgn", corpus), ("Carlsen.pgn", corpus / ".hidden")]:
        (where / name).write_bytes(real[name].read_bytes())
    (corpus / "notes.txt").write_text("not PGN")
    summary, rows = job(spark, tmp_path, [corpus.as_uri()], "--split-bytes", str(256 << 10))
    expected = cli([str(corpus)])
    names = {corpus.as_uri() + "/" + str(p.relative_to(corpus)): str(p)
             for p in (corpus / "dortmund.pgn", corpus / "sub" / "twic0920.pgn")}
    assert summary == expected[-1]
    assert summary["files"] == 2
    same_findings(rows, expected[:-1], names)


def test_a_200_mb_file_in_ranges_is_the_whole_file(spark, tmp_path):
    """The bench file (the real files repeated to 200 MB, target/bench/real-200mb.pgn,
    built as `scripts/bench` builds it when missing) in 10 ranges, most cut inside
    games: the whole file's findings and numbers."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import bench

    big = ROOT / "target" / "bench" / "real-200mb.pgn"
    bench.build_corpus(str(ROOT.parent / "shared" / "corpora"), big, bench.CORPUS_MIN)
    split = -(-big.stat().st_size // 10)
    assert len(check_corpus.plan([str(big)], split)[0]) == 10
    summary, rows = job(spark, tmp_path, [str(big)], "--split-bytes", str(split))
    expected = cli(["-j2", str(big)])
    assert summary == expected[-1]
    assert summary["games"] > 190_000
    same_findings(rows, expected[:-1])


def test_an_index_beside_the_file_is_used_and_a_stale_one_is_not(spark, tmp_path):
    """`NAME.idx` beside a split file, as `planilla index -o` writes it, is read instead
    of indexing on the driver (the same ranges and findings); one made of a file of
    another size is left alone and the file indexed again."""
    joined = tmp_path / "joined.pgn"
    joined.write_bytes(b"".join(p.read_bytes() for p in REAL))
    split = joined.stat().st_size // 5
    said = []
    built = check_corpus.plan([str(joined)], split, say=said.append)
    assert "indexed on the driver" in said[-1]
    subprocess.run([BINARY, "index", "-o", str(joined) + ".idx", str(joined)], check=True)
    assert check_corpus.plan([str(joined)], split, say=said.append) == built
    assert "using the index beside it" in said[-1]
    summary, rows = job(spark, tmp_path, [joined.as_uri()], "--split-bytes", str(split))
    expected = cli([str(joined)])
    assert summary == expected[-1]
    same_findings(rows, expected[:-1], {joined.as_uri(): str(joined)})
    stale = (tmp_path / "joined.pgn.idx").read_text().replace("size ", "size 1", 1)
    (tmp_path / "joined.pgn.idx").write_text(stale)
    assert check_corpus.plan([str(joined)], split, say=said.append) == built
    assert "indexed on the driver" in said[-1]
