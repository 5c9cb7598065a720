"""`scripts/check-archive --rounds`: the CPU time of `check` plain and `check --archive`
on one file, in alternation.

Usage: python3 scripts/check_archive_rounds.py PLANILLA FILE ROUNDS THREADS

Each round runs both (the order swapped from one round to the next, so that neither is
always first after the other) and takes user + system time from /usr/bin/time. Prints
each round's ratio and the load average after it, the medians of each, the ratio of
the medians, the per-round ratio's quartiles and range, and the medians of system time.
"""

import os
import statistics
import subprocess
import sys


def cpu(binary, path, threads, archive):
    """User and system seconds of one `check` run."""
    cmd = ["/usr/bin/time", "-f", "%U %S", binary, "check", f"-j{threads}"]
    cmd += ["--format", "jsonl", "--fail-on", "never"]
    cmd += ["--archive"] if archive else []
    cmd.append(path)
    run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} exited {run.returncode}: {run.stderr}")
    user, system = map(float, run.stderr.split()[-2:])
    return user, system


def main():
    binary, path, rounds, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    plain, archive, ratios = [], [], []
    for r in range(rounds):
        order = [False, True] if r % 2 == 0 else [True, False]
        got = {a: cpu(binary, path, threads, a) for a in order}
        plain.append(got[False])
        archive.append(got[True])
        ratios.append(sum(got[True]) / sum(got[False]))
        print(
            f"round {r + 1}: plain {got[False][0]:.2f}+{got[False][1]:.2f} s, "
            f"archive {got[True][0]:.2f}+{got[True][1]:.2f} s, ratio {ratios[-1]:.3f}, "
            f"load {os.getloadavg()[0]:.2f}",
            flush=True,
        )
    p = statistics.median(sum(run) for run in plain)
    a = statistics.median(sum(run) for run in archive)
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    print(f"CPU medians: plain {p:.2f} s, archive {a:.2f} s, ratio {a / p:.3f}")
    print(
        f"per-round ratio: median {statistics.median(ratios):.3f}, "
        f"quartiles {q[0]:.3f}-{q[2]:.3f}, range {min(ratios):.3f}-{max(ratios):.3f}"
    )
    print(
        f"system time medians: plain {statistics.median(run[1] for run in plain):.2f} s, "
        f"archive {statistics.median(run[1] for run in archive):.2f} s"
    )


if __name__ == "__main__":
    main()
