#!/usr/bin/env python3
"""Helper of `scripts/bench spark` (run that, not this): the Spark job against the
binary on one machine, to find Spark's fixed cost, its rate per core, what byte ranges
cost, and how many bytes a job reads.

    bench_spark.py --corpora DIR --out DIR --planilla BIN [--files N] [--repeats R]

Inputs, in OUT/: one small real file (benchmark.pgn, 100 games); N files (default 8)
each holding every real file R times (default 4: ~26 MB and 26,720 games a file); and
the 200 MB bench file (real-200mb.pgn, built as `scripts/bench check` builds it).

1. Fixed cost: `spark-submit --master local[2] scripts/spark/check_corpus.py` on the
   small file: a cold JVM, session and Python workers, and the Parquet commit.
2. Rate: the N files (one task a file), and the 200 MB file at the job's default
   --split-bytes, in one warm local[2] session against `planilla check -j1`, in
   alternation, medians: games/s a core after the fixed cost (wall time over the cores
   the tasks can use).
3. Ranges: the 200 MB file as one task and as 16 ranges (indexed on the driver, and with
   the index kept beside the file, as `planilla index -o FILE.idx` writes it) in the warm
   session, and Spark's own cost of 16 tasks that do nothing (mapInArrow yielding a row
   each, written), in alternation, medians: the core time of each.
4. Bytes read: the job's own reading of the 200 MB file (the driver's index pass, then
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

    print("1. fixed cost: spark-submit on the small file (a cold JVM, session and workers)")
    wall, cpu, summary = timed(submit + small, env)
    show("small", "spark-submit local[2]", os.path.getsize(small[0]), summary["games"], wall, cpu)

    # The rest in one warm session, as a long job sees Spark: what each run adds.
    os.environ.update(env)
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("planilla bench")
             .config("spark.ui.enabled", "false")
             .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
             .getOrCreate())
    spark.sparkContext.addPyFile(str(HERE / "check_corpus.py"))

    def job(paths, split):
        job_args = check_corpus.arguments(["--output", str(out / "findings.parquet"),
                                           "--split-bytes", str(split), *paths])
        start = time.perf_counter()
        summary = check_corpus.run(spark, job_args)
        return time.perf_counter() - start, summary["games"]

    def empty(tasks):
        """Spark's own cost of `tasks` tasks: mapInArrow yielding one row a task, written."""
        def one_row(batches):
            import pyarrow as pa
            for _ in batches:
                yield pa.RecordBatch.from_pylist([{"x": 1}])
        frame = spark.range(0, tasks, 1, tasks)
        start = time.perf_counter()
        frame.mapInArrow(one_row, "x bigint").write.mode("overwrite").parquet(str(out / "empty.parquet"))
        return time.perf_counter() - start

    def median(values):
        return sorted(values)[len(values) // 2]

    rounds = 3
    large_size = sum(os.path.getsize(p) for p in large)
    default_split = check_corpus.arguments(["--output", "x", "x"]).split_bytes
    inputs = [
        (f"{len(large)} files of {large_size / len(large) / MB:.0f} MB, one task each", large, large_size),
        (f"the 200 MB file, --split-bytes at its default ({default_split >> 20} MiB)", [str(big)], default_split),
    ]
    print(f"\n2. rate, warm session, median of {rounds} rounds in alternation")
    for label, paths, split in inputs:
        runs = {"spark": [], "cli": []}
        for _ in range(rounds):
            runs["spark"].append(job(paths, split))
            wall, cpu, summary = timed(cli + ["-j1"] + paths)
            runs["cli"].append((wall, summary["games"]))
        (spark_wall, games), (cli_wall, _) = (median(runs[k]) for k in ("spark", "cli"))
        tasks = len(check_corpus.plan(paths, split)[0])
        per_core = games / spark_wall / min(2, tasks)
        print(f"{label}: {games:,} games, {tasks} tasks; Spark local[2] {spark_wall:.2f} s "
              f"({per_core:,.0f} games/s a core), planilla -j1 {cli_wall:.2f} s "
              f"({games / cli_wall:,.0f} games/s): {games / cli_wall / per_core:.2f}x", flush=True)

    print(f"\n3. the 200 MB file as one task and as 16, warm session, median of {rounds} rounds in alternation")
    kept = Path(str(big) + ".idx")
    kept.unlink(missing_ok=True)
    sixteenth = -(-big_size // 16)

    def with_kept_index():
        subprocess.run([args.planilla, "index", "-o", str(kept), str(big)], check=True)
        try:
            return job([str(big)], sixteenth)[0]
        finally:
            kept.unlink()

    ranged = {1: [], 16: [], "16 kept": [], "empty": []}
    for _ in range(rounds):
        ranged[1].append(job([str(big)], big_size + 1)[0])
        ranged[16].append(job([str(big)], sixteenth)[0])
        ranged["16 kept"].append(with_kept_index())
        ranged["empty"].append(empty(16))
    one, sixteen, kept16, idle = (median(ranged[k]) for k in (1, 16, "16 kept", "empty"))
    print(f"one task {one:.2f} s; 16 ranges {sixteen:.2f} s wall on 2 cores, indexed on the driver, "
          f"{kept16:.2f} s with the index kept beside the file; Spark's own cost of 16 empty tasks "
          f"{idle:.2f} s")
    for label, wall in (("indexed on the driver", sixteen), ("index kept beside", kept16)):
        print(f"core time, 16 ranges {label}: {2 * wall:.2f} s ({2 * wall / one:.2f}x one task's "
              f"{one:.2f} s); without Spark's per-task cost {2 * (wall - idle):.2f} s "
              f"({2 * (wall - idle) / one:.2f}x)")
    spark.stop()

    print("\n4. bytes read by the job's own reading of the 200 MB file")
    for tasks in (1, 16, 64, 256):
        n, read, games = job_bytes(str(big), tasks)
        print(f"{n:>4} task(s): {read / MB:>8.1f} MB read, {read / big_size:.3f}x the file "
              f"({games:,} games)", flush=True)


if __name__ == "__main__":
    main()
