"""Which file a document was read from, to tell at Save whether it changed since: its device,
inode, size, modification time, whether the name is a link, and a hash of its bytes (a
colleague's edit, a ``git pull``, a file replaced by a link all change it)."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

MAX_HASHED = 64 * 1024 * 1024  # a profile is small; a huge file is told apart by its stat


@dataclass(frozen=True)
class FileIdentity:
    device: int
    inode: int
    size: int
    mtime_ns: int
    is_link: bool
    digest: str


def identity_of(path: str | Path) -> FileIdentity | None:
    """The file's identity now; None when nothing is there (or it cannot be read)."""
    try:
        link = os.lstat(path)
        info = os.stat(path)
    except OSError:
        return None
    digest = ""
    if stat.S_ISREG(info.st_mode) and info.st_size <= MAX_HASHED:
        try:
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError:
            return None
    return FileIdentity(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns,
                        stat.S_ISLNK(link.st_mode), digest)


def changed_since(path: str | Path, seen: FileIdentity | None) -> bool:
    """Whether ``path`` is no longer the file seen (edited, replaced by other bytes, removed,
    now a link). Bytes decide where both were hashed: a file rewritten with the same bytes
    (an editor's save by rename, a ``touch``) is the same document."""
    now = identity_of(path)
    if seen is None or now is None:
        return seen != now
    if now.is_link != seen.is_link:
        return True
    if now.digest and seen.digest:
        return now.digest != seen.digest
    return (now.device, now.inode, now.size, now.mtime_ns) != \
        (seen.device, seen.inode, seen.size, seen.mtime_ns)
