"""The user's override file (``catalog.yaml``) read once, bounded, and the warnings it gives.

Both readers of the file (price sections: ``overrides``; GPU specs: ``user_gpus``) take it
from here: it is read through the file guard (a regular file of at most 1 MB) and parsed once
per version of the file, not once per reader. A file is bounded in what it costs every
command: at most ``MAX_ENTRIES`` entries per section are read and at most ``MAX_WARNINGS``
warnings are kept (with a count of the rest), so 20,000 unknown sections or 10,000 GPUs
cost a warning, not half a minute.

Entry ids are compared as the catalog's are: without case or surrounding spaces (``RTX4090``
and ``rtx4090 `` are one GPU, not two that make ``4090`` ambiguous), and may hold only
letters, digits, ``_``, ``-`` and ``.``.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor.files.errors import InputError, Problem
from advisor.files.reading import read_text_file
from advisor.files.records import record
from advisor.files.yaml_lines import LineIndex, load_yaml_text
from advisor.text.i18n import pick
from advisor.text.safe import shown

MAX_ENTRIES = 500  # per section; the built-in catalog has at most a few dozen
MAX_WARNINGS = 50
_ID = re.compile(r"^[a-z0-9][a-z0-9_.\-]*$")


@record
class CatalogWarning:
    """A problem in a user's override file; the built-in catalog entry was used instead."""

    file: str
    entry: str  # e.g. "electricity[cn_household].price_per_kwh"; "" for the whole file
    message_en: str
    message_zh: str
    line: int | None = None

    def render(self, lang: str = "en") -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        entry = f" {self.entry}:" if self.entry else ""
        kept = pick(lang, " (built-in catalog used)", "（已使用内置目录）")
        return f"{where}:{entry} {pick(lang, self.message_en, self.message_zh)}{kept}"


@record
class OverrideFile:
    """The parsed file (``data`` None when unreadable, ``problems`` then say why)."""

    source: str
    data: Any
    index: LineIndex
    stamp: str  # the file's modification date: the ``as_of`` of entries that give none
    problems: tuple[Problem, ...] = ()

    def warnings(self) -> list[CatalogWarning]:
        return [CatalogWarning(self.source, p.path, p.message_en, p.message_zh, p.line)
                for p in self.problems]


@lru_cache(maxsize=4)
def _parsed(path: str, _mtime_ns: int, _size: int) -> OverrideFile:
    stamp = _dt.date.fromtimestamp(_mtime_ns / 1e9).isoformat()
    try:
        data, index = load_yaml_text(read_text_file(Path(path)), source=path)
    except InputError as exc:
        return OverrideFile(path, None, LineIndex(None), stamp, tuple(exc.problems))
    return OverrideFile(path, data, index, stamp)


def read_override_file(path: Path) -> OverrideFile | None:
    """The override file, parsed (cached until it changes); None when there is none."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a loop of links, a name too long: say so, never stop
        return OverrideFile(str(path), None, LineIndex(None), "", (Problem(
            "", f"cannot read: {exc.strerror or exc}", f"无法读取：{exc.strerror or exc}"),))
    return _parsed(str(path), info.st_mtime_ns, info.st_size)


def entry_id(raw: Any) -> tuple[str | None, tuple[str, str] | None]:
    """An entry's id as the catalog compares it (stripped, lower case), or why it is none."""
    if not isinstance(raw, str) or not raw.strip():
        return None, ("needs an id (text)", "需要 id（文本）")
    key = raw.strip().lower()
    if len(key) > 80 or not _ID.match(key):
        return None, (f"id may hold only letters, digits, '_', '-' and '.' (no spaces, at "
                      f"most 80), got {shown(raw)}",
                      f"id 只能包含字母、数字、'_'、'-' 和 '.'（不含空格，最多 80 个字符），"
                      f"实际为 {shown(raw)}")
    return key, None


def duplicate(first_line: int | None) -> tuple[str, str]:
    at = f" (first at line {first_line})" if first_line else ""
    at_zh = f"（首次出现在第 {first_line} 行）" if first_line else ""
    return (f"the same id appears twice in the file{at}; only the first is read",
            f"文件中同一 id 出现两次{at_zh}；只读取第一个")


def too_many(source: str, section: str, count: int, line: int | None) -> CatalogWarning:
    return CatalogWarning(source, section,
                          f"{count:,} entries; only the first {MAX_ENTRIES} are read",
                          f"共 {count:,} 项；只读取前 {MAX_ENTRIES} 项", line)


def capped(warnings: list[CatalogWarning]) -> list[CatalogWarning]:
    """The first ``MAX_WARNINGS`` warnings and one that counts the rest."""
    if len(warnings) <= MAX_WARNINGS:
        return warnings
    rest = len(warnings) - MAX_WARNINGS
    first = warnings[0]
    return [*warnings[:MAX_WARNINGS], CatalogWarning(
        first.file, "", f"... and {rest:,} more problem(s) in this file",
        f"……此文件中另有 {rest:,} 个问题")]
