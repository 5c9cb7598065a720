#!/usr/bin/env python3
"""Game-by-game comparison of `planilla check` with two independent peers.

Run through scripts/compare-peers (which installs python-chess and pgn-extract and builds
both binaries); see that script for the usage.

Part 1, legality: every file of CORPORA/real, CORPORA/edge and CORPORA/edge/notnil-fixtures
is read by
  - planilla   `planilla check --format jsonl`: a game is illegal when its main line
               (`"variation":[]`) has an illegal-move, ambiguous-move or invalid-fen
               finding; unsupported-variant means skipped;
  - python-chess `chess.pgn.read_game`: illegal when it records an error in the main
               line (errors inside variations are counted apart); games whose Variant tag
               is not standard chess / Chess960 are skipped;
  - the peer   scripts/peers (pgn-reader 0.29 + shakmaty 0.30).
Games are matched by their index in the file, after checking that the three tools see
the same number of games in it. Each game gets a verdict per tool: `ok`, `illegal@PLY`,
`badfen`, `variant` (skipped), `error` (the tool gave up) or `missing` (the tool saw fewer
games). Every game where the verdicts differ must be listed in KNOWN_LEGALITY with the
same three verdicts and the reason found when it was investigated; anything else fails.

Part 2, game-end and draw conditions, on pgn-extract's regression inputs
(CORPORA/pgn-extract/infiles/test-{checkmate,stalemate,fifty,seventyfive,repetition}.pgn)
and, for more coverage, every file of CORPORA/draws and CORPORA/real. Games are split the
way planilla and pgn-extract split them (a game ends at its termination marker, or where a
tag line follows movetext) and matched by index; the game counts must agree. For each game
and condition:
  - pgn-extract, run live with the condition's option when the installed version has it
    (Debian's 19.04 has --fifty, --repetition, --checkmate, --stalemate; not --seventyfive
    nor --repetition5), and, for the regression inputs, its expected outfile: which games
    it selects, and the first move it marks with --markmatches;
  - planilla: the ply of the finding that carries the condition;
  - python-chess, replaying the main line itself (an independent third opinion).
Conditions: fifty (the half-move clock reaches 100), seventyfive (reaches 150 in a
position that is not mate), threefold / fivefold (a position occurs the 3rd / 5th time,
FIDE identity: en passant counts only when the capture is possible), dead (insufficient
material as python-chess decides it; planilla decides it completely, so a dead position
material does not show is a known difference), and the final position being checkmate /
stalemate. Differences must be listed in KNOWN_DRAWS.

What `planilla check` exposes, and so why planilla also runs on rewritten copies:
  - a fifty-move or threefold condition is reported (missed-*-claim, at its first chance,
    later chances only counted) only if the game went on after it or ended other than
    drawn: one first reached at the last move of a drawn game (a claim taken) or of a
    game ending `*` leaves no trace;
  - an automatic end (checkmate, stalemate, dead position, 75 moves, fivefold) shows only
    as move-after-game-end or move-after-draw (moves follow) or result-mismatch (the
    result disagrees): a
    game correctly ending in it leaves no trace; and replay stops at the first end, so
    nothing after it is seen;
  - no per-game ply count is printed (only the total in the summary).
So planilla also checks two copies of each input (in a temporary directory) whose Result
tags and termination markers all say 1-0, or all 1/2-1/2: with 1-0 every fifty-move /
threefold condition is a missed claim and every automatic draw a result-mismatch; with
1/2-1/2 every final checkmate is a result-mismatch. "Final" = no move after the end.

Exit status 0 when every difference is a known one, 1 otherwise.
"""

import argparse
import concurrent.futures
import io
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

import chess
import chess.pgn

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

# ---------------------------------------------------------------------------------------
# Known, investigated differences. Keep every entry explained: the script fails on any
# difference not listed here, and on an entry whose verdicts no longer match.
# ---------------------------------------------------------------------------------------

# Part 1: (file relative to the corpora folder, game index, "planilla|python-chess|peer",
# reason). A verdict is ok, illegal@PLY, badfen, variant, error or missing.
KNOWN_LEGALITY = [
    ("edge/0.pgn", 1, "illegal@4|ok|illegal@4",
     "the whole game is one line with HTML '<br />' for line breaks. python-chess reads a line "
     "starting with '[' as a tag line, so it sees tags only and no movetext; planilla (with "
     "syntax-error findings) and pgn-reader drop the tokens glued to '<br' ('Nc6<br'), so "
     "2...Nc6 is lost and 3. e3 is read as Black's move at ply 4: illegal for both"),
    ("edge/anastasian-lewis.pgn", 1, "illegal@82|ok|illegal@82",
     "41... Z0 is a null move: python-chess plays it as a pass; planilla reports a null "
     "move in the main line as an illegal move (in a variation it is only a note), and "
     "shakmaty's San::Null never resolves to a legal move, so the peer stops there too"),
    ("edge/uci-moves.pgn", 1, "ok|ok|illegal@1",
     "the movetext is UCI long algebraic (g1f3 c7c5 ...): planilla resolves it with "
     "non-standard-san notes and python-chess's parse_san accepts UCI; shakmaty parses "
     "'g1f3' as a pawn move from g1 to f3, which is illegal"),
    ("edge/notnil-fixtures/0015.pgn", 1, "ok|ok|illegal@1",
     "'1. g1f3 e7e5 *': UCI moves, as in edge/uci-moves.pgn"),
]

# Part 1: game-count mismatches that are understood: (file, "planilla|python-chess|peer",
# reason). None in real/ and edge/ (every file has the same count in the three tools).
KNOWN_COUNTS = [
]

# Part 2: (file relative to the corpora folder, game index, condition,
# "planilla|pgn-extract live|pgn-extract outfile|python-chess", reason). A value is the
# ply where the condition first holds, True (final position), None (never), - (no column).
EP_SQUARE = (
    "pgn-extract 19.04 (Debian's) treats a position after a double pawn push as different "
    "from the same position without it (it keeps the en-passant square even when no "
    "capture is possible), so one of the three occurrences does not count for it. FIDE "
    "9.2.3 counts en passant only when the capture is possible: planilla and python-chess "
    "agree on the ply, and pgn-extract's newer release fixed it (the outfile of "
    "test-repetition selects Capablanca-Lasker 1921 at the same ply)")
KNOWN_DRAWS = [
    ("pgn-extract/infiles/test-repetition.pgn", 9, "threefold", "76|None|76|76",
     "Capablanca-Lasker 1921: 34...h5 then 36...Kf8 and 38...Kf8 give the same position. "
     + EP_SQUARE),
    ("real/Carlsen.pgn", 969, "threefold", "106|None|-|106", EP_SQUARE),
    ("real/Carlsen.pgn", 1102, "threefold", "68|None|-|68", EP_SQUARE),
    ("real/Carlsen.pgn", 1548, "threefold", "86|None|-|86", EP_SQUARE),
    ("real/Carlsen.pgn", 1689, "threefold", "71|None|-|71", EP_SQUARE),
    ("real/twic0920.pgn", 1949, "threefold", "34|None|-|34", EP_SQUARE),
    ("real/twic1599_1000k.pgn", 389, "threefold", "101|None|-|101", EP_SQUARE),
    ("real/twic1599_1000k.pgn", 485, "threefold", "40|None|-|40", EP_SQUARE),
    ("real/twic1599_1000k.pgn", 660, "threefold", "70|None|-|70", EP_SQUARE),
    ("real/world_matches.pgn", 135, "threefold", "76|None|-|76",
     "the same Capablanca-Lasker 1921 game as test-repetition.pgn game 9. " + EP_SQUARE),
    ("real/twic0920.pgn", 1358, "dead", "130|-|-|None",
     "Lalith-Boscolo, Forni di Sopra 2012: 65...h2+ leaves White's king on g1 behind its "
     "pawn g2, blocked by Black's g3, with 66.Kh1 its one move; no pawn can ever move again "
     "and neither king can reach a pawn it could take, so no sequence of legal moves mates "
     "(chasolver 3.0.0: dead). planilla decides dead positions completely, python-chess by "
     "material alone (the game was drawn after 66.Kh1)"),
]

# Part 2: files where pgn-extract sees a different number of games; it is left out for
# them: (file, reason).
KNOWN_DRAW_COUNTS = [
    ("draws/draw.pgn", "the game has no termination marker and an empty Result tag: "
     "pgn-extract drops it ('Missing result'), planilla and python-chess read it"),
    ("draws/promotion.pgn", "no termination marker, as draws/draw.pgn"),
]

SUPPORTED_VARIANTS = {
    "", "standard", "chess", "normal", "fromposition",
    "chess960", "960", "fischerandom", "fischerrandom",
}
CHESS960_VARIANTS = {"chess960", "960", "fischerandom", "fischerrandom"}


def variant_key(value):
    return "".join(c for c in value if not c.isspace() and c not in "-_").lower()


# ---------------------------------------------------------------------------------------
# planilla
# ---------------------------------------------------------------------------------------

def run_planilla(planilla, path):
    """Returns (games, findings) of `planilla check` on one file, under the 2014+ Laws
    (`--rules fide-2023`), which python-chess and pgn-extract count repetitions and the
    automatic draws by (planilla's default judges each game by the Laws of its Date)."""
    proc = subprocess.run(
        [planilla, "check", "--rules", "fide-2023", "--format", "jsonl", "-q", path],
        capture_output=True, text=True,
    )
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"planilla check {path}: exit {proc.returncode}: {proc.stderr.strip()}")
    findings, summary = [], None
    for line in proc.stdout.splitlines():
        d = json.loads(line)
        if d["type"] == "summary":
            summary = d
        elif d["type"] == "finding":
            findings.append(d)
    if summary is None:
        raise RuntimeError(f"planilla check {path}: no summary line")
    return summary["games"], findings, summary["plies"]


def planilla_verdicts(games, findings):
    verdicts = {}
    for i in range(1, games + 1):
        verdicts[i] = "ok"
    first = {}
    for f in findings:
        g = f["game"]
        if f["code"] == "unsupported-variant":
            verdicts[g] = "variant"
        elif f["code"] == "internal-error":
            verdicts[g] = "error"
        elif f["variation"] == [] and f["code"] in ("illegal-move", "ambiguous-move", "invalid-fen"):
            v = "badfen" if f["code"] == "invalid-fen" else f"illegal@{f['ply']}"
            if g not in first:
                first[g] = (v, f)
    for g, (v, _) in first.items():
        if verdicts[g] == "ok":
            verdicts[g] = v
    return verdicts, {g: f for g, (_, f) in first.items()}


# ---------------------------------------------------------------------------------------
# python-chess
# ---------------------------------------------------------------------------------------

class Builder(chess.pgn.GameBuilder):
    """Records where each error happens: main line or variation, ply and token."""

    def begin_game(self):
        super().begin_game()
        self.main_error = None  # (kind, ply, token, message)
        self.variation_errors = 0
        self.last_token = None

    def begin_parse_san(self, board, san):
        self.last_token = san
        return super().begin_parse_san(board, san)

    def handle_error(self, error):
        super().handle_error(error)
        if isinstance(error, (chess.IllegalMoveError, chess.AmbiguousMoveError, chess.InvalidMoveError)):
            if len(self.variation_stack) == 1:
                if self.main_error is None:
                    node, ply = self.variation_stack[-1], 1
                    while node.parent is not None:
                        node, ply = node.parent, ply + 1
                    self.main_error = ("illegal", ply, self.last_token, str(error))
            else:
                self.variation_errors += 1
        elif self.main_error is None:
            self.main_error = ("badfen", None, None, str(error))


def open_pgn(path):
    return open(path, encoding="utf-8-sig", errors="replace")


class InfoBuilder(Builder):
    def result(self):
        game = super().result()
        variant = game.headers.get("Variant", "")
        if variant_key(variant) not in SUPPORTED_VARIANTS:
            info = ("variant", variant, self.variation_errors)
        elif self.main_error is None:
            info = ("ok", "", self.variation_errors)
        elif self.main_error[0] == "badfen":
            info = ("badfen", self.main_error[3], self.variation_errors)
        else:
            _, ply, token, message = self.main_error
            info = (f"illegal@{ply}", f"{token}: {message}", self.variation_errors)
        game._planilla_info = info
        return game


def python_chess_verdicts(path):
    out = []
    with open_pgn(path) as h:
        while True:
            game = chess.pgn.read_game(h, Visitor=InfoBuilder)
            if game is None:
                break
            out.append(game._planilla_info)
    return out


# ---------------------------------------------------------------------------------------
# the peer
# ---------------------------------------------------------------------------------------

def peer_verdicts(peer, paths):
    proc = subprocess.run([peer, *paths], capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"planilla-peer: exit {proc.returncode}: {proc.stderr.strip()}")
    out = defaultdict(list)
    for line in proc.stdout.splitlines():
        path, index, status, detail = line.split("\t", 3)
        assert int(index) == len(out[path]) + 1, line
        if status == "illegal":
            v = f"illegal@{detail.split()[0]}"
        else:
            v = status
        out[path].append((v, detail))
    return out


# ---------------------------------------------------------------------------------------
# part 1
# ---------------------------------------------------------------------------------------

def legality(args):
    corpora = args.corpora
    files = []
    for d in args.dirs:
        folder = os.path.join(corpora, d)
        files += sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".pgn"))
    rel = {p: os.path.relpath(p, corpora) for p in files}

    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        py_jobs = {p: pool.submit(python_chess_verdicts, p) for p in files}
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as threads:
            ours_jobs = {p: threads.submit(run_planilla, args.planilla, p) for p in files}
            peer = peer_verdicts(args.peer, files)
            ours = {p: j.result() for p, j in ours_jobs.items()}
        py = {p: j.result() for p, j in py_jobs.items()}

    known = {(f, g): (v, r) for f, g, v, r in KNOWN_LEGALITY}
    known_counts = {f: (v, r) for f, v, r in KNOWN_COUNTS}
    seen_known = set()
    unexplained = []
    explained = []
    rows = []
    totals = Counter()

    for p in files:
        name = rel[p]
        n_ours, findings, _ = ours[p]
        v_ours, ours_first = planilla_verdicts(n_ours, findings)
        v_py = py[p]
        v_peer = peer.get(p, [])
        counts = (n_ours, len(v_py), len(v_peer))
        count_note = ""
        if len(set(counts)) != 1:
            sig = "|".join(map(str, counts))
            if name in known_counts and known_counts[name][0] == sig:
                count_note = f"count mismatch (known: {known_counts[name][1]})"
                explained.append(f"{name}: games planilla|python-chess|peer = {sig}: {known_counts[name][1]}")
                seen_known.add(("count", name))
            else:
                count_note = "COUNT MISMATCH"
                unexplained.append(f"{name}: games planilla|python-chess|peer = {sig}")
        n = max(counts)
        ill = Counter()
        diffs = 0
        for g in range(1, n + 1):
            a = v_ours.get(g, "missing")
            b = v_py[g - 1][0] if g <= len(v_py) else "missing"
            c = v_peer[g - 1][0] if g <= len(v_peer) else "missing"
            for tool, v in (("ours", a), ("py", b), ("peer", c)):
                if v.startswith("illegal") or v == "badfen" or v == "error":
                    ill[tool] += 1
                if v == "variant":
                    ill[tool + "-variant"] += 1
            if a == b == c:
                continue
            diffs += 1
            sig = f"{a}|{b}|{c}"
            details = []
            if g in ours_first:
                f = ours_first[g]
                details.append(f"planilla: {f['code']} {f.get('move')!r}: {f['message'][:120]}")
            if g <= len(v_py) and v_py[g - 1][1]:
                details.append(f"python-chess: {v_py[g - 1][1][:120]}")
            if g <= len(v_peer) and v_peer[g - 1][1] and c != "ok":
                details.append(f"peer: {v_peer[g - 1][1][:120]}")
            k = known.get((name, g))
            line = f"{name} game {g}: planilla={a} python-chess={b} peer={c}"
            if k and k[0] == sig:
                seen_known.add((name, g))
                explained.append(f"{line}\n      reason: {k[1]}")
            else:
                if k:
                    seen_known.add((name, g))
                    line += f" (known entry expects {k[0]})"
                unexplained.append(line + "".join(f"\n      {d}" for d in details))
        ill["ours-var"] = len({f["game"] for f in findings if f["variation"] != []
                               and f["code"] in ("illegal-move", "ambiguous-move")})
        ill["py-var"] = sum(1 for x in v_py if x[2])
        rows.append((name, counts, ill, diffs, count_note))
        totals["games"] += n_ours
        for k2, v2 in ill.items():
            totals[k2] += v2
        totals["diffs"] += diffs

    print("== Part 1: legality, game by game (planilla | python-chess | pgn-reader+shakmaty peer)")
    print(f"{'file':48} {'games':>17} {'illegal':>11} {'skipped':>11} {'diff':>4}")
    print(f"{'':48} {'ours/py/peer':>17} {'ours/py/peer':>11} {'variant':>11}")
    for name, counts, ill, diffs, note in rows:
        g = "/".join(map(str, counts)) if len(set(counts)) != 1 else str(counts[0])
        il = f"{ill['ours']}/{ill['py']}/{ill['peer']}"
        sk = f"{ill['ours-variant']}/{ill['py-variant']}/{ill['peer-variant']}"
        print(f"{name:48} {g:>17} {il:>11} {sk:>11} {diffs:>4} {note}")
    print(f"{'total':48} {totals['games']:>17} "
          f"{totals['ours']}/{totals['py']}/{totals['peer']:<5} "
          f"{totals['ours-variant']}/{totals['py-variant']}/{totals['peer-variant']:<4} {totals['diffs']:>4}")
    mism = [r[0] for r in rows if len(set(r[1])) != 1]
    print(f"game counts: {len(rows) - len(mism)} of {len(rows)} files read as the same number of games by the "
          f"three tools" + (f"; differ in: {', '.join(mism)}" if mism else ""))
    print(f"games with an illegal move inside a variation (not compared game by game: the peer's verdict is its main line's): "
          f"planilla {totals['ours-var']}, python-chess {totals['py-var']}")
    # Every move replayed, variations included: on the files where neither tool found an
    # illegal move anywhere, both must have replayed the same number of plies.
    compared = 0
    for p in files:
        n_ours, findings, plies_ours = ours[p]
        if any(f["code"] in ("illegal-move", "ambiguous-move") for f in findings):
            continue
        proc = subprocess.run([args.peer, "--quiet", "--variations", p],
                              capture_output=True, text=True, errors="replace")
        words = proc.stdout.split()
        got = dict(zip(words[::2], words[1::2]))
        if proc.returncode != 0 or any(got.get(k) != "0" for k in ("illegal", "error", "variation-illegal")):
            continue
        compared += 1
        plies_peer = int(got["plies"]) + int(got["variation-plies"])
        if plies_peer != plies_ours:
            unexplained.append(f"{rel[p]}: plies replayed, variations included: planilla {plies_ours}, "
                               f"peer --variations {plies_peer}")
    print(f"plies replayed with every variation: the same for planilla and the peer in "
          f"{compared - sum('plies replayed' in u for u in unexplained)} of {compared} files "
          f"without an illegal move")
    stale = [(f, g) for f, g, _, _ in KNOWN_LEGALITY if (f, g) not in seen_known]
    stale += [("count", f) for f, _, _ in KNOWN_COUNTS if ("count", f) not in seen_known]
    return explained, unexplained, stale


# ---------------------------------------------------------------------------------------
# part 2: game end and draw conditions against pgn-extract
# ---------------------------------------------------------------------------------------

DRAW_TESTS = ["checkmate", "stalemate", "fifty", "seventyfive", "repetition"]
# condition -> (pgn-extract option, --markmatches word or None, the test whose outfile has it)
CONDITIONS = {
    "fifty": (["--fifty", "--markmatches", "FIFTY"], "FIFTY", "fifty"),
    "seventyfive": (["--seventyfive", "--markmatches", "SEVENTYFIVE"], "SEVENTYFIVE", "seventyfive"),
    "threefold": (["--repetition", "--markmatches", "REPEAT"], "REPEAT", "repetition"),
    "fivefold": (["--repetition5", "--markmatches", "REPEAT5"], "REPEAT5", None),
    "checkmate": (["--checkmate"], None, "checkmate"),
    "stalemate": (["--stalemate"], None, "stalemate"),
    # insufficient material (FIDE's dead position, as far as python-chess decides it)
    "dead": (None, None, None),
}
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TOKEN = re.compile(
    r'\{[^}]*\}?|;[^\n]*|\([^\S\n]*|\)|\[[^\S\n]*\w+[^\S\n]*"(?:[^"\\\n]|\\.)*"[^\S\n]*\]|'
    r'\[[^\]\n]*\]?|\$\d+|\d+\.+|'
    r'1-0(?=\s|$)|0-1(?=\s|$)|1/2-1/2(?=\s|$)|\*|[^\s(){};\[]+|\n'
)


def split_games(text):
    """Splits PGN text into games the way planilla and pgn-extract do: a game ends with
    its termination marker (outside comments and variations), and a tag after movetext
    starts a new game. Returns [(start, end, result_span or None, result_tag_spans)]."""
    games = []
    start, depth, moves, result_span, tag_spans = 0, 0, False, None, []
    line_start = True
    for m in TOKEN.finditer(text):
        tok = m.group(0)
        if tok == "\n":
            line_start = True
            continue
        at_line_start, line_start = line_start, False
        if tok.startswith("{") or tok.startswith(";"):
            continue
        if tok.startswith("["):
            if moves and at_line_start:
                games.append((start, m.start(), None, tag_spans))
                start, depth, moves, tag_spans = m.start(), 0, False, []
            t = re.match(r'\[\s*Result\s+"([^"]*)"', tok)
            if t:
                tag_spans.append((m.start() + t.start(1), m.start() + t.end(1)))
            continue
        if tok.startswith("("):
            depth += 1
        elif tok == ")":
            depth = max(0, depth - 1)
        elif tok in RESULTS and depth == 0:
            games.append((start, m.end(), (m.start(), m.end()), tag_spans))
            start, depth, moves, tag_spans = m.end(), 0, False, []
        else:
            moves = True
    if text[start:].strip():
        games.append((start, len(text), None, tag_spans))
    return games


def rewrite_results(text, games, result):
    """The same text with every Result tag and termination marker saying `result`."""
    spans = []
    for _, _, rs, tags in games:
        spans += tags
        if rs:
            spans.append(rs)
    out, pos = [], 0
    for a, b in sorted(spans):
        out.append(text[pos:a])
        out.append(result)
        pos = b
    out.append(text[pos:])
    return "".join(out)


def python_chess_conditions(chunk):
    """Replays one game's main line with python-chess; returns its conditions."""
    game = read_chunk(chunk)
    cond = {c: None for c in CONDITIONS}
    if game is None:
        return cond, (), ()
    board = game.board()
    counts = Counter([board._transposition_key()])
    ply = 0
    for move in game.mainline_moves():
        board.push(move)
        ply += 1
        key = board._transposition_key()
        counts[key] += 1
        if cond["fifty"] is None and board.halfmove_clock >= 100:
            cond["fifty"] = ply
        if cond["seventyfive"] is None and board.halfmove_clock >= 150 and not board.is_checkmate():
            cond["seventyfive"] = ply
        if cond["threefold"] is None and counts[key] >= 3:
            cond["threefold"] = ply
        if cond["fivefold"] is None and counts[key] >= 5:
            cond["fivefold"] = ply
        if cond["dead"] is None and board.is_insufficient_material():
            cond["dead"] = ply
    cond["checkmate"] = board.is_checkmate() or None
    cond["stalemate"] = board.is_stalemate() or None
    return cond, identity(game), game.errors


def read_chunk(chunk):
    """python-chess reads one game split by split_games (blank lines dropped: python-chess
    would end the game at one, e.g. after a comment that comes before the moves)."""
    lines = [l for l in chunk.splitlines() if l.strip()]
    return chess.pgn.read_game(io.StringIO("\n".join(lines) + "\n"))


def identity(game):
    return (tuple(sorted(game.headers.items())), tuple(m.uci() for m in game.mainline_moves()))


def marked_plies(pgn_text, marker):
    """Games of pgn-extract output: [(identity, first marked ply, or True)]."""
    out = []
    for a, b, _, _ in split_games(pgn_text):
        game = read_chunk(pgn_text[a:b])
        first = True
        if marker:
            first = None
            for i, node in enumerate(game.mainline(), 1):
                if marker in node.comment:
                    first = i
                    break
        out.append((identity(game), first))
    return out


def planilla_conditions(planilla, path, n):
    """What `planilla check` on `path` shows of each condition, per game (1-based)."""
    games, findings, _ = run_planilla(planilla, path)
    cond = {g: {} for g in range(1, games + 1)}
    ended_early = set()
    for f in findings:
        if f["variation"] != [] and f["code"] != "result-mismatch":
            continue
        c, msg, g = f["code"], f["message"], f["game"]
        if c == "missed-fifty-move-claim":
            cond[g].setdefault("fifty", f["ply"])
        elif c == "missed-threefold-claim":
            cond[g].setdefault("threefold", f["ply"])
        elif c in ("move-after-game-end", "move-after-draw", "result-mismatch"):
            m = re.search(r"(?:by |: )(checkmate|stalemate|fivefold|the 75-move rule|a dead position)"
                          r".*?(?:\(ply (\d+)\)|at ply (\d+))", msg)
            if not m:
                continue
            what = {"the 75-move rule": "seventyfive", "a dead position": "dead"}.get(m.group(1), m.group(1))
            ply = int(m.group(2) or m.group(3))
            cond[g].setdefault(what, ply)
            if c in ("move-after-game-end", "move-after-draw"):
                ended_early.add((g, what))
    return games, cond, ended_early


COLUMNS = ("planilla", "pgn-extract", "outfile", "python-chess")


def draw_file(args, path, test, tmp, supported):
    """Part 2 for one input file: {'name', 'counts', 'rows': [(game, cond, cols)], 'problems'}."""
    infiles = os.path.join(args.corpora, "pgn-extract", "infiles")
    outfiles = os.path.join(args.corpora, "pgn-extract", "outfiles")
    pe = args.pgn_extract
    name = os.path.relpath(path, args.corpora)
    problems = []
    with open(path, encoding="latin-1") as fh:
        text = fh.read()
    chunks = split_games(text)
    n = len(chunks)
    pc = [python_chess_conditions(text[a:b]) for a, b, _, _ in chunks]
    # planilla, on the file and on the two rewritten copies
    g0, ours0, _ = planilla_conditions(args.planilla, path, n)
    probes = {}
    for result, kind in (("1-0", "decisive"), ("1/2-1/2", "drawn")):
        probe_path = os.path.join(tmp, f"{kind}-" + name.replace("/", "_"))
        with open(probe_path, "w", encoding="latin-1") as fh:
            fh.write(rewrite_results(text, chunks, result))
        probes[kind] = planilla_conditions(args.planilla, probe_path, n)
    r = subprocess.run([pe, "-o", os.devnull, path], capture_output=True, encoding="latin-1")
    m = re.search(r"(\d+) games? matched out of (\d+)", r.stderr)
    counts = {"planilla": g0, "pgn-extract": int(m.group(2)) if m else None, "python-chess": n,
              "planilla 1-0 copy": probes["decisive"][0], "planilla 1/2-1/2 copy": probes["drawn"][0]}
    result = {"name": name, "counts": counts, "rows": [], "problems": problems, "use_pe": True}
    if len(set(counts.values())) != 1:
        others = {k: v for k, v in counts.items() if k != "pgn-extract"}
        if len(set(others.values())) != 1:
            return result  # reported by the caller; nothing can be matched
        result["use_pe"] = False  # the caller checks that this is a known case

    by_ident = defaultdict(list)
    for i, (_, ident, _) in enumerate(pc, 1):
        by_ident[ident].append(i)

    def pe_select(pgn_text, marker):
        sel, taken = {}, Counter()
        for ident, first in marked_plies(pgn_text, marker):
            candidates = by_ident.get(ident, [])
            if taken[ident] < len(candidates):
                sel[candidates[taken[ident]]] = first
                taken[ident] += 1
            else:
                problems.append(f"{name}: a game of pgn-extract's output matches no input game")
        return sel

    live, outf = {}, {}
    for cond, (opts, marker, outtest) in CONDITIONS.items():
        if supported[cond] and result["use_pe"]:
            r = subprocess.run([pe, "-s", *opts, path], capture_output=True, encoding="latin-1")
            live[cond] = pe_select(r.stdout, marker)
        if test and outtest == test and result["use_pe"]:
            with open(os.path.join(outfiles, f"test-{test}-out.pgn"), encoding="latin-1") as fh:
                outf[cond] = pe_select(fh.read(), marker)

    for g in range(1, n + 1):
        for cond in CONDITIONS:
            # planilla: what the file shows, else what a rewritten copy shows
            probe = probes["drawn" if cond == "checkmate" else "decisive"]
            v = ours0[g].get(cond) or probe[1][g].get(cond)
            if cond in ("checkmate", "stalemate"):
                # the final position: the end was recorded and no move followed it
                v = True if cond in probe[1][g] and (g, cond) not in probe[2] else None
            cols = {"planilla": v}
            if cond in live:
                cols["pgn-extract"] = live[cond].get(g)
            if cond in outf:
                cols["outfile"] = outf[cond].get(g)
            cols["python-chess"] = pc[g - 1][0][cond]
            result["rows"].append((g, cond, cols))
    return result


def draws(args, tmp):
    infiles = os.path.join(args.corpora, "pgn-extract", "infiles")
    pe = args.pgn_extract
    v = subprocess.run([pe, "--version"], capture_output=True, text=True)
    version = (v.stdout + v.stderr).strip().replace("pgn-extract ", "")
    print(f"== Part 2: game end and draw conditions: planilla | pgn-extract {version or '?'} live | "
          "pgn-extract's expected outfile | python-chess")
    known = {(t, g, c): (v, r) for t, g, c, v, r in KNOWN_DRAWS}
    known_counts = dict(KNOWN_DRAW_COUNTS)
    seen = set()
    explained, unexplained, notes = [], [], []
    supported = {}
    for cond, (opts, _, outtest) in CONDITIONS.items():
        if opts is None:
            supported[cond] = False
            notes.append(f"{cond}: pgn-extract has no option for it: planilla vs python-chess only")
            continue
        probe = subprocess.run([pe, "-s", opts[0], "-o", os.devnull, os.path.join(infiles, "test-fifty.pgn")],
                               capture_output=True, text=True)
        supported[cond] = "Unrecognised" not in probe.stderr and probe.returncode == 0
        if not supported[cond]:
            notes.append(f"pgn-extract {version} has no {opts[0]}: {cond} is compared without a live run"
                         + (f" (outfile of test-{outtest} still used)" if outtest
                            else ", and no outfile has it: planilla vs python-chess only"))

    inputs = [(os.path.join(infiles, f"test-{t}.pgn"), t) for t in DRAW_TESTS]
    for extra in args.draw_extra:
        folder = os.path.join(args.corpora, extra)
        if os.path.isdir(folder):
            inputs += [(os.path.join(folder, n), None) for n in sorted(os.listdir(folder)) if n.endswith(".pgn")]
        else:
            inputs.append((folder, None))

    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = [pool.submit(draw_file, args, path, test, tmp, supported) for path, test in inputs]
        results = [j.result() for j in jobs]

    short = {"fifty": "fifty", "seventyfive": "75-move", "threefold": "3-fold", "fivefold": "5-fold",
             "checkmate": "mate", "stalemate": "stalemate", "dead": "dead"}
    print("games where the condition occurs, per tool (one number: all tools that have it agree;"
          " else planilla/pgn-extract/outfile/python-chess, - where a tool has no say)")
    print(f"{'file':42} {'games':>5} " + " ".join(f"{short[c]:>10}" for c in CONDITIONS) + "  diff")
    agree_rows, diff_rows = [], []
    for res in results:
        name, counts = res["name"], res["counts"]
        unexplained.extend(res["problems"])
        if len(set(counts.values())) != 1:
            if not res["use_pe"] and name in known_counts:
                explained.append(f"{name}: game counts {counts}: pgn-extract left out for this file: "
                                 f"{known_counts[name]}")
                seen.add(("count", name))
            else:
                unexplained.append(f"{name}: game counts differ: {counts}")
                print(f"{name:42} game counts differ: {counts}")
                continue
        per = {c: {k: 0 for k in COLUMNS} for c in CONDITIONS}
        has = {c: set() for c in CONDITIONS}
        ndiff = 0
        for g, cond, cols in res["rows"]:
            for k, x in cols.items():
                has[cond].add(k)
                if x is not None:
                    per[cond][k] += 1
            vals = set(cols.values())
            if vals == {None}:
                continue
            sig = "|".join(str(cols.get(k, "-")) for k in COLUMNS)
            row = f"{name} game {g} {cond}: " + " ".join(f"{k}={x}" for k, x in cols.items())
            if len(vals) == 1:
                if name.startswith("pgn-extract/"):
                    agree_rows.append(row)
                continue
            ndiff += 1
            kn = known.get((name, g, cond))
            if kn and kn[0] == sig:
                seen.add((name, g, cond))
                explained.append(f"{row}\n      reason: {kn[1]}")
                diff_rows.append("known " + row)
            else:
                if kn:
                    seen.add((name, g, cond))
                    row += f" (known entry expects {kn[0]})"
                unexplained.append(row)
                diff_rows.append("DIFF  " + row)
        cells = []
        for c in CONDITIONS:
            nums = [per[c][k] if k in has[c] else "-" for k in COLUMNS]
            present = [x for x in nums if x != "-"]
            cells.append(str(present[0]) if len(set(present)) == 1 else "/".join(map(str, nums)))
        games = counts["planilla"] if res["use_pe"] else f"{counts['planilla']}*"
        print(f"{name:42} {games:>5} " + " ".join(f"{x:>10}" for x in cells) + f"  {ndiff:>4}")
    print("(* pgn-extract left out: it reads a different number of games, see below)")
    print()
    print("per game, pgn-extract's regression inputs (ply where the condition first holds, True for the"
          " final position):")
    for row in agree_rows:
        print("  agree " + row)
    print("differences:")
    for row in diff_rows:
        print("  " + row)
    for n_ in notes:
        print(f"note: {n_}")
    stale = [(t, g, c) for t, g, c, _, _ in KNOWN_DRAWS if (t, g, c) not in seen]
    stale += [("count", f) for f, _ in KNOWN_DRAW_COUNTS if ("count", f) not in seen]
    return explained, unexplained, stale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", required=True)
    ap.add_argument("--planilla", required=True)
    ap.add_argument("--peer", required=True)
    ap.add_argument("--pgn-extract", default="pgn-extract")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--skip-draws", action="store_true")
    ap.add_argument("--skip-legality", action="store_true")
    ap.add_argument("--draw-extra", nargs="*", default=["draws", "real"],
                    help="more corpus folders or files for part 2 (no outfiles)")
    ap.add_argument("--dirs", nargs="+", default=["real", "edge", "edge/notnil-fixtures"])
    args = ap.parse_args()

    failed = False
    parts = [] if args.skip_legality else [("legality", legality)]
    if not args.skip_draws:
        parts.append(("draw conditions", draws))
    with tempfile.TemporaryDirectory(prefix="compare-peers-") as tmp:
        for title, part in parts:
            explained, unexplained, stale = part(args, tmp) if part is draws else part(args)
            print()
            print(f"-- {title}: known, explained differences ({len(explained)}):")
            printed = set()
            for e in explained:
                head, _, reason = e.partition("\n      reason: ")
                if reason and reason in printed:
                    e = head + "\n      reason: (the same as above)"
                printed.add(reason)
                print("   " + e)
            print(f"-- {title}: UNEXPLAINED differences ({len(unexplained)}):")
            for u in unexplained:
                print("   " + u)
            if stale:
                print(f"-- {title}: known entries that no longer occur ({len(stale)}): {stale}")
            print()
            failed |= bool(unexplained or stale)
    print("compare-peers: " + ("FAILED (unexplained differences above)" if failed else "ok: every difference is a known one"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
