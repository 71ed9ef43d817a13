"""Files the wizard keeps for the user: the recent-files list and the autosaved answers.

They live in the state folder (``GPU_ADVISOR_STATE_DIR``, else the platform's user state
folder) and are written atomically. Both are read through the same guards as the user's files
(``advisor.files.reading``: a regular file, capped; ``advisor.files.yaml_lines``: no aliases,
bounded nesting): an autosave is a file on disk like any other, and a damaged or hostile one
must not hang or crash every start. A broken autosave is moved aside, never overwritten.

Each running app keeps its own autosave (``autosave-<pid>.yaml``) beside a lock file that
QLockFile holds while it runs (a lock whose process is gone is stale, on every platform): two
copies never write over each other's answers, and at the next start the autosaves no running
copy holds are the ones to recover (``recoverable_autosaves``; an earlier version's
``autosave.yaml`` among them)."""

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
LEGACY_AUTOSAVE = "autosave.yaml"  # one for every running copy, before issue 33
_session_lock: Any = None  # this process's QLockFile, held while it runs


def autosave_path(pid: int | None = None) -> Path:
    """This running app's autosave (or process ``pid``'s)."""
    return state_dir() / f"autosave-{os.getpid() if pid is None else pid}.yaml"


def claim_session() -> None:
    """Hold this process's lock, so no other copy recovers its autosave while it runs."""
    global _session_lock
    if _session_lock is not None:
        return
    from PySide6.QtCore import QLockFile  # noqa: PLC0415 - only the window needs it

    try:
        _ensure_dir()
    except (InputError, OSError):
        return
    lock = QLockFile(str(autosave_path().with_suffix(".lock")))
    lock.setStaleLockTime(0)  # never stale while the process lives
    if lock.tryLock(0):
        _session_lock = lock


def _held_by_a_running_copy(path: Path) -> bool:
    from PySide6.QtCore import QLockFile  # noqa: PLC0415

    lock = QLockFile(str(path.with_suffix(".lock")))
    lock.setStaleLockTime(0)
    if lock.tryLock(0):  # nobody holds it: its process is gone
        lock.unlock()
        return False
    return lock.error() == QLockFile.LockError.LockFailedError


def recoverable_autosaves() -> list[Path]:
    """Autosaves of copies that no longer run, newest first (this copy's own excluded)."""
    folder = state_dir()
    try:
        found = [p for p in folder.glob("autosave*.yaml")
                 if p.name == LEGACY_AUTOSAVE or (p.stem.startswith("autosave-")
                                                  and p.stem[9:].isdigit())]
    except OSError:
        return []
    own = autosave_path()
    out = [p for p in found if p != own and (p.name == LEGACY_AUTOSAVE
                                              or not _held_by_a_running_copy(p))]

    def newest(p: Path) -> float:
        try:
            return -p.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(out, key=newest)


def retire_autosave(path: Path) -> None:
    """An autosave recovered into this copy (its answers live on in this copy's own)."""
    for stale in (path, path.with_suffix(".lock")):
        try:
            stale.unlink()
        except OSError:
            pass


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


def read_autosave(path: Path | None = None) -> Autosave | None:
    """A session's answers (this copy's by default); None when there are none. The file is
    read through the user files' guards; a damaged one is moved aside
    (``autosave.broken-<time>.yaml``) and reported with :class:`BrokenAutosave`."""
    path = path or autosave_path()
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
