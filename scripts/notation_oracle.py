#!/usr/bin/env python3
"""An independent writer (and reader) of the notations older than SAN (issue 38), built on
python-chess only, never on planilla: the oracle that `planilla convert` is checked against.

Notations (NOTATION below):
  desc-en  English descriptive: 1. P-K4 P-K4 2. N-KB3 N-QB3 3. B-N5; check ` ch`, mate
           ` mate`, en passant ` e.p.`, promotion P-K8=Q, castling O-O / O-O-O.
  desc-es  Spanish descriptive: 1. P4R P4R 2. C3AR C3AD 3. A5C; check `+`, mate `++`, en
           passant ` a.p.`, promotion P8R=D, castling 0-0 / 0-0-0.
  iccf     ICCF numeric: 5254; castling as the king's move (5171); promotion digit
           1=Q 2=R 3=B 4=N.
  lan      long algebraic, English letters: e2-e4 Ng1-f3 e4xd5 e7-e8=Q, O-O, + and #.
  lan-es   long algebraic, Spanish letters: e2-e4 Cg1-f3 Ae2xb5 e7-e8=D, 0-0, + and ++.
  san      canonical English SAN (python-chess's).

Descriptive moves are written in the shortest form that fits exactly one legal move
(ties: the mover unqualified first, e.g. N-KB3 before KN-B3), under these semantics:
  - squares and ranks are counted from the mover's side (also for a captured piece);
  - a destination may drop its K/Q side when only one of the two squares fits (N-B3);
  - side qualifier of a bishop (KB/QB, Spanish AR/AD): the square colour of that side's
    king's/queen's bishop (White's KB is light, Black's KB dark); of a rook or knight:
    the board half it stands on now (K side files e-h, Q side a-d);
  - a pawn qualifier is its current file: KBP (English) / PAR (Spanish) is an f-pawn, BP
    (PA) a c- or f-pawn, QP (PD) a d-pawn;
  - further qualifiers, when sides do not tell: the mover's rank `N(4)-N5` (Spanish
    `C(4)5C`; doubled pawns `P(5)xP`), side and rank `KN(4)-N5`, the mover's square `Q(QR8)-...`, the captured
    piece's square `QxN(KB2)` (Spanish `DxC(2AR)`).
The matcher below is both the writer's ambiguity test and the reader's resolution, so
`selftest` (write, read back, compare) is the proof that every written form fits
exactly one legal move.

Layout: tags (the Seven Tag Roster, plus SetUp/FEN when present), a blank line, the
movetext with move numbers (`1. P-K4 P-K4 2. ...`, `1... P-K4` when Black starts), the
result, a blank line. No comments, NAGs or variations. A newline goes between two move
pairs where the next pair would take the notation's line or its SAN twin past 79
columns, so the `--expected` file (canonical SAN, the output `planilla convert` must give)
has the same layout token by token.

Usage:
  notation_oracle.py write --to NOTATION [-o OUT] [--expected OUT] [--tags str|all]
                           INPUT[:N,M,...]...
      write each game (or games N, M, ... counted from 1) of the inputs; --expected writes
      the canonical-SAN twin. Games python-chess cannot replay and variant games are
      skipped with a note on standard error.
  notation_oracle.py read --from NOTATION FILE
      read a file written in NOTATION (hand-written too; `Kt` accepted for the knight) and
      print it with each move replaced by its canonical SAN, token by token, as `planilla
      convert` must (a mark written apart goes with the space before it). A game (records
      start at `[Event`) with a move that fits no legal move or more than one is reported
      on standard error, naming the moves that fit, and copied unchanged; exit 1 then.
  notation_oracle.py selftest FILE...
      write every notation of every game, read each back, compare; prints counts, exit 1
      on any disagreement.
"""

import argparse
import io
import re
import sys

try:
    import chess
    import chess.pgn
except ImportError:  # pragma: no cover
    sys.exit(
        "notation_oracle.py needs python-chess: python3 -m venv target/venv-notation && "
        "target/venv-notation/bin/pip install -q chess"
    )

import logging

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # game.errors says it

NOTATIONS = ("desc-en", "desc-es", "iccf", "lan", "lan-es", "san")
STR_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
WIDTH = 79

# File names, index 0 = a-file.
FILE_EN = ("QR", "QN", "QB", "Q", "K", "KB", "KN", "KR")
FILE_ES = ("TD", "CD", "AD", "D", "R", "AR", "CR", "TR")
# A file name (English spelling, as used internally) -> the files it names.
FILES_OF = {name: {i} for i, name in enumerate(FILE_EN)}
FILES_OF.update({"R": {0, 7}, "N": {1, 6}, "B": {2, 5}})
SHORT_OF = {0: "R", 1: "N", 2: "B", 5: "B", 6: "N", 7: "R"}
NAME_ES = dict(zip(FILE_EN, FILE_ES))
NAME_ES.update({"R": "T", "N": "C", "B": "A"})
NAME_EN_OF_ES = {v: k for k, v in NAME_ES.items()}

LETTER_EN = {chess.PAWN: "P", chess.KNIGHT: "N", chess.BISHOP: "B", chess.ROOK: "R",
             chess.QUEEN: "Q", chess.KING: "K"}
LETTER_ES = {chess.PAWN: "P", chess.KNIGHT: "C", chess.BISHOP: "A", chess.ROOK: "T",
             chess.QUEEN: "D", chess.KING: "R"}
TYPE_EN = {v: k for k, v in LETTER_EN.items()}
TYPE_EN["Kt"] = chess.KNIGHT
TYPE_ES = {v: k for k, v in LETTER_ES.items()}
SIDE_ES = {"K": "R", "Q": "D"}
SIDE_EN_OF_ES = {"R": "K", "D": "Q"}
ICCF_PROMO = {chess.QUEEN: "1", chess.ROOK: "2", chess.BISHOP: "3", chess.KNIGHT: "4"}
ICCF_PROMO_TYPE = {v: k for k, v in ICCF_PROMO.items()}


def rel_rank(square, color):
    """Rank 1..8 counted from `color`'s side."""
    r = chess.square_rank(square)
    return r + 1 if color == chess.WHITE else 8 - r


def abs_square(file, rank, color):
    return chess.square(file, rank - 1 if color == chess.WHITE else 8 - rank)


# ---------------------------------------------------------------- qualifiers
# A qualifier of a piece (the mover, or the captured piece) is a tuple:
#   ("side", "K"|"Q")      knight, bishop, rook
#   ("file", NAME)         pawn: NAME in FILES_OF
#   ("rank", r)            rank from the mover's side (doubled pawns: P(5)xP)
#   ("siderank", side, r)
#   ("square", sq)         absolute square (written from the mover's side)


def side_of(square, ptype, owner):
    if ptype == chess.BISHOP:
        # The king's bishop starts on f1 (light) / f8 (dark).
        kb_light = owner == chess.WHITE
        light = bool(chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[square])
        return "K" if light == kb_light else "Q"
    return "K" if chess.square_file(square) >= 4 else "Q"


def qual_fits(q, square, ptype, owner, mover):
    if q is None:
        return True
    kind = q[0]
    if kind == "side":
        return ptype in (chess.KNIGHT, chess.BISHOP, chess.ROOK) and side_of(square, ptype, owner) == q[1]
    if kind == "file":
        return ptype == chess.PAWN and chess.square_file(square) in FILES_OF[q[1]]
    if kind == "rank":
        return rel_rank(square, mover) == q[1]
    if kind == "siderank":
        return (ptype in (chess.KNIGHT, chess.BISHOP, chess.ROOK)
                and side_of(square, ptype, owner) == q[1] and rel_rank(square, mover) == q[2])
    if kind == "square":
        return square == q[1]
    raise ValueError(q)


def quals_for(square, ptype, owner, mover):
    """Qualifiers naming the piece on `square`, least specific first (None first)."""
    out = [None]
    f = chess.square_file(square)
    if ptype == chess.PAWN:
        if f in SHORT_OF:
            out.append(("file", SHORT_OF[f]))
        out.append(("file", FILE_EN[f]))
        out.append(("rank", rel_rank(square, mover)))
    elif ptype in (chess.KNIGHT, chess.BISHOP, chess.ROOK):
        out.append(("side", side_of(square, ptype, owner)))
        out.append(("rank", rel_rank(square, mover)))
        out.append(("siderank", side_of(square, ptype, owner), rel_rank(square, mover)))
    else:
        out.append(("rank", rel_rank(square, mover)))
    out.append(("square", square))
    return out


# ---------------------------------------------------------------- moves as facts
class Fact:
    """What a descriptive form can say about a legal move."""

    __slots__ = ("move", "ptype", "frm", "to", "capture", "ctype", "csq", "promo", "castle")

    def __init__(self, board, move):
        self.move = move
        self.frm = move.from_square
        self.to = move.to_square
        self.ptype = board.piece_type_at(move.from_square)
        self.promo = move.promotion
        self.castle = None
        if board.is_castling(move):
            self.castle = "K" if chess.square_file(move.to_square) > chess.square_file(move.from_square) else "Q"
        self.capture = board.is_capture(move)
        self.ctype = self.csq = None
        if self.capture:
            if board.is_en_passant(move):
                self.csq = chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
            else:
                self.csq = move.to_square
            self.ctype = board.piece_type_at(self.csq)


class Form:
    """A descriptive move: castle "K"/"Q", or piece + qualifier + (dest | captured)."""

    __slots__ = ("castle", "ptype", "mq", "capture", "dest", "ctype", "cq", "promo")

    def __init__(self, castle=None, ptype=None, mq=None, capture=False, dest=None, ctype=None, cq=None, promo=None):
        # dest: ("full", square) or ("half", NAME, rank) with NAME in R/N/B.
        self.castle, self.ptype, self.mq, self.capture = castle, ptype, mq, capture
        self.dest, self.ctype, self.cq, self.promo = dest, ctype, cq, promo


def fits(form, fact, board):
    mover = board.turn
    if form.castle or fact.castle:
        return form.castle == fact.castle
    if form.ptype != fact.ptype or form.capture != fact.capture or form.promo != fact.promo:
        return False
    if not qual_fits(form.mq, fact.frm, fact.ptype, mover, mover):
        return False
    if form.capture:
        return form.ctype == fact.ctype and qual_fits(form.cq, fact.csq, fact.ctype, not mover, mover)
    if form.dest[0] == "full":
        return form.dest[1] == fact.to
    _, name, rank = form.dest
    return chess.square_file(fact.to) in FILES_OF[name] and rel_rank(fact.to, mover) == rank


def matches(form, board, facts=None):
    facts = facts if facts is not None else [Fact(board, m) for m in board.legal_moves]
    return [f.move for f in facts if fits(form, f, board)]


def render_square_en(square, color):
    return FILE_EN[chess.square_file(square)] + str(rel_rank(square, color))


def render_square_es(square, color):
    return str(rel_rank(square, color)) + FILE_ES[chess.square_file(square)]


def render_piece(ptype, q, lang, color):
    """A piece with its qualifier: KN, KBP, N(4), KN(4), N(KB3); Spanish CR, PAR, C(4)."""
    if lang == "en":
        letter = LETTER_EN[ptype]
        if q is None:
            return letter
        if q[0] == "side":
            return q[1] + letter
        if q[0] == "file":
            return q[1] + letter
        if q[0] == "rank":
            return f"{letter}({q[1]})"
        if q[0] == "siderank":
            return f"{q[1]}{letter}({q[2]})"
        return f"{letter}({render_square_en(q[1], color)})"
    letter = LETTER_ES[ptype]
    if q is None:
        return letter
    if q[0] == "side":
        return letter + SIDE_ES[q[1]]
    if q[0] == "file":
        return letter + NAME_ES[q[1]]
    if q[0] == "rank":
        return f"{letter}({q[1]})"
    if q[0] == "siderank":
        return f"{letter}{SIDE_ES[q[1]]}({q[2]})"
    return f"{letter}({render_square_es(q[1], color)})"


def render(form, lang, color):
    """The move without check/mate/e.p. marks."""
    if form.castle:
        o = "O" if lang == "en" else "0"
        return f"{o}-{o}" if form.castle == "K" else f"{o}-{o}-{o}"
    s = render_piece(form.ptype, form.mq, lang, color)
    if form.capture:
        s += "x" + render_piece(form.ctype, form.cq, lang, color)
    else:
        if form.dest[0] == "full":
            sq = (render_square_en if lang == "en" else render_square_es)(form.dest[1], color)
        elif lang == "en":
            sq = f"{form.dest[1]}{form.dest[2]}"
        else:
            sq = f"{form.dest[2]}{NAME_ES[form.dest[1]]}"
        s += ("-" + sq) if lang == "en" else sq
    if form.promo:
        s += "=" + (LETTER_EN if lang == "en" else LETTER_ES)[form.promo]
    return s


def descriptive_form(board, move, facts=None):
    """The shortest English form (ties: mover unqualified first) that fits only `move`."""
    fact = Fact(board, move)
    if fact.castle:
        return Form(castle=fact.castle)
    facts = facts if facts is not None else [Fact(board, m) for m in board.legal_moves]
    # Only moves of the same piece type and kind can compete.
    rivals = [f for f in facts if f.ptype == fact.ptype and f.capture == fact.capture
              and f.promo == fact.promo and not f.castle]
    mover = board.turn
    mqs = quals_for(fact.frm, fact.ptype, mover, mover)
    if fact.capture:
        targets = quals_for(fact.csq, fact.ctype, not mover, mover)
    else:
        targets = []
        f = chess.square_file(fact.to)
        if f in SHORT_OF:
            targets.append(("half", SHORT_OF[f], rel_rank(fact.to, mover)))
        targets.append(("full", fact.to))
    candidates = []
    for i, mq in enumerate(mqs):
        for j, t in enumerate(targets):
            if fact.capture:
                form = Form(ptype=fact.ptype, mq=mq, capture=True, ctype=fact.ctype, cq=t, promo=fact.promo)
            else:
                form = Form(ptype=fact.ptype, mq=mq, dest=t, promo=fact.promo)
            candidates.append((len(render(form, "en", mover)), i, j, form))
    candidates.sort(key=lambda c: c[:3])
    for _, _, _, form in candidates:
        if sum(1 for f in rivals if fits(form, f, board)) == 1:
            return form
    raise AssertionError(f"no unambiguous form for {move} in {board.fen()}")


# ---------------------------------------------------------------- writing one move
def write_move(board, move, notation):
    """The move in `notation` (marks included), for the position before it."""
    if notation == "san":
        return board.san(move)
    if notation == "iccf":
        if board.is_castling(move):
            # python-chess may encode castling as king-takes-rook in Chess960 only.
            pass
        s = "".join(str(chess.square_file(sq) + 1) + str(chess.square_rank(sq) + 1)
                    for sq in (move.from_square, move.to_square))
        return s + (ICCF_PROMO[move.promotion] if move.promotion else "")
    gives_check = board.gives_check(move)
    mate = False
    if gives_check:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
    if notation in ("lan", "lan-es"):
        es = notation == "lan-es"
        if board.is_castling(move):
            o = "0" if es else "O"
            s = f"{o}-{o}" if chess.square_file(move.to_square) > chess.square_file(move.from_square) else f"{o}-{o}-{o}"
        else:
            ptype = board.piece_type_at(move.from_square)
            letters = LETTER_ES if es else LETTER_EN
            s = "" if ptype == chess.PAWN else letters[ptype]
            s += chess.square_name(move.from_square)
            s += "x" if board.is_capture(move) else "-"
            s += chess.square_name(move.to_square)
            if move.promotion:
                s += "=" + letters[move.promotion]
        if mate:
            return s + ("++" if es else "#")
        return s + ("+" if gives_check else "")
    lang = "en" if notation == "desc-en" else "es"
    s = render(descriptive_form(board, move), lang, board.turn)
    if board.is_en_passant(move):
        s += " e.p." if lang == "en" else " a.p."
    if mate:
        s += " mate" if lang == "en" else "++"
    elif gives_check:
        s += " ch" if lang == "en" else "+"
    return s


# ---------------------------------------------------------------- reading one move
SQ_EN = r"(?:QR|QN|QB|KR|KN|KB|QKt|KKt|Q|K)[1-8]"
SQ_ES = r"[1-8](?:TD|CD|AD|TR|CR|AR|D|R)"
PIECE_EN = (r"(?:(?P<{p}pf>QR|QN|QB|KR|KN|KB|QKt|KKt|R|N|B|Kt|Q|K)?P"
            r"|(?P<{p}side>[KQ])?(?P<{p}pc>Kt|[NBR])|(?P<{p}qk>[QK]))"
            r"(?:\((?P<{p}rank>[1-8])\)|\((?P<{p}sq>" + SQ_EN + r")\))?")
PIECE_ES = (r"(?:P(?P<{p}pf>TD|CD|AD|TR|CR|AR|T|C|A|D|R)?"
            r"|(?P<{p}pc>[CAT])(?P<{p}side>[RD])?|(?P<{p}qk>[DR]))"
            r"(?:\((?P<{p}rank>[1-8])\)|\((?P<{p}sq>" + SQ_ES + r")\))?")
RE_EN = re.compile(
    "^" + PIECE_EN.format(p="m") + r"(?:-(?P<dfile>QR|QN|QB|KR|KN|KB|QKt|KKt|R|N|B|Kt|Q|K)(?P<drank>[1-8])"
    r"|x" + PIECE_EN.format(p="c") + r")(?:=(?P<promo>Kt|[QRBN])|\((?P<promo2>Kt|[QRBN])\))?$")
RE_ES = re.compile(
    "^" + PIECE_ES.format(p="m") + r"(?:(?P<drank>[1-8])(?P<dfile>TD|CD|AD|TR|CR|AR|T|C|A|D|R)"
    r"|x" + PIECE_ES.format(p="c") + r")(?:=(?P<promo>[DTAC]))?$")


def _file_name_en(name):
    return name.replace("Kt", "N")


def _parse_square_en(text, color):
    name, rank = _file_name_en(text[:-1]), int(text[-1])
    return abs_square(FILE_EN.index(name), rank, color)


def _parse_square_es(text, color):
    rank, name = int(text[0]), text[1:]
    return abs_square(FILE_ES.index(name), rank, color)


def _piece_from_match(m, p, lang, color):
    """(ptype, qualifier) of the mover (p="m") or the captured piece (p="c")."""
    g = lambda k: m.group(p + k)  # noqa: E731
    if lang == "en":
        if g("qk"):
            ptype = TYPE_EN[g("qk")]
        elif g("pc"):
            ptype = TYPE_EN[g("pc")]
        else:
            ptype = chess.PAWN
        side = g("side")
        pf = g("pf") and _file_name_en(g("pf"))
        sq = _parse_square_en(g("sq"), color) if g("sq") else None
    else:
        if g("qk"):
            ptype = TYPE_ES[g("qk")]
        elif g("pc"):
            ptype = TYPE_ES[g("pc")]
        else:
            ptype = chess.PAWN
        side = g("side") and SIDE_EN_OF_ES[g("side")]
        pf = g("pf") and NAME_EN_OF_ES[g("pf")]
        sq = _parse_square_es(g("sq"), color) if g("sq") else None
    rank = g("rank") and int(g("rank"))
    if sq is not None:
        return ptype, ("square", sq)
    if pf:
        return ptype, ("file", pf)
    if side and rank:
        return ptype, ("siderank", side, rank)
    if side:
        return ptype, ("side", side)
    if rank:
        return ptype, ("rank", rank)
    return ptype, None


def parse_descriptive(text, lang, color):
    """A Form from a descriptive move without marks, or None when it does not parse."""
    if lang == "en" and text in ("O-O", "O-O-O") or lang == "es" and text in ("0-0", "0-0-0", "O-O", "O-O-O"):
        return Form(castle="K" if len(text) == 3 else "Q")
    m = (RE_EN if lang == "en" else RE_ES).match(text)
    if not m:
        return None
    mover = _piece_from_match(m, "m", lang, color)
    if mover is None:
        return None
    form = Form(ptype=mover[0], mq=mover[1])
    promo = m.group("promo") or (m.group("promo2") if lang == "en" else None)
    if promo:
        form.promo = (TYPE_EN if lang == "en" else TYPE_ES)[promo]
    if m.group("drank"):
        name = _file_name_en(m.group("dfile")) if lang == "en" else NAME_EN_OF_ES[m.group("dfile")]
        rank = int(m.group("drank"))
        if len(FILES_OF[name]) == 2:
            form.dest = ("half", name, rank)
        else:
            form.dest = ("full", abs_square(FILE_EN.index(name), rank, color))
    else:
        captured = _piece_from_match(m, "c", lang, color)
        if captured is None:
            return None
        form.capture, form.ctype, form.cq = True, captured[0], captured[1]
    return form


MARKS = {"desc-en": ("ch", "mate", "e.p.", "dis", "dbl"), "desc-es": ("a.p.", "+", "++")}


def read_move(board, token, notation):
    """The legal move `token` names; raises ValueError naming what fits otherwise."""
    if notation in ("san", "lan"):
        return board.parse_san(token)
    if notation == "lan-es":
        t = token.replace("0-0-0", "O-O-O").replace("0-0", "O-O").replace("++", "#")
        t = re.sub(r"^[RDTAC]", lambda m: LETTER_EN[TYPE_ES[m.group(0)]], t)
        t = re.sub(r"=([DTAC])", lambda m: "=" + LETTER_EN[TYPE_ES[m.group(1)]], t)
        return board.parse_san(t)
    if notation == "iccf":
        if not re.fullmatch(r"[1-8]{4}[1-4]?", token):
            raise ValueError(f"not ICCF: {token}")
        sq = [chess.square(int(token[i]) - 1, int(token[i + 1]) - 1) for i in (0, 2)]
        move = chess.Move(sq[0], sq[1], ICCF_PROMO_TYPE.get(token[4:5]))
        if move not in board.legal_moves:
            raise ValueError(f"illegal: {token}")
        return move
    lang = "en" if notation == "desc-en" else "es"
    text = re.sub(r"(\+\+|\+|#)$", "", token) if lang == "es" else token
    form = parse_descriptive(text, lang, board.turn)
    if form is None:
        raise ValueError(f"not {notation}: {token}")
    fit = matches(form, board)
    if len(fit) != 1:
        what = "illegal" if not fit else "ambiguous (" + ", ".join(board.san(m) for m in fit) + ")"
        raise ValueError(f"{token}: {what}")
    return fit[0]


# ---------------------------------------------------------------- games
def decode(data):
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_games(path):
    """(number from 1, game) of every game python-chess reads; errors are kept on the game."""
    with open(path, "rb") as f:
        text = decode(f.read()).replace("\r\n", "\n")
    stream = io.StringIO(text)
    n = 0
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            return
        n += 1
        yield n, game


def usable(game):
    """Why the oracle skips a game, or None."""
    if game.errors:
        return f"python-chess: {game.errors[0]}"
    board = game.board()
    if type(board) is not chess.Board or board.chess960:
        return "variant"
    return None


def tag_lines(headers, tags="str"):
    out = []
    keys = list(STR_TAGS) if tags == "str" else list(headers.keys())
    for extra in ("SetUp", "FEN"):
        if extra in headers and extra not in keys:
            keys.append(extra)
    for k in keys:
        v = headers.get(k, "?")
        v = v.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'[{k} "{v}"]')
    return out


def movetext(board, moves, notation, result):
    """(lines in notation, lines in SAN): same tokens, same breaks."""
    units = []  # (text, san text)
    board = board.copy()
    cur = cur_san = None
    for move in moves:
        tok, san = write_move(board, move, notation), board.san(move)
        if board.turn == chess.WHITE:
            if cur is not None:
                units.append((cur, cur_san))
            num = f"{board.fullmove_number}. "
            cur, cur_san = num + tok, num + san
        else:
            if cur is None:
                num = f"{board.fullmove_number}... "
                cur, cur_san = num + tok, num + san
            else:
                cur, cur_san = cur + " " + tok, cur_san + " " + san
                units.append((cur, cur_san))
                cur = cur_san = None
        board.push(move)
    if cur is not None:
        units.append((cur, cur_san))
    units.append((result, result))
    lines, lines_san = [], []
    a = b = ""
    for u, us in units:
        if a and max(len(a) + 1 + len(u), len(b) + 1 + len(us)) > WIDTH:
            lines.append(a)
            lines_san.append(b)
            a = b = ""
        a = f"{a} {u}" if a else u
        b = f"{b} {us}" if b else us
    lines.append(a)
    lines_san.append(b)
    return lines, lines_san


def write_game(game, notation, tags="str"):
    """(record, SAN record) of one game's main line."""
    head = tag_lines(game.headers, tags)
    result = game.headers.get("Result", "*")
    if result not in ("1-0", "0-1", "1/2-1/2", "*"):
        result = "*"
    lines, lines_san = movetext(game.board(), list(game.mainline_moves()), notation, result)
    return ("\n".join(head + [""] + lines) + "\n\n", "\n".join(head + [""] + lines_san) + "\n\n")


def parse_inputs(specs):
    for spec in specs:
        path, _, nums = spec.partition(":") if re.search(r":[0-9,]+$", spec) else (spec, "", "")
        wanted = {int(n) for n in nums.split(",")} if nums else None
        for n, game in read_games(path):
            if wanted is None or n in wanted:
                yield path, n, game


def cmd_write(args):
    out = open(args.output, "w", encoding="utf-8", newline="\n") if args.output else sys.stdout
    exp = open(args.expected, "w", encoding="utf-8", newline="\n") if args.expected else None
    for path, n, game in parse_inputs(args.inputs):
        why = usable(game)
        if why:
            print(f"notation_oracle: {path} game {n} skipped: {why}", file=sys.stderr)
            continue
        text, san = write_game(game, args.to, args.tags)
        out.write(text)
        if exp:
            exp.write(san)
    return 0


def tokens_of_movetext(text):
    """Movetext tokens without move numbers, comments or the result; marks kept apart."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r";[^\n]*", " ", text)
    toks = []
    for tok in text.split():
        if re.fullmatch(r"\d+\.+", tok) or tok in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        tok = re.sub(r"^\d+\.+", "", tok)
        if tok:
            toks.append(tok)
    return toks


def split_records(text):
    """(tag lines, movetext) of each record of a PGN text."""
    records, head, body = [], [], []
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.startswith("["):
            if body:
                records.append((head, "\n".join(body)))
                head, body = [], []
            head.append(line)
        elif line.strip() and not line.startswith("%"):
            body.append(line)
    if head or body:
        records.append((head, "\n".join(body)))
    return records


def read_record(head, body, notation):
    """The board and the legal moves a record in `notation` names; ValueError otherwise."""
    fen = None
    for line in head:
        m = re.match(r'\[FEN "(.*)"\]', line)
        if m:
            fen = m.group(1)
    board = chess.Board(fen) if fen else chess.Board()
    start = board.copy()
    toks = tokens_of_movetext(body)
    moves = []
    marks = {"ch", "mate", "e.p.", "a.p.", "+", "++", "#"}
    i = 0
    while i < len(toks):
        tok = toks[i]
        i += 1
        if tok in marks or re.fullmatch(r"(e\.p\.|a\.p\.)(\+\+|\+|#)?", tok):
            continue
        try:
            move = read_move(board, tok, notation)
        except ValueError as e:
            raise ValueError(f"move {board.fullmove_number}{'.' if board.turn else '...'} {e}") from None
        moves.append(move)
        board.push(move)
    return start, moves


def is_mark(tok):
    return tok in ("ch", "mate", "+", "++", "#") or re.fullmatch(r"(e\.p\.|a\.p\.)(\+\+|\+|#)?", tok)


def convert_text(text, notation):
    """The text with each move token replaced by its canonical SAN, a mark written apart
    removed with the space before it, everything else (tags, move numbers, comments,
    spaces, line breaks) kept: what `planilla convert` must write. ValueError at the first
    move that fits no legal move or more than one."""
    out = []
    board = None
    game = 0
    pos = 0
    for line in text.splitlines(keepends=True):
        if line.startswith("["):
            m = re.match(r'\[FEN "(.*)"\]', line)
            if board is None or board.move_stack:
                board, game = chess.Board(), game + 1
            if m:
                board = chess.Board(m.group(1))
            out.append(line)
            continue
        if board is None:
            board, game = chess.Board(), game + 1
        pieces = []
        for m in re.finditer(r"(\s*)(\{[^}]*\}|[^\s{]+)|\s+$", line):
            tok = m.group(2)
            sep = m.group(1) if tok is not None else m.group(0)
            if tok is None:
                pieces.append(sep)
                continue
            body = re.sub(r"^\d+\.+", "", tok)
            if tok.startswith("{") or not body or tok in ("1-0", "0-1", "1/2-1/2", "*"):
                pieces.append(sep + tok)
                continue
            if is_mark(tok):
                continue
            try:
                move = read_move(board, body, notation)
            except ValueError as e:
                raise ValueError(f"game {game}: move {board.fullmove_number}"
                                 f"{'.' if board.turn else '...'} {e}") from None
            pieces.append(sep + tok[: len(tok) - len(body)] + board.san(move))
            board.push(move)
        out.append("".join(pieces))
    return "".join(out)


def cmd_read(args):
    with open(args.file, "rb") as f:
        text = decode(f.read())
    status = 0
    parts = re.split(r"(?m)^(?=\[Event )", text)
    for n, part in enumerate(p for p in parts if p):
        try:
            sys.stdout.write(convert_text(part, args.notation))
        except ValueError as e:
            print(f"{args.file}: {e.args[0].replace('game 1', f'game {n + 1}', 1)}", file=sys.stderr)
            sys.stdout.write(part)
            status = 1
    return status


def cmd_selftest(args):
    bad = 0
    counts = {n: [0, 0] for n in NOTATIONS}
    skipped = 0
    for path in args.files:
        for n, game in read_games(path):
            if usable(game):
                skipped += 1
                continue
            moves = list(game.mainline_moves())
            for notation in NOTATIONS:
                text, san = write_game(game, notation)
                try:
                    (head, body), = split_records(text)
                    _, got = read_record(head, body, notation)
                    (head2, body2), = split_records(san)
                    _, got_san = read_record(head2, body2, "san")
                except ValueError as e:
                    got, got_san = [str(e)], []
                counts[notation][0] += 1
                counts[notation][1] += len(moves)
                if got != moves or got_san != moves or any(len(x) > WIDTH for x in text.split("\n") + san.split("\n")):
                    bad += 1
                    if bad <= 10:
                        print(f"MISMATCH {path} game {n} {notation}: {got[:3]}...", file=sys.stderr)
        print(f"{path}: done", flush=True)
    for notation, (g, m) in counts.items():
        print(f"{notation:8} {g} games, {m} moves written and read back")
    print(f"{skipped} games skipped (python-chess errors or variants); {bad} mismatches")
    return 1 if bad else 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("--to", required=True, choices=NOTATIONS)
    w.add_argument("-o", "--output")
    w.add_argument("--expected")
    w.add_argument("--tags", choices=("str", "all"), default="str")
    w.add_argument("inputs", nargs="+")
    r = sub.add_parser("read")
    r.add_argument("--from", dest="notation", required=True, choices=NOTATIONS)
    r.add_argument("file")
    s = sub.add_parser("selftest")
    s.add_argument("files", nargs="+")
    args = p.parse_args(argv)
    return {"write": cmd_write, "read": cmd_read, "selftest": cmd_selftest}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
