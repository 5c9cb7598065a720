#!/usr/bin/env python3
"""Helper of `scripts/bench ab` (run that, not this): the CPU time of
`planilla check -j1 --format jsonl FILE` for two builds, and with --peer for the
pgn-reader + shakmaty peer (scripts/peers) too.

    bench_ab.py [--rounds N] [--peer PEER] OLD NEW FILE

Each round runs every command once, the order rotated from round to round. Prints, for
NEW, the median and quartiles of its CPU time / OLD's within each round and the ratio of
the fastest runs; with --peer, each tool's minimum and median CPU seconds and OLD's speed
over the tool's (above 1: planilla faster), on main lines and on every move.

Why CPU time and these figures: on this shared machine instruction counts (callgrind)
do not predict wall time (a change that saved 1.7 M instructions ran 5% slower, more
mispredicted branches), and the machine's own noise is about +-10% from run to run. Give
NEW = OLD (a copy) as a control: a real difference must stand well outside the control's
quartiles. 8 rounds on a 100 MB file resolved a 5% difference; 2-3% stayed within the
noise even with 30. The fastest runs are the steadiest figure when the machine's load
comes and goes (load only ever adds time): 40 rounds on a 20 MB file put a copy within
0.1% of OLD and resolved 1-2%.
"""
import argparse
import os
import statistics
import subprocess
import sys


def cpu_seconds(cmd):
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"bench ab: {cmd[0]} exited with {code}")
    return usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--peer", help="the planilla-peer binary: compare with it too")
    ap.add_argument("--rules", help="run both builds with --rules RULES")
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("file")
    args = ap.parse_args()
    check = ["check", "-j1", "--format", "jsonl", args.file]
    if args.rules:
        check[1:1] = ["--rules", args.rules]
    tools = {"old": [args.old, *check], "new": [args.new, *check]}
    if args.peer:
        tools["peer, main lines"] = [args.peer, "--quiet", args.file]
        tools["peer, every move"] = [args.peer, "--quiet", "--variations", args.file]
    names = list(tools)
    times = {name: [] for name in names}
    for r in range(args.rounds):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            times[name].append(cpu_seconds(tools[name]))
    old, new = times["old"], times["new"]
    print(f"{args.old}: median {statistics.median(old):.3f} s CPU over {args.rounds} rounds")
    ratios = [x / b for x, b in zip(new, old)]
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    print(f"{args.new} / old: median {statistics.median(ratios):.3f}, "
          f"quartiles {q[0]:.3f}-{q[2]:.3f}; fastest run / old's fastest "
          f"{min(new) / min(old):.3f}")
    if args.peer:
        for name in names:
            t = times[name]
            print(
                f"{name:18s} min {min(t):.3f} s  median {statistics.median(t):.3f} s  "
                f"old planilla / tool: {min(t) / min(old):.3f} (min), "
                f"{statistics.median(t) / statistics.median(old):.3f} (median)"
            )


if __name__ == "__main__":
    main()
