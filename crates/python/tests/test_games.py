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


def test_the_final_position_is_dead_or_not_and_each_side_can_mate_or_not():
    """corpora/check/dead.pgn (labelled by chasolver 3.0.0): the final position, whether
    it is dead and which sides can still mate; final_fen is python-chess's."""
    records = {r["game"]: r for r in planilla.games(Path("corpora/check/dead.pgn"))}
    expected = {
        1: (True, False, False),  # the wall completed, play went on behind it
        2: (True, False, False),  # set up behind the wall
        4: (True, False, False),  # bishops of one colour
        5: (True, False, False),  # the queen had to be taken: K v K
        6: (False, True, True),  # K+N v K+P: each side has a helpmate
        7: (False, False, True),  # a knight cannot mate a king and queen
        9: (False, True, False),  # a queen against a lone king
        10: (False, False, True),  # a rook against a lone king
    }
    for game, (dead, white, black) in expected.items():
        record = records[game]
        assert (record["dead"], record["can_mate"]) == (dead, {"white": white, "black": black}), game
        board = chess.Board(record["fen"])
        for san in record["san"]:
            board.push_san(san)
        assert record["final_fen"] == board.fen(), game
    mate = next(iter(planilla.games("1. f3 e5 2. g4 Qh4# 0-1")))
    assert (mate["dead"], mate["can_mate"]) == (False, {"white": False, "black": True})
    assert mate["final_fen"] == "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    bad = next(iter(planilla.games("[FEN \"8/8/8\"]\n\n1. e4 *")))
    assert (bad["final_fen"], bad["dead"], bad["can_mate"]) == (None, None, None)
