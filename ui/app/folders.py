"""The folder a file dialog opens in (issue 34: "last folder" reset at every start): the one a
file was last opened from or saved to, in this session or, through ``ui.window.session``, the
last one. Empty until a file has been chosen (Qt then opens its own default)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

_last: str = ""


def last_folder() -> str:
    return _last


def start_at(name: str = "") -> str:
    """Where a dialog starts: ``name`` (a file name offered) in the last folder, unless it
    names a folder of its own."""
    if not name:
        return _last
    if not _last or Path(name).parent != Path("."):
        return name
    return str(Path(_last) / name)


def remember(chosen: str | Path | Iterable[str | Path] | None) -> None:
    """The folder of the file (or the first of the files) just chosen becomes the last."""
    global _last
    if chosen is None or chosen == "":
        return
    first = chosen if isinstance(chosen, str | Path) else next(iter(chosen), None)
    if not first:
        return
    folder = Path(first).expanduser().absolute().parent
    if folder.is_dir():
        _last = str(folder)


def set_last_folder(folder: str | None) -> None:
    """The last folder as remembered from an earlier session (ignored unless a folder)."""
    global _last
    _last = str(folder) if folder and Path(str(folder)).is_dir() else ""


__all__ = ["last_folder", "remember", "set_last_folder", "start_at"]
