"""Reading a user's text file: plain reasons when it cannot be read (missing, a folder, too
large, binary, not UTF-8), never a traceback."""

from __future__ import annotations

from pathlib import Path

from advisor.files.errors import InputError

MAX_TEXT_BYTES = 1_000_000


def read_text_file(path: Path, *, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The file's text, or an InputError that says plainly why it cannot be read."""
    source = str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise InputError.single("file not found", "找不到文件", source=source) from None
    except OSError as exc:
        raise InputError.single(f"cannot read: {exc.strerror}", f"无法读取：{exc.strerror}",
                                source=source) from None
    if path.is_dir():
        raise InputError.single("is a folder, not a file", "这是文件夹，不是文件", source=source)
    if size > max_bytes:
        raise InputError.single(f"file is too large ({size} bytes; at most {max_bytes})",
                                f"文件过大（{size} 字节；上限 {max_bytes}）", source=source)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError.single(f"cannot read: {exc.strerror}", f"无法读取：{exc.strerror}",
                                source=source) from None
    if b"\x00" in raw:
        raise InputError.single("not a text file (binary data)", "不是文本文件（二进制数据）",
                                source=source)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError.single(f"not UTF-8 text (byte {exc.start})",
                                f"不是 UTF-8 文本（第 {exc.start} 字节）", source=source) from None
