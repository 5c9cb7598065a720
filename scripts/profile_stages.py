#!/usr/bin/env python3
"""Instructions a ply of `planilla check -j1`, by stage (issue 40's profile).

Usage: scripts/profile_stages.py BINARY FILE [OUT.cg]   (scripts/bench stages runs it)

Runs `valgrind --tool=callgrind` on `BINARY check -j1 --format jsonl FILE`, reads the
plies from the run's summary line, and sorts every instruction by the source file of the
code that ran it (callgrind's `file:function` lines, which name the file an inlined
function came from, so that work inlined into `play_move` is still told apart):

  lexing      crates/parser/src/lexer/          the tokenizer
  reading     the rest of crates/parser, crates/engine, memchr: buffers, splitting,
              encodings, the ordered pipeline
  decoding    crates/core/src/san/{parse,lang,plain}.rs: reading a move's SAN
  resolving   crates/core/src/san/resolve.rs, position/movegen.rs: the legal move a
              SAN names
  playing     position.rs, position/{moves,board}.rs, bitboard.rs, attacks.rs,
              zobrist.rs, types.rs: making the move, its checks, pins and keys
  checks      the validator beyond its replay loop, san/notation.rs, unwinnable/: notation
              verdicts, repetition, draw claims, game ends, dead positions, tags, clocks
  replay      crates/validator/src/replay.rs: the loop over a game's tokens
  output      the binary's crates/cli and its serialisation
  other       the standard library, allocation, start-up

The split is by where code was written, not by what it was called for: attacks used to
resolve a move count as playing. Compare two builds stage by stage on the same file.
"""
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

STAGES = [
    ("lexing", [r"crates/parser/src/lexer/"]),
    ("decoding", [r"crates/core/src/san/(parse|lang|plain)\.rs"]),
    ("resolving", [r"crates/core/src/san/resolve\.rs", r"crates/core/src/position/movegen\.rs"]),
    ("checks", [r"crates/validator/src/(?!replay\.rs)", r"crates/core/src/san/notation\.rs",
                r"crates/core/src/unwinnable/", r"crates/core/src/dead"]),
    ("replay", [r"crates/validator/src/replay\.rs"]),
    ("playing", [r"crates/core/src/(position|bitboard|attacks|zobrist|types)"]),
    ("reading", [r"crates/parser/src/", r"crates/engine/src/", r"memchr"]),
    ("output", [r"crates/cli/", r"serde", r"planilla::output"]),
]
# Code of the standard library (or of no known file) inlined into one of ours counts for
# the function it was inlined into.
FUNCTIONS = [
    ("lexing", r"planilla_parser::lexer::"),
    ("decoding", r"planilla_core::san::(parse|lang|plain)::"),
    ("resolving", r"planilla_core::san::resolve::|planilla_core::position::movegen"),
    ("replay", r"planilla_validator::replay::<impl [^>]*GameChecker>::(play_move|replay_pass)$"),
    ("checks", r"planilla_validator::|planilla_core::(unwinnable|san::notation)"),
    ("playing", r"planilla_core::"),
    ("reading", r"planilla_parser::|planilla_engine::|memchr::"),
    ("output", r"^planilla::|serde"),
]
LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$")


def stage_of(location):
    path, _, function = location.partition(":")
    function = re.sub(r" \[.*\]$", "", function)
    if "/crates/" in path or path.startswith("crates/"):
        for name, patterns in STAGES:
            if any(re.search(p, path) for p in patterns):
                return name
    for name, pattern in FUNCTIONS:
        if re.search(pattern, function):
            return name
    return "other"


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    binary, data = sys.argv[1], sys.argv[2]
    out = sys.argv[3] if len(sys.argv) > 3 else tempfile.mktemp(suffix=".cg")
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--dump-instr=no", f"--callgrind-out-file={out}",
         binary, "check", "-j1", "--format", "jsonl", data],
        capture_output=True, text=True)
    summary = [l for l in run.stdout.splitlines() if l.startswith('{"type":"summary"')]
    if not summary:
        print(run.stderr[-2000:], file=sys.stderr)
        sys.exit(1)
    plies = int(re.search(r'"plies":(\d+)', summary[-1]).group(1))
    report = subprocess.run(["callgrind_annotate", "--inclusive=no", "--auto=no", "--threshold=100", out],
                            capture_output=True, text=True, check=True).stdout
    totals = defaultdict(int)
    total = 0
    for line in report.splitlines():
        m = LINE.match(line)
        if not m or "PROGRAM TOTALS" in line or ":" not in m.group(2):
            continue
        n = int(m.group(1).replace(",", ""))
        totals[stage_of(m.group(2))] += n
        total += n
    print(f"{data}: {plies:,} plies, {total / 1e6:,.1f} M instructions, "
          f"{total / plies:,.0f} a ply (callgrind profile: {out})")
    print(f"{'stage':<10} {'M instr':>9} {'a ply':>7} {'share':>6}")
    for name in [s for s, _ in STAGES] + ["other"]:
        n = totals.get(name, 0)
        print(f"{name:<10} {n / 1e6:>9.1f} {n / plies:>7.0f} {100 * n / total:>5.1f}%")


if __name__ == "__main__":
    main()
