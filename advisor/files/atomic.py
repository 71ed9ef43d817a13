"""Atomic file writes: a temporary file in the same folder, fsync, then rename.

What is replaced is checked first (``check_target``), so a write never destroys what it
should not: a device node, a FIFO or a socket is refused (``--pdf /dev/null`` run as root
would otherwise replace the system's), a link is followed to the regular file it names (the
link stays), a read-only file is refused unless the caller asked to replace it anyway (the
GUI asks the user), and an empty name is an error, not a silent no-op.

A write killed between the temporary file and the rename (a kill during ``fsync``) leaves a
hidden ``.<name>.<pid>.<random>.tmp``; the next write to the same name removes such leftovers
whose process is gone.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from pathlib import Path

from advisor.files.errors import InputError
from advisor.files.os_errors import os_reason
from advisor.files.reading import not_regular

_NAME_CHARS = 40  # of the file's name in its temporary's: a 255-byte name must still fit
STALE_S = 3600.0  # a temporary this old is a leftover even if its process id is reused
_LEGACY_STALE_S = 60.0  # temporaries without a process id (written by earlier versions)


class ReadOnlyTarget(InputError):
    """The file to replace is read-only: replaced only when the caller says so."""


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def _os_error(exc: OSError, source: str, en: str = "cannot write", zh: str = "无法写入"
              ) -> InputError:
    why = os_reason(exc)  # errno in both languages (strerror is English only)
    return InputError.single(f"{en}: {why.en}", f"{zh}：{why.zh}", source=source)


def _read_only(path: Path, info: os.stat_result) -> bool:
    """A file its owner made read-only (0444): root may write it, but should not silently."""
    if hasattr(os, "geteuid") and info.st_uid == os.geteuid():
        return not info.st_mode & stat.S_IWUSR
    return not os.access(path, os.W_OK)


def check_target(path: str | Path, *, replace_read_only: bool = False) -> Path:
    """The regular file (or the new name) a write to ``path`` replaces, a link followed; an
    InputError naming the path when it is no name, not a regular file, a link to nothing, in
    a missing folder, or read-only (``ReadOnlyTarget``, unless ``replace_read_only``)."""
    source = str(path)
    if not source.strip():
        raise InputError.single("no file name given", "没有给出文件名", source="''")
    target = Path(path)
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _os_error(exc, source) from None
    if info is not None and stat.S_ISLNK(info.st_mode):
        try:
            info = os.stat(target)
        except FileNotFoundError:
            raise InputError.single("is a link to a file that does not exist: not replaced",
                                    "是指向不存在文件的链接：未覆盖", source=source) from None
        except OSError as exc:
            raise _os_error(exc, source) from None
        target = Path(os.path.realpath(target))
    if info is not None:
        wrong = not_regular(info.st_mode)
        if wrong is not None:
            raise InputError.single(f"{wrong[0]}: not replaced", f"{wrong[1]}：未覆盖",
                                    source=source)
        if not replace_read_only and _read_only(target, info):
            raise ReadOnlyTarget.single(
                "is read-only: not replaced (make it writable, or choose another name)",
                "是只读文件：未覆盖（请先改为可写，或换一个文件名）", source=source)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError.single(f"cannot write: the folder {folder} does not exist",
                                f"无法写入：文件夹 {folder} 不存在", source=source)
    return target


def _temp_prefix(name: str) -> str:
    return f".{name[:_NAME_CHARS]}.{os.getpid()}."


def _alive(pid: int) -> bool:
    if os.name == "nt":  # os.kill would end the process there: trust the age alone
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def remove_stale_temporaries(target: Path) -> int:
    """Remove temporaries of earlier writes to ``target`` left by a killed process; the
    number removed. Another process's temporary in flight is left alone."""
    folder = target.parent if str(target.parent) else Path(".")
    short = re.escape(target.name[:_NAME_CHARS])
    ours = re.compile(rf"^\.{short}\.(\d+)\.[A-Za-z0-9_]{{8}}\.tmp$")
    legacy = re.compile(rf"^\.{re.escape(target.name)}\.[A-Za-z0-9_]{{8}}\.tmp$")
    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.startswith("."):
            continue
        match = ours.match(entry.name)
        if match is None and not legacy.match(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        age = now - info.st_mtime
        stale = (age > STALE_S or not _alive(int(match.group(1)))) if match else \
            age > _LEGACY_STALE_S
        if stale:
            try:
                os.unlink(entry.path)
                removed += 1
            except OSError:
                pass
    return removed


def atomic_write_bytes(path: str | Path, data: bytes, *, replace_read_only: bool = False
                       ) -> Path:
    """Replace ``path`` with ``data`` in one step and return the file written (a link's
    target); on failure the old file is untouched and no temporary file is left behind. An
    unwritable place or a target that must not be replaced raises InputError naming the path."""
    source = str(path)
    target = check_target(path, replace_read_only=replace_read_only)
    folder = target.parent if str(target.parent) else Path(".")
    remove_stale_temporaries(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(target.name), suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _os_error(exc, source, "cannot write here", "无法写入此位置") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:  # keep an existing file's mode; a new file follows the user's umask
            os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists()
                     else 0o666 & ~_umask())
        except OSError:
            pass
        os.replace(tmp, target)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise _os_error(exc, source) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target


def atomic_write_text(path: str | Path, text: str, *, replace_read_only: bool = False
                      ) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"), replace_read_only=replace_read_only)
