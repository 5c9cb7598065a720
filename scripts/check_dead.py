"""The dead-position oracle through the binary (issue 37): each labelled position of
CHA's files (`LB FEN`: `W` when White can mate, `B` when Black can, `-` when not) set up
by a FEN in three games without moves: `1-0`; `1-0` with `[Termination "Time
forfeit"]`; `0-1` with the same tag. `planilla check --format jsonl` must report:

- `result-mismatch` saying the position means `1/2-1/2` exactly when both labels are
  `-` (a dead position ends the game; the decisive result contradicts it);
- `timeout-unwinnable` exactly when the winner on time cannot mate (its label `-`) in
  a position that is not dead and not already a checkmate (a result-mismatch naming the
  mate comes first);
- nothing else about the result. A FEN the strict reader refuses (pawns on a back rank,
  the side not to move in check) gets `invalid-fen`, and the position is counted apart.

Usage: check_dead.py BINARY THREADS FILE... (prints one line a file; exit 1 on any
disagreement, listing the first 20)."""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = (("1-0", None), ("1-0", "Time forfeit"), ("0-1", "Time forfeit"))


def positions(path):
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            label, fen = line[:2], line[2:].split()
            # Four fields are enough for the oracle; the PGN FEN wants six.
            fen += ["-", "-", "0", "1"][len(fen) - 2 :] if len(fen) < 6 else []
            yield label, " ".join(fen[:6])


def main():
    binary, threads, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    failed = False
    for path in files:
        cases = []
        with tempfile.TemporaryDirectory() as tmp:
            pgn = Path(tmp) / "positions.pgn"
            with pgn.open("w") as out:
                for label, fen in positions(path):
                    for result, termination in GAMES:
                        cases.append((label, result, termination, fen))
                        out.write(f'[Event "{len(cases)}"]\n[Result "{result}"]\n')
                        if termination:
                            out.write(f'[Termination "{termination}"]\n')
                        out.write(f'[SetUp "1"]\n[FEN "{fen}"]\n\n{result}\n\n')
            run = subprocess.run(
                [binary, "check", f"-j{threads}", "-q", "--format", "jsonl", str(pgn)],
                capture_output=True, text=True, check=False,
            )
        if run.returncode not in (0, 1):
            sys.exit(f"check_dead: planilla failed on {path}: {run.stderr}")
        found = {}
        for line in run.stdout.splitlines():
            record = json.loads(line)
            if record["type"] == "finding":
                found.setdefault(record["game"], []).append((record["code"], record["message"]))
        agree, refused, wrong = 0, 0, []
        for game, (label, result, termination, fen) in enumerate(cases, 1):
            codes = found.get(game, [])
            if any(code == "invalid-fen" for code, _ in codes):
                refused += 1
                continue
            drawn = any(c == "result-mismatch" and "means 1/2-1/2" in m for c, m in codes)
            mated = any(c == "result-mismatch" and "checkmate" in m for c, m in codes)
            timeout = any(c == "timeout-unwinnable" for c, _ in codes)
            winner = "W" if result == "1-0" else "B"
            dead = label == "--"
            expected_timeout = bool(termination) and not dead and not mated and winner not in label
            if drawn == dead and timeout == expected_timeout:
                agree += 1
            else:
                wrong.append(f"  {label} {fen} {result} {termination or ''}: {codes}")
        print(
            f"check_dead: {path}: {len(cases)} games ({len(cases) // 3} positions), "
            f"{agree} agree with the labels, {refused} FEN refused, {len(wrong)} disagree"
        )
        print("\n".join(wrong[:20]))
        failed |= bool(wrong) or agree == 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
