"""Measured throughput at several GPU counts: from a profile's ``measured`` section or a CSV.

A CSV has one row per GPU count: ``gpus,throughput`` (or ``gpus,step_time_s``), an optional
``unit`` column, an optional header and ``#`` comments. Every error names the file and line.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import Literal

from advisor.files.errors import InputError
from advisor.files.records import record
from advisor.profile import MeasuredSpec
from advisor.profile.bounds import MAX_GPUS, MAX_STEP_TIME_S, MAX_THROUGHPUT, MIN_MEASURED_VALUE
from advisor.profile.measured import speedup_problem
from advisor.text.safe import shorten, shown

Scaling = Literal["weak", "strong"]
MAX_CSV_BYTES = 1_000_000
MAX_POINTS = 1000
MAX_UNIT_CHARS = 40  # as a profile's measured.unit
# Units of throughput derived from step times: batches per second (per GPU or global).
STEP_UNITS = {"weak": "per-GPU batches/s", "strong": "global batches/s"}


@record
class MeasuredSeries:
    """Throughput (work per second, any unit) at ascending GPU counts.

    Step times are turned into throughput here: with weak scaling (fixed batch per GPU) the
    work per step grows with N, so throughput ∝ N / step time; with strong scaling (fixed
    global batch) throughput ∝ 1 / step time.
    """

    gpus: tuple[int, ...]
    throughput: tuple[float, ...]
    unit: str = "samples/s"
    scaling: Scaling = "weak"
    source: str = ""

    def __post_init__(self) -> None:
        if len(self.gpus) != len(self.throughput) or len(self.gpus) < 2:
            raise ValueError("a measured series needs two or more (gpus, throughput) points")
        if list(self.gpus) != sorted(set(self.gpus)):
            raise ValueError("GPU counts must be distinct and ascending")

    @property
    def baseline_gpus(self) -> int:
        return self.gpus[0]


def point_problem(gpus: list[int], values: list[float], *, step_time: bool,
                  scaling: Scaling) -> tuple[int, str, str] | None:
    """The first point (position) outside the bounds every measurement is held in, and why:
    a count or value out of range, or a speed-up beyond belief (``advisor.profile.bounds``)."""
    top = MAX_STEP_TIME_S if step_time else MAX_THROUGHPUT
    for i, (n, v) in enumerate(zip(gpus, values, strict=True)):
        if not 1 <= n <= MAX_GPUS:
            return (i, f"GPU count must be from 1 to {MAX_GPUS:,}, got {n}",
                    f"显卡数应为 1 到 {MAX_GPUS:,}，实际为 {n}")
        if not MIN_MEASURED_VALUE <= v <= top:  # NaN too
            return (i, f"a measured value must be from {MIN_MEASURED_VALUE:g} to {top:g}, got {v}",
                    f"测量值应在 {MIN_MEASURED_VALUE:g} 到 {top:g} 之间，实际为 {v}")
    return speedup_problem(gpus, values, step_time=step_time, scaling=scaling)


def from_points(gpus: list[int], values: list[float], *, step_time: bool = False,
                unit: str = "samples/s", scaling: Scaling = "weak",
                source: str = "") -> MeasuredSeries:
    """A series from (possibly unsorted) points; ``step_time`` says the values are seconds.
    Points outside the bounds (``point_problem``) raise InputError naming the point."""
    found = point_problem(list(gpus), list(values), step_time=step_time, scaling=scaling)
    if found is not None:
        i, en, zh = found
        raise InputError.single(en, zh, path=f"points[{i}]", source=source or None)
    pairs = sorted(zip(gpus, values, strict=True))
    if step_time:
        # weak: N samples-worth per step; strong: one global batch per step
        pairs = [(n, (n if scaling == "weak" else 1) / t) for n, t in pairs]
        unit = STEP_UNITS[scaling]
    return MeasuredSeries(tuple(n for n, _ in pairs), tuple(v for _, v in pairs), unit, scaling,
                          source)


def from_measured_spec(spec: MeasuredSpec, source: str = "") -> MeasuredSeries:
    """The profile's ``measured`` section (validated by pydantic: ≥ 2 distinct counts)."""
    step_time = spec.points[0].throughput is None
    values = [float(p.step_time_s if step_time else p.throughput)  # type: ignore[arg-type]
              for p in spec.points]
    return from_points([p.gpus for p in spec.points], values, step_time=step_time,
                       unit=spec.unit, scaling=spec.scaling, source=source)


_GPU_HEADERS = {"gpus", "gpu", "n", "n_gpus", "num_gpus", "gpu_count", "gpus_total"}
_THROUGHPUT_HEADERS = {"throughput", "samples_per_s", "samples/s", "images/s", "tokens/s",
                       "sequences/s", "speed", "rate"}
_STEP_HEADERS = {"step_time_s", "step_time", "step_s", "seconds_per_step", "time_per_step_s"}
_UNIT_HEADERS = {"unit", "throughput_unit", "units"}


def _error(source: str, line: int, en: str, zh: str) -> InputError:
    return InputError.single(en, zh, line=line, source=source)


def parse_measurements_csv(text: str, *, source: str = "<csv>",
                           scaling: Scaling = "weak") -> MeasuredSeries:
    """Parse the small measurements CSV; raises InputError naming ``source`` and the line."""
    rows: list[tuple[int, list[str]]] = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            cells = next(csv.reader(io.StringIO(stripped)))
        except csv.Error as exc:  # a field over csv's limit (128 KB), a stray NUL
            raise _error(source, line_no, f"not a CSV row: {exc}",
                         f"不是有效的 CSV 行：{exc}") from None
        rows.append((line_no, [c.strip() for c in cells]))
    if not rows:
        raise InputError.single("no measurements in the file", "文件中没有测量数据", source=source)

    value_kind = "throughput"
    unit_col: int | None = None
    first_line, first = rows[0]
    if len(first) == 1 and (sep := next((c for c in ";\t|" if c in first[0]), None)):
        shown_sep = {";": "';'", "\t": "a tab", "|": "'|'"}[sep]
        shown_sep_zh = {";": "“;”", "\t": "制表符", "|": "“|”"}[sep]
        raise _error(source, first_line,
                     f"columns must be separated by commas; this line uses {shown_sep}",
                     f"各列之间要用英文逗号分隔；此行用的是{shown_sep_zh}")
    width = 3 if len(first) >= 3 and not _is_number(first[2]) else 2  # gpus, value[, unit]
    if not _is_number(first[0]):
        header = [c.lower() for c in first]
        if header[0] not in _GPU_HEADERS:
            raise _error(source, first_line,
                         f"the first column must be the GPU count ('gpus'), got {shown(first[0])}",
                         f"第一列应为显卡数（gpus），实际为 {shown(first[0])}")
        if len(header) < 2:
            raise _error(source, first_line, "need a second column: throughput or step_time_s",
                         "需要第二列：throughput 或 step_time_s")
        if header[1] in _STEP_HEADERS:
            value_kind = "step_time_s"
        elif header[1] not in _THROUGHPUT_HEADERS:
            raise _error(source, first_line,
                         f"second column must be 'throughput' or 'step_time_s', got {shown(first[1])}",
                         f"第二列应为 throughput 或 step_time_s，实际为 {shown(first[1])}")
        for i, name in enumerate(header[2:], start=2):
            if name in _UNIT_HEADERS:
                unit_col = i
            else:  # a column nothing reads would be dropped without a word (a user review)
                raise _error(source, first_line,
                             f"column {shown(first[i])} is not read: give the GPU count, one "
                             "value (throughput or step_time_s) and optionally a unit",
                             f"不会读取列 {shown(first[i])}：只需显卡数、一个数值列（throughput 或 "
                             "step_time_s），可选单位列")
        width = len(header)
        rows = rows[1:]
    elif len(first) >= 3 and not _is_number(first[2]):
        unit_col = 2  # no header: gpus, throughput, unit

    gpus: list[int] = []
    values: list[float] = []
    units: set[str] = set()
    seen: dict[int, int] = {}
    data_lines: list[int] = []
    for line_no, cells in rows:
        if len(cells) < 2:
            raise _error(source, line_no, "expected 'gpus,value' on this line",
                         "此行应为“显卡数,数值”")
        if len(cells) > width and any(cells[width:]):  # "1,1234,5": a decimal comma
            raise _error(source, line_no,
                         f"{len(cells)} values where {width} are expected (a decimal comma? "
                         "write 1234.5, or quote the number)",
                         f"此行有 {len(cells)} 个值，应为 {width} 个（用了小数逗号？请写成 1234.5，"
                         "或给数字加引号）")
        n = _parse_gpus(cells[0], source, line_no)
        value = _parse_value(cells[1], value_kind, source, line_no)
        if n in seen:
            raise _error(source, line_no, f"GPU count {n} already given on line {seen[n]}",
                         f"显卡数 {n} 已在第 {seen[n]} 行给出")
        seen[n] = line_no
        data_lines.append(line_no)
        gpus.append(n)
        values.append(value)
        if unit_col is not None and unit_col < len(cells) and cells[unit_col]:
            if len(cells[unit_col]) > MAX_UNIT_CHARS:
                raise _error(source, line_no, f"the unit is too long (at most {MAX_UNIT_CHARS} "
                             f"characters): {shown(cells[unit_col])}",
                             f"单位太长（最多 {MAX_UNIT_CHARS} 个字符）：{shown(cells[unit_col])}")
            units.add(cells[unit_col])
        if len(gpus) > MAX_POINTS:
            raise _error(source, line_no, f"more than {MAX_POINTS} points",
                         f"超过 {MAX_POINTS} 个数据点")
    if len(gpus) < 2:
        last = rows[-1][0] if rows else first_line
        raise _error(source, last, "need measurements at two or more GPU counts",
                     "至少需要两个不同显卡数下的测量值")
    if len(units) > 1:
        raise InputError.single(f"mixed units in one file: {shorten(', '.join(sorted(units)))}",
                                f"同一文件中单位不一致：{shorten(', '.join(sorted(units)))}", source=source)
    unit = units.pop() if units else "samples/s"
    found = point_problem(gpus, values, step_time=value_kind == "step_time_s", scaling=scaling)
    if found is not None:
        i, en, zh = found
        raise _error(source, data_lines[i], en, zh)
    return from_points(gpus, values, step_time=value_kind == "step_time_s", unit=unit,
                       scaling=scaling, source=source)


def read_measurements_csv(path: str | Path, *, scaling: Scaling = "weak") -> MeasuredSeries:
    from advisor.files.reading import read_text_file

    path = Path(path)
    text = read_text_file(path, max_bytes=MAX_CSV_BYTES)
    return parse_measurements_csv(text, source=str(path), scaling=scaling)


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _parse_gpus(cell: str, source: str, line: int) -> int:
    try:
        value = float(cell)
    except ValueError:
        raise _error(source, line, f"GPU count is not a number: {shown(cell)}",
                     f"显卡数不是数字：{shown(cell)}") from None
    if not value.is_integer() or not 1 <= value <= 100_000:
        raise _error(source, line, f"GPU count must be a whole number from 1 to 100000, got {shorten(cell)}",
                     f"显卡数应为 1 到 100000 的整数，实际为 {shorten(cell)}")
    return int(value)


def _parse_value(cell: str, kind: str, source: str, line: int) -> float:
    try:
        value = float(cell)
    except ValueError:
        raise _error(source, line, f"{kind} is not a number: {shown(cell)}",
                     f"{kind} 不是数字：{shown(cell)}") from None
    if not math.isfinite(value) or value <= 0:
        raise _error(source, line, f"{kind} must be a positive number, got {shorten(cell)}",
                     f"{kind} 必须为正数，实际为 {shorten(cell)}")
    return value
