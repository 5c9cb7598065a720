"""planilla: validate and convert chess game records (PGN) in any notation language.

The work is done by the Rust library crates of planilla (the extension module
``planilla._planilla``); this package only names what it offers. See docs/python.md.
"""

from ._planilla import Fixed, Games, Report, check, convert, fix, games

__all__ = ["Fixed", "Games", "Report", "check", "convert", "fix", "games"]
