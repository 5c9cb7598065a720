"""What the tests share: the repository's root, the corpora, and the planilla binary
whose output the Python results must equal (PLANILLA_BIN, else target/debug/planilla)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CHECK_CORPUS = sorted((ROOT / "corpora" / "check").glob("*.pgn"))
# The real files nobody here wrote, read in place (CI has shared/ beside the clone).
REAL_CORPUS = sorted((ROOT.parent / "shared" / "corpora" / "real").glob("*.pgn"))


def binary() -> str:
    return os.environ.get("PLANILLA_BIN", str(ROOT / "target" / "debug" / "planilla"))


def run(args, stdin=None):
    """Runs the binary from the root (so that paths read as the tests give them) and
    returns its completed process."""
    return subprocess.run(
        [binary(), *args], cwd=ROOT, input=stdin, capture_output=True, check=False
    )


def jsonl(stdout: bytes):
    """The records of JSON Lines output."""
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    """Every test runs from the root, as the binary does, so relative paths agree."""
    monkeypatch.chdir(ROOT)
