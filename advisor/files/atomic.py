"""Atomic file writes: a temporary file in the same folder, fsync, then rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from advisor.files.errors import InputError
from advisor.files.os_errors import os_reason


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one step; on failure the old file is untouched and no
    temporary file is left behind. An unwritable place raises InputError naming the path."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        why = os_reason(exc)  # errno in both languages (strerror is English only)
        raise InputError.single(f"cannot write here: {why.en}",
                                f"无法写入此位置：{why.zh}", source=str(path)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:  # keep an existing file's mode; a new file follows the user's umask
            os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask())
        except OSError:
            pass
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        why = os_reason(exc)
        raise InputError.single(f"cannot write: {why.en}", f"无法写入：{why.zh}",
                                source=str(path)) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))
