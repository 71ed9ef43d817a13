"""`nvidia-smi dmon`: one row per GPU per sample — the tool for finding the GPU that holds the
others back (# F30) and for seeing whether the GPUs are waiting for data (# F28).

Columns are taken from the "# gpu pwr gtemp ..." header by name and rows are split on
whitespace: header and data widths differ between drivers (6- vs 7-character columns), extra
column groups come and go (-s pucvmet), and "-" marks an unsupported value. A header alone is
not dmon output (a Markdown heading "# GPU notes" looks like one): it needs the units line
("# Idx W C ...") or sample rows under it.

Speed (a 1 MB log in a few ms): a block whose lines all hold one row is joined and split in
one go (``_regular_block``; other blocks are split line by line), columns are sliced out of the
flat token list, and each distinct value of a column is converted once (``_numbers``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain, compress

from advisor.hwimport.detect import dmon_header, is_dmon_units
from advisor.hwimport.reading import Reading

_SAMPLE_COLUMNS = {"sm": "sm_util", "mem": "mem_util", "enc": "enc_util", "pwr": "power_w",
                   "gtemp": "temp_c", "temp": "temp_c", "pclk": "pclk_mhz"}
_READ_COLUMNS = frozenset({*_SAMPLE_COLUMNS, "fb", "pviol", "tviol"})
_ELLIPSIS = ("...", "…")
_SEP = "\0"  # between rows when a block is split in one go (cleanup removes NUL characters)
_ROW_END = f" {_SEP} "

# A GPU index of up to 9 digits is read (past reading.MAX_GPUS GPUs are counted and said, not
# kept); a longer run of digits is no index.
_INDEX_DIGITS = 9
Columns = list[Sequence[str]]  # one block's rows of one GPU, column by column
Groups = dict[tuple[str, tuple[str, ...]], list[Columns]]  # (GPU index, header) -> blocks


def _num(token: str) -> float | None:
    try:
        value = float(token)
    except ValueError:
        return None
    return value if value == value and abs(value) < 1e9 else None


def _is_number(token: str) -> bool:
    return token == "-" or _num(token) is not None or ":" in token


def _numbers(column: Sequence[str]) -> list[float]:
    """A column as numbers, "-" (unsupported) left out. A dmon column holds few distinct
    values (percentages, degrees, watts, clock steps): each is parsed once, then looked up."""
    values = set(column)
    parsed = {t: _num(t) for t in values}
    if None in parsed.values():  # "-" or junk: left out
        column = [t for t in column if parsed[t] is not None]
    return list(map(parsed.__getitem__, column))  # type: ignore[arg-type]


def parse_dmon(lines: list[str]) -> Reading:
    reading = Reading(kind="dmon")
    marks = [i for i, line in enumerate(lines) if "#" in line and line.lstrip()[:1] == "#"]
    header: tuple[str, ...] | None = None
    units_seen = False
    groups: Groups = {}
    skipped = 0
    unsupported = any("not supported" in line.lower() for line in lines[:marks[0]]) \
        if marks else False
    seen: dict[str, tuple[str, ...] | str | None] = {}  # dmon repeats its header lines
    for n, at in enumerate(marks):
        end = marks[n + 1] if n + 1 < len(marks) else len(lines)
        line = lines[at]
        what = seen.get(line, "?")
        if what == "?":
            what = seen[line] = dmon_header(line) or ("units" if is_dmon_units(line) else None)
        if isinstance(what, tuple):
            header = what
        elif what == "units":
            units_seen = units_seen or header is not None
        elif header is not None:
            body = line.strip()[1:].split()
            if len(body) == len(header) and all(_is_number(t) for t in body):
                skipped += _collect(groups, header, body, len(body))  # a row commented out
        if header is None or at + 1 >= end:
            continue
        width = len(header)
        flat = _regular_block(lines[at + 1:end], width)
        if flat is not None:  # the usual block: every line holds one row
            skipped += _collect(groups, header, flat, width + 1)
            continue
        rows = list(map(str.split, lines[at + 1:end]))
        widths = set(map(len, rows))
        if widths == {width, 0}:  # blank lines in the log
            rows = [row for row in rows if row]
        elif widths != {width}:
            good = [row for row in rows if len(row) == width]
            bad = [r for r in rows if r and len(r) != width and r[0] not in _ELLIPSIS]
            skipped += len(bad)
            if bad and any("not supported" in " ".join(r).lower() for r in bad):
                unsupported = True
            rows = good
        skipped += _collect(groups, header, list(chain.from_iterable(rows)), width)
    for (index, names), blocks in groups.items():
        _add_rows(reading, index, names, blocks)
    reading.gpus.sort(key=lambda g: g.index if g.index is not None else -1)
    reading.recognised = header is not None and bool(reading.gpus or units_seen or unsupported)
    if header is not None and "pid" in header:
        reading.warn("this is `nvidia-smi pmon` (per process): each process's SM % was read as a "
                     "sample of its GPU",
                     "这是 `nvidia-smi pmon`（按进程）：每个进程的 SM% 被当作其显卡的一个采样")
    if unsupported:
        reading.warn("dmon said some metrics are not supported on these GPUs",
                     "dmon 提示部分指标在这些显卡上不受支持")
    if skipped:
        reading.warn(f"{skipped} dmon line(s) did not match the header and were skipped",
                     f"{skipped} 行 dmon 数据与表头不符，已跳过")
    if reading.recognised and not reading.gpus:
        reading.warn("the dmon output has a header but no samples",
                     "dmon 输出只有表头，没有采样数据")
    return reading


def _regular_block(block: list[str], width: int) -> list[str] | None:
    """The tokens of a block whose lines (trailing blank lines aside) all hold ``width``
    tokens, row-major with a ``_SEP`` token after each row but the last (row r starts at
    r * (width + 1)); None for any other block. One join and one split: a split per line and
    a flattening cost about twice as much."""
    while block and not block[-1].strip():
        block = block[:-1]
    if not block:
        return None
    joined = _ROW_END.join(block)
    rows = len(block)
    if joined.count(_SEP) != rows - 1:  # a line holds the separator itself (never in a paste)
        return None
    flat = joined.split()
    if len(flat) != rows * (width + 1) - 1 or flat[width::width + 1].count(_SEP) != rows - 1:
        return None
    return flat


def _collect(groups: Groups, header: tuple[str, ...], flat: list[str], stride: int) -> int:
    """File a block's rows (all ``len(header)`` wide, row r at ``flat[r * stride:]``) under
    (GPU index, header), column by column; returns how many rows had no usable GPU index."""
    if not flat:
        return 0
    width = len(header)
    at = header.index("gpu")
    ids = flat[at::stride]
    indices = list(dict.fromkeys(ids))
    n = len(indices)
    wanted = _wanted(header)
    if all(i.isdigit() and len(i) <= _INDEX_DIGITS for i in indices) and \
            all(ids[k::n].count(index) == len(ids[k::n]) for k, index in enumerate(indices)):
        # the usual log: each sample lists the GPUs in the same order
        step = stride * n
        for k, index in enumerate(indices):
            mine = [flat[pos + k * stride::step] if wanted[pos] else () for pos in range(width)]
            groups.setdefault((index, header), []).append(mine)
        return 0
    bad = 0
    rows_of: dict[str, list[int]] | None = None
    if n > 16:  # many GPUs in an irregular order: each row's GPU found once, not per GPU
        rows_of = {}
        for r, index in enumerate(ids):
            rows_of.setdefault(index, []).append(r)
    for index in indices:
        if not index.isdigit() or len(index) > _INDEX_DIGITS:
            bad += ids.count(index)
            continue
        if rows_of is None:
            mask = [v == index for v in ids]
            mine = [list(compress(flat[pos::stride], mask)) if wanted[pos] else ()
                    for pos in range(width)]
        else:
            starts = [r * stride for r in rows_of[index]]
            mine = [[flat[at + pos] for at in starts] if wanted[pos] else ()
                    for pos in range(width)]
        groups.setdefault((index, header), []).append(mine)
    return bad


@lru_cache(maxsize=64)
def _wanted(header: tuple[str, ...]) -> tuple[bool, ...]:
    """Which columns are read (the others are never sliced or converted)."""
    return tuple(name in _READ_COLUMNS for name in header)


def _add_rows(reading: Reading, index: str, header: tuple[str, ...],
              blocks: list[Columns]) -> None:
    gpu = reading.gpu_at(int(index))  # the same GPU under two headers is one GPU
    for pos, name in enumerate(header):
        target = _SAMPLE_COLUMNS.get(name)
        if target is not None:
            samples = getattr(gpu, target)
            for columns in blocks:
                samples.extend(_numbers(columns[pos]))
        elif name == "fb":  # frame buffer in use: the latest sample
            used = _numbers(blocks[-1][pos][-1:])
            if used:
                gpu.memory_used_mib = int(used[-1])
        elif name in ("pviol", "tviol"):  # % of time held back by the power / thermal limit
            values = [v for c in blocks for v in _numbers(c[pos])]
            gpu.throttle_shown = gpu.throttle_shown or bool(values)
            if any(values):
                gpu.throttle.add("power_violation" if name == "pviol" else "thermal_violation")
