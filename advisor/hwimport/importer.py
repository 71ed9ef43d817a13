"""Text or files in, one ``HardwareDescription`` out.

Only text that is not `nvidia-smi` output raises (``InputError``, exit 2 on the CLI); anything
recognisable, however cut or garbled, gives a description with warnings for what was unreadable.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterable
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


def _parse_segments(segments: list[tuple[str, list[str]]], source: str | None) -> list[Reading]:
    readings: list[Reading] = []
    # What -q and topo parsers worked out per distinct line, shared by all the segments of one
    # paste (a watch log of several commands repeats them) and dropped after it.
    memos: dict[str, dict] = {"query": {}, "topo": {}}
    for kind, lines in segments:
        try:
            memo = memos.get(kind)
            reading = PARSERS[kind](lines) if memo is None else PARSERS[kind](lines, memo)
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


def parse_texts(texts: Iterable[tuple[str, str | None]]) -> HardwareDescription:
    """Several texts (name, content) of one machine merged into one description."""
    readings: list[Reading] = []
    for text, source in texts:
        found = read_text(text, source)
        if not found:
            raise not_smi_error(source)
        readings.extend(found)
    if not readings:
        raise not_smi_error()
    return describe(merge_readings(readings))


def read_file_text(path: str | Path) -> str:
    """A saved output as text (``-``: standard input), through the file guard: a regular file
    of at most ``MAX_FILE_BYTES``, UTF-8 or UTF-16 as PowerShell's `>` writes it; a damaged
    byte is replaced, not fatal (a paste is often cut or garbled)."""
    return read_text_file(path, max_bytes=MAX_FILE_BYTES, lenient=True)


def parse_files(paths: Iterable[str | Path]) -> HardwareDescription:
    return parse_texts((read_file_text(p), str(p)) for p in paths)
