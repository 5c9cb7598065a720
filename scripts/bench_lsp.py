#!/usr/bin/env python3
"""Helper of `scripts/bench lsp` (run that, not this): the language server as a client
sees it, timed with the client's clock.

    bench_lsp.py --planilla BIN --corpora DIR --out DIR [--rounds N] [--edits N]

- edit: a document of the first 10,000 games of the real files (repeated), opened once
  and its archive judged (the second publication: the repeated files make most games
  copies, so about 11,000 archive findings ride along with every publication); then, N times, one move of a game chosen at random is changed (the first letter of a
  piece move becomes another piece's letter, an error), and the time from sending the
  didChange to receiving the publishDiagnostics of that version is taken; the next edit
  restores it, and is timed too: from sending the change to having read the last byte
  of the publication of that version, and to having decoded it too (Python's json
  module is slower than an editor's decoder). Median, 90th percentile and worst; the
  issue's target is 50 ms.
- open: a 100 MB document (the real files repeated) opened: from sending didOpen to
  receiving its publishDiagnostics, against `planilla check -j1 --format jsonl` on the
  same file, in alternating rounds; the target is check -j1's time plus 10%. The server
  checks an open document's games on every core (its rayon pool), as check -jN does.
Each round's server is started fresh, its initialize answered before the clock starts.
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import bench  # noqa: E402

MB = 1_000_000


class Client:
    """A minimal LSP client over the server's standard input and output."""

    def __init__(self, binary):
        self.p = subprocess.Popen(
            [binary, "lsp", "--no-config"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.next = 0
        self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        self.notify("initialized", {})

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def recv(self):
        """The next message, decoded; `self.received` is when its last byte was read
        (before the JSON was decoded: a client's decoder is its own speed)."""
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("the server closed its output")
            line = line.strip()
            if not line:
                break
            key, value = line.split(b":", 1)
            if key.lower() == b"content-length":
                length = int(value)
        body = self.p.stdout.read(length)
        self.received = time.perf_counter()
        return json.loads(body)

    def request(self, method, params):
        self.next += 1
        self.send({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
        while True:
            m = self.recv()
            if m.get("id") == self.next and "method" not in m:
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, version):
        """Waits for the publishDiagnostics of `version`; returns them."""
        while True:
            m = self.recv()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version:
                return m["params"]["diagnostics"]

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.p.wait(timeout=60)


def first_games(corpus, n):
    """The text of the first n games of corpus (cut before the n+1-th game's tags)."""
    with open(corpus, "rb") as f:
        data = f.read(64 * MB)
    at, found = 0, 0
    while found <= n:
        at = data.index(b"\n[Event ", at) + 1
        if at == 1 or data[at - 2 : at - 1] == b"\n":
            found += 1
    return data[: at].decode("utf-8", errors="replace")


def edit_bench(binary, text, edits, seed=1):
    c = Client(binary)
    uri = "file:///bench/games.pgn"
    t0 = time.perf_counter()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "pgn", "version": 0, "text": text}})
    diags = c.diagnostics(0)
    opened = time.perf_counter() - t0
    # A document this large has its archive judged once it is quiet, and published
    # again with the archive findings: the edits start from there, so each publication
    # carries them too.
    diags = c.diagnostics(0)
    judged = time.perf_counter() - t0
    lines = text.split("\n")
    # Lines of movetext with a knight move: one edit each.
    candidates = [i for i, l in enumerate(lines) if not l.startswith("[") and " N" in l]
    rng = random.Random(seed)
    times = []
    version = 0
    for _ in range(edits):
        line = rng.choice(candidates)
        col = lines[line].index(" N") + 1
        for letter in ("Q", "N"):  # the error, then the error undone
            version += 1
            # Columns in UTF-16 units: the line's text before the column.
            utf16 = len(lines[line][:col].encode("utf-16-le")) // 2
            change = {
                "range": {"start": {"line": line, "character": utf16}, "end": {"line": line, "character": utf16 + 1}},
                "text": letter,
            }
            t = time.perf_counter()
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
            c.diagnostics(version)
            times.append((c.received - t, time.perf_counter() - t))
    c.close()
    return opened, judged, len(diags), times


def open_bench(binary, path):
    text = path.read_bytes().decode("utf-8", errors="replace")
    c = Client(binary)
    t = time.perf_counter()
    c.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": "file:///bench/big.pgn", "languageId": "pgn", "version": 0, "text": text}},
    )
    diags = c.diagnostics(0)
    took = time.perf_counter() - t
    c.close()
    return took, len(diags)


def check_bench(binary, path):
    t = time.perf_counter()
    subprocess.run([binary, "check", "-j1", "-q", "--no-config", "--format", "jsonl", str(path)],
                   stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--planilla", required=True)
    p.add_argument("--corpora", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--edits", type=int, default=50)
    p.add_argument("--archive-gen", help="testkit's archive-gen: also edit 10,000 distinct games")
    args = p.parse_args()
    out = Path(args.out)
    big = out / "real-100mb.pgn"
    bench.build_corpus(args.corpora, big, 100 * MB)
    games = first_games(big, 10_000)
    bench.say(f"edit: 10,000 games ({len(games.encode()) / MB:.1f} MB), {args.edits} edits and {args.edits} undos")
    edits(args, games)
    if args.archive_gen:
        generated = subprocess.run([args.archive_gen, "10000"], check=True, capture_output=True).stdout
        text = generated.decode("utf-8", errors="replace")
        bench.say(f"edit: 10,000 distinct generated games (archive-gen, {len(generated) / MB:.1f} MB, a planted copy every 500)")
        edits(args, text)
    open_rounds(args, big)


def edits(args, games):
    opened, judged, n, times = edit_bench(args.planilla, games, args.edits)
    ms = sorted(t * 1000 for t, _ in times)
    decoded = sorted(t * 1000 for _, t in times)
    bench.say(f"  opened in {opened:.2f} s, archive judged at {judged:.2f} s ({n} diagnostics)")
    bench.say(
        f"  edit to diagnostics: median {statistics.median(ms):.1f} ms, "
        f"p90 {ms[int(len(ms) * 0.9) - 1]:.1f} ms, worst {ms[-1]:.1f} ms (target: 50 ms)"
    )
    bench.say(
        f"  ... and decoded by this client (Python's json): median {statistics.median(decoded):.1f} ms, "
        f"p90 {decoded[int(len(decoded) * 0.9) - 1]:.1f} ms, worst {decoded[-1]:.1f} ms"
    )


def open_rounds(args, big):
    bench.warm(big)
    bench.say(f"open: {big} ({big.stat().st_size / MB:.0f} MB), {args.rounds} rounds, lsp and check -j1 alternating")
    lsp, check = [], []
    for r in range(args.rounds):
        took, n = open_bench(args.planilla, big)
        lsp.append(took)
        check.append(check_bench(args.planilla, big))
        bench.say(f"  round {r + 1}: lsp open {lsp[-1]:.2f} s ({n} diagnostics), check -j1 {check[-1]:.2f} s")
    ratio = statistics.median(lsp) / statistics.median(check)
    bench.say(
        f"  medians: lsp open {statistics.median(lsp):.2f} s, check -j1 {statistics.median(check):.2f} s: "
        f"{ratio:.2f}x (target: at most 1.10x); fastest {min(lsp):.2f} s vs {min(check):.2f} s"
    )


if __name__ == "__main__":
    main()
