#!/usr/bin/env python3
"""Helper of `scripts/bench python` (run that, not this): planilla from Python against
python-chess, on the same file, from the same Python.

    bench_python.py [--rounds N] --corpora DIR --out DIR [--planilla BIN]

The file is target/bench/real-10mb.pgn: the files of CORPORA/real repeated to >= 10 MB
(built once). In each round, in alternation (the order rotates):
  - planilla.check(path, threads=1) and planilla.check(path) (every core): findings as
    dicts, every check on, as `planilla check --format jsonl`;
  - planilla.games(path): every game as a dict with its tags, SAN, UCI and findings;
  - python-chess: chess.pgn.read_game on every game (each move replayed by parse_san);
  - the binary, `planilla check -j1 --format jsonl`, when --planilla is given: what the
    Python layer costs.
Wall time by perf_counter, CPU time by process_time (the whole process, every thread).
Prints per round the MB/s of each, then the medians and the ratios to python-chess.
"""

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import bench  # noqa: E402  (the corpus builder of scripts/bench check)

import chess.pgn  # noqa: E402
import planilla  # noqa: E402

MB = 1_000_000


def python_chess(path):
    games = 0
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        while chess.pgn.read_game(f) is not None:
            games += 1
    return games


def binary(planilla_bin, path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([planilla_bin, "check", "-j1", "--no-config", "--format", "jsonl",
                          "--fail-on", "never", str(path)], capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = out.stdout.splitlines()[-1].decode()
    return int(summary.split('"games":')[1].split(",")[0]), cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--corpora", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--planilla")
    args = parser.parse_args()
    path = Path(args.out) / "real-10mb.pgn"
    size, repeats, files = bench.build_corpus(args.corpora, path, 10 * MB)
    bench.warm(path)
    tools = {
        "planilla.check threads=1": lambda: planilla.check(path, threads=1).summary["games"],
        f"planilla.check threads={os.cpu_count()}": lambda: planilla.check(path).summary["games"],
        "planilla.games": lambda: sum(1 for _ in planilla.games(path)),
        "python-chess read_game": lambda: python_chess(path),
    }
    if args.planilla:
        tools["binary check -j1"] = None
    print(f"bench: {path}: {size / MB:.1f} MB ({files} real files x {repeats}), "
          f"planilla {planilla.__file__}, python-chess {chess.__version__}")
    times = {name: [] for name in tools}
    games = {}
    names = list(tools)
    for r in range(args.rounds):
        order = names[r % len(names):] + names[: r % len(names)]
        line = []
        for name in order:
            if tools[name] is None:
                start = time.perf_counter()
                count, cpu = binary(args.planilla, path)
                wall = time.perf_counter() - start
            else:
                start, cpu0 = time.perf_counter(), time.process_time()
                count = tools[name]()
                wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
            games.setdefault(name, count)
            assert games[name] == count, name
            times[name].append((wall, cpu))
            line.append(f"{name} {size / MB / wall:.1f} MB/s")
        print(f"round {r + 1}: " + ", ".join(line), flush=True)
    print(f"\n{'tool':<28} {'games':>7} {'wall s':>8} {'CPU s':>8} {'MB/s':>8} {'games/s':>9} "
          f"{'x python-chess (wall)':>22} {'(CPU)':>7}")
    chess_wall = statistics.median(w for w, _ in times["python-chess read_game"])
    chess_cpu = statistics.median(c for _, c in times["python-chess read_game"])
    for name in names:
        wall = statistics.median(w for w, _ in times[name])
        cpu = statistics.median(c for _, c in times[name])
        print(f"{name:<28} {games[name]:>7} {wall:>8.2f} {cpu:>8.2f} {size / MB / wall:>8.1f} "
              f"{games[name] / wall:>9,.0f} {chess_wall / wall:>22.1f} {chess_cpu / cpu:>7.1f}")


if __name__ == "__main__":
    main()
