"""`planilla lsp` driven by pytest-lsp's client (pygls): the protocol, message by message.

Run by scripts/test-editors (a venv under target/ with pinned pytest-lsp), with PLANILLA
the binary and the repository as the current directory:

    PLANILLA=target/release/planilla target/editors-venv/bin/python -m pytest tests/editors

Each test starts its own server. The client checks every answer against the LSP
specification and its capabilities (LspSpecificationWarning is an error here).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import pathlib
import random
import subprocess
import typing
import xml.etree.ElementTree as ET

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLANILLA = os.environ.get("PLANILLA", str(ROOT / "target" / "release" / "planilla"))
TIMEOUT = 20

pytestmark = [
    pytest.mark.asyncio(loop_scope="function"),
    pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning"),
]


# The client -------------------------------------------------------------------------


def capabilities(encodings: list[str] | None = None) -> types.ClientCapabilities:
    """VS Code's capabilities, optionally offering position encodings."""
    caps = client_capabilities("visual-studio-code")
    if encodings is not None:
        caps.general = types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind(e) for e in encodings]
        )
    return caps


def converter():
    """pygls's converter, with a CodeAction that carries a command read as a CodeAction
    (lsprotocol reads any object with a `command` key as a Command, losing its kind)."""
    c = default_converter()

    def action(obj, _):
        if isinstance(obj.get("command"), str):
            return c.structure(obj, types.Command)
        return c.structure(obj, types.CodeAction)

    c.register_structure_hook(typing.Union[types.Command, types.CodeAction], action)
    return c


def make_client() -> LanguageClient:
    """pytest-lsp's client, which also keeps each document's last diagnostics with their
    version, and records the server's workspace/applyEdit requests (applying none)."""
    client = LanguageClient(converter_factory=converter)
    client.published = {}
    client.applied = []

    def published(client: LanguageClient, params: types.PublishDiagnosticsParams):
        client.published[params.uri] = params
        client.diagnostics[params.uri] = params.diagnostics

    def apply_edit(client: LanguageClient, params: types.ApplyWorkspaceEditParams):
        client.applied.append(params)
        return types.ApplyWorkspaceEditResult(applied=True)

    register_lsp_features(
        client,
        {
            **DEFAULT_CLIENT_FEATURES,
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: published,
            types.WORKSPACE_APPLY_EDIT: apply_edit,
        },
    )
    return client


SERVER = ClientServerConfig(server_command=[PLANILLA, "lsp", "--no-config"], client_factory=make_client)


async def start(lsp_client: LanguageClient, encodings: list[str] | None = None):
    lsp_client.init_result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(encodings),
            root_uri=ROOT.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=ROOT.as_uri(), name="planilla")],
        )
    )


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def utf8_client(lsp_client: LanguageClient):
    await start(lsp_client, ["utf-8", "utf-16"])
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[PLANILLA, "lsp", "--config", str(ROOT / "corpora" / "lsp" / "trf.toml")],
        client_factory=make_client,
    )
)
async def trf_client(lsp_client: LanguageClient):
    """A server whose planilla.toml names a tournament report (`trf`)."""
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def bare_client(lsp_client: LanguageClient):
    """A client the test itself initializes and shuts down."""
    yield


# Documents --------------------------------------------------------------------------


def uri_of(name: str) -> str:
    """A document URI under the repository (never written: its text is the client's)."""
    return (ROOT / "target" / "editors-docs" / name).as_uri()


async def publish(client: LanguageClient, uri: str, version: int) -> list[types.Diagnostic]:
    """Waits for the diagnostics of `uri` at `version`."""
    for _ in range(TIMEOUT * 100):
        got = client.published.get(uri)
        if got is not None and got.version == version:
            return list(got.diagnostics)
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics published for {uri} at version {version}")


async def open_doc(client: LanguageClient, name: str, text: str, language: str = "pgn"):
    uri = uri_of(name)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
        )
    )
    return uri, await publish(client, uri, 1)


def corpus(rel: str) -> str:
    return (ROOT / rel).read_text(encoding="utf-8")


# Positions and edits, in UTF-16 units (or UTF-8 bytes) ------------------------------


def offset(text: str, pos: types.Position, encoding: str = "utf-16") -> int:
    """The index in `text` of an LSP position."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: pos.line])
    line = lines[pos.line] if pos.line < len(lines) else ""
    units = 0
    for i, ch in enumerate(line):
        if units >= pos.character:
            return start + i
        units += len(ch.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(ch.encode("utf-8"))
    return start + len(line)


def position(text: str, index: int, encoding: str = "utf-16") -> types.Position:
    before = text[:index]
    line = before.count("\n")
    col = before[before.rfind("\n") + 1 :]
    units = len(col.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(col.encode("utf-8"))
    return types.Position(line=line, character=units)


def at(text: str, needle: str, nth: int = 0, encoding: str = "utf-16") -> types.Position:
    """The position of the `nth` occurrence of `needle`."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    return position(text, i, encoding)


def apply(text: str, edits: list[types.TextEdit], encoding: str = "utf-16") -> str:
    """`text` with `edits` applied (they must not overlap)."""
    spans = sorted(
        ((offset(text, e.range.start, encoding), offset(text, e.range.end, encoding), e.new_text) for e in edits),
        reverse=True,
    )
    for i, (a, b, _) in enumerate(spans[1:], 1):
        assert b <= spans[i - 1][0], f"overlapping edits: {edits}"
    for a, b, new in spans:
        text = text[:a] + new + text[b:]
    return text


def text_of(text: str, r: types.Range, encoding: str = "utf-16") -> str:
    return text[offset(text, r.start, encoding) : offset(text, r.end, encoding)]


# The binary, for comparison -----------------------------------------------------------


def run(*args: str, text: str | None = None, tmp: pathlib.Path | None = None) -> str:
    """The binary's standard output for `args`, on `text` written to a file if given."""
    argv = [PLANILLA, *args]
    if text is not None:
        path = tmp / "in.pgn"
        path.write_text(text, encoding="utf-8")
        argv.append(str(path))
    done = subprocess.run(argv, capture_output=True, check=False)
    assert done.returncode in (0, 1), done.stderr.decode()
    return done.stdout.decode("utf-8")


def check(text: str, tmp: pathlib.Path, *options: str) -> list[dict]:
    out = run("check", "--no-config", "--archive", "--format", "jsonl", *options, text=text, tmp=tmp)
    return [f for f in map(json.loads, out.splitlines()) if f["type"] == "finding"]


SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "note": types.DiagnosticSeverity.Information,
}


def same_as_check(
    diagnostics: list[types.Diagnostic],
    text: str,
    tmp: pathlib.Path,
    *options: str,
    skip: tuple[str, ...] = (),
):
    """The diagnostics are check's findings (with `options`, but those of a code in
    `skip`), one for one: each at the finding's line and column (a finding inside a
    comment: the diagnostic is the comment, from its `{`, and holds the place), with its
    code, severity, source and message (`game N...: ` then jsonl's message)."""
    lines = text.split("\n")

    def place(pos: types.Position) -> tuple[int, int]:  # UTF-16 units to characters
        return pos.line, offset(lines[pos.line], types.Position(line=0, character=pos.character))

    def matches(d: types.Diagnostic, f: dict) -> bool:
        where = (f["line"] - 1, f["column"] - 1)
        start, end = place(d.range.start), place(d.range.end)
        inside = text_of(text, d.range).startswith("{") and start < where <= end
        return (
            (start == where or inside)
            and d.code == f["code"]
            and d.severity == SEVERITY[f["severity"]]
            and d.source == "planilla"
            and d.message.startswith(f"game {f['game']}")
            and d.message[len(f"game {f['game']}")] in ",:"
            and d.message.endswith(f["message"])
        )

    left = list(diagnostics)
    missing = []
    for f in check(text, tmp, *options):
        if f["code"] in skip:
            continue
        found = next((d for d in left if matches(d, f)), None)
        if found is None:
            missing.append(f)
        else:
            left.remove(found)
    assert not missing and not left, (missing, left)


# Tests ------------------------------------------------------------------------------

START = (
    "8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n7 ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟\n6 · · · · · · · ·\n5 · · · · · · · ·\n"
    "4 · · · · · · · ·\n3 · · · · · · · ·\n2 ♙ ♙ ♙ ♙ ♙ ♙ ♙ ♙\n1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖\n  a b c d e f g h\n"
)

GAMES = """[Event "Club"]
[Site "?"]
[Date "2026.11.29"]
[Round "1"]
[White "Alba"]
[Black "Bravo"]
[Result "1-0"]

1. e4 e5 2. Nf3 (2. Bc4 Nf6
3. d3) 2... Nc6 {a comment
over two lines} 3. Bb5 a6 1-0

[Event "Club"]
[Site "?"]
[Date "2026.11.29"]
[Round "2"]
[White "Carla"]
[Black "Dani"]
[Result "*"]

1. d4 d5 *

[Event "Open"]
[Site "?"]
[Date "2026.11.29"]
[Round "3"]
[White "Eva"]
[Black "Fran"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
"""


async def test_initialize_announces_what_the_server_does(client: LanguageClient):
    result = client.init_result
    assert result.server_info.name == "planilla"
    caps = result.capabilities
    assert caps.position_encoding == types.PositionEncodingKind.Utf16
    sync = caps.text_document_sync
    assert sync.open_close is True
    assert sync.change == types.TextDocumentSyncKind.Incremental
    assert caps.hover_provider is True
    assert set(caps.code_action_provider.code_action_kinds) == {
        "quickfix",
        "refactor.rewrite",
        "source.fixAll",
        "source.convert",
    }
    assert list(caps.execute_command_provider.commands) == ["planilla.fix", "planilla.convert"]
    assert caps.document_symbol_provider is True
    assert caps.folding_range_provider is True
    assert caps.document_formatting_provider is True


async def test_utf8_is_used_when_the_client_offers_it_first(utf8_client: LanguageClient, tmp_path):
    assert utf8_client.init_result.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    text = corpus("corpora/lsp/draw-mark.pgn")
    uri, diags = await open_doc(utf8_client, "draw-mark.pgn", text)
    [d] = [d for d in diags if d.code == "non-standard-result"]
    # Columns in bytes: the ½-½ after wide characters.
    assert d.range.start == at(text, "½-½", encoding="utf-8")
    assert text_of(text, d.range, "utf-8") == "½-½"
    [fix] = [
        a
        for a in await utf8_client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=d.range,
                context=types.CodeActionContext(diagnostics=[d]),
            )
        )
        if a.kind == types.CodeActionKind.QuickFix
    ]
    assert apply(text, fix.edit.changes[uri], "utf-8") == text.replace("Nc6 ½-½", "Nc6 1/2-1/2")


async def test_diagnostics_on_open_are_checks_findings(client: LanguageClient, tmp_path):
    for rel in ["corpora/check/repair.pgn", "corpora/check/syntax.pgn", "corpora/lsp/draw-mark.pgn"]:
        text = corpus(rel)
        uri, diags = await open_doc(client, pathlib.Path(rel).name, text)
        assert diags, rel
        # Archive findings name the document by its path: check's name for the copy.
        path = uri_of(pathlib.Path(rel).name).removeprefix("file://")
        for d in diags:
            d.message = d.message.replace(path, str(tmp_path / "in.pgn"))
        same_as_check(diags, text, tmp_path)
    # The move's whole token is underlined; the wide characters count in UTF-16 units.
    text = corpus("corpora/lsp/draw-mark.pgn")
    [d] = client.published[uri_of("draw-mark.pgn")].diagnostics
    assert d.range.start == at(text, "½-½") and text_of(text, d.range) == "½-½"
    assert d.severity == types.DiagnosticSeverity.Warning


async def test_trf_in_planilla_toml_judges_each_game(trf_client: LanguageClient, tmp_path):
    """With `trf` in planilla.toml each game gets check --trf's findings about it; the
    report's own (its faults, its games missing from the archive) are the run's."""
    text = corpus("corpora/trf/open-faults.pgn")
    _, diags = await open_doc(trf_client, "open-faults.pgn", text)
    codes = {d.code for d in diags}
    assert {"trf-result", "trf-colours", "trf-round", "trf-unplayed", "trf-unknown-game"} <= codes
    # Archive findings name the document by its path: check's name for the copy.
    path = uri_of("open-faults.pgn").removeprefix("file://")
    for d in diags:
        d.message = d.message.replace(path, str(tmp_path / "in.pgn"))
    skip = ("trf-missing-game", "trf-file")
    same_as_check(diags, text, tmp_path, "--trf", str(ROOT / "corpora/trf/open.trf"), skip=skip)


async def test_a_document_that_is_not_pgn_is_left_alone(client: LanguageClient):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri_of("notes.txt"), language_id="plaintext", version=1, text="1. Nb5 *\n"
            )
        )
    )
    # A pgn document opened after it is answered; the text file never is.
    await open_doc(client, "after.pgn", "1. e4 *\n")
    assert uri_of("notes.txt") not in client.published


async def test_incremental_changes_recheck(client: LanguageClient, tmp_path):
    text = corpus("corpora/check/repair.pgn")
    uri, diags = await open_doc(client, "repair.pgn", text)
    nb5 = at(text, "Nb5")
    assert any(d.code == "illegal-move" and d.range.start == nb5 for d in diags)
    # Two changes in one notification: N -> B, then a6 -> a5 (positions after the first).
    first = types.TextDocumentContentChangePartial(
        range=types.Range(start=nb5, end=types.Position(line=nb5.line, character=nb5.character + 1)), text="B"
    )
    new = text[: offset(text, nb5)] + "B" + text[offset(text, nb5) + 1 :]
    a6 = at(new, "a6")
    second = types.TextDocumentContentChangePartial(
        range=types.Range(start=a6, end=types.Position(line=a6.line, character=a6.character + 2)), text="a5"
    )
    new = new[: offset(new, a6)] + "a5" + new[offset(new, a6) + 2 :]
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[first, second],
        )
    )
    diags = await publish(client, uri, 2)
    assert not any(d.code == "illegal-move" and d.range.start.line == nb5.line for d in diags)
    for d in diags:
        d.message = d.message.replace(uri.removeprefix("file://"), str(tmp_path / "in.pgn"))
    same_as_check(diags, new, tmp_path)
    # The whole text replaced (a change without a range).
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="1. e4 e5 2. Ke3 *\n")],
        )
    )
    diags = await publish(client, uri, 3)
    assert [d.code for d in diags] == ["illegal-move"]
    assert diags[0].range.start == types.Position(line=0, character=12)
    # Closing the document clears its diagnostics.
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    for _ in range(TIMEOUT * 100):
        if client.published[uri].version is None:
            break
        await asyncio.sleep(0.01)
    assert client.published[uri].version is None and list(client.published[uri].diagnostics) == []


async def hover(client: LanguageClient, uri: str, pos: types.Position):
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos)
    )


def svg_board(markdown: str) -> ET.Element:
    """The SVG image of a hover, decoded and parsed."""
    prefix = "![position](data:image/svg+xml;base64,"
    i = markdown.index(prefix) + len(prefix)
    data = markdown[i : markdown.index(")", i)]
    return ET.fromstring(base64.b64decode(data))


async def test_hover_shows_the_position_before_the_move(client: LanguageClient):
    uri, _ = await open_doc(client, "games.pgn", GAMES)
    # 1. e4: the start position, White to move.
    e4 = at(GAMES, "e4")
    h = await hover(client, uri, types.Position(line=e4.line, character=e4.character + 1))
    assert h.contents.kind == types.MarkupKind.Markdown
    md = h.contents.value
    assert md.startswith("**e4** · White to move · SAN `e4` · UCI `e2e4`"), md
    assert "```text\n" + START + "```" in md
    assert h.range == types.Range(start=e4, end=types.Position(line=e4.line, character=e4.character + 2))
    svg = svg_board(md)
    ns = "{http://www.w3.org/2000/svg}"
    assert len(svg.findall(f"{ns}rect")) == 64
    assert len(svg.findall(f"{ns}text")) == 32
    # 1... e5: the pawn is on e4, Black to move.
    h = await hover(client, uri, at(GAMES, "e5"))
    md = h.contents.value
    assert md.startswith("**e5** · Black to move · SAN `e5` · UCI `e7e5`"), md
    assert "\n4 · · · · ♙ · · ·\n" in md and "\n2 ♙ ♙ ♙ ♙ · ♙ ♙ ♙\n" in md
    # In the variation, 2. Bc4 starts from the position before 2. Nf3 (no knight on f3).
    h = await hover(client, uri, at(GAMES, "Bc4"))
    md = h.contents.value
    assert md.startswith("**Bc4** · White to move · SAN `Bc4` · UCI `f1c4`"), md
    assert "\n3 · · · · · · · ·\n" in md and "\n5 · · · · ♟ · · ·\n" in md
    # After the variation, 2... Nc6 follows 2. Nf3.
    h = await hover(client, uri, at(GAMES, "Nc6"))
    assert h.contents.value.startswith("**Nc6** · Black to move · SAN `Nc6` · UCI `b8c6`")
    assert "\n3 · · · · · ♘ · ·\n" in h.contents.value
    # Mate in the third game: Qh4#.
    h = await hover(client, uri, at(GAMES, "Qh4#"))
    assert h.contents.value.startswith("**Qh4#** · Black to move · SAN `Qh4#` · UCI `d8h4`")
    # Not on a move: a tag, a move number, a comment, the result.
    for needle in ['[Event "Club"]', "2. Nf3", "{a comment", "1-0\n\n"]:
        assert await hover(client, uri, at(GAMES, needle)) is None, needle


async def test_hover_on_a_faulty_move_names_the_legal_ones(client: LanguageClient):
    text = corpus("corpora/check/repair.pgn")
    uri, _ = await open_doc(client, "repair.pgn", text)
    md = (await hover(client, uri, at(text, "Nb5"))).contents.value
    assert md.startswith("**Nb5** · White to move · this move does not replay here"), md
    assert "Legal moves to b5: Bb5" in md
    assert "\n3 · · · · · ♘ · ·\n" in md and "\n6 · · ♞ · · · · ·\n" in md


async def test_one_symbol_per_game(client: LanguageClient):
    uri, _ = await open_doc(client, "games.pgn", GAMES)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert [s.name for s in symbols] == ["Alba – Bravo", "Carla – Dani", "Eva – Fran"]
    assert [s.detail for s in symbols] == ["Club, 1, 1-0", "Club, 2, *", "Open, 3, 0-1"]
    starts = [at(GAMES, '[Event "Club"]'), at(GAMES, '[Event "Club"]', 1), at(GAMES, '[Event "Open"]')]
    assert [s.range.start for s in symbols] == starts
    assert [s.selection_range.start for s in symbols] == starts
    assert [s.range.end for s in symbols] == [
        position(GAMES, GAMES.index("a6 1-0") + 6),
        position(GAMES, GAMES.index("d5 *") + 4),
        position(GAMES, GAMES.index("Qh4# 0-1") + 8),
    ]


async def test_folding_ranges(client: LanguageClient):
    uri, _ = await open_doc(client, "games.pgn", GAMES)
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    got = sorted((f.start_line, f.end_line, f.kind) for f in folds)
    region, comment = types.FoldingRangeKind.Region, types.FoldingRangeKind.Comment
    assert got == [
        (0, 6, region),  # game 1's tags
        (0, 10, region),  # game 1
        (8, 9, region),  # the variation (2. Bc4 Nf6 / 3. d3)
        (9, 10, comment),  # the comment over two lines
        (12, 18, region),  # game 2's tags
        (12, 20, region),  # game 2
        (22, 28, region),  # game 3's tags
        (22, 30, region),  # game 3
    ], got


async def code_actions(client, uri, range_, diagnostics=(), only=None):
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=range_,
            context=types.CodeActionContext(diagnostics=list(diagnostics), only=only),
        )
    )


async def test_code_actions_titles_and_kinds(client: LanguageClient):
    text = corpus("corpora/check/repair.pgn")
    uri, diags = await open_doc(client, "repair.pgn", text)
    [d] = [d for d in diags if d.code == "illegal-move" and d.range.start == at(text, "Nb5")]
    actions = await code_actions(client, uri, d.range, [d])
    got = [(a.title, a.kind) for a in actions]
    assert got == [
        ("planilla fix: 'Nb5' → 'Bb5'", "quickfix"),
        ("Convert this game to Spanish (planilla convert)", "refactor.rewrite"),
        ("Convert this file to English (planilla convert)", "source.convert"),
        ("Convert this file to Spanish (planilla convert)", "source.convert"),
        ("Fix this file (planilla fix)", "source.fixAll"),
    ], got
    fix = actions[0]
    assert fix.is_preferred is True and list(fix.diagnostics) == [d]
    assert list(fix.edit.changes[uri]) == [types.TextEdit(range=d.range, new_text="Bb5")]
    assert actions[2].command.command == "planilla.convert"
    assert list(actions[2].command.arguments) == [uri, "en"]
    assert actions[4].command.command == "planilla.fix" and list(actions[4].command.arguments) == [uri]
    # `only` keeps the kinds asked for (and their sub-kinds).
    only = await code_actions(client, uri, d.range, [d], only=[types.CodeActionKind.QuickFix])
    assert [a.kind for a in only] == ["quickfix"]
    only = await code_actions(client, uri, d.range, [d], only=[types.CodeActionKind.Source])
    assert [a.kind for a in only] == ["source.convert", "source.convert", "source.fixAll"]
    # A diagnostic of another source gets no quick fix.
    other = types.Diagnostic(range=d.range, message="x", source="other", code="illegal-move")
    assert [a.kind for a in await code_actions(client, uri, d.range, [other], only=["quickfix"])] == []
    # A selection over two games: the conversion of both.
    r = types.Range(start=at(text, "[Event", 0), end=at(text, "[Event", 1))
    r.end.line += 1
    titles = [a.title for a in await code_actions(client, uri, r)]
    assert "Convert these 2 games to Spanish (planilla convert)" in titles


async def test_every_quick_fix_is_one_of_fixs_changes(client: LanguageClient, tmp_path):
    """Over the corpora, every diagnostic's quick fixes: each answers its diagnostic, and
    its edits are changes `fix --repair` makes (fixing the text with them applied gives
    what fixing the original gives, and they change something); the codes below get one."""
    codes = set()
    for rel in [
        "corpora/check/repair.pgn",
        "corpora/check/notation.pgn",
        "corpora/check/dgt-signal.pgn",
        "corpora/check/non-standard-result.pgn",
        "corpora/fix/moves.pgn",
        "corpora/fix/results.pgn",
        "corpora/fix/spanish.pgn",
    ]:
        text = corpus(rel)
        uri, diags = await open_doc(client, pathlib.Path(rel).name, text)
        fixed = run("fix", "--repair", "--no-config", text=text, tmp=tmp_path)
        for d in diags:
            actions = await code_actions(client, uri, d.range, [d], only=[types.CodeActionKind.QuickFix])
            for a in actions:
                assert a.kind == "quickfix" and list(a.diagnostics) == [d], (rel, a)
                edits = list(a.edit.changes[uri])
                after = apply(text, edits)
                assert after != text, (rel, a.title)
                assert run("fix", "--repair", "--no-config", text=after, tmp=tmp_path) == fixed, (rel, a.title)
                codes.add(d.code)
    assert codes >= {
        "illegal-move",
        "ambiguous-move",
        "redundant-disambiguation",
        "check-mark",
        "capture-mark",
        "non-standard-san",
        "non-standard-result",
        "result-mismatch",
        "dgt-result-signal",
    }, codes


async def execute(client: LanguageClient, command: str, arguments: list):
    before = len(client.applied)
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=arguments)
    )
    for _ in range(TIMEOUT * 100):
        if len(client.applied) > before:
            return client.applied[-1]
        await asyncio.sleep(0.01)
    raise AssertionError(f"no workspace/applyEdit after {command}")


async def test_commands_send_the_edits_of_convert_and_fix(client: LanguageClient, tmp_path):
    text = corpus("corpora/fix/spanish.pgn")
    uri, _ = await open_doc(client, "spanish.pgn", text)
    applied = await execute(client, "planilla.convert", [uri, "en"])
    assert applied.label == "planilla.convert"
    assert list(applied.edit.changes) == [uri]
    edits = applied.edit.changes[uri]
    english = run("convert", "--to", "en", text=text, tmp=tmp_path)
    assert english != text
    assert apply(text, edits) == english
    # Only the changed tokens: each edit's old text is one word.
    assert all(" " not in text_of(text, e.range).strip() for e in edits), edits
    # Games 2 to 2 only.
    applied = await execute(client, "planilla.convert", [uri, "en", 2, 2])
    game2 = (text.index('[Event "Spanish, mate'), text.index('[Event "Spanish, a disamb'))
    for e in applied.edit.changes[uri]:
        assert game2[0] <= offset(text, e.range.start) and offset(text, e.range.end) <= game2[1], e
    assert applied.edit.changes[uri]
    # planilla.fix: fix --repair's output.
    applied = await execute(client, "planilla.fix", [uri])
    assert apply(text, applied.edit.changes[uri]) == run("fix", "--repair", "--no-config", text=text, tmp=tmp_path)
    # Errors: an unknown command, an unknown language, a document not open.
    for command, args in [
        ("planilla.nope", [uri]),
        ("planilla.convert", [uri, "klingon"]),
        ("planilla.fix", [uri_of("not-open.pgn")]),
        ("planilla.fix", []),
    ]:
        with pytest.raises(Exception) as e:
            await client.workspace_execute_command_async(types.ExecuteCommandParams(command=command, arguments=args))
        assert "InvalidParams" in type(e.value).__name__ or "-32602" in str(e.value) or "Invalid" in str(e.value), e.value


async def test_formatting_is_fix(client: LanguageClient, tmp_path):
    for rel in ["corpora/fix/moves.pgn", "corpora/fix/results.pgn", "corpora/check/repair.pgn"]:
        text = corpus(rel)
        uri, _ = await open_doc(client, pathlib.Path(rel).name, text)
        edits = await client.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                options=types.FormattingOptions(tab_size=4, insert_spaces=True),
            )
        )
        fixed = run("fix", "--repair", "--no-config", text=text, tmp=tmp_path)
        assert fixed != text, rel
        assert apply(text, edits) == fixed, rel


# Robustness: the server answers, publishes, and stays alive --------------------------


async def alive(client: LanguageClient, uri: str):
    """The server still answers requests about the document."""
    symbols = await asyncio.wait_for(
        client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
        ),
        TIMEOUT,
    )
    assert symbols is not None


async def test_binary_junk(client: LanguageClient):
    rng = random.Random(39)
    junk = bytes(rng.randrange(256) for _ in range(200_000)).decode("latin-1")
    junk += "\x00\x01\ufffd\ud7ff\U0001f600" * 100
    uri, diags = await open_doc(client, "junk.pgn", junk)
    assert isinstance(diags, list)
    await alive(client, uri)
    await hover(client, uri, types.Position(line=3, character=5))
    # Edits inside the junk, some splitting a surrogate pair or past the end of a line.
    for version in range(2, 40):
        line = rng.randrange(junk.count("\n") + 2)
        start = types.Position(line=line, character=rng.randrange(300))
        end = types.Position(line=line + rng.randrange(2), character=rng.randrange(300))
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=start, end=end), text=rng.choice(["", "(", "{", "1. e4", "\n", "🙂"])
                    )
                ],
            )
        )
    await publish(client, uri, 39)
    await alive(client, uri)


async def test_a_document_cut_mid_comment(client: LanguageClient):
    text = '[Event "cut"]\n[Result "*"]\n\n1. e4 e5 {the tournament hall was'
    uri, diags = await open_doc(client, "cut.pgn", text)
    assert "syntax-error" in [d.code for d in diags], diags
    await alive(client, uri)


async def test_ten_thousand_nested_variations(client: LanguageClient):
    text = '[Event "deep"]\n[Result "*"]\n\n1. e4 ' + "(1. d4 " * 10_000 + "*\n"
    uri, diags = await open_doc(client, "deep.pgn", text)
    assert "syntax-error" in [d.code for d in diags], [d.code for d in diags]
    await alive(client, uri)
    # Closed again, one by one at the end: still answered.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text[:-2] + ")" * 10_000 + " *\n")],
        )
    )
    diags = await publish(client, uri, 2)
    # Deeper than the reader's limit (docs/cli.md, Limits): said, as check says it.
    assert [d.message for d in diags if d.code == "syntax-error"] == ["game 1: variations nested deeper than 256"]
    await alive(client, uri)
    await hover(client, uri, at(text, "d4"))


async def test_random_edits_end_as_a_fresh_open(client: LanguageClient):
    """After many random incremental edits, the diagnostics are those of the same text
    opened fresh (the games re-read and re-checked one by one agree with a whole read)."""
    rng = random.Random(7)
    text = corpus("corpora/check/repair.pgn") + corpus("corpora/check/syntax.pgn")
    uri, _ = await open_doc(client, "fuzz.pgn", text)
    pieces = ["", " ", "\n", "\n\n", "{", "}", "(", ")", "[Event \"x\"]\n", "1-0", "*", "Nf3", "e4", "Bb5", "½-½", "é", "🙂", "%"]
    version = 1
    for _ in range(300):
        a = rng.randrange(len(text) + 1)
        b = min(len(text), a + rng.choice([0, 0, 1, 2, 5, 40]))
        new = rng.choice(pieces)
        version += 1
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=position(text, a), end=position(text, b)), text=new
                    )
                ],
            )
        )
        text = text[:a] + new + text[b:]
    edited = await publish(client, uri, version)
    _, fresh = await open_doc(client, "fresh.pgn", text)
    key = lambda d: (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.code, d.message.replace("fresh.pgn", "fuzz.pgn"))  # noqa: E731
    assert sorted(map(key, edited)) == sorted(map(key, fresh))


async def test_shutdown_and_exit(bare_client: LanguageClient):
    """The shutdown answer, then exit, and the process ends with status 0."""
    await start(bare_client)
    uri, _ = await open_doc(bare_client, "a.pgn", "1. e4 *\n")
    assert await bare_client.shutdown_async(None) is None
    bare_client.exit(None)
    assert await asyncio.wait_for(bare_client._server.wait(), TIMEOUT) == 0
