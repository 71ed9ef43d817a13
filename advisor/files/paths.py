"""Where the data files are: inside the desktop bundle, the installed wheel, or beside the source
tree."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]  # advisor/


def _frozen_data() -> Path | None:
    """``<bundle>/advisor/_data`` in a PyInstaller program (desktop/gpu-advisor.spec puts the data
    there); ``sys._MEIPASS`` is the bundle's internal folder, wherever it was unpacked."""
    base = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and base:
        return Path(base) / "advisor" / "_data"
    return None


@cache
def data_root(name: str) -> Path:
    """``rules`` or ``resources``: ``advisor/_data/<name>`` in the desktop bundle or a wheel,
    ``<repo>/<name>`` in a checkout (editable install)."""
    frozen = _frozen_data()
    if frozen is not None and (frozen / name).is_dir():
        return frozen / name
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def rules_dir() -> Path:
    return data_root("rules")


def resources_dir() -> Path:
    return data_root("resources")
