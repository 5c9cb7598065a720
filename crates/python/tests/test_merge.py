"""planilla.merge writes what `planilla merge` writes, byte for byte, and reports what
it reports, record for record (`--format jsonl`), for every number of threads; each
source is read twice, a file object that cannot seek included."""

import gzip
import io
import os
import re
import threading
from pathlib import Path

import planilla
import pytest
from conftest import ROOT, jsonl, run

ARCHIVE_CORPUS = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "corpora" / "archive").glob("*.pgn"))]
# The merge command's golden inputs, when they are there.
MERGE_CORPUS = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "corpora" / "merge" / "in").glob("*.pgn"))]

# Each option set as the command line writes it and as the Python keywords say it;
# CONFLICTS and DROPPED stand for files the binary writes and the result hands back.
CONFLICTS, DROPPED = "<conflicts>", "<dropped>"
OPTIONS = [
    ([], {}),
    (["--conflicts", CONFLICTS, "--dropped", DROPPED], {"conflicts": True, "dropped": True}),
    (["--dropped", DROPPED], {"dropped": True}),
    (["--tags", "merge"], {"tags": "merge"}),
    (["--sort", "date"], {"sort": "date"}),
    (["--tags", "merge", "--sort", "date", "--conflicts", CONFLICTS], {"tags": "merge", "sort": "date", "conflicts": True}),
    (["--output-encoding", "windows-1252"], {"output_encoding": "windows-1252"}),
    (["--lang", "en", "--rules", "by-date"], {"lang": "en", "rules": "by-date"}),
    (["--encoding", "latin-1"], {"encoding": "latin-1"}),
]


def option_id(option):
    return " ".join(option) or "defaults" if isinstance(option, list) else None


def tags(**pairs):
    return "".join(f'[{name} "{value}"]\n' for name, value in pairs.items())


def game(moves, result, **pairs):
    return f"{tags(**pairs, Result=result)}\n{moves} {result}\n\n"


RUY = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Na5 10. Bc2 c5 11. d4 Qc7 12. Nbd2 Bd7 13. Kh1 Rac8"
# The same moves in Spanish: R D T A C for K Q R B N.
RUY_ES = "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Aa4 Cf6 5. O-O Ae7 6. Te1 b5 7. Ab3 d6 8. c3 O-O 9. h3 Ca5 10. Ac2 c5 11. d4 Dc7 12. Cbd2 Ad7 13. Rh1 Tac8"
GRUNFELD = "1. d4 Nf6 2. c4 g6 3. Nc3 d5 4. cxd5 Nxd5 5. e4 Nxc3 6. bxc3 Bg7 7. Nf3 c5 8. Rb1 O-O 9. Be2 cxd4 10. cxd4 Qa5+ 11. Bd2 Qxa2 12. O-O Bg4"
ENGLISH = "1. c4 e5 2. Nc3 Nf6 3. g3 d5 4. cxd5 Nxd5 5. Bg2 Nb6 6. Nf3 Nc6 7. O-O Be7 8. d3 O-O"
# One ply apart from ENGLISH: 5... Be6 for 5... Nb6.
ENGLISH_BE6 = ENGLISH.replace("Nb6", "Be6")
RETI = "1. Nf3 d5 2. g3 Nf6 3. Bg2 e6 4. O-O Be7 5. d3 O-O 6. Nbd2 c5 7. e4 Nc6"

EVENT = dict(Event="Merge Cup", Site="Madrid", Date="2025.03.01")


def small_set(directory: Path):
    """Three files: exact copies with different tags; a relay copy cut short, its whole
    game in a later file; two copies one ply apart; a Latin-1 Spanish copy of an English
    game. Returns their paths as strings."""
    a = (
        game(RUY, "1-0", **EVENT, Round="1", White="Ruiz, Ana", Black="Smith, John")
        # The relay copy, cut after ten plies.
        + game(" ".join(GRUNFELD.split()[:15]), "*", **EVENT, Round="1", White="Kovacs, Eva", Black="Lee, Min")
        + game(ENGLISH, "1/2-1/2", **EVENT, Round="1", White="Berg, Ola", Black="Dahl, Per")
        + game(RETI, "*", **EVENT, Round="2", White="Smith, John", Black="Berg, Ola")
    )
    b = (
        # The same game with other tags: more of them, a Site written otherwise.
        game(RUY, "1-0", **{**EVENT, "Site": "Madrid ESP"}, Round="1", White="Ruiz, Ana", Black="Smith, John",
             ECO="C97", WhiteFideId="2200001", TimeControl="40/7200:3600")
        + game(GRUNFELD, "0-1", **EVENT, Round="1", White="Kovacs, Eva", Black="Lee, Min", ECO="D85")
        + game(ENGLISH_BE6, "1/2-1/2", **EVENT, Round="1", White="Berg, Ola", Black="Dahl, Per")
    )
    c = game(RUY_ES, "1-0", **{**EVENT, "Site": "Málaga"}, Round="1", White="Ruiz, Ana", Black="Smith, John",
             Annotator="Núñez, José")
    paths = []
    for name, text, encoding in (("a.pgn", a, "utf-8"), ("b.pgn", b, "utf-8"), ("c.pgn", c, "latin-1")):
        path = directory / name
        path.write_bytes(text.encode(encoding))
        paths.append(str(path))
    return paths


def cli_merge(tmp_path, args, paths):
    """The binary's report records, its output and the files of its conflicts and
    dropped copies (`None` when not asked for)."""
    out = tmp_path / "cli" / "out.pgn"
    out.parent.mkdir(exist_ok=True)
    files = {CONFLICTS: out.with_name("conflicts.pgn"), DROPPED: out.with_name("dropped.pgn")}
    for f in files.values():
        f.unlink(missing_ok=True)
    args = [str(files.get(a, a)) for a in args]
    done = run(["merge", "--no-config", "--format", "jsonl", "-q", "-o", str(out), *args, *paths])
    assert done.returncode in (0, 1), done.stderr
    written = {k: (f.read_bytes() if f.exists() else None) for k, f in files.items()}
    return jsonl(done.stdout), out.read_bytes(), written[CONFLICTS], written[DROPPED]


def records(merged):
    return [*merged.report, *merged.findings, merged.summary]


def as_bytes(text):
    return text.encode("utf-8") if isinstance(text, str) else text


def assert_equals_the_binary(tmp_path, args, keywords, paths, sources=None):
    """For one and two threads, the result equals the binary's on the same inputs:
    records, output, conflicts and dropped copies."""
    expected, out, conflicts, dropped = cli_merge(tmp_path, args, paths)
    results = []
    for threads in (1, 2):
        merged = planilla.merge(sources or [Path(p) for p in paths], threads=threads, **keywords)
        assert records(merged) == expected
        encoding = keywords.get("output_encoding", "utf-8")
        assert isinstance(merged.text, str if encoding == "utf-8" else bytes)
        assert as_bytes(merged.text) == out
        assert merged.conflicts == conflicts
        assert merged.dropped == dropped
        summary = merged.summary
        assert summary["games"] == summary["written"] + summary["dropped"] + summary["set_apart"]
        results.append(merged)
    return expected, results[0]


@pytest.mark.parametrize("args,keywords", OPTIONS, ids=option_id)
def test_the_archive_corpus_equals_the_binary(tmp_path, args, keywords):
    assert_equals_the_binary(tmp_path, args, keywords, ARCHIVE_CORPUS)


@pytest.mark.parametrize("args,keywords", OPTIONS, ids=option_id)
def test_the_merge_corpus_equals_the_binary(tmp_path, args, keywords):
    if not MERGE_CORPUS:
        pytest.skip("no corpora/merge/in")
    assert_equals_the_binary(tmp_path, args, keywords, MERGE_CORPUS)


@pytest.mark.parametrize("args,keywords", OPTIONS, ids=option_id)
def test_the_small_set_equals_the_binary(tmp_path, args, keywords):
    paths = small_set(tmp_path)
    expected, merged = assert_equals_the_binary(tmp_path, args, keywords, paths)
    # What the set was written to show, in the report.
    a, b, c = paths
    by = {(r["file"], r["game"]): r for r in merged.report if r["action"] != "tag-taken"}
    if keywords.get("lang") != "en":
        # (Read as English, the Spanish copy stops at its first knight move.)
        ruy = {(a, 1), (b, 1), (c, 1)}
        assert sum(key in by for key in ruy) == 2, "two of the three Ruy Lopez copies dropped"
        assert all(by[k]["code"] == "duplicate-game" for k in ruy if k in by)
    # The relay copy is dropped for the whole game of the later file.
    assert by[(a, 2)]["code"] == "truncated-copy"
    assert (by[(a, 2)]["kept_file"], by[(a, 2)]["kept_game"]) == (b, 2)
    # The copies one ply apart: set apart with conflicts, else the first kept.
    if "conflicts" in keywords:
        assert {by[k]["action"] for k in [(a, 3), (b, 3)]} == {"set-apart"}
        assert by[(b, 3)]["group_file"] == a and by[(b, 3)]["ply"] == 10
        assert merged.conflicts.count(b"[Event ") == 2
    else:
        assert (a, 3) not in by and by[(b, 3)]["code"] == "conflicting-copies"
        assert by[(b, 3)]["severity"] == "warning"
    if keywords.get("tags") == "merge":
        # The richest copy (b's) is kept; it takes the Spanish copy's Annotator.
        taken = [(r["tag"], r["file"], r["kept_file"]) for r in merged.report if r["action"] == "tag-taken"]
        assert taken == [("Annotator", c, b)]
    if keywords.get("sort") != "date":
        # The order of each game's first copy: the Ruy Lopez, the Grünfeld (its whole
        # copy in the relay copy's place), the Réti.
        order = [line for line in as_bytes(merged.text).split(b"\n") if line.startswith(b"[White ")]
        assert order[:2] == [b'[White "Ruiz, Ana"]', b'[White "Kovacs, Eva"]']


def test_threads_agree_on_a_large_merge(tmp_path):
    """Many games, cut into several batches read by several threads: the same result
    for one thread and two, and the binary's. (Each game's copies stay few: the archive
    judge's time grows with the square of a group's copies.)"""
    paths = small_set(tmp_path)
    big = tmp_path / "big.pgn"
    with big.open("wb") as out:
        for i in range(1500):
            for path in paths[:2]:
                text = Path(path).read_bytes().replace(b'[White "', b'[White "%d ' % i)
                out.write(text.replace(b"Merge Cup", b"Merge Cup %d" % (i % 700)))
    assert big.stat().st_size > 2 * 1024 * 1024, "several batches"
    expected, _ = assert_equals_the_binary(tmp_path, ["--tags", "merge"], {"tags": "merge"}, [str(big), *paths])
    assert expected[-1]["games"] == 1500 * 7 + 8


class Unseekable(io.RawIOBase):
    """A file object that can be read once, from its start to its end: no seek, no
    tell, readinto only (so `read` is io.RawIOBase's)."""

    def __init__(self, data: bytes, name=None):
        self.data, self.at, self.reads = data, 0, 0
        if name is not None:
            self.name = name

    def readable(self):
        return True

    def readinto(self, buffer):
        self.reads += 1
        n = min(len(buffer), len(self.data) - self.at, 1000)
        buffer[:n] = self.data[self.at : self.at + n]
        self.at += n
        return n


def test_a_file_object_that_cannot_seek_is_read_twice(tmp_path):
    """Spooled as it is read the first time, then read from the spool: the result of
    its path, compressed or not, named by its `name`."""
    a, b, c = small_set(tmp_path)
    expected, out, *_ = cli_merge(tmp_path, [], [a, b, c])
    data = Path(b).read_bytes()
    for raw in (data, gzip.compress(data)):
        source = Unseekable(raw, name=b)
        assert not source.seekable()
        merged = planilla.merge([Path(a), source, Path(c)], threads=2)
        assert source.at == len(raw), "read once, to its end"
        assert records(merged) == expected
        assert as_bytes(merged.text) == out


def test_a_pipe_is_read_twice(tmp_path):
    a, b, c = small_set(tmp_path)
    expected, out, *_ = cli_merge(tmp_path, [], [a, b, c])
    read, write = os.pipe()

    def feed():
        with os.fdopen(write, "wb") as pipe:
            pipe.write(Path(b).read_bytes())

    feeder = threading.Thread(target=feed)
    feeder.start()
    with os.fdopen(read, "rb") as pipe:
        assert not pipe.seekable()
        merged = planilla.merge([Path(a), pipe, Path(c)], threads=1)
    feeder.join()
    # A pipe has no name of its own: `<file>`, as `check` names it.
    for record in expected:
        for key in ("file", "kept_file", "group_file"):
            if record.get(key) == b:
                record[key] = "<file>"
        if "message" in record:
            record["message"] = record["message"].replace(b, "<file>")
    assert records(merged) == expected
    assert as_bytes(merged.text) == out


def test_a_seekable_file_object_is_read_from_where_it_stood(tmp_path):
    a, b, c = small_set(tmp_path)
    data = Path(b).read_bytes()
    alone = planilla.merge(data)
    source = io.BytesIO(b"% not this\n" + data)
    source.seek(len(b"% not this\n"))
    merged = planilla.merge(source)
    assert merged.text == alone.text
    assert merged.summary == alone.summary
    assert source.tell() == len(source.getvalue())
    # The same object twice is the same games twice: the second copy of each dropped.
    source.seek(len(b"% not this\n"))
    twice = planilla.merge([source, source])
    assert twice.text == alone.text
    assert twice.summary["dropped"] == alone.summary["games"]
    assert [r["file"] for r in twice.report] == ["<file>"] * alone.summary["games"]


def test_text_sources_are_named_as_check_names_them(tmp_path):
    a, b, c = small_set(tmp_path)
    texts = [Path(p).read_bytes() for p in (a, b)]
    merged = planilla.merge([texts[0], texts[1], Path(c)])
    by_path = planilla.merge([Path(a), Path(b), Path(c)])
    assert merged.text == by_path.text
    assert {r["file"] for r in merged.report} <= {"<string>", c}
    # A lone str is PGN text; in a list, a str is a path (as in check's lists).
    assert planilla.merge(texts[0].decode("utf-8")).text == planilla.merge(Path(a)).text
    assert planilla.merge([a, b, c]).text == by_path.text


def test_outputs_named_by_paths_are_written(tmp_path):
    paths = small_set(tmp_path)
    args = ["--conflicts", CONFLICTS, "--dropped", DROPPED]
    expected, out, conflicts, dropped = cli_merge(tmp_path, args, paths)
    written = tmp_path / "py"
    written.mkdir()
    merged = planilla.merge(
        [Path(p) for p in paths],
        output=written / "out.pgn",
        conflicts=str(written / "conflicts.pgn"),
        dropped=written / "dropped.pgn",
    )
    assert (merged.text, merged.conflicts, merged.dropped) == (None, None, None)
    assert records(merged) == expected
    assert (written / "out.pgn").read_bytes() == out
    assert (written / "conflicts.pgn").read_bytes() == conflicts
    assert (written / "dropped.pgn").read_bytes() == dropped
    assert sorted(p.name for p in written.iterdir()) == ["conflicts.pgn", "dropped.pgn", "out.pgn"]
    # An output replaced only by a run that succeeded.
    before = (written / "out.pgn").read_bytes()
    with pytest.raises(FileNotFoundError, match="missing.pgn: no such file or directory"):
        planilla.merge([Path(paths[0]), Path(tmp_path / "missing.pgn")], output=written / "out.pgn")
    assert (written / "out.pgn").read_bytes() == before
    # A compressed input cut short, by its path or as a file object that cannot seek.
    cut = tmp_path / "cut.pgn.gz"
    cut.write_bytes(gzip.compress(Path(paths[1]).read_bytes())[:-20])
    for source in (cut, Unseekable(cut.read_bytes(), name=str(cut))):
        with pytest.raises(OSError, match="cut.pgn.gz: cannot read: "):
            planilla.merge([Path(paths[0]), source], output=written / "out.pgn", dropped=written / "d.pgn")
    assert (written / "out.pgn").read_bytes() == before
    assert len(list(written.iterdir())) == 3


def test_merging_the_output_again_drops_nothing(tmp_path):
    for sources in (small_set(tmp_path), ARCHIVE_CORPUS):
        for keywords in ({}, {"conflicts": True}, {"tags": "merge", "sort": "date"}):
            merged = planilla.merge([Path(p) for p in sources], **keywords)
            again = planilla.merge(merged.text, **keywords)
            assert again.summary["dropped"] == again.summary["set_apart"] == 0
            assert again.report == []
            assert again.text == merged.text


def test_a_kept_game_the_output_encoding_cannot_hold(tmp_path):
    """The binary's message, as a UnicodeEncodeError (a ValueError, as str.encode
    raises); the output file untouched."""
    path = tmp_path / "polish.pgn"
    polish = dict(**EVENT, Round="3", White="Łukasz, Jan", Black="Berg, Ola")
    path.write_text(game(RETI, "*", **polish), encoding="utf-8")
    out = tmp_path / "out.pgn"
    out.write_bytes(b"before")
    cli = run(["merge", "--no-config", "-q", "--output-encoding", "latin-1", "-o", str(out), str(path)])
    assert cli.returncode == 2
    message = f"{path}:5:9: latin-1 cannot hold the character 'Ł' (U+0141)"
    assert message in cli.stderr.decode("utf-8")
    with pytest.raises(UnicodeEncodeError) as raised:
        planilla.merge(path, output=out, output_encoding="latin-1")
    assert raised.value.reason == message
    assert (raised.value.encoding, raised.value.object) == ("latin-1", "Ł")
    assert out.read_bytes() == b"before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pgn", "polish.pgn"]
    with pytest.raises(ValueError):
        planilla.merge(path, output_encoding="latin-1")
    # Set apart, the copies are written as read: no error.
    other = tmp_path / "other.pgn"
    other.write_text(game(RETI.replace("c5", "c6"), "*", **polish), encoding="utf-8")
    merged = planilla.merge([path, other], output_encoding="latin-1", conflicts=True)
    assert (merged.text, merged.summary["set_apart"]) == (b"", 2)
    assert merged.conflicts.decode("utf-8").count("Łukasz") == 2


def test_bad_arguments(tmp_path):
    a, b, c = small_set(tmp_path)
    for keywords, message in [
        ({"tags": "all"}, "unknown tags 'all' (keep, merge)"),
        ({"sort": "round"}, "unknown sort 'round' (input, date)"),
        ({"output_encoding": "ascii"}, "ascii"),
        ({"rules": "fide-1999"}, "unknown rules 'fide-1999'"),
        ({"lang": "xx"}, "unknown language 'xx'"),
        ({"encoding": "ebcdic"}, "ebcdic"),
        ({"threads": 0}, "threads must be at least 1"),
        ({"output": tmp_path / "o.pgn", "conflicts": tmp_path / "." / "o.pgn"}, "output and conflicts name the same file"),
        ({"dropped": a}, "is also an input"),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            planilla.merge([Path(a), Path(b)], **keywords)
    with pytest.raises(ValueError, match="nothing to merge"):
        planilla.merge([])
    with pytest.raises(TypeError):
        planilla.merge([[Path(a)]])
    with pytest.raises(TypeError, match="conflicts must be a path, True or None"):
        planilla.merge(Path(a), conflicts=3)
    with pytest.raises(TypeError):
        planilla.merge(3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pgn", "b.pgn", "c.pgn"]
