"""Type stubs of the planilla package (its functions are written in Rust)."""

import os
from typing import Any, BinaryIO, Iterator, List, Optional, Sequence, Tuple, TypedDict, Union

Source = Union[bytes, str, "os.PathLike[str]", BinaryIO, Sequence[Union[str, "os.PathLike[str]"]]]
"""PGN text (``bytes`` or ``str``), a path (``os.PathLike``), a binary file object (with
``read``; with ``read_at`` or ``seek`` it can be read by ``range=``), or a list of paths."""

class Finding(TypedDict):
    """A finding, with the fields of a ``planilla check --format jsonl`` line."""

    type: str
    file: str
    game: Optional[int]  # None for a finding about a file (a TRF's own)
    ply: Optional[int]
    line: int
    column: int
    severity: str
    code: str
    move: Optional[str]
    message: str
    fen: Optional[str]
    variation: List[int]

class Summary(TypedDict):
    """The totals, with the fields of the summary line."""

    type: str
    files: int
    games: int
    plies: int
    errors: int
    warnings: int
    notes: int

class Change(TypedDict):
    """A change ``fix`` made, with the fields of a ``planilla fix --format jsonl`` line."""

    type: str
    file: str
    game: Optional[int]  # None for a finding about a file (a TRF's own)
    ply: Optional[int]
    code: str
    before: str
    after: str

class CanMate(TypedDict):
    """Whether each side can still mate from a game's final position."""

    white: bool
    black: bool

class GameRecord(TypedDict):
    """One game as ``games`` yields it."""

    file: str
    game: int
    tags: dict[str, str]
    fen: Optional[str]
    san: List[str]
    uci: List[str]
    legal: bool
    final_fen: Optional[str]
    dead: Optional[bool]
    can_mate: Optional[CanMate]
    findings: List[Finding]

class _MergeLine(TypedDict):
    type: str
    action: str
    code: str
    severity: str
    file: str
    game: int
    kept_file: Optional[str]
    kept_game: Optional[int]
    ply: Optional[int]
    message: str

class MergeLine(_MergeLine, total=False):
    """A line of ``merge``'s report, with the fields of a ``planilla merge --format
    jsonl`` line of type ``"merge"``: ``group_file`` and ``group_game`` only for a game
    set apart, ``tag`` and ``tag_line`` only for a tag taken."""

    group_file: str
    group_game: int
    tag: str
    tag_line: str

class MergeSummary(TypedDict):
    """A merge's counts, with the fields of its summary line: ``games`` = ``written`` +
    ``dropped`` + ``set_apart``."""

    type: str
    files: int
    games: int
    written: int
    dropped: int
    set_apart: int
    tags_taken: int
    warnings: int

class Report:
    """What ``check`` found."""

    @property
    def findings(self) -> List[Finding]: ...
    @property
    def summary(self) -> Summary: ...

class Fixed:
    """What ``fix`` made of the text."""

    @property
    def text(self) -> str: ...
    @property
    def changes(self) -> List[Change]: ...
    @property
    def findings(self) -> List[Finding]: ...
    @property
    def rejected(self) -> List[bytes]: ...

class Merged:
    """What ``merge`` made of its sources."""

    @property
    def text(self) -> Union[str, bytes, None]:
        """The merged games: ``str`` in UTF-8, ``bytes`` in another ``output_encoding``,
        ``None`` when they were written to ``output``."""
    @property
    def conflicts(self) -> Optional[bytes]:
        """The copies set apart, as read, under ``conflicts=True``."""
    @property
    def dropped(self) -> Optional[bytes]:
        """The copies dropped, as read, under ``dropped=True``."""
    @property
    def report(self) -> List[MergeLine]: ...
    @property
    def findings(self) -> List[Finding]: ...
    @property
    def summary(self) -> MergeSummary: ...

class Findings(Iterator[Finding]):
    """The findings of ``iter_check``, checked as they are asked for."""

    def __iter__(self) -> "Findings": ...
    def __next__(self) -> Finding: ...
    @property
    def summary(self) -> Optional[Summary]: ...

class FindingBatches(Iterator[Any]):
    """The findings of ``check_arrow``: ``pyarrow.RecordBatch``es, checked as they are
    asked for."""

    def __iter__(self) -> "FindingBatches": ...
    def __next__(self) -> Any: ...
    @property
    def schema(self) -> Any:
        """The batches' ``pyarrow.Schema``: the fields of a ``Finding``."""
    @property
    def summary(self) -> Optional[Summary]: ...

class Games(Iterator[GameRecord]):
    """The games of a source, read as they are needed."""

    def __iter__(self) -> "Games": ...
    def __next__(self) -> GameRecord: ...

def check(
    source: Source,
    *,
    rules: str = "by-date",
    lang: str = "auto",
    encoding: str = "auto",
    select: Optional[Sequence[str]] = None,
    ignore: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    archive: bool = False,
    range: Optional[Tuple[int, int]] = None,
    index: Optional[str] = None,
    trf: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> Report:
    """Checks the games of ``source``; the findings in input order and the totals
    (``trf``: a tournament report's path, as ``--trf``)."""

def iter_check(
    source: Source,
    *,
    rules: str = "by-date",
    lang: str = "auto",
    encoding: str = "auto",
    select: Optional[Sequence[str]] = None,
    ignore: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    archive: bool = False,
    range: Optional[Tuple[int, int]] = None,
    index: Optional[str] = None,
    trf: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> Findings:
    """``check``'s findings one at a time, a batch of games checked ahead; then ``summary``."""

def check_arrow(
    source: Source,
    *,
    rules: str = "by-date",
    lang: str = "auto",
    encoding: str = "auto",
    select: Optional[Sequence[str]] = None,
    ignore: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    archive: bool = False,
    range: Optional[Tuple[int, int]] = None,
    index: Optional[str] = None,
    trf: Optional[Union[str, "os.PathLike[str]"]] = None,
    batch_size: int = 65536,
) -> FindingBatches:
    """``check``'s findings as ``pyarrow.RecordBatch``es of at most about ``batch_size``
    rows, built columnar; then ``summary``. Needs ``pyarrow``."""

def convert(
    pgn: Union[bytes, str, "os.PathLike[str]", BinaryIO],
    *,
    to: str = "en",
    from_: str = "auto",
    notation: str = "auto",
    rules: str = "by-date",
    encoding: str = "auto",
) -> str:
    """The PGN text with every move that replays written as ``to`` says: the canonical
    SAN of a language (``en``, ``es``, …), long algebraic (``lan``, ``lan-es``, …) or ICCF
    numeric (``iccf``). ``notation`` is the moves' notation (``auto``, ``san``, ``lan``,
    ``iccf``, ``descriptive``)."""

def fix(
    pgn: Union[bytes, str, "os.PathLike[str]", BinaryIO],
    *,
    repair: bool = False,
    to: Optional[str] = None,
    from_: str = "auto",
    notation: str = "auto",
    rules: str = "by-date",
    encoding: str = "auto",
) -> Fixed:
    """The PGN text with what the record shows to be wrong rewritten, as ``planilla fix``."""

MergeSource = Union[bytes, str, "os.PathLike[str]", BinaryIO]
"""One source of ``merge``: PGN text, a path or a binary file object (in a list, a
``str`` is a path)."""

Destination = Union[str, "os.PathLike[str]"]

def merge(
    sources: Union[MergeSource, Sequence[MergeSource]],
    *,
    output: Optional[Destination] = None,
    conflicts: Union[Destination, bool, None] = None,
    dropped: Union[Destination, bool, None] = None,
    tags: str = "keep",
    sort: str = "input",
    output_encoding: str = "utf-8",
    rules: str = "by-date",
    lang: str = "auto",
    encoding: str = "auto",
    threads: Optional[int] = None,
) -> Merged:
    """The games of ``sources``, each once, as ``planilla merge``: the kept copies in
    ``Merged.text`` or ``output``, the report, the archive findings and the counts."""

def games(
    source: Source,
    *,
    rules: str = "by-date",
    lang: str = "auto",
    encoding: str = "auto",
    range: Optional[Tuple[int, int]] = None,
    index: Optional[str] = None,
) -> Games:
    """The games of ``source`` one at a time: tags, main line (SAN, UCI), findings."""

def index(path: Union[str, "os.PathLike[str]", BinaryIO], *, encoding: str = "auto") -> str:
    """The text of ``planilla index PATH``: where games start, for ``range=`` with ``index=``.
    ``path`` may be a binary file object with ``read_at`` or ``seek``."""
