#!/usr/bin/env python3
"""Builds the starting corpus of every fuzz target from the repository's test data.

Usage: python3 fuzz/seed.py [CORPUS_DIR]   (default fuzz/corpus, run from the repository root)

Games and pieces of games from corpora/**/*.pgn (and ../shared/corpora when present) seed
the reader, tokenizer, convert, fix, range and lsp targets; the words of their movetext seed san; FEN tags
and perft positions seed fen. Only targets whose corpus directory is empty are seeded.
"""
import hashlib
import os
import re
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "fuzz/corpus"
roots = ["corpora", "../shared/corpora"]

pgn_files = []
for root in roots:
    for dirpath, _, names in os.walk(root):
        if "fuzz-regressions" in dirpath:
            continue
        for name in sorted(names):
            if name.lower().endswith(".pgn"):
                pgn_files.append(os.path.join(dirpath, name))
pgn_files.sort()


def chunks(data, size=3000):
    """Pieces of a file cut at game starts, at most `size` bytes each."""
    starts = [m.start() for m in re.finditer(rb"(?m)^\[Event ", data)] or [0]
    starts.append(len(data))
    for a, b in zip(starts, starts[1:]):
        piece = data[a:b]
        for i in range(0, len(piece), size):
            yield piece[i : i + size]


games = []
seen = set()
for path in pgn_files:
    with open(path, "rb") as f:
        data = f.read()
    for n, piece in enumerate(chunks(data)):
        if n >= 40:
            break
        h = hashlib.sha1(piece).digest()
        if h not in seen:
            seen.add(h)
            games.append(piece)
games = games[:4000]

words = set()
fens = set()
for g in games:
    for m in re.finditer(rb'\[FEN "([^"]*)"\]', g):
        fens.add(m.group(1))
    body = re.sub(rb"\{[^}]*\}|\[[^\]]*\]", b" ", g)
    for w in body.split():
        w = re.sub(rb"^\d+\.+", b"", w)
        if 1 < len(w) <= 12:
            words.add(w)
for path in ["corpora/perft/known.epd", "../shared/corpora/perft/standard.epd"]:
    if os.path.exists(path):
        for line in open(path, "rb"):
            fens.add(line.split(b";")[0].strip())
for path in ["../shared/corpora/fen/valid.sfens", "../shared/corpora/fen/invalid.sfens"]:
    if os.path.exists(path):
        for n, line in enumerate(open(path, "rb")):
            if n >= 400:
                break
            fens.add(line.strip())
san_extra = [
    b"Nf3", b"Cf3", b"Sf3", b"Pf3", b"\xe2\x99\x98f3", b"exd6e.p.", b"exd6 a.p.", b"e8=Q",
    b"e8D", b"e8(Q)", b"e8/Q", b"e7e8q", b"O-O", b"0-0-0", b"O\xe2\x80\x93O", b"Ng1-f3",
    b"e2xd3", b"Bb4xNc3", b"--", b"Z0", b"Qh4#", b"Qh4++", b"Nbd7!?", b"R1a3", b"dxe",
]
words.update(san_extra)


def write(target, items, prefix=b""):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    if os.listdir(d):
        return 0
    for item in items:
        data = prefix + item
        name = hashlib.sha1(data).hexdigest()
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    return len(items)


counts = {
    "reader": write("reader", games, b"\x07\x40"),
    "tokenizer": write("tokenizer", games),
    "convert": write("convert", games[:1500], b"\x01"),
    "fix": write("fix", games[:1500], b"\x00"),
    # Four cuts (first byte 4 << 3), marks 1 + 4 * 16 bytes apart, then the cuts.
    "range": write("range", games[:1500], b"\x20\x10\x10\x00\x80\x01\x00\x04\x33\x0a"),
    # Two or three games, a 0 byte, then three edits (where, how many removed, what
    # typed: testkit's lsp::PIECES) at the start, the middle and the end.
    "lsp": write(
        "lsp",
        [games[i] + games[i + 1] + b"\x00" + b"\x00\x00\x0d\x80\x05\x04\xff\x00\x0b" for i in range(0, min(len(games) - 1, 600))],
    ),
    "san": write("san", sorted(words)[:5000]),
    "fen": write("fen", sorted(f for f in fens if f)),
}
seeded = ", ".join(f"{t} {n}" for t, n in counts.items() if n)
print("seeded: " + (seeded or "nothing new (every corpus already has files)"))
