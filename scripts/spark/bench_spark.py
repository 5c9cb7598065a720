#!/usr/bin/env python3
"""Helper of `scripts/bench spark` (run that, not this): the Spark job against the
binary on one machine, to find Spark's fixed cost and its rate per core.

    bench_spark.py --corpora DIR --out DIR --planilla BIN [--files N] [--repeats R]

Two inputs: one small real file (benchmark.pgn, 100 games), and N files (default 8)
each holding every real file R times (default 4: the files of CORPORA/real are ~6.6 MB
and 6,680 games, so ~26 MB and 26,720 games a file), in OUT/spark/. Each is checked by `spark-submit --master local[2]
scripts/spark/check_corpus.py` (one task per file) and by `planilla check -j1` and
`-j2`; wall times (perf_counter around the child), games, and the derived figures:
Spark's fixed cost (its time on the small file), its rate per core on the large input
after that cost, and the binary's rate per core.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench  # noqa: E402  (the corpus helpers of scripts/bench check)

HERE = Path(__file__).resolve().parent
MB = 1_000_000


def timed(cmd, env=None):
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, check=True, env=env)
    wall = time.perf_counter() - start
    summary = json.loads(out.stdout.splitlines()[-1])
    return wall, summary


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpora", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--planilla", required=True)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=4)
    args = parser.parse_args()
    out = Path(args.out) / "spark"
    out.mkdir(parents=True, exist_ok=True)
    cycle = bench.cycle_bytes(bench.real_files(args.corpora)) * args.repeats
    large = []
    for i in range(args.files):
        path = out / f"real-{i:02}.pgn"
        if not (path.exists() and path.stat().st_size == len(cycle)):
            path.write_bytes(cycle)
        large.append(str(path))
    small = [str(Path(args.corpora) / "real" / "benchmark.pgn")]
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
    submit = [str(Path(sys.executable).parent / "spark-submit"), "--master", "local[2]",
              "--conf", "spark.ui.enabled=false",
              # The driver and executors on the loopback address only.
              "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
              str(HERE / "check_corpus.py"),
              "--output", str(out / "findings.parquet")]
    cli = [args.planilla, "check", "--no-config", "--format", "jsonl", "--fail-on", "never"]
    rows = []
    for name, paths in [("small", small), ("large", large)]:
        size = sum(os.path.getsize(p) for p in paths)
        for tool, cmd, env_ in [
            ("spark local[2]", submit + paths, env),
            ("planilla -j1", cli + ["-j1"] + paths, None),
            ("planilla -j2", cli + ["-j2"] + paths, None),
        ]:
            wall, summary = timed(cmd, env_)
            rows.append((name, tool, size, summary["games"], wall))
            print(f"{name:<6} {tool:<15} {size / MB:>8.1f} MB {summary['games']:>9,} games "
                  f"{wall:>8.2f} s {summary['games'] / wall:>10,.0f} games/s", flush=True)
    by = {(n, t): (g, w) for n, t, _, g, w in rows}
    fixed = by[("small", "spark local[2]")][1]
    games, spark = by[("large", "spark local[2]")]
    per_core = games / max(spark - fixed, 1e-9) / 2
    cli_core = by[("large", "planilla -j1")][0] / by[("large", "planilla -j1")][1]
    print(f"\nSpark's fixed cost (the small file): {fixed:.1f} s")
    print(f"Spark's rate after it: {per_core:,.0f} games/s a core; the binary's: {cli_core:,.0f} games/s a core")


if __name__ == "__main__":
    main()
