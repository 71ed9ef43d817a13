"""Where the user's override file is (``catalog.yaml`` in the config folder), and whether it
is there now.

Apart from the readers of the file (``overrides``, ``user_gpus``, ``override_file``) on
purpose: every projection asks, and checking a profile or projecting it needs no price model
(``tests/cli/test_fast_start.py`` holds ``validate`` and ``project`` to that).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import platformdirs

from advisor.files.logs import APP

OVERRIDE_FILE = "catalog.yaml"


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
    config folder (pathlib costs more than the stat, and a projection asks several times)."""
    path = _override_file(user_config_dir())
    try:
        st = os.stat(path)
    except OSError:
        return path, None
    return path, (st.st_mtime_ns, st.st_size)
