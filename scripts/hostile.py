#!/usr/bin/env python3
"""Hostile and broken input: generates the files under target/hostile/ and runs planilla on
each, checking that it never crashes or hangs, keeps memory bounded and time roughly linear
in the size, still reports every good game before and after the damage, and names the exact
place of the damage.

Usage (from the repository root):
    scripts/hostile.py [--quick] [--skip CASE ...] [CASE ...]

    CASE         run only these cases (default: all; --list prints them)
    --quick      sizes divided by 10 (for a fast look; the full sizes are the test)
    --skip CASE  leave this case out (CI leaves out the cases whose fix is not merged yet)
    PLANILLA=path/to/planilla   use this binary instead of building target/release/planilla

Prints one line per case (what planilla did, peak memory, time) and "N passed, N failed";
exits 1 when a case failed. Generated files are kept in target/hostile/ (hundreds of MB;
not committed). Some cases need root (a small tmpfs for "disk full", an unreadable file);
without it they fall back (a file size limit) or drop privileges with setpriv.
"""

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.getcwd()
OUT = os.path.join(ROOT, "target", "hostile")
QUICK = "--quick" in sys.argv
SCALE = 10 if QUICK else 1
LIMIT_GAME = 16 * 1024 * 1024  # the reader's default limit on one game
LIMIT_TOKENS = 1 << 20  # and on the tokens of one game, counted from its movetext

# ---------------------------------------------------------------------------------------
# Generating PGN


def good(i, event=None):
    """A well-formed game with no finding at all (7 lines, the last one blank)."""
    return (
        f'[Event "{event or f"good {i}"}"]\n[White "White {i}"]\n[Black "Black {i}"]\n'
        '[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
    )


def where(data, at):
    """1-based line and column (in characters of the decoded line) of byte `at`."""
    line = data.count(b"\n", 0, at) + 1
    start = data.rfind(b"\n", 0, at) + 1
    piece = data[start:at]
    try:
        column = len(piece.decode("utf-8")) + 1
    except UnicodeDecodeError:
        column = len(piece) + 1
    return line, column


def write(name, data):
    path = os.path.join(OUT, name)
    if isinstance(data, str):
        data = data.encode()
    with open(path, "wb") as f:
        f.write(data)
    return path


def write_parts(name, parts):
    """Writes an iterable of bytes/str pieces (for files too large to build in memory)."""
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        for p in parts:
            f.write(p.encode() if isinstance(p, str) else p)
    return path


# ---------------------------------------------------------------------------------------
# Running planilla


class Run:
    def __init__(self, rc, out, err, secs, rss_mb, timed_out):
        self.rc, self.out, self.err = rc, out, err
        self.secs, self.rss_mb, self.timed_out = secs, rss_mb, timed_out

    def findings(self):
        rows = [json.loads(line) for line in self.out.splitlines() if line.startswith(b"{")]
        return [r for r in rows if r.get("type") == "finding"]

    def summary(self):
        for line in reversed(self.out.splitlines()):
            if line.startswith(b'{"type":"summary"'):
                return json.loads(line)
        return None


MEMORY_CAP = 4 << 30  # address space of one planilla run: a runaway fails, not the machine


def capped(preexec):
    def pre():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
        if preexec:
            preexec()

    return pre


def run(args, stdin=None, timeout=60, stdout=None, preexec=None, input_bytes=None, binary=None):
    """Runs planilla (BIN, or `binary`) with `args` (its address space capped at
    MEMORY_CAP); returns exit status, output, peak memory and time."""
    out_path = os.path.join(OUT, ".out")
    err_path = os.path.join(OUT, ".err")
    out_file = stdout if stdout is not None else open(out_path, "wb")
    err_file = open(err_path, "wb")
    stdin_arg = subprocess.PIPE if input_bytes is not None else stdin
    start = time.monotonic()
    proc = subprocess.Popen(
        [binary or BIN] + args, stdin=stdin_arg, stdout=out_file, stderr=err_file, preexec_fn=capped(preexec)
    )
    if input_bytes is not None:

        def feed():
            try:
                proc.stdin.write(input_bytes)
                proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass

        threading.Thread(target=feed, daemon=True).start()
    timed_out = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - start > timeout:
            timed_out = True
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.005)
    secs = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if stdout is None:
        out_file.close()
    err_file.close()
    out = open(out_path, "rb").read() if stdout is None else b""
    err = open(err_path, "rb").read().decode("utf-8", "replace")
    return Run(proc.returncode, out, err, secs, usage.ru_maxrss / 1024, timed_out)


class Case:
    """Collects what one case found; `fail` marks a broken promise."""

    def __init__(self, name):
        self.name = name
        self.failures = []
        self.notes = []
        self.peak_mb = 0.0
        self.secs = 0.0

    def fail(self, message):
        self.failures.append(message)

    def note(self, message):
        self.notes.append(message)

    def account(self, r):
        self.peak_mb = max(self.peak_mb, r.rss_mb)
        self.secs += r.secs

    def sane(self, r, what, max_mb=256, max_secs=60, codes=(0, 1)):
        """No crash, no hang, bounded memory, an allowed exit status."""
        self.account(r)
        if r.timed_out:
            self.fail(f"{what}: no answer after {r.secs:.0f} s (killed)")
            return False
        ok = True
        if r.rc < 0:
            abort = " (abort: out of memory?)" if r.rc == -signal.SIGABRT else ""
            self.fail(f"{what}: killed by signal {-r.rc}{abort}")
            ok = False
        elif r.rc not in codes:
            self.fail(f"{what}: exit status {r.rc} (expected {codes})")
            ok = False
        if "panicked" in r.err:
            first = next((line for line in r.err.splitlines() if "panicked" in line), "")
            self.fail(f"{what}: panic: {first.strip()[:160]}")
            ok = False
        elif r.rc < 0 and r.err.strip():
            said = next(line for line in r.err.splitlines() if line and line[0] != " ")
            self.fail(f"{what}: {said[:160]}")
        if r.rss_mb > max_mb:
            self.fail(f"{what}: peak memory {r.rss_mb:.0f} MB > {max_mb} MB")
        if r.secs > max_secs:
            self.fail(f"{what}: {r.secs:.1f} s > {max_secs} s")
        return ok

    def games(self, r, what, expected):
        s = r.summary()
        if s is None:
            self.fail(f"{what}: no summary line")
            return
        if s["games"] != expected:
            self.fail(f"{what}: {s['games']} games reported, expected {expected}")

    def clean(self, r, what, games):
        """These games have no finding at all (good games before and after the damage)."""
        for f in r.findings():
            if f["game"] in games:
                self.fail(f"{what}: good game {f['game']} got {f['code']}: {f['message'][:80]}")
                return

    def finding(self, r, what, game, code, line, column, message=None):
        """A finding of this code for this game at exactly this place."""
        mine = [f for f in r.findings() if f["game"] == game and f["code"] == code]
        for f in mine:
            if (f["line"], f["column"]) == (line, column) and (
                message is None or message in f["message"]
            ):
                return f
        got = ", ".join(f"{f['line']}:{f['column']} {f['message'][:60]}" for f in mine[:3])
        others = ", ".join(
            f"{f['code']} {f['line']}:{f['column']}"
            for f in r.findings()
            if f["game"] == game
        )[:200]
        self.fail(
            f"{what}: expected {code} in game {game} at {line}:{column}"
            + (f" ({message!r})" if message else "")
            + (f"; got {got}" if got else f"; game {game} has: {others or 'nothing'}")
        )
        return None

    def linear(self, what, small, big, factor):
        """Time grows roughly linearly: `factor` times the input, at most 3x that in time."""
        allowed = 3 * factor * small.secs + 0.5
        if big.secs > allowed:
            self.fail(
                f"{what}: {factor}x the input took {big.secs / max(small.secs, 1e-3):.0f}x "
                f"the time ({small.secs:.2f} s -> {big.secs:.2f} s)"
            )


def check(path, *extra, **kw):
    return run(["check", "--format", "jsonl", "-q", *extra, path], **kw)


CASES = []


def case(name, description):
    def register(f):
        CASES.append((name, description, f))
        return f

    return register


# ---------------------------------------------------------------------------------------
# The cases


@case("nested-variations", "100,000 nested variations, closed and unclosed")
def nested_variations(c):
    def make(n, closed):
        head = good(1) + '[Event "nested"]\n[Result "*"]\n\n1. e4 '
        body = "(1. d4 " * n + (")" * n if closed else "")
        data = (head + body + " e5 *\n\n" + good(3)).encode()
        deep = len(head) + len("(1. d4 ") * 256  # the 257th "("
        return data, where(data, deep), where(data, len(head))

    results = {}
    for n in (100_000 // SCALE, 25_000 // SCALE):
        data, deep, first = make(n, True)
        path = write(f"nested-{n}.pgn", data)
        r = check(path)
        results[n] = r
        if c.sane(r, f"{n} nested", max_mb=256, max_secs=30):
            c.games(r, f"{n} nested", 3)
            c.clean(r, f"{n} nested", {1, 3})
            c.finding(r, f"{n} nested", 2, "syntax-error", *deep, "nested deeper than 256")
    if len(results) == 2 and all(not r.timed_out for r in results.values()):
        small, big = results[25_000 // SCALE], results[100_000 // SCALE]
        c.linear("nested variations", small, big, 4)
    n = 100_000 // SCALE
    data, deep, first = make(n, False)
    path = write("nested-unclosed.pgn", data)
    r = check(path)
    if c.sane(r, "unclosed", max_mb=256, max_secs=30):
        c.games(r, "unclosed", 3)
        c.clean(r, "unclosed", {1, 3})
        c.finding(r, "unclosed", 2, "syntax-error", *first, "unterminated variation")
    c.note(f"syntax-error at the 257th '(' ({deep[0]}:{deep[1]}), unclosed: at the first")


@case("comment-200mb", "a 200 MB comment (closed), and a 5 MB one never closed")
def huge_comment(c):
    size = 200 * 1024 * 1024 // SCALE
    head = good(1) + '[Event "comment"]\n[Result "*"]\n\n'
    line = "x" * 99 + "\n"
    tail = "} e5 *\n\n" + good(3)
    path = write_parts(
        "comment-200mb.pgn",
        [head, "1. e4 {", *([line * 10_000] * (size // len(line) // 10_000)), tail],
    )
    skipped = where(head.encode(), len(head) - 1)  # the blank line after the tags
    r = check(path)
    if c.sane(r, "200 MB comment", max_mb=160):
        c.games(r, "200 MB comment", 3)
        c.clean(r, "200 MB comment", {1, 3})
        c.finding(r, "200 MB comment", 2, "syntax-error", *skipped, "game larger than")
    c.note(f"game over 16 MiB: tags kept, movetext skipped from {skipped[0]}:{skipped[1]}")
    # Never closed: the next tag section ends it.
    data = (head + "1. e4 {" + line * (5 * 1024 * 1024 // len(line) // SCALE)).encode()
    at = data.index(b"{", len(head))
    data += (good(3) + good(4)).encode()
    path = write("comment-unclosed.pgn", data)
    r = check(path)
    if c.sane(r, "unclosed comment"):
        c.games(r, "unclosed comment", 4)
        c.clean(r, "unclosed comment", {1, 3, 4})
        c.finding(r, "unclosed comment", 2, "syntax-error", *where(data, at), "unterminated")


@case("million-tags", "1,000,000 tag pairs in one game; and separated by blank lines")
def million_tags(c):
    results = {}
    for n in (1_000_000 // SCALE, 250_000 // SCALE):
        head = good(1) + '[Event "tags"]\n'
        path = write_parts(
            f"tags-{n}.pgn",
            [head, "".join(f'[T{i} "v"]\n' for i in range(n)), "\n1. e4 *\n\n", good(3)],
        )
        r = check(path)
        results[n] = r
        if c.sane(r, f"{n} tags"):
            c.games(r, f"{n} tags", 3)
            c.clean(r, f"{n} tags", {1, 2, 3})
    if len(results) == 2:
        c.linear("tags", results[250_000 // SCALE], results[1_000_000 // SCALE], 4)
    # A blank line between tags with new names: one tag section (and over the size limit).
    results = {}
    for n in (1_000_000 // SCALE, 250_000 // SCALE):
        head = good(1) + '[Event "tags"]\n'
        path = write_parts(
            f"tags-blank-{n}.pgn",
            [head, "".join(f'\n[Tag{i} "v"]\n' for i in range(n)), "\n1. e4 *\n\n", good(3)],
        )
        r = check(path)
        results[n] = r
        if c.sane(r, f"{n} tags, blank lines"):
            c.games(r, f"{n} tags, blank lines", 3)
            c.clean(r, f"{n} tags, blank lines", {1, 3})
    if len(results) == 2:
        c.linear("tags with blank lines", results[250_000 // SCALE], results[1_000_000 // SCALE], 4)
    c.note("one game each; with blank lines the game passes 16 MiB: tags kept, finding")


@case("line-50mb", "a single 50 MB line of movetext; a 50 MB last line without a line end")
def long_line(c):
    results = {}
    for mb in (50, 12):
        size = mb * 1024 * 1024 // SCALE
        head = good(1) + '[Event "line"]\n[Result "*"]\n\n'
        # The fifth move is illegal (the line stops there): the cost is reading the line.
        moves = "e4 e5 Nf3 Nc6 " * (size // 14)
        path = write_parts(f"line-{mb}mb.pgn", [head, moves, "*\n\n", good(3)])
        r = check(path)
        results[mb] = r
        if c.sane(r, f"{mb} MB line", max_mb=160):
            c.games(r, f"{mb} MB line", 3)
            c.clean(r, f"{mb} MB line", {1, 3})
            if mb * 1024 * 1024 // SCALE > LIMIT_GAME:
                at = where(head.encode(), len(head) - 1)
                c.finding(r, f"{mb} MB line", 2, "syntax-error", *at, "game larger than")
            elif size // 14 * 4 > LIMIT_TOKENS:
                at = where(head.encode(), len(head) - 1)
                c.finding(r, f"{mb} MB line", 2, "syntax-error", *at, "game with more than")
            else:
                at = where((head + "e4 e5 Nf3 Nc6 ").encode(), len(head) + 14)
                c.finding(r, f"{mb} MB line", 2, "illegal-move", *at)
    c.linear("long line", results[12], results[50], 4)
    size = 50 * 1024 * 1024 // SCALE
    head = good(1) + good(2)
    path = write_parts("line-last.pgn", [head, "garbage " * (size // 8)])
    r = check(path)
    if c.sane(r, "50 MB last line", max_mb=160):
        if size > LIMIT_GAME:
            # Game 2's moves end with its result within the limit: it is kept whole, and
            # the line after it, over the limit, is read as a game of its own and skipped.
            c.clean(r, "50 MB last line", {1, 2})
            c.games(r, "50 MB last line", 3)
            at = where(head.encode(), len(head))
            c.finding(r, "50 MB last line", 3, "syntax-error", *at, "game larger than")
        else:
            c.clean(r, "50 MB last line", {1})
            c.games(r, "50 MB last line", 2)
            at = where(head.encode(), len(head))
            c.finding(r, "50 MB last line", 2, "syntax-error", *at, "unexpected 'garbage'")
    c.note("game over 16 MiB or over 1,048,576 tokens: movetext skipped, finding after its "
           "tags; text over the limit after a game's result: a game of its own, skipped; "
           "others intact")


@case("token-limit", "16 MiB of '(' on one line; 8 M empty comments; 5 M one-square moves")
def token_limit(c):
    # Each game has more than a million tokens (the tokenizer's limit), under 16 MiB:
    # memory stays bounded by the limit (12 bytes a token), not by a token a byte.
    head = good(1) + '[Event "tokens"]\n[Result "*"]\n\n'
    at = where(head.encode(), len(head) - 1)  # the blank line after the tags
    tokens = LIMIT_TOKENS + 150_000 if QUICK else None
    bodies = {
        "parens": ("1. e4 ", "(", tokens or 16 * 1024 * 1024 - 1000),
        "comments": ("1. e4 ", "{}", tokens or 8 * 1024 * 1024 - 1000),
        "moves": ("1. ", "a4 ", tokens or 5 * 1024 * 1024),
    }
    for name, (start, unit, n) in bodies.items():
        path = write_parts(f"tokens-{name}.pgn", [head, start, unit * n, " *\n\n", good(3)])
        r = check(path)
        if c.sane(r, name, max_mb=64):
            c.games(r, name, 3)
            c.clean(r, name, {1, 3})
            c.finding(r, name, 2, "syntax-error", *at, "game with more than 1048576 tokens")
    c.note("over 1,048,576 tokens: movetext skipped, finding after the tags; others intact")


@case("nul-invalid-utf8", "NUL and invalid UTF-8 in 998 of 1,000 games; 20 MB of random bytes")
def nul_and_invalid(c):
    rng = random.Random(7)
    kinds = [
        # (what is inserted, where, expected code, message part, offset of the damage in it)
        (b" \x00 ", "move", "syntax-error", "unexpected '\\0'", 1),
        (b" \xff ", "move", "syntax-error", "unexpected '\u00ff'", 1),
        (b" \xc3 ", "move", "syntax-error", "unexpected '\u00c3'", 1),
        (b" {nul \x00 here}", "move", "syntax-error", "NUL byte in a comment", 6),
        (b" {bad \xed\xa0\x80 utf-8}", "move", "encoding", "windows-1252: 1 comment", 1),
        (b" {cut \xe2\x80}", "move", "encoding", "windows-1252: 1 comment", 1),
        (b"\x00", "tag", "syntax-error", "NUL byte in a tag pair", 0),
        (b"\xc0\xaf", "tag", "encoding", "windows-1252: tag White", None),
    ]
    parts, expected = [], []
    for i in range(1, 1001):
        g = good(i).encode()
        if 1 < i < 1000:
            insert, place, code, message, offset = kinds[rng.randrange(len(kinds))]
            if place == "move":
                # After a move, in the middle of the movetext line.
                movetext = g.index(b"1. e4")
                squares = re.finditer(rb"[a-h][1-8]", g[movetext:])
                ends = [movetext + m.end() for m in squares]
                at = rng.choice(ends[:-1])
            else:
                at = g.index(b'"White ') + 4  # inside the value of the White tag
            g = g[:at] + insert + g[at:]
            base = sum(len(p) for p in parts)
            expected.append((i, code, message, base + at + (offset or 0), offset is None, base))
        parts.append(g)
    data = b"".join(parts)
    path = write("nul-invalid-utf8.pgn", data)
    r = check(path)
    if c.sane(r, "damaged games"):
        c.games(r, "damaged games", 1000)
        c.clean(r, "damaged games", {1, 1000})
        for game, code, message, at, at_tag, base in expected:
            line, column = where(data, at)
            if at_tag:  # an encoding note for a tag points at the tag
                line, column = where(data, data.index(b"[White", base))
            if code == "encoding" and not at_tag:
                line, column = where(data, data.index(b"{", at))
            if c.finding(r, "damaged games", game, code, line, column, message) is None:
                break
    results = {}
    for mb in (20, 5):
        rng = random.Random(mb)
        path = write(f"random-{mb}mb.bin", rng.randbytes(mb * 1024 * 1024 // SCALE))
        r = check(path)
        results[mb] = r
        c.sane(r, f"{mb} MB random bytes", max_mb=200)
    c.linear("random bytes", results[5], results[20], 4)
    # A UTF-16 file: read as such, named in a note, its games clean.
    path = write("utf16.pgn", "".join(good(i) for i in range(1, 4)).encode("utf-16"))
    r = check(path)
    if c.sane(r, "UTF-16 file"):
        c.games(r, "UTF-16 file", 3)
        c.finding(r, "UTF-16 file", 1, "encoding", 1, 1, "UTF-16")
        if len(r.findings()) != 1:
            c.fail(f"UTF-16 file: {len(r.findings())} findings, expected the one note")
    c.note("each damaged game: a finding at the damaged byte (notes at the comment or tag)")


@case("truncated", "files cut in a tag, a comment, a move, a character, between moves; on stdin too")
def truncated(c):
    head = (good(1) + good(2)).encode()
    third = b'[Event "x"]\n[Result "*"]\n\n1. e4 '
    cuts = {
        # name: (bytes after the two good games, where the damage starts, code, message)
        "tag": (b'[Event "cut', b"[", "syntax-error", "malformed tag pair"),
        "comment": (third + b"{the file ends her", b"{", "syntax-error", "unterminated comment"),
        "move": (third + b"e5 2. Nf", b"Nf", "syntax-error", "unexpected 'Nf'"),
        # At a line end between two moves: only the termination marker is missing.
        "line end": (third + b"e5 2. Nf3\n", b"\n", "syntax-error", "ends without a result"),
        "character": (third + b"{caf\xc3", b"{", "encoding", "windows-1252"),
    }
    for name, (rest, mark, code, message) in cuts.items():
        data = head + rest
        at = data.rindex(mark)
        path = write(f"cut-{name.replace(' ', '-')}.pgn", data)
        for source in ("file", "stdin"):
            what = f"cut in a {name} ({source})"
            if source == "file":
                r = check(path)
            else:
                r = run(["check", "--format", "jsonl", "-q", "-"], input_bytes=data)
            if c.sane(r, what):
                c.games(r, what, 3)
                c.clean(r, what, {1, 2})
                f = c.finding(r, what, 3, code, *where(data, at), message)
                if f and source == "stdin" and f["file"] != "<stdin>":
                    c.fail(f"{what}: file named {f['file']!r}")
    c.note("games before intact; the last game: a finding at the cut (tag, comment, move, missing result)")


@case("compressed-cut", "a .pgn.gz cut short: check, and convert -o over an old file")
def compressed_cut(c):
    import gzip
    import zlib

    text = "".join(good(i) for i in range(1, 30_001)).encode()
    packed = gzip.compress(text, 6)
    cut = packed[: len(packed) * 9 // 10]
    path = write("cut.pgn.gz", cut)
    # The text before the cut, as `zcat` writes it: planilla reads what it would.
    prefix = zlib.decompressobj(wbits=31).decompress(cut)
    games = prefix.count(b"[Event ")
    complete = prefix.count(b"1-0\n")
    r = check(path)
    if not c.sane(r, "check", codes=(2,)):
        return
    said = re.search(r"cut\.pgn\.gz: cannot read: after (\d+) bytes of text \((\d+) games read\)", r.err)
    if not said:
        c.fail(f"check: the message does not say how much was read: {r.err.strip()[:160]!r}")
        return
    if (int(said.group(1)), int(said.group(2))) != (len(prefix), games):
        c.fail(f"check: read {said.group(1)} bytes in {said.group(2)} games, zcat gives {len(prefix)} in {games}")
    # Every game of the text is reported; the complete ones are good.
    c.games(r, "check", games)
    if any(f["game"] <= complete for f in r.findings()):
        c.fail(f"check: findings in good games: {r.findings()[0]['message'][:80]}")
    c.note(f"exit 2, 'cannot read: after N bytes of text ({games} games read): ...', as zcat | planilla")
    # To standard output: every game read (canonical English: written as it is).
    r = run(["convert", path])
    if c.sane(r, "convert", codes=(2,)) and (
        not r.out.startswith("".join(good(i) for i in range(1, complete + 1)).encode())
        or r.out.count(b"[Event ") != games
    ):
        c.fail(f"convert: {r.out.count(b'[Event ')} games written, expected {games}")
    # To a file: not written at all, the old file kept, no temporary file left.
    d = os.path.join(OUT, "cut-out")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    dest = os.path.join(d, "out.pgn")
    with open(dest, "w") as f:
        f.write(good(0))
    r = run(["convert", "-o", dest, path])
    if c.sane(r, "convert -o", codes=(2,)) and "out.pgn: not written" not in r.err:
        c.fail(f"convert -o: the message does not say the output is not written: {r.err.strip()[:160]!r}")
    if open(dest, "rb").read() != good(0).encode():
        c.fail("convert -o: the old output file was replaced by a partial conversion")
    if os.listdir(d) != ["out.pgn"]:
        c.fail(f"convert -o: left {sorted(os.listdir(d))}")
    c.note("every game read before the cut checked and converted; convert -o: old file kept")


@case("1252-castling", "Windows-1252 games castling with an en dash (byte 0x96): check, convert")
def castling_1252(c):
    games = [good(1).encode(), b'[Event "Espa\xf1a"]\n[Result "*"]\n\n1. e4 e5 2. Cf3 Cc6 3. Ac4 Ac5 4. O\x96O *\n\n', good(3).encode()]
    path = write("castling-1252.pgn", b"".join(games))
    r = check(path)
    if c.sane(r, "check"):
        c.games(r, "check", 3)
        bad = [f for f in r.findings() if f["severity"] == "error"]
        if bad:
            c.fail(f"check: {bad[0]['code']} at {bad[0]['line']}:{bad[0]['column']}: {bad[0]['message'][:90]}")
    for encoding in ("utf-8", "latin-1"):
        r = run(["convert", "--output-encoding", encoding, path])
        if c.sane(r, f"convert to {encoding}", codes=(0, 1)):
            out = r.out.decode("utf-8" if encoding == "utf-8" else "latin-1", "replace")
            if out.count("[Event ") != 3:
                c.fail(f"convert to {encoding}: {out.count('[Event ')} games out of 3")
            if encoding == "utf-8" and "\ufffd" in r.out.decode("utf-8", "replace"):
                c.fail("convert to utf-8: the output is not UTF-8")
    c.note("O\u2013O read as castling; every game converted, in every output encoding")


@case("long-game", "a game of 20,000 plies (knight moves, no draw claimed)")
def long_game(c):
    def make(plies):
        moves = []
        cycle = ["Nf3", "Nf6", "Ng1", "Ng8"]
        for p in range(plies):
            if p % 2 == 0:
                moves.append(f"{p // 2 + 1}.")
            moves.append(cycle[p % 4])
        return good(1) + '[Event "long"]\n[Result "*"]\n\n' + "\n".join(
            " ".join(moves[i : i + 12]) for i in range(0, len(moves), 12)
        ) + " *\n\n" + good(3)

    results = {}
    for plies in (20_000 // SCALE, 5_000 // SCALE):
        path = write(f"long-{plies}.pgn", make(plies))
        r = check(path, "--rules", "fide-2009")
        results[plies] = r
        what = f"{plies} plies (fide-2009)"
        if c.sane(r, what):
            c.games(r, what, 3)
            c.clean(r, what, {1, 3})
            s = r.summary()
            if s and s["plies"] != plies + 14:
                c.fail(f"{what}: {s['plies']} plies replayed, expected {plies + 14}")
            codes = sorted(f["code"] for f in r.findings() if f["game"] == 2)
            if codes != ["missed-fifty-move-claim", "missed-threefold-claim"]:
                c.fail(f"{what}: game 2 findings {codes}")
    c.linear("long game", results[5_000 // SCALE], results[20_000 // SCALE], 4)
    path = os.path.join(OUT, f"long-{20_000 // SCALE}.pgn")
    r = check(path)
    if c.sane(r, "fide-2023"):
        codes = sorted(f["code"] for f in r.findings() if f["game"] == 2)
        if "move-after-game-end" not in codes:
            c.fail(f"fide-2023: game 2 findings {codes}")
    c.note("fide-2009: replayed whole, 2 warnings (missed claims); 2023: ends at fivefold")


@case("empty-games", "10,000 empty games (tags and '*'), 10,000 tag-only sections")
def empty_games(c):
    results = {}
    for n in (10_000, 40_000):
        path = write(f"empty-{n}.pgn", "".join(f'[Event "e{i}"]\n[Result "*"]\n\n*\n\n' for i in range(n)))
        r = check(path)
        results[n] = r
        if c.sane(r, f"{n} empty games"):
            c.games(r, f"{n} empty games", n)
            if r.findings():
                c.fail(f"{n} empty games: {len(r.findings())} findings")
    c.linear("empty games", results[10_000], results[40_000], 4)
    path = write("tag-only.pgn", "".join(f'[Event "e{i}"]\n[Site "s"]\n\n' for i in range(10_000)))
    r = check(path)
    if c.sane(r, "tag-only sections"):
        c.games(r, "tag-only sections", 10_000)
    c.note("each counted as a game, no finding")


def as_nobody():
    """Drops root (which reads any file) so that a mode-000 file is unreadable."""
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)


@case("directory", "unreadable files, symlink loops, a dangling link, a FIFO named .pgn")
def directory(c):
    # As root the run drops to `nobody`, for whom a mode-000 file is unreadable. `nobody`
    # must reach the binary and the tree, and the clone may sit in a directory only its
    # owner can enter (root's home, a `mktemp -d`): both go to a directory of their own
    # under the system's temporary directory, open to all.
    public = tempfile.mkdtemp(prefix="planilla-hostile-")
    try:
        os.chmod(public, 0o755)
        binary = os.path.join(public, "planilla")
        shutil.copy2(BIN, binary)
        os.chmod(binary, 0o755)
        directory_in(c, public, binary)
    finally:
        # The closed directory must be open again before it can be removed.
        os.chmod(os.path.join(public, "tree", "closed"), 0o755)
        shutil.rmtree(public, ignore_errors=True)


def directory_in(c, public, binary):
    d = os.path.join(public, "tree")
    os.makedirs(os.path.join(d, "sub", "deeper"))
    for name, text in [
        ("a.pgn", good(1) + good(2)),
        ("sub/b.pgn", good(1)),
        ("sub/deeper/c.pgn", good(1)),
        ("secret.pgn", good(1)),
    ]:
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    os.chmod(os.path.join(d, "secret.pgn"), 0)
    os.makedirs(os.path.join(d, "closed"))
    with open(os.path.join(d, "closed", "d.pgn"), "w") as f:
        f.write(good(1))
    os.chmod(os.path.join(d, "closed"), 0)
    os.symlink("..", os.path.join(d, "sub", "loop"))
    os.symlink(".", os.path.join(d, "sub", "deeper", "self"))
    os.symlink("nowhere.pgn", os.path.join(d, "dangling.pgn"))
    os.symlink("ping.pgn", os.path.join(d, "pong.pgn"))
    os.symlink("pong.pgn", os.path.join(d, "ping.pgn"))
    for p in [d] + [os.path.join(dp, n) for dp, ds, fs in os.walk(d) for n in ds + fs]:
        if not os.path.islink(p) and p not in (os.path.join(d, "secret.pgn"), os.path.join(d, "closed")):
            os.chmod(p, 0o755 if os.path.isdir(p) else 0o644)
    pre = as_nobody if os.geteuid() == 0 else None
    r = run(["check", "--format", "jsonl", "-q", d], preexec=pre, timeout=30, binary=binary)
    if c.sane(r, "tree", codes=(2,)):
        c.games(r, "tree", 4)
        for name in ("secret.pgn", "closed", "dangling.pgn", "ping.pgn"):
            if name not in r.err:
                c.fail(f"tree: standard error does not name {name}: {r.err.strip()[:200]!r}")
    # A FIFO: opening it for reading would wait for a writer that never comes. Found in a
    # directory it is named and skipped; named on the command line it is read.
    fifo = os.path.join(d, "sub", "fifo.pgn")
    os.mkfifo(fifo)
    r = run(["check", "--format", "jsonl", "-q", d], preexec=pre, timeout=20, binary=binary)
    if c.sane(r, "tree with a FIFO", codes=(2,)):
        c.games(r, "tree with a FIFO", 4)
        if "fifo.pgn: skipped: a FIFO" not in r.err:
            c.fail(f"tree with a FIFO: the FIFO is not named: {r.err.strip()[:200]!r}")

    def feed_fifo():
        with open(fifo, "wb") as f:
            f.write((good(1) + good(2)).encode())

    feeder = threading.Thread(target=feed_fifo, daemon=True)
    feeder.start()
    r = run(["check", "--format", "jsonl", "-q", fifo], timeout=20)
    if c.sane(r, "a FIFO named"):
        c.games(r, "a FIFO named", 2)
    if feeder.is_alive():  # unblock the writer if planilla never opened the FIFO
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
    c.note("good files read (4 games), each unreadable one named on stderr, exit 2; "
           "a FIFO found in the directory named and skipped, read when named")


@case("stdin", "standard input closed early, empty, or not open")
def stdin_cases(c):
    data = (good(1) + good(2) + good(3)).encode()
    cut = len(good(1) + good(2)) + 60  # inside the third game's movetext
    r = run(["check", "--format", "jsonl", "-q"], input_bytes=data[:cut])
    if c.sane(r, "closed early"):
        c.games(r, "closed early", 3)
        c.clean(r, "closed early", {1, 2})
        if not [f for f in r.findings() if f["game"] == 3]:
            c.fail("closed early: no finding for the cut game")
    r = run(["check", "--format", "jsonl", "-q"], stdin=subprocess.DEVNULL)
    if c.sane(r, "empty"):
        c.games(r, "empty", 0)
    # Rust's standard library reads a closed descriptor 0 as empty input.
    r = run(["check", "--format", "jsonl", "-q"], preexec=lambda: os.close(0))
    if c.sane(r, "not open", codes=(0, 2)):
        if r.rc == 2 and "planilla" not in r.err:
            c.fail("not open: exit 2 without a message")
        if r.rc == 0:
            c.games(r, "not open", 0)
    c.note("cut game: a finding; empty input: 0 games; descriptor 0 closed: read as empty")


def big_input(name, games):
    path = os.path.join(OUT, name)
    if not os.path.exists(path) or os.path.getsize(path) < games * 100:
        chunk = "".join(good(i) for i in range(1000))
        write_parts(name, [chunk] * (games // 1000))
    return path


@case("closed-pipe", "check big.pgn | head -1 and convert big.pgn | head -c 100")
def closed_pipe(c):
    path = big_input("big.pgn", 200_000 // SCALE)
    bad = write("illegal.pgn", "".join(f"[Event \"{i}\"]\n\n1. e4 e5 2. Ke3 *\n\n" for i in range(100_000 // SCALE)))
    for what, args in (
        ("check | head", ["check", "--format", "jsonl", bad]),
        ("convert | head", ["convert", path]),
    ):
        start = time.monotonic()
        proc = subprocess.Popen([BIN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc.stdout.read(100)
        proc.stdout.close()
        try:
            err = proc.communicate(timeout=30)[1].decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            proc.kill()
            c.fail(f"{what}: still running 30 s after the pipe closed")
            continue
        secs = time.monotonic() - start
        c.secs += secs
        if proc.returncode != 0:
            c.fail(f"{what}: exit status {proc.returncode}")
        if err.strip():
            c.fail(f"{what}: said {err.strip()[:120]!r}")
    c.note("stops at once, exit 0, nothing on stderr")


def small_tmpfs(size):
    """A tmpfs of `size` bytes (root only); None when it cannot be mounted."""
    mnt = os.path.join(OUT, "tiny")
    os.makedirs(mnt, exist_ok=True)
    subprocess.run(["umount", mnt], stderr=subprocess.DEVNULL)
    if os.geteuid() != 0:
        return None
    ok = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", mnt], stderr=subprocess.DEVNULL)
    return mnt if ok.returncode == 0 else None


def limit_file_size(limit):
    def pre():
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return pre


@case("disk-full", "output to /dev/full and to a full file system (check, convert, convert -o)")
def disk_full(c):
    path = big_input("big.pgn", 200_000 // SCALE)
    bad = os.path.join(OUT, "illegal.pgn")
    if not os.path.exists(bad):
        write("illegal.pgn", "".join(f"[Event \"{i}\"]\n\n1. e4 e5 2. Ke3 *\n\n" for i in range(10_000)))
    with open("/dev/full", "wb") as full:
        for what, args in (
            ("check > /dev/full", ["check", bad]),
            ("convert > /dev/full", ["convert", path]),
        ):
            r = run(args, stdout=full)
            if c.sane(r, what, codes=(2,)) and "space" not in r.err.lower():
                c.fail(f"{what}: message does not say the disk is full: {r.err.strip()[:160]!r}")
    mnt = small_tmpfs(1 << 20)
    if mnt:
        dest = os.path.join(mnt, "out.pgn")
        pre = None
    else:
        dest = os.path.join(OUT, "fsize-out.pgn")
        pre = limit_file_size(1 << 20)
    old = good(0).encode()
    with open(dest, "wb") as f:
        f.write(old)
    r = run(["convert", "-o", dest, path], preexec=pre)
    if c.sane(r, "convert -o on a full disk", codes=(2,)):
        if not r.err.strip():
            c.fail("convert -o on a full disk: no message")
    if open(dest, "rb").read() != old:
        c.fail("convert -o on a full disk: the old file was changed")
    left = [n for n in os.listdir(os.path.dirname(dest)) if ".tmp" in n]
    if left:
        c.fail(f"convert -o on a full disk: temporary file left: {left}")
    if mnt:
        subprocess.run(["umount", mnt])
    c.note("exit 2 with a message; the old -o file untouched" + ("" if mnt else " (file size limit)"))


@case("interrupted", "convert -o interrupted (SIGINT, SIGTERM, SIGHUP, SIGKILL), also in place")
def interrupted(c):
    # Large enough that converting it takes well over the 0.3 s before the signal, even
    # on a fast machine (24 MB took 0.5 s here: the signal could come as the output was
    # renamed into place).
    path = big_input("bigger.pgn", 800_000 // SCALE)
    d = os.path.join(OUT, "interrupted")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    old = good(0).encode()
    interrupted_runs = 0
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL):
        for in_place in (False, True):
            name = signal.Signals(sig).name
            what = f"{name}{' in place' if in_place else ''}"
            if in_place:
                dest = os.path.join(d, "inplace.pgn")
                shutil.copyfile(path, dest)
                before = os.path.getsize(dest)
                args = ["convert", "-o", dest, dest]
            else:
                dest = os.path.join(d, "out.pgn")
                with open(dest, "wb") as f:
                    f.write(old)
                args = ["convert", "-o", dest, path]
            proc = subprocess.Popen([BIN] + args, stderr=subprocess.DEVNULL)
            time.sleep(0.3 / SCALE)
            if proc.poll() is not None:
                c.note(f"{what}: finished before the signal")
                continue
            proc.send_signal(sig)
            interrupted_runs += 1
            proc.wait(timeout=30)
            if proc.returncode != -sig:  # ends by the signal, as without a handler
                c.fail(f"{what}: exit status {proc.returncode}, expected death by {name}")
            if in_place:
                if os.path.getsize(dest) != before or open(dest, "rb").read(200) != open(path, "rb").read(200):
                    c.fail(f"{what}: the input was changed")
            elif open(dest, "rb").read() != old:
                c.fail(f"{what}: the old output file was changed")
            left = [n for n in os.listdir(d) if ".tmp" in n]
            if left and sig != signal.SIGKILL:
                c.fail(f"{what}: temporary file left behind ({left[0]})")
            for n in left:
                os.remove(os.path.join(d, n))
    if interrupted_runs == 0:
        c.fail("every run finished before its signal: nothing was tested (input too small)")
    c.note("destination untouched; temporary file removed (kept only after SIGKILL)")


@case("reversible-plies", "a game of 200,000 plies without a capture or pawn move")
def reversible(c):
    def make(plies):
        cycle = ["Nf3", "Nf6", "Ng1", "Ng8"]
        moves = " ".join(cycle[p % 4] for p in range(plies))
        # Cut lines only between moves.
        text, line = [], ""
        for word in moves.split(" "):
            if len(line) + len(word) > 79:
                text.append(line)
                line = ""
            line += word + " "
        text.append(line)
        return good(1) + '[Event "shuffle"]\n[Result "*"]\n\n' + "\n".join(text) + "*\n\n" + good(3)

    results = {}
    for plies in (200_000 // SCALE, 50_000 // SCALE):
        path = write(f"reversible-{plies}.pgn", make(plies))
        r = check(path, "--rules", "fide-2009", timeout=30)
        results[plies] = r
        what = f"{plies} plies"
        if c.sane(r, what, max_secs=30):
            c.games(r, what, 3)
            c.clean(r, what, {1, 3})
    if all(not r.timed_out for r in results.values()):
        c.linear("reversible plies", results[50_000 // SCALE], results[200_000 // SCALE], 4)
    c.note("replayed whole (fide-2009), 2 warnings")


@case("cr-line-ends", "1,000 games with lone CR line ends (classic Mac OS)")
def cr_only(c):
    data = "".join(good(i) for i in range(1, 1001)).replace("\n", "\r")
    path = write("cr-only.pgn", data)
    r = check(path)
    # Not read as line ends (a known limit): the games run together, and the first finding
    # says why, at the first CR.
    if c.sane(r, "CR line ends"):
        first = r.findings()[:1]
        if not first or "lone CR" not in first[0]["message"]:
            c.fail(f"CR line ends: the first finding does not name the lone CRs: {first}")
        else:
            c.finding(r, "CR line ends", 1, "syntax-error", 1, data.index("\r") + 1, "lone CR")
    c.note("not read as line ends: one game, the first finding names the lone CRs")


# ---------------------------------------------------------------------------------------


def build():
    env_bin = os.environ.get("PLANILLA")
    if env_bin:
        return os.path.abspath(env_bin)
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    return os.path.join(ROOT, "target", "release", "planilla")


def main():
    global BIN
    names, skipped = [], set()
    args = iter(sys.argv[1:])
    for a in args:
        if a == "--skip":
            skipped.add(next(args, ""))
        elif not a.startswith("-"):
            names.append(a)
    if "--list" in sys.argv:
        for name, description, _ in CASES:
            print(f"{name:20} {description}")
        return 0
    if not os.path.isdir(os.path.join(ROOT, "crates", "parser")):
        print("scripts/hostile.py: run from the repository root", file=sys.stderr)
        return 2
    unknown = [n for n in names + sorted(skipped) if n not in {c[0] for c in CASES}]
    if unknown:
        print(f"scripts/hostile.py: unknown case {', '.join(unknown)} (--list)", file=sys.stderr)
        return 2
    os.makedirs(OUT, exist_ok=True)
    BIN = build()
    passed = failed = 0
    for name, description, f in CASES:
        if (names and name not in names) or name in skipped:
            continue
        c = Case(name)
        start = time.monotonic()
        try:
            f(c)
        except Exception as e:  # a broken generator is a failure too, not a crash
            c.fail(f"the case itself failed: {type(e).__name__}: {e}")
        wall = time.monotonic() - start
        status = "ok  " if not c.failures else "FAIL"
        print(
            f"{status} {name:18} {description}: {'; '.join(c.notes) or '-'}"
            f" [peak {c.peak_mb:.0f} MB, planilla {c.secs:.1f} s, case {wall:.0f} s]"
        )
        for message in c.failures:
            print(f"       {message}")
        sys.stdout.flush()
        if c.failures:
            failed += 1
        else:
            passed += 1
    if skipped:
        print(f"left out: {', '.join(sorted(skipped))}")
        print(f"{passed} passed, {failed} failed, {len(skipped)} skipped")
    else:
        print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


BIN = None
if __name__ == "__main__":
    sys.exit(main())
