"""The notations older than SAN through the binary (issue 38), against the independent
oracle scripts/notation_oracle.py (python-chess), for every real file given:

1. planilla as reader: the oracle writes each file's games (main lines) in desc-en,
   desc-es, iccf, lan and lan-es; `planilla convert --to en` of each must give, game by
   game and move by move, the oracle's SAN of the original (read with python-chess), and
   byte for byte the oracle's canonical-SAN twin (same layout, token by token).
2. planilla as writer: `planilla convert --to lan|lan-es|iccf` of the original, then
   `planilla convert --to en` of that, must give the original's moves.
3. `-j1` and `-j2` give the same bytes (desc-en, the first file).

Games python-chess cannot replay, and variant games, are left out (counted).

Usage: check_notation.py BINARY FILE...  (a line per notation and direction: games, moves,
mismatches and the first examples; exit 1 on any mismatch)."""

import io
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import notation_oracle as oracle  # noqa: E402

import chess.pgn  # noqa: E402
import logging  # noqa: E402

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # errors are counted, not logged

READ = ("desc-en", "desc-es", "iccf", "lan", "lan-es")
WRITE = ("lan", "lan-es", "iccf")
EXAMPLES = 5


def sans(game):
    board = game.board()
    out = []
    for move in game.mainline_moves():
        out.append(board.san(move))
        board.push(move)
    return out


def parse(text):
    """SAN lists of each game of a PGN text (None for a game python-chess refuses)."""
    stream = io.StringIO(text.replace("\r\n", "\n"))
    games = []
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            return games
        games.append(None if game.errors else sans(game))


def convert(binary, args):
    r = subprocess.run([binary, "convert", "-q", *args], capture_output=True)
    return r.returncode, oracle.decode(r.stdout), r.stderr.decode("utf-8", "replace")


class Tally:
    def __init__(self, name):
        self.name, self.games, self.moves, self.bad, self.examples = name, 0, 0, 0, []

    def compare(self, where, want, got):
        self.games += 1
        self.moves += len(want)
        if got == want:
            return
        self.bad += 1
        if len(self.examples) < EXAMPLES:
            if got is None:
                what = "not read back (python-chess refuses the converted game)"
            else:
                i = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
                what = (f"ply {i + 1}: want {want[i] if i < len(want) else 'end'}, "
                        f"got {got[i] if i < len(got) else 'end'}")
            self.examples.append(f"{where}: {what}")

    def fail(self, where, what):
        self.bad += 1
        if len(self.examples) < EXAMPLES:
            self.examples.append(f"{where}: {what}")

    def report(self):
        print(f"{self.name:26} {self.games:6} games {self.moves:8} moves {self.bad:5} mismatches")
        for e in self.examples:
            print(f"    {e}")
        return self.bad == 0


def main():
    binary, files = sys.argv[1], sys.argv[2:]
    tallies = {n: Tally(f"read {n}") for n in READ}
    tallies.update({f"text {n}": Tally(f"text {n} = oracle SAN") for n in READ})
    tallies.update({f"write {n}": Tally(f"write {n}, read back") for n in WRITE})
    threads = Tally("-j1 = -j2")
    skipped = 0
    Path("target").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir="target", prefix="check-notation.") as tmp:
        tmp = Path(tmp)
        for fi, path in enumerate(files):
            name = Path(path).name
            games = []
            for n, game in oracle.read_games(path):
                if oracle.usable(game):
                    skipped += 1
                    games.append((n, game, None))
                else:
                    games.append((n, game, sans(game)))
            kept = [(n, g, s) for n, g, s in games if s is not None]
            # 1. planilla reads what the oracle writes.
            for notation in READ:
                src = tmp / f"{name}.{notation}.pgn"
                texts = [oracle.write_game(g, notation) for _, g, _ in kept]
                src.write_text("".join(t for t, _ in texts), encoding="utf-8")
                expected = "".join(s for _, s in texts)
                status, out, err = convert(binary, ["--to", "en", str(src)])
                got = parse(out)
                if len(got) != len(kept):
                    tallies[notation].fail(name, f"{len(kept)} games in, {len(got)} out (status {status}) {err[:200]}")
                for (n, _, want), g in zip(kept, got):
                    tallies[notation].compare(f"{name} game {n}", want, g)
                t = tallies[f"text {notation}"]
                t.games += len(kept)
                if out != expected:
                    a, b = out.splitlines(), expected.splitlines()
                    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                    t.fail(name, f"line {i + 1}: got {a[i] if i < len(a) else 'EOF'!r}, want {b[i] if i < len(b) else 'EOF'!r}")
                if fi == 0 and notation == "desc-en":
                    j1 = subprocess.run([binary, "convert", "-q", "-j1", "--to", "en", str(src)], capture_output=True).stdout
                    j2 = subprocess.run([binary, "convert", "-q", "-j2", "--to", "en", str(src)], capture_output=True).stdout
                    threads.games += len(kept)
                    if j1 != j2:
                        threads.fail(name, "convert -j1 and -j2 differ")
            # 2. planilla writes, planilla reads back.
            for notation in WRITE:
                mid = tmp / f"{name}.planilla.{notation}.pgn"
                _, out, err = convert(binary, ["--to", notation, path])
                mid.write_text(out, encoding="utf-8")
                _, back, _ = convert(binary, ["--to", "en", str(mid)])
                got = parse(back)
                tally = tallies[f"write {notation}"]
                if len(got) != len(games):
                    tally.fail(name, f"{len(games)} games in, {len(got)} out {err[:200]}")
                for (n, _, want), g in zip(games, got):
                    if want is not None:
                        tally.compare(f"{name} game {n}", want, g)
            print(f"{path}: {len(kept)} games", flush=True)
    ok = all([t.report() for t in tallies.values()] + [threads.report()])
    print(f"{skipped} games left out (python-chess cannot replay them, or a variant)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
