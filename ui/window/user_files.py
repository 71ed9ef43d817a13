"""Files the wizard keeps for the user: the recent-files list and the autosaved answers.

They live in the state folder (``GPU_ADVISOR_STATE_DIR``, else the platform's user state
folder) and are written atomically. Both are read through the same guards as the user's files
(``advisor.files.reading``: a regular file, capped; ``advisor.files.yaml_lines``: no aliases,
bounded nesting): an autosave is a file on disk like any other, and a damaged or hostile one
must not hang or crash every start. A broken autosave is moved aside, never overwritten."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import platformdirs

from advisor.files.atomic import atomic_write_text
from advisor.files.errors import InputError
from advisor.files.json_text import load_json_text
from advisor.files.logs import APP
from advisor.files.reading import read_text_file
from advisor.files.yaml_lines import dump_yaml, load_yaml_text

MAX_RECENT = 8
MAX_STATE_BYTES = 1_000_000  # the answers of one profile are a few kilobytes


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
    path = recent_path()
    if not path.exists():
        return []
    try:
        data = load_json_text(read_text_file(path, max_bytes=MAX_STATE_BYTES), source=str(path))
    except InputError:
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


def write_autosave(answers: dict[str, Any], source: str | None, *,
                   source_broken: bool = False) -> Path:
    """The answers as they are (valid or not), the file they came from, and whether that file
    had problems (a restored session must not let Save overwrite it)."""
    _ensure_dir()
    payload = {"autosave_version": 1, "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
               "source": source, "source_broken": source_broken, "answers": answers}
    path = autosave_path()
    atomic_write_text(path, dump_yaml(payload))
    return path


class BrokenAutosave(Exception):
    """The autosave could not be read (``error`` says why); ``kept_as`` is where the damaged
    file was moved."""

    def __init__(self, error: InputError, kept_as: Path) -> None:
        super().__init__(error.render("en"))
        self.error = error
        self.kept_as = kept_as

    def reason(self, lang: str = "en") -> str:
        first = self.error.problems[0] if self.error.problems else None
        return first.render(lang) if first else "unreadable"


class Autosave:
    """The last session: its answers, the file they came from, and whether it was broken."""

    def __init__(self, answers: dict[str, Any], source: str | None, source_broken: bool) -> None:
        self.answers, self.source, self.source_broken = answers, source, source_broken

    def __iter__(self):  # (answers, source), as callers unpacked it before
        return iter((self.answers, self.source))


def read_autosave() -> Autosave | None:
    """The last session's answers; None when there is none. The file is read through the user
    files' guards; a damaged one is moved aside (``autosave.broken-<time>.yaml``) and reported
    with :class:`BrokenAutosave`."""
    path = autosave_path()
    if not os.path.lexists(path):
        return None
    try:
        payload, _ = load_yaml_text(read_text_file(path, max_bytes=MAX_STATE_BYTES),
                                    source=str(path))
        if not isinstance(payload, dict) or not isinstance(payload.get("answers"), dict):
            raise InputError.single("not an autosave of answers", "不是自动保存的答案")
    except InputError as exc:
        kept = path.with_name(f"autosave.broken-{time.strftime('%Y%m%d-%H%M%S')}.yaml")
        try:
            os.replace(path, kept)
        except OSError:
            kept = path
        raise BrokenAutosave(exc, kept) from None
    source = payload.get("source")
    return Autosave(payload["answers"], source if isinstance(source, str) else None,
                    payload.get("source_broken") is True)
