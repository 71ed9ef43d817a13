"""Where the user's override file is (``catalog.yaml`` in the config folder), and whether it
is there now.

Apart from the readers of the file (``overrides``, ``user_gpus``, ``override_file``) on
purpose: every projection asks, and checking a profile or projecting it needs no price model
(``tests/cli/test_fast_start.py`` holds ``validate`` and ``project`` to that).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

import platformdirs

from advisor.files.logs import APP

OVERRIDE_FILE = "catalog.yaml"
# the state seen when a piece of work began (``one_override_state``); None: look each time
_held: ContextVar[tuple[str, tuple[int, int] | None] | None] = ContextVar(
    "override_state", default=None)


def user_config_dir() -> Path:
    return _config_dir(os.environ.get("GPU_ADVISOR_CONFIG_DIR"),
                       os.environ.get("XDG_CONFIG_HOME"), os.environ.get("HOME"))


@lru_cache(maxsize=8)
def _config_dir(override: str | None, *_where: str | None) -> Path:
    """Cached on the variables that decide it: platformdirs costs ~0.1 ms a call, and every
    projection looks for the user's catalog (a stat, not this lookup, notices a new file)."""
    return Path(override) if override else Path(platformdirs.user_config_dir(APP,
                                                                              appauthor=False))


def override_path() -> Path:
    return _override_path(user_config_dir())


@lru_cache(maxsize=8)
def _override_path(folder: Path) -> Path:
    """Cached: a setup comparison asks for it hundreds of times, and joining paths costs
    more than the stat that notices a changed file."""
    return folder / OVERRIDE_FILE


@lru_cache(maxsize=8)
def _override_file(folder: Path) -> str:
    return str(folder / OVERRIDE_FILE)


def override_state() -> tuple[str, tuple[int, int] | None]:
    """The user's override file and its (modification time, size), None when there is none.
    One stat per call, so an edited file is read again; the path is worked out once per
    config folder (pathlib costs more than the stat, and a projection asks several times).
    Inside ``one_override_state`` the state seen when it began."""
    held = _held.get()
    if held is not None:
        return held
    path = _override_file(user_config_dir())
    try:
        st = os.stat(path)
    except OSError:
        return path, None
    return path, (st.st_mtime_ns, st.st_size)


@contextmanager
def one_override_state() -> Iterator[None]:
    """Within this block (one comparison, one recommendation: this thread only) every question
    reads the override file as it was when the block began: one catalog for the whole piece of
    work, and one stat instead of one per projection (a comparison asks ~150 times)."""
    if _held.get() is not None:
        yield
        return
    token = _held.set(override_state())
    try:
        yield
    finally:
        _held.reset(token)
