"""planilla.games: each game's findings are check's, and its main line as SAN and UCI
is what python-chess (an independent replay) reads and plays."""

from pathlib import Path

import chess
import planilla
import pytest
from conftest import CHECK_CORPUS, REAL_CORPUS, ROOT


def test_the_games_findings_are_check_s_in_the_same_order():
    paths = [str(p.relative_to(ROOT)) for p in CHECK_CORPUS]
    records = list(planilla.games(paths))
    assert [f for r in records for f in r["findings"]] == planilla.check(paths).findings
    assert len(records) == planilla.check(paths).summary["games"]
    assert [(r["file"], r["game"]) for r in records][:2] == [(paths[0], 1), (paths[0], 2)]


def replays_in_python_chess(record):
    """Plays the record's main line with python-chess: each SAN is read there as the
    UCI move planilla names."""
    board = chess.Board(record["fen"]) if record["fen"] else chess.Board()
    if "960" in record["tags"].get("Variant", ""):
        board = chess.Board(record["fen"], chess960=True)
    assert len(record["san"]) == len(record["uci"])
    for san, uci in zip(record["san"], record["uci"]):
        move = board.parse_san(san)
        assert board.uci(move) == uci, (record["file"], record["game"], san)
        board.push(move)
    return len(record["san"])


# The golden files as one group (some hold no legal game), each real file alone.
GROUPS = [CHECK_CORPUS] + [[path] for path in REAL_CORPUS]


@pytest.mark.parametrize("paths", GROUPS, ids=lambda g: g[0].name if len(g) == 1 else "golden")
def test_the_main_line_is_python_chess_s(paths):
    plies = 0
    legal = 0
    for record in planilla.games(paths):
        if record["legal"] and record["tags"].get("Variant", "Standard") in ("Standard", "Chess960"):
            plies += replays_in_python_chess(record)
            legal += 1
    assert legal > 0 and plies > 0


def test_an_illegal_move_ends_the_main_line_and_variations_are_left_out():
    record = next(iter(planilla.games("1. e4 (1. d4 d5) e5 2. Ke3 Nc6 *")))
    assert record["san"] == ["e4", "e5"]
    assert record["uci"] == ["e2e4", "e7e5"]
    assert not record["legal"]
    assert record["findings"][0]["code"] == "illegal-move"
    spanish = next(iter(planilla.games("[White \"A\"]\n\n1. e4 e5 2. Cf3 Cc6 3. O-O-O *")))
    assert spanish["san"] == ["e4", "e5", "Nf3", "Nc6"]
    assert spanish["tags"] == {"White": "A"}


def test_games_are_read_as_they_are_needed():
    games = planilla.games([str(CHECK_CORPUS[0].relative_to(ROOT)), "missing.pgn"])
    assert next(games)["game"] == 1
    with pytest.raises(FileNotFoundError, match="^missing.pgn: no such file or directory$"):
        list(games)
