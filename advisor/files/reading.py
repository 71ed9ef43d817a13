"""Reading a user's file: the one guard every file the program opens goes through.

Only a regular file is read (a link is followed to one), and never more than a cap: a FIFO
would block the reader forever, ``/dev/zero`` or ``/dev/urandom`` would fill the memory, and a
device reports size 0 so a size check alone trusts it. The file is opened without blocking,
checked with ``fstat`` on the open descriptor (no race between the check and the read), and
read up to the cap plus one byte. ``-`` is standard input, read with the same cap.

Text is UTF-8 (a BOM allowed) or UTF-16 with its BOM, as Windows editors and PowerShell's ``>``
write it; anything else is named plainly (binary data, not UTF-8 at byte N), never a traceback.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from advisor.files.errors import InputError
from advisor.files.os_errors import os_reason

MAX_TEXT_BYTES = 1_000_000
STDIN = "-"
_CHUNK = 1 << 16

_KINDS = (
    (stat.S_ISDIR, "is a folder, not a file", "这是文件夹，不是文件"),
    (stat.S_ISFIFO, "is a pipe (FIFO), not a regular file", "这是管道（FIFO），不是普通文件"),
    (stat.S_ISCHR, "is a device, not a regular file", "这是设备，不是普通文件"),
    (stat.S_ISBLK, "is a device, not a regular file", "这是设备，不是普通文件"),
    (stat.S_ISSOCK, "is a socket, not a regular file", "这是套接字，不是普通文件"),
)


def not_regular(mode: int) -> tuple[str, str] | None:
    """Why a file of ``mode`` is not one to read or replace (None for a regular file)."""
    for test, en, zh in _KINDS:
        if test(mode):
            return en, zh
    return None if stat.S_ISREG(mode) else ("is not a regular file", "不是普通文件")


def _too_large(max_bytes: int, source: str) -> InputError:
    return InputError.single(f"file is too large (more than {max_bytes:,} bytes)",
                             f"文件过大（超过 {max_bytes:,} 字节）", source=source)


def _read_capped(fd: int, max_bytes: int, source: str) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > max_bytes:
            raise _too_large(max_bytes, source)


def read_file_bytes(path: str | Path, *, max_bytes: int = MAX_TEXT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (``-``: standard input), or an
    InputError that says plainly why it cannot be read."""
    source = str(path)
    if source == STDIN:
        return read_stdin_bytes(max_bytes=max_bytes)
    if not source:
        raise InputError.single("no file name given", "没有给出文件名", source="''")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) \
        | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(source, flags)
    except OSError as exc:
        raise _cannot_read(exc, source) from None
    try:
        info = os.fstat(fd)
        wrong = not_regular(info.st_mode)
        if wrong is not None:
            raise InputError.single(*wrong, source=source)
        if info.st_size > max_bytes:  # a regular file's size is true: refuse before reading
            raise _too_large(max_bytes, source)
        return _read_capped(fd, max_bytes, source)
    except OSError as exc:
        raise _cannot_read(exc, source) from None
    finally:
        os.close(fd)


def read_stdin_bytes(*, max_bytes: int = MAX_TEXT_BYTES) -> bytes:
    """Standard input, at most ``max_bytes`` (an endless pipe is cut off with an error)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream (tests, an embedding application)
        text = sys.stdin.read(max_bytes + 1) if sys.stdin is not None else ""
        data = text.encode("utf-8", errors="surrogatepass")
    else:
        data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise _too_large(max_bytes, "<stdin>")
    return data


def _cannot_read(exc: OSError, source: str) -> InputError:
    if isinstance(exc, FileNotFoundError):
        return InputError.single("file not found", "找不到文件", source=source)
    why = os_reason(exc)
    return InputError.single(f"cannot read: {why.en}", f"无法读取：{why.zh}", source=source)


def _utf16(raw: bytes) -> str | None:
    """The encoding of UTF-16 text: by its BOM, or by the zero bytes of ASCII text without
    one (every other byte zero in the first characters)."""
    if raw[:2] == b"\xff\xfe":
        return "utf-16"
    if raw[:2] == b"\xfe\xff":
        return "utf-16"
    head = raw[:64]
    if len(head) >= 4 and len(head) % 2 == 0:
        odd, even = head[1::2], head[0::2]
        if odd.count(0) == len(odd) and even.count(0) == 0:
            return "utf-16-le"
        if even.count(0) == len(even) and odd.count(0) == 0:
            return "utf-16-be"
    return None


def decode_text(raw: bytes, source: str, *, lenient: bool = False) -> str:
    """``raw`` as text: UTF-8 (BOM allowed) or UTF-16. ``lenient`` (pasted tool output, where
    a damaged byte must not lose the rest) replaces what does not decode; otherwise binary
    data and invalid UTF-8 are refused with where they are."""
    encoding = _utf16(raw)
    if encoding is not None:
        try:
            text = raw.decode(encoding, errors="replace" if lenient else "strict")
        except UnicodeDecodeError as exc:
            raise InputError.single(f"not valid UTF-16 text (byte {exc.start})",
                                    f"不是有效的 UTF-16 文本（第 {exc.start} 字节）",
                                    source=source) from None
        text = text.removeprefix("\ufeff")
    elif lenient:
        return raw.decode("utf-8-sig", errors="replace").replace("\x00", "")
    else:
        if b"\x00" in raw:
            raise InputError.single("not a text file (binary data)", "不是文本文件（二进制数据）",
                                    source=source)
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            raise InputError.single(
                f"not UTF-8 text (byte {exc.start}): save the file as UTF-8 (it may be GBK or "
                "Latin-1)", f"不是 UTF-8 文本（第 {exc.start} 字节）：请把文件另存为 UTF-8"
                "（它可能是 GBK 或 Latin-1 编码）", line=line, source=source) from None
    if "\x00" in text:
        if lenient:
            return text.replace("\x00", "")
        raise InputError.single("not a text file (binary data)", "不是文本文件（二进制数据）",
                                source=source)
    return text


def read_text_file(path: str | Path, *, max_bytes: int = MAX_TEXT_BYTES,
                   lenient: bool = False) -> str:
    """The file's text (``-``: standard input), or an InputError that says plainly why it
    cannot be read."""
    source = "<stdin>" if str(path) == STDIN else str(path)
    return decode_text(read_file_bytes(path, max_bytes=max_bytes), source, lenient=lenient)
