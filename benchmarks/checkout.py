"""The files of a commit in a folder (``git archive``, tracked files only): the "before" side
of the before/after benchmarks, each importing its own ``advisor``."""

from __future__ import annotations

import subprocess
import tarfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def checkout(rev: str, into: Path) -> Path:
    """The files of commit ``rev`` in ``into``."""
    blob = subprocess.run(["git", "archive", "--format=tar", rev], cwd=ROOT, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")
    return into
