"""planilla.check gives the findings and the summary `planilla check --format jsonl`
writes, record for record, on every golden file and every option that changes them."""

from pathlib import Path

import planilla
import pytest
from conftest import CHECK_CORPUS, ROOT, jsonl, run

# Each option set as the command line writes it and as the Python keywords say it.
OPTIONS = [
    ([], {}),
    (["--rules", "fide-2009"], {"rules": "fide-2009"}),
    (["--rules", "fide-2005"], {"rules": "fide-2005"}),
    (["--rules", "by-date"], {"rules": "by-date"}),
    (["--lang", "en"], {"lang": "en"}),
    (["--lang", "es"], {"lang": "es"}),
    (["--encoding", "windows-1252"], {"encoding": "windows-1252"}),
    (["--select", "illegal-move,check-mark"], {"select": ["illegal-move", "check-mark"]}),
    (["--ignore", "missing-tag,notation-language"], {"ignore": ["missing-tag", "notation-language"]}),
]


def cli_check(args, paths, stdin=None):
    out = run(["check", "--no-config", "--format", "jsonl", "--fail-on", "never", *args, *paths], stdin)
    assert out.returncode == 0, out.stderr
    return jsonl(out.stdout)


def python_check(source, **keywords):
    """check's findings and summary, after proving that iter_check and check_arrow (in
    batches of 7 rows, so that most results span batches) yield the same."""
    report = planilla.check(source, **keywords)
    findings = planilla.iter_check(source, **keywords)
    assert findings.summary is None
    assert list(findings) == report.findings
    assert findings.summary == report.summary
    batches = planilla.check_arrow(source, batch_size=7, **keywords)
    assert batches.summary is None
    assert arrow_rows(batches) == report.findings
    assert batches.summary == report.summary
    return [*report.findings, report.summary]


def arrow_rows(batches):
    """The rows of check_arrow's batches, each batch proved valid and of the schema."""
    rows = []
    for batch in batches:
        batch.validate(full=True)
        assert batch.schema == batches.schema
        assert 0 < batch.num_rows
        rows += batch.to_pylist()
    return rows


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", CHECK_CORPUS, ids=lambda p: p.name)
@pytest.mark.parametrize("args,keywords", OPTIONS, ids=lambda o: " ".join(o) if isinstance(o, list) else None)
def test_every_golden_file_equals_the_binary(path, args, keywords):
    expected = cli_check(args, [relative(path)])
    for threads in (1, 2):
        assert python_check(Path(relative(path)), threads=threads, **keywords) == expected


ARCHIVE_CORPUS = sorted((ROOT / "corpora" / "archive").glob("*.pgn"))


@pytest.mark.parametrize("args,keywords", [([], {}), (["--select", "truncated-copy,player-identity"], {"select": ["truncated-copy", "player-identity"]})], ids=["all", "select"])
def test_archive_equals_the_binary(args, keywords):
    """archive=True gives `check --archive`'s findings, the archive's after the games'
    own, for every number of threads; without it, none of them."""
    paths = [relative(p) for p in ARCHIVE_CORPUS]
    expected = cli_check(["--archive", *args], paths)
    codes = {f["code"] for f in expected[:-1]}
    assert args or {"duplicate-game", "truncated-copy", "conflicting-copies", "round-conflict", "player-identity"} <= codes
    for threads in (1, 2):
        assert python_check(paths, threads=threads, archive=True, **keywords) == expected
    plain = python_check(paths, **keywords)
    assert plain == cli_check(args, paths)
    assert not {"duplicate-game", "truncated-copy"} & {f["code"] for f in plain[:-1]}


TRF_CASES = [
    ("open.trf", ["open-faults.pgn"]),
    ("open.trf", ["open.pgn", "open-faults.pgn"]),
    ("rr2026.trf", ["rr2026.pgn"]),
    ("lichess-swiss.trf", ["lichess-swiss.pgn"]),
    ("malformed.trf", ["malformed.pgn"]),
]


@pytest.mark.parametrize("trf,pgns", TRF_CASES, ids=lambda c: c if isinstance(c, str) else "+".join(c))
def test_trf_equals_the_binary(trf, pgns):
    """trf= gives `check --trf`'s findings: the games' own, the archive's under
    archive=True, then the games' TRF findings and the report's own, for every number of
    threads and in every shard."""
    trf = f"corpora/trf/{trf}"
    paths = [f"corpora/trf/{p}" for p in pgns]
    expected = cli_check(["--trf", trf], paths)
    assert {f["code"] for f in expected[:-1]} & {"trf-result", "trf-file", "trf-missing-game", "trf-unknown-game"}
    for threads in (1, 2):
        assert python_check(paths, threads=threads, trf=trf) == expected
        assert python_check(paths, threads=threads, trf=Path(trf), archive=True) == cli_check(
            ["--trf", trf, "--archive"], paths
        )
    for k in range(2):
        assert python_check(paths, shard=f"{k}/2", trf=trf) == cli_check(["--trf", trf, "--shard", f"{k}/2"], paths)


def test_trf_errors_are_the_binary_s():
    out = run(["check", "--no-config", "--trf", "missing.trf", "corpora/trf/open.pgn"])
    message = out.stderr.decode().strip().removeprefix("planilla: ")
    with pytest.raises(FileNotFoundError) as raised:
        planilla.check("corpora/trf/open.pgn", trf="missing.trf")
    assert str(raised.value) == message == "missing.trf: cannot read the TRF file: no such file or directory"
    with pytest.raises(ValueError, match="^range cannot be used with trf"):
        planilla.check("corpora/trf/open.pgn", trf="corpora/trf/open.trf", range=(0, 10))


def test_a_list_of_paths_is_read_in_order():
    paths = [relative(p) for p in CHECK_CORPUS]
    expected = cli_check([], paths)
    assert python_check(paths) == expected
    assert python_check(tuple(Path(p) for p in paths)) == expected
    assert expected[-1]["files"] == len(paths)


def test_text_in_memory_equals_standard_input():
    for path in CHECK_CORPUS:
        data = path.read_bytes()
        expected = cli_check(["-"], [], stdin=data)
        for record in expected[:-1]:
            assert record["file"] == "<stdin>"
            record["file"] = "<string>"
        assert python_check(data) == expected
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        assert python_check(text) == expected


def test_many_batches_give_the_binary_s_findings_for_every_thread_count():
    # More than a batch (512 games): the golden files over and over.
    data = b"\n\n".join(p.read_bytes() for p in CHECK_CORPUS) * 12
    expected = cli_check(["-"], [], stdin=data)
    for record in expected[:-1]:
        record["file"] = "<string>"
    assert expected[-1]["games"] > 1024
    for threads in (None, 1, 2, 3):
        assert python_check(data, threads=threads) == expected


def test_a_large_file_reads_as_the_binary_reads_it_for_every_thread_count(tmp_path):
    """A plain file of many batches, read at offsets in pieces by several threads as the
    binary reads it: the binary's findings for every thread count, from check and from
    iter_check alike."""
    data = b"\n\n".join(p.read_bytes() for p in CHECK_CORPUS) * 12
    path = tmp_path / "many.pgn"
    path.write_bytes(data)
    expected = cli_check([str(path)], [])
    for threads in (None, 1, 2, 3):
        assert python_check(path, threads=threads) == expected
        assert list(planilla.iter_check(path, threads=threads)) == expected[:-1]


def test_a_stream_cut_short_gives_its_games_findings_before_the_error(tmp_path):
    """iter_check and check_arrow (whose batch would hold them all) over a compressed file
    cut short hand over the findings of every game read before the error, as the binary
    reports them, then raise its OSError, for every thread count."""
    import gzip

    data = b"\n\n".join(p.read_bytes() for p in CHECK_CORPUS) * 4
    compressed = gzip.compress(data)
    cut = tmp_path / "cut.pgn.gz"
    cut.write_bytes(compressed[: len(compressed) * 2 // 3])
    binary = run(["check", "--no-config", "--format", "jsonl", str(cut)])
    expected = jsonl(binary.stdout)[:-1]
    assert expected
    for threads in (None, 1, 2):
        found = []
        with pytest.raises(OSError, match=f"^{cut}: cannot read: "):
            for finding in planilla.iter_check(cut, threads=threads):
                found.append(finding)
        assert found == expected, threads
        rows = []
        with pytest.raises(OSError, match=f"^{cut}: cannot read: "):
            for batch in planilla.check_arrow(cut, threads=threads, batch_size=100_000):
                rows += batch.to_pylist()
        assert rows == expected, threads


def test_an_unreadable_path_is_an_os_error_with_the_binary_s_message():
    out = run(["check", "--no-config", "missing.pgn"])
    message = out.stderr.decode().strip().removeprefix("planilla: ")
    assert message == "missing.pgn: no such file or directory"
    with pytest.raises(FileNotFoundError) as raised:
        planilla.check(Path("missing.pgn"))
    assert str(raised.value) == message
    with pytest.raises(FileNotFoundError, match="^missing.pgn: no such file"):
        planilla.check([relative(CHECK_CORPUS[0]), "missing.pgn"])
    findings = planilla.iter_check([relative(CHECK_CORPUS[1]), "missing.pgn"])
    assert next(findings)["file"] == relative(CHECK_CORPUS[1])
    with pytest.raises(FileNotFoundError, match="^missing.pgn: no such file"):
        list(findings)
    batches = planilla.check_arrow([relative(CHECK_CORPUS[1]), "missing.pgn"], batch_size=1)
    assert next(batches).to_pylist()[0]["file"] == relative(CHECK_CORPUS[1])
    with pytest.raises(FileNotFoundError, match="^missing.pgn: no such file"):
        list(batches)
    with pytest.raises(IsADirectoryError, match="^corpora: cannot read: .*(?i:is a directory)"):
        planilla.check(Path("corpora"))


@pytest.mark.parametrize(
    "keywords,option",
    [
        ({"rules": "fide-1999"}, ["--rules", "fide-1999"]),
        ({"lang": "xx"}, ["--lang", "xx"]),
        ({"encoding": "utf-16"}, ["--encoding", "utf-16"]),
        ({"select": ["no-such-code"]}, ["--select", "no-such-code"]),
        ({"ignore": ["no-such-code"]}, ["--ignore", "no-such-code"]),
    ],
)
def test_a_bad_option_is_a_value_error_with_the_binary_s_message(keywords, option):
    stderr = run(["check", "--no-config", *option, "-"], b"").stderr.decode()
    with pytest.raises(ValueError) as raised:
        planilla.check(b"", **keywords)
    assert str(raised.value) in stderr


def test_bad_arguments_are_type_and_value_errors():
    with pytest.raises(TypeError, match="not int"):
        planilla.check(3)
    with pytest.raises(ValueError, match="at least 1"):
        planilla.check(b"", threads=0)
    with pytest.raises(TypeError):
        planilla.check(b"", "fide-2023")
    with pytest.raises(ValueError, match="batch_size must be at least 1"):
        planilla.check_arrow(b"", batch_size=0)


def test_shards_are_the_binary_s_and_split_the_games_exactly():
    paths = [relative(p) for p in CHECK_CORPUS]
    whole = planilla.check(paths)
    union = []
    games = 0
    for k in range(3):
        shard = python_check(paths, shard=f"{k}/3")
        assert shard == cli_check(["--shard", f"{k}/3"], paths)
        union += shard[:-1]
        games += shard[-1]["games"]
    key = lambda f: (paths.index(f["file"]), f["game"], f["line"], f["column"], f["code"], f["message"])
    assert sorted(union, key=key) == sorted(whole.findings, key=key)
    assert games == whole.summary["games"]
    for bad in ["3/3", "1", "a/b", "0/0"]:
        with pytest.raises(ValueError, match=f"^bad shard '{bad}': write K/N"):
            planilla.check(b"", shard=bad)


def test_compressed_input_reads_as_the_binary_reads_it(tmp_path):
    """A gzip or bzip2 file (members concatenated too), or the same bytes in memory, is
    decoded by its first bytes whatever its name: the binary's findings and numbers; one
    cut short is an OSError after its games, as the binary names it."""
    import bz2
    import gzip

    data = CHECK_CORPUS[0].read_bytes()
    half = len(data) // 2
    files = {
        "gz": gzip.compress(data),
        "bz2": bz2.compress(data),
        "members.gz": gzip.compress(data[:half]) + gzip.compress(data[half:]),
        # A name that says nothing: known by its first bytes.
        "pgn": gzip.compress(data),
    }
    plain = planilla.check(data)
    for name, compressed in files.items():
        path = tmp_path / f"games.{name}"
        path.write_bytes(compressed)
        binary = jsonl(run(["check", "--no-config", "--format", "jsonl", str(path)]).stdout)
        from_path = planilla.check(path)
        assert from_path.findings == binary[:-1]
        assert from_path.summary["games"] == binary[-1]["games"]
        from_bytes = planilla.check(compressed)
        assert from_bytes.findings == plain.findings
        assert [g["game"] for g in planilla.games(path)] == [g["game"] for g in planilla.games(data)]
        assert list(planilla.iter_check(path)) == from_path.findings
    cut = tmp_path / "cut.pgn.gz"
    cut.write_bytes(files["gz"][: len(files["gz"]) * 2 // 3])
    with pytest.raises(OSError, match=f"^{cut}: cannot read: "):
        planilla.check(cut)


def test_a_byte_range_is_the_binarys(tmp_path):
    """range=(start, end) checks the games of one file that start in that byte range,
    numbered as in the whole file: the ranges of a partition give the whole file's
    findings, as `planilla check --range` gives them; games() and iter_check() alike."""
    path = ROOT / "corpora" / "check" / "draws.pgn"
    size = path.stat().st_size
    whole = planilla.check(path)
    cuts = [0, 1, size // 3, size // 3 + 7, size // 2, size]
    joined, games = [], 0
    for start, end in zip(cuts, cuts[1:]):
        part = planilla.check(path, range=(start, end))
        binary = jsonl(run(["check", "--no-config", "--format", "jsonl", "--range", f"{start}:{end}", str(path)]).stdout)
        assert part.findings == binary[:-1]
        assert list(planilla.iter_check(path, range=(start, end))) == part.findings
        joined += part.findings
        games += part.summary["games"]
    assert joined == whole.findings
    assert games == whole.summary["games"]
    numbers = [g["game"] for s, e in zip(cuts, cuts[1:]) for g in planilla.games(path, range=(s, e))]
    assert numbers == [g["game"] for g in planilla.games(path)]
    with pytest.raises(ValueError, match="range reads one file"):
        planilla.check(b"1. e4 *", range=(0, 5))
    with pytest.raises(ValueError, match="the end is before the start"):
        planilla.check(path, range=(5, 1))


def test_an_index_finds_a_range_as_reading_from_the_start_does(tmp_path):
    """index() is `planilla index`'s text, and range= with index= gives what range= alone
    gives on a file of several mebibytes (the index's marks past the start are used)."""
    one = (ROOT / "corpora" / "check" / "draws.pgn").read_bytes()
    path = tmp_path / "big.pgn"
    path.write_bytes(one * ((3 << 20) // len(one) + 1))
    text = planilla.index(path)
    assert text == run(["index", "-o", "-", str(path)]).stdout.decode()
    assert len(text.splitlines()) >= 5
    size = path.stat().st_size
    for start, end in [(0, size // 3), (size // 3, 2 * size // 3), (2 * size // 3, size)]:
        plain = planilla.check(path, range=(start, end))
        indexed = planilla.check(path, range=(start, end), index=text)
        assert indexed.findings == plain.findings and indexed.summary == plain.summary
    with pytest.raises(ValueError, match="index is for a range"):
        planilla.check(path, index=text)
    with pytest.raises(ValueError, match="bad index"):
        planilla.check(path, range=(0, 10), index="nonsense")


def test_a_file_object_reads_as_its_file(tmp_path):
    """A binary file object is read as the file: an open file (named by its name), a
    BytesIO (seekable, unnamed), a pyarrow.fs file (read_at); the ones that can be read
    at offsets by ranges too, with index() of the same object; a stream that cannot is
    refused for a range, and a text-mode file is an error that says so."""
    import io

    from pyarrow import fs

    path = ROOT / "corpora" / "check" / "draws.pgn"
    data = path.read_bytes()
    whole = planilla.check(path)
    unnamed = [{**f, "file": "<file>"} for f in whole.findings]
    with open(path, "rb") as f:
        assert planilla.check(f).findings == whole.findings
    assert planilla.check(io.BytesIO(data)).findings == unnamed
    opened = [lambda: open(path, "rb"), lambda: io.BytesIO(data),
              lambda: fs.LocalFileSystem().open_input_file(str(path))]
    size = len(data)
    cuts = [0, size // 3, size // 2 + 5, size]
    for make in opened:
        with make() as f:
            text = planilla.index(f)
            assert text == planilla.index(path)
            parts = [planilla.check(f, range=(s, e), index=text) for s, e in zip(cuts, cuts[1:])]
            parts += [planilla.check(f, range=(s, e)) for s, e in zip(cuts, cuts[1:])]
        names = [p["file"] for part in parts for p in part.findings]
        findings = [{**p, "file": "x"} for part in parts for p in part.findings]
        assert findings == [{**p, "file": "x"} for p in whole.findings] * 2
        assert len(set(names)) == 1

    class Stream:
        def __init__(self):
            self.inner = io.BytesIO(data)

        def read(self, n=-1):
            return self.inner.read(n)

    assert planilla.check(Stream()).findings == unnamed
    with pytest.raises(ValueError, match="seekable file object"):
        planilla.check(Stream(), range=(0, 10))
    with pytest.raises(TypeError, match="neither read_at nor seek"):
        planilla.index(Stream())
    with open(path) as text_mode:
        with pytest.raises(OSError, match="open it in binary mode"):
            planilla.check(text_mode)
