"""Text or files in, one ``HardwareDescription`` out.

Only text that is not `nvidia-smi` output raises (``InputError``, exit 2 on the CLI); anything
recognisable, however cut or garbled, gives a description with warnings for what was unreadable.
"""

from __future__ import annotations

import gc
import logging
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from advisor.files.errors import InputError, Problem
from advisor.files.logs import setup_logging
from advisor.files.reading import read_text_file
from advisor.hwimport.cleanup import clean_text
from advisor.hwimport.csv_query import parse_csv
from advisor.hwimport.detect import candidate_kinds, split_segments
from advisor.hwimport.dmon import parse_dmon
from advisor.hwimport.gpu_list import parse_list
from advisor.hwimport.merge import merge_readings
from advisor.hwimport.model import HardwareDescription
from advisor.hwimport.query import parse_query
from advisor.hwimport.reading import Reading
from advisor.hwimport.smi_errors import error_messages
from advisor.hwimport.summary import describe
from advisor.hwimport.table import parse_table
from advisor.hwimport.topo import parse_topo
from advisor.text.i18n import Text

log = logging.getLogger(__name__)

PARSERS: dict[str, Callable[[list[str]], Reading]] = {
    "topo": parse_topo, "query": parse_query, "dmon": parse_dmon, "csv": parse_csv,
    "table": parse_table, "list": parse_list,
}
NOT_SMI_EN = ("this is not nvidia-smi output: expected `nvidia-smi` (the table), `-q`, `-L`, "
              "`topo -m`, `dmon` or `--query-gpu=... --format=csv`")
NOT_SMI_ZH = ("这不是 nvidia-smi 的输出：应为 `nvidia-smi`（表格）、`-q`、`-L`、`topo -m`、"
              "`dmon` 或 `--query-gpu=... --format=csv` 的输出")
# A saved output or log is read through the file guard with this cap (a day of one-second
# `dmon` samples of four GPUs is about 30 MB); a paste is cut at as many characters.
MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_CHARS = MAX_FILE_BYTES
# One import (several files and a paste) takes in at most this many outputs and characters in
# all (issue 35: 40 dmon logs of 32 MiB took 38 s and 2.2 GB); what is past either is left
# out, said in a note that names it. Two outputs at their cap fit.
MAX_FILES = 64
MAX_TOTAL_CHARS = 2 * MAX_CHARS
_NAMED = 10  # left-out sources named in the note (then a count)


def _parse_segments(segments: list[tuple[str, list[str]]], source: str | None) -> list[Reading]:
    readings: list[Reading] = []
    # What -q and topo parsers worked out per distinct line, shared by all the segments of one
    # paste (a watch log of several commands repeats them) and dropped after it.
    memos: dict[str, dict] = {"query": {}, "topo": {}}
    for kind, lines in segments:
        try:
            memo = memos.get(kind)
            reading = PARSERS[kind](lines) if memo is None else PARSERS[kind](lines, memo)
        except MemoryError:
            raise  # not a parser bug: the output is valid, the memory ran out (parse_texts)
        except Exception:  # noqa: BLE001 - a parser bug must not lose the rest of the paste
            setup_logging()  # the command line attaches the log file when it first logs
            log.exception("hwimport: %s parser failed on a segment of %s", kind, source)
            continue
        if reading.recognised:
            reading.source = source
            readings.append(reading)
    return readings


def read_text(text: str, source: str | None = None) -> list[Reading]:
    """The recognisable outputs in one text, one reading per output (may be empty)."""
    if not isinstance(text, str) or not text.strip():
        return []
    paused = gc.isenabled()
    if paused:  # parsing builds many small lists and no cycles: skip collector passes
        gc.disable()
    try:
        return _read_text(text, source)
    finally:
        if paused:
            gc.enable()


def _read_text(text: str, source: str | None) -> list[Reading]:
    cleaned = clean_text(text[:MAX_CHARS])
    lines = cleaned.split("\n")
    candidates = candidate_kinds(cleaned)
    readings = _parse_segments(split_segments(lines, candidates), source) if candidates else []
    if not readings and len(candidates) == 1:  # the substring guess was wrong: go line by line
        readings = _parse_segments(split_segments(lines, set()), source)
    status = error_messages(cleaned)
    if status is not None:  # nvidia-smi's own complaints: no GPU, no driver, a lost GPU
        status.source = source
        if readings:
            status.declared_gpu_count = None  # the outputs beside it say how many GPUs
        readings.append(status)
    return readings


def not_smi_error(source: str | None = None) -> InputError:
    return InputError([Problem("", NOT_SMI_EN, NOT_SMI_ZH)], source)


def parse_text(text: str, source: str | None = None) -> HardwareDescription:
    """Describe the machine from one pasted text; InputError if it is not nvidia-smi output."""
    readings = read_text(text, source)
    if not readings:
        raise not_smi_error(source)
    return describe(merge_readings(readings))


def out_of_memory(source: str | None, size: int) -> InputError:
    """The memory ran out while reading an output: it is not "not nvidia-smi output"."""
    return InputError([Problem(
        "", f"there was not enough memory to read this output ({size:,} characters): import "
            "fewer or smaller files (a shorter dmon log, or one command's output at a time)",
        f"内存不足，无法读取此输出（{size:,} 个字符）：请导入更少或更小的文件"
        "（更短的 dmon 日志，或每次只导入一条命令的输出）")], source)


class _Intake:
    """What one import takes in: ``MAX_FILES`` outputs and ``MAX_TOTAL_CHARS`` characters in
    all; the sources past either are left out and named in a note."""

    def __init__(self, left_out: Iterable[str] = ()) -> None:
        self.files = self.chars = 0
        self.too_many = list(left_out)
        self.too_large: list[str] = []

    def room(self) -> int:
        return MAX_TOTAL_CHARS - self.chars

    def takes(self, size: int, source: str | None) -> bool:
        name = source or "<text>"
        if self.files >= MAX_FILES:
            self.too_many.append(name)
            return False
        if self.chars + size > MAX_TOTAL_CHARS:
            self.too_large.append(name)
            return False
        self.files += 1
        self.chars += size
        return True

    def notes(self) -> list[Text]:
        out = []
        for names, en, zh in (
                (self.too_many, f"an import reads at most {MAX_FILES} outputs",
                 f"一次导入最多读取 {MAX_FILES} 份输出"),
                (self.too_large, f"an import reads at most {MAX_TOTAL_CHARS // 2**20} MiB in "
                                 "all", f"一次导入总共最多读取 {MAX_TOTAL_CHARS // 2**20} MiB")):
            if not names:
                continue
            shown = ", ".join(names[:_NAMED])
            more_en = f" and {len(names) - _NAMED:,} more" if len(names) > _NAMED else ""
            more_zh = f" 等另外 {len(names) - _NAMED:,} 份" if len(names) > _NAMED else ""
            out.append(Text(
                en=f"{en}: {len(names):,} left out, not read ({shown}{more_en}); import them "
                   "on their own to see them",
                zh=f"{zh}：有 {len(names):,} 份未读取（{shown}{more_zh}）；如需查看请单独导入"))
        return out


def parse_texts(texts: Iterable[tuple[str, str | None]], *,
                left_out: Iterable[str] = ()) -> HardwareDescription:
    """Several texts (name, content) of one machine merged into one description; at most
    ``MAX_FILES`` of them and ``MAX_TOTAL_CHARS`` in all are read (a note names the others,
    and ``left_out``: sources not even read). The texts are taken one at a time: a generator
    that reads each file when asked holds one file's text at a time."""
    return _parse(texts, _Intake(left_out))


def _parse(texts: Iterable[tuple[str, str | None]], intake: _Intake) -> HardwareDescription:
    readings: list[Reading] = []
    for text, source in texts:
        if not intake.takes(min(len(text), MAX_CHARS), source):  # a paste is cut to MAX_CHARS
            continue
        try:
            found = read_text(text, source)
        except MemoryError:
            size = len(text)
            del text
            raise out_of_memory(source, size) from None
        del text  # one output's text held at a time, not two
        if not found:
            raise not_smi_error(source)
        readings.extend(found)
    if not readings:
        if intake.too_many or intake.too_large:
            raise InputError([Problem("", n.en, n.zh) for n in intake.notes()])
        raise not_smi_error()
    try:
        desc = describe(merge_readings(readings))
    except MemoryError:
        raise out_of_memory(None, intake.chars) from None
    desc.warnings += [n for n in intake.notes() if n not in desc.warnings]
    return desc


def read_file_text(path: str | Path) -> str:
    """A saved output as text (``-``: standard input), through the file guard: a regular file
    of at most ``MAX_FILE_BYTES``, UTF-8 or UTF-16 as PowerShell's `>` writes it; a damaged
    byte is replaced, not fatal (a paste is often cut or garbled)."""
    return read_text_file(path, max_bytes=MAX_FILE_BYTES, lenient=True)


def source_name(path: str | Path) -> str:
    return "<stdin>" if str(path) == "-" else str(path)


def parse_files(paths: Iterable[str | Path]) -> HardwareDescription:
    """Saved outputs of one machine, read one at a time as they are parsed (at most
    ``MAX_FILES``; the others are named in a note, never opened)."""
    paths = list(paths)
    intake = _Intake(source_name(p) for p in paths[MAX_FILES:])
    return _parse(_read_files(paths[:MAX_FILES], intake), intake)


def _read_files(paths: list[str | Path], intake: _Intake) -> Iterator[tuple[str, str]]:
    """Each file's text when it is asked for; a file whose size alone says it is past the
    import's room (UTF-8 or UTF-16 holds at least a character per 4 bytes) is not read."""
    for path in paths:
        source = source_name(path)
        if _byte_size(path) > 4 * intake.room():
            intake.too_large.append(source)
            continue
        yield read_file_text(path), source


def _byte_size(path: str | Path) -> int:
    """A regular file's size in bytes; 0 when it is not one or cannot be seen (the file
    guard then says why it cannot be read)."""
    if str(path) == "-":
        return 0
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return 0
    return info.st_size if stat.S_ISREG(info.st_mode) else 0
