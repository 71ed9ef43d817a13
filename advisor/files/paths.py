"""Where the data files are: inside the installed wheel, or beside the source tree."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]  # advisor/


@cache
def data_root(name: str) -> Path:
    """``rules`` or ``resources``: ``advisor/_data/<name>`` in a wheel, ``<repo>/<name>`` in a
    checkout (editable install)."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def rules_dir() -> Path:
    return data_root("rules")


def resources_dir() -> Path:
    return data_root("resources")
