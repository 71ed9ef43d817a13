"""Files the wizard keeps for the user: the recent-files list and the autosaved answers.

They live in the state folder (``GPU_ADVISOR_STATE_DIR``, else the platform's user state
folder) and are written atomically; a broken autosave is kept aside, never overwritten."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import platformdirs
import yaml

from advisor.files.atomic import atomic_write_text
from advisor.files.logs import APP

MAX_RECENT = 8


def state_dir() -> Path:
    override = os.environ.get("GPU_ADVISOR_STATE_DIR")
    return Path(override) if override else Path(platformdirs.user_state_dir(APP, appauthor=False))


def _ensure_dir() -> Path:
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# -- recent files ------------------------------------------------------------------------------
def recent_path() -> Path:
    return state_dir() / "recent.json"


def recent_files() -> list[str]:
    """Recent profiles, newest first; a damaged list reads as empty."""
    try:
        data = json.loads(recent_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, list):
        return []
    return [str(p) for p in data if isinstance(p, str)][:MAX_RECENT]


def add_recent(path: str | Path) -> list[str]:
    resolved = str(Path(path).resolve())
    files = [resolved] + [p for p in recent_files() if p != resolved]
    files = files[:MAX_RECENT]
    _ensure_dir()
    atomic_write_text(recent_path(), json.dumps(files, ensure_ascii=False, indent=1) + "\n")
    return files


def forget_recent(path: str) -> list[str]:
    files = [p for p in recent_files() if p != path]
    _ensure_dir()
    atomic_write_text(recent_path(), json.dumps(files, ensure_ascii=False, indent=1) + "\n")
    return files


# -- autosave ----------------------------------------------------------------------------------
def autosave_path() -> Path:
    return state_dir() / "autosave.yaml"


def write_autosave(answers: dict[str, Any], source: str | None) -> Path:
    """The answers as they are (valid or not) and the file they came from."""
    _ensure_dir()
    payload = {"autosave_version": 1, "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
               "source": source, "answers": answers}
    path = autosave_path()
    atomic_write_text(path, yaml.safe_dump(payload, sort_keys=False, allow_unicode=True))
    return path


class BrokenAutosave(Exception):
    """The autosave could not be read; ``kept_as`` is where the damaged file was moved."""

    def __init__(self, reason: str, kept_as: Path) -> None:
        super().__init__(reason)
        self.reason = reason
        self.kept_as = kept_as


def read_autosave() -> tuple[dict[str, Any], str | None] | None:
    """(answers, source file) of the last session; None when there is none. A damaged file is
    moved aside (``autosave.broken-<time>.yaml``) and reported with :class:`BrokenAutosave`."""
    path = autosave_path()
    if not path.exists():
        return None
    try:
        payload = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(payload, dict) or not isinstance(payload.get("answers"), dict):
            raise ValueError("not an autosave of answers")
        source = payload.get("source")
        return payload["answers"], source if isinstance(source, str) else None
    except (OSError, ValueError, yaml.YAMLError, UnicodeDecodeError) as exc:
        kept = path.with_name(f"autosave.broken-{time.strftime('%Y%m%d-%H%M%S')}.yaml")
        try:
            os.replace(path, kept)
        except OSError:
            kept = path
        raise BrokenAutosave(str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                             kept) from None
