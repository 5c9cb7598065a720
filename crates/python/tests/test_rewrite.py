"""planilla.convert and planilla.fix write what `planilla convert` and `planilla fix`
write, and report the same changes and findings."""

from pathlib import Path

import planilla
import pytest
from conftest import ROOT, jsonl, run

CONVERT_CORPUS = sorted((ROOT / "corpora" / "convert").glob("*.pgn"))
FIX_CORPUS = sorted([*(ROOT / "corpora" / "fix").glob("*.pgn"), *(ROOT / "corpora" / "fix" / "broken").glob("*.pgn")])


@pytest.mark.parametrize("path", CONVERT_CORPUS, ids=lambda p: p.name)
@pytest.mark.parametrize("to", ["en", "es", "de", "figurine"])
def test_convert_equals_the_binary(path, to):
    out = run(["convert", "--to", to, "-"], path.read_bytes())
    assert out.returncode != 2, out.stderr
    assert planilla.convert(path.read_bytes(), to=to) == out.stdout.decode("utf-8")


def test_convert_reads_the_language_it_is_told():
    assert planilla.convert("1. e4 e5 2. Cf3 *", from_="es", to="de") == "1. e4 e5 2. Sf3 *"
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        planilla.convert("1. e4 *", to="xx")


NOTATION_CORPUS = sorted((ROOT / "corpora" / "notation").glob("*.pgn"))


@pytest.mark.parametrize("path", NOTATION_CORPUS, ids=lambda p: p.name)
@pytest.mark.parametrize("to", ["en", "es", "lan", "lan-es", "iccf"])
def test_every_notation_converts_as_the_binary_does(path, to):
    out = run(["convert", "--to", to, "-"], path.read_bytes())
    assert out.returncode != 2, out.stderr
    assert planilla.convert(path.read_bytes(), to=to) == out.stdout.decode("utf-8")


def test_the_notation_read_and_written_is_the_one_asked_for():
    assert planilla.convert("1. P-K4 P-K4 2. N-KB3 N-QB3 *") == "1. e4 e5 2. Nf3 Nc6 *"
    assert planilla.convert("1. P4R P4R 2. C3AR *", to="es") == "1. e4 e5 2. Cf3 *"
    assert planilla.convert("1. e4 e5 2. Nf3 *", to="iccf") == "1. 5254 5755 2. 7163 *"
    assert planilla.convert("1. 5254 5755 2. 7163 *", to="lan-de") == "1. e2-e4 e7-e5 2. Sg1-f3 *"
    # Forced to SAN, a descriptive move is no move: the game keeps it as written.
    assert planilla.convert("1. P-K4 *", notation="san") == "1. P-K4 *"
    # QxP fits Qxe5+, Qxf7# and Qxh7: `mate` tells them apart, as books relied on.
    fixed = planilla.fix("1. P-K4 P-K4 2. Q-R5 N-QB3 3. B-B4 N-B3 4. QxP mate 1-0")
    assert fixed.text == "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"
    assert planilla.fix("1. P-K4 P-K4 2. Q-R5 N-QB3 3. B-B4 N-B3 4. QxP 1-0").rejected
    with pytest.raises(ValueError, match="unknown notation 'numeric'"):
        planilla.convert("1. e4 *", notation="numeric")
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        planilla.convert("1. e4 *", to="lan-xx")


@pytest.mark.parametrize("path", FIX_CORPUS, ids=lambda p: p.name)
@pytest.mark.parametrize("repair", [False, True])
def test_fix_equals_the_binary(path, repair, tmp_path):
    args = ["fix", "--no-config", "--format", "jsonl", *(["--repair"] if repair else []), "-"]
    out = run(args, path.read_bytes())
    report = [r for r in jsonl(out.stderr) if r["type"] != "summary"]
    for record in report:
        record["file"] = "<string>"
    fixed = planilla.fix(path.read_bytes(), repair=repair)
    assert fixed.text == out.stdout.decode("utf-8")
    assert fixed.changes == [r for r in report if r["type"] == "fix"]
    assert fixed.findings == [r for r in report if r["type"] == "finding"]
    rejects = tmp_path / "rejects.pgn"
    run([*args[:-1], "--rejects", str(rejects), "-o", str(tmp_path / "fixed.pgn"), "-"], path.read_bytes())
    # The rejects file holds the rejected games one after another, with a separator line
    # between two of them only where they would otherwise run together.
    written = rejects.read_bytes() if rejects.exists() else b""
    assert b"".join(fixed.rejected) == written.replace(b"\n% planilla: end of game\n", b"")


def test_fix_repairs_only_when_asked():
    pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba5 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 *"
    assert planilla.fix(pgn).rejected == [pgn.encode()]
    repaired = planilla.fix(pgn, repair=True)
    assert repaired.rejected == []
    assert repaired.text == pgn.replace("Ba5", "Ba4")
    assert [(c["code"], c["before"], c["after"]) for c in repaired.changes] == [
        ("repaired-move", "Ba5", "Ba4")
    ]


def test_a_path_a_compressed_file_and_a_file_object_read_as_the_binary_reads_them(tmp_path):
    """convert and fix take a path (compressed too, known by its first bytes) or a file
    object as they take text: the binary's output for the file, findings and changes
    named by the path; a list is refused."""
    import gzip
    import io

    path = next(p for p in FIX_CORPUS if p.name != "clean.pgn")
    data = path.read_bytes()
    gz = tmp_path / "games.pgn.gz"
    gz.write_bytes(gzip.compress(data))
    for source in (path, gz):
        out = run(["fix", "--no-config", "--format", "jsonl", str(source)])
        report = [r for r in jsonl(out.stderr) if r["type"] != "summary"]
        fixed = planilla.fix(source)
        assert fixed.text == out.stdout.decode("utf-8")
        assert fixed.changes + fixed.findings == sorted(report, key=lambda r: r["type"] == "finding")
        converted = run(["convert", "--to", "es", str(source)]).stdout.decode("utf-8")
        assert planilla.convert(source, to="es") == converted
    assert planilla.convert(io.BytesIO(gzip.compress(data))) == planilla.convert(data)
    with pytest.raises(TypeError, match="pgn must be one source"):
        planilla.fix([path])
