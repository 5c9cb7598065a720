"""planilla: validate and convert chess game records (PGN) in any notation language.

The work is done by the Rust library crates of planilla (the extension module
``planilla._planilla``); this package only names what it offers. See docs/python.md.
"""

from ._planilla import (
    FindingBatches,
    Findings,
    Fixed,
    Games,
    Merged,
    Report,
    check,
    check_arrow,
    convert,
    fix,
    games,
    index,
    iter_check,
    merge,
)

__all__ = [
    "FindingBatches",
    "Findings",
    "Fixed",
    "Games",
    "Merged",
    "Report",
    "check",
    "check_arrow",
    "convert",
    "fix",
    "games",
    "index",
    "iter_check",
    "merge",
]
