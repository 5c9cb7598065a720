#!/usr/bin/env python3
"""Helper of `scripts/bench spark` (run that, not this): the Spark job against the
binary on one machine, to find Spark's fixed cost, its rate per core, what byte ranges
cost, and how many bytes a job reads.

    bench_spark.py --corpora DIR --out DIR --planilla BIN [--files N] [--repeats R]

Inputs, in OUT/: one small real file (benchmark.pgn, 100 games); N files (default 8)
each holding every real file R times (default 4: ~26 MB and 26,720 games a file); and
the 200 MB bench file (real-200mb.pgn, built as `scripts/bench check` builds it).

1. Rate: the small and the N files, each checked by `spark-submit --master local[2]
   scripts/spark/check_corpus.py` (one task a file) and by `planilla check -j1` and `-j2`;
   Spark's fixed cost is its time on the small file, its rate per core the large input's
   games over (time - fixed cost) over 2 cores.
2. Ranges: the 200 MB file as one task and as 16 ranges: wall time and CPU time (user +
   system of the job's processes: spark-submit, its JVM and the Python workers).
3. Bytes read: the job's own reading of the 200 MB file (the driver's index pass, then
   every task's range), run in this process as the job runs it (pyarrow imported
   first), counted by /proc/self/io's rchar; for 1, 16, 64 and 256 ranges.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench  # noqa: E402  (the corpus helpers of scripts/bench check)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import check_corpus  # noqa: E402

MB = 1_000_000


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd, env=None):
    """Wall time, CPU time of the child and what it waited for, and the summary line."""
    cpu, start = children_cpu(), time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, check=True, env=env)
    wall = time.perf_counter() - start
    summary = json.loads(out.stdout.splitlines()[-1])
    return wall, children_cpu() - cpu, summary


def read_bytes():
    with open("/proc/self/io") as io:
        return int(next(line for line in io if line.startswith("rchar:")).split()[1])


def job_bytes(path, ranges):
    """The bytes the job reads of `path` in `ranges` tasks: the index pass, then each
    task's check, done here as the job does them."""
    import pyarrow  # noqa: F401  (imported before counting: its modules are not the input)

    import planilla

    size = os.path.getsize(path)
    before = read_bytes()
    work, indexes = check_corpus.plan([path], -(-size // ranges))
    games = 0
    for name, start, end in work:
        ranged = {} if start is None else {"range": (start, end), "index": indexes[name]}
        batches = planilla.check_arrow(Path(name), threads=1, **ranged)
        for _ in batches:
            pass
        games += batches.summary["games"]
    return len(work), read_bytes() - before, games


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
    big = Path(args.out) / "real-200mb.pgn"
    bench.build_corpus(args.corpora, big, bench.CORPUS_MIN)
    big_size = big.stat().st_size
    small = [str(Path(args.corpora) / "real" / "benchmark.pgn")]
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
    submit = [str(Path(sys.executable).parent / "spark-submit"), "--master", "local[2]",
              "--conf", "spark.ui.enabled=false",
              # The driver and executors on the loopback address only.
              "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
              str(HERE / "check_corpus.py"),
              "--output", str(out / "findings.parquet")]
    cli = [args.planilla, "check", "--no-config", "--format", "jsonl", "--fail-on", "never"]

    def show(name, tool, size, games, wall, cpu):
        print(f"{name:<10} {tool:<22} {size / MB:>7.1f} MB {games:>9,} games "
              f"{wall:>7.2f} s wall {cpu:>7.2f} s CPU {games / wall:>9,.0f} games/s", flush=True)

    print("1. rate")
    by = {}
    for name, paths in [("small", small), ("large", large)]:
        size = sum(os.path.getsize(p) for p in paths)
        for tool, cmd, env_ in [
            ("spark local[2]", submit + paths, env),
            ("planilla -j1", cli + ["-j1"] + paths, None),
            ("planilla -j2", cli + ["-j2"] + paths, None),
        ]:
            wall, cpu, summary = timed(cmd, env_)
            by[(name, tool)] = (summary["games"], wall)
            show(name, tool, size, summary["games"], wall, cpu)
    fixed = by[("small", "spark local[2]")][1]
    games, spark = by[("large", "spark local[2]")]
    per_core = games / max(spark - fixed, 1e-9) / 2
    cli_core = by[("large", "planilla -j1")][0] / by[("large", "planilla -j1")][1]
    print(f"Spark's fixed cost (the small file): {fixed:.1f} s")
    print(f"Spark's rate after it: {per_core:,.0f} games/s a core; the binary's: {cli_core:,.0f} "
          f"games/s a core ({cli_core / per_core:.2f}x)")

    print("\n2. ranges: the 200 MB file as one task and as 16")
    ranged = {}
    for tasks in (1, 16):
        split = big_size + 1 if tasks == 1 else -(-big_size // tasks)
        wall, cpu, summary = timed(submit + ["--split-bytes", str(split), str(big)], env)
        ranged[tasks] = (wall, cpu)
        show("200 MB", f"spark, {tasks} task(s)", big_size, summary["games"], wall, cpu)
    wall, cpu, summary = timed(cli + ["-j1", str(big)])
    show("200 MB", "planilla -j1", big_size, summary["games"], wall, cpu)
    print(f"16 ranges against one task: {ranged[16][1] / ranged[1][1]:.2f}x the CPU time, "
          f"{ranged[16][0] / ranged[1][0]:.2f}x the wall time (2 cores)")

    print("\n3. bytes read by the job's own reading of the 200 MB file")
    for tasks in (1, 16, 64, 256):
        n, read, games = job_bytes(str(big), tasks)
        print(f"{n:>4} task(s): {read / MB:>8.1f} MB read, {read / big_size:.3f}x the file "
              f"({games:,} games)", flush=True)


if __name__ == "__main__":
    main()
