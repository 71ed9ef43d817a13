"""`nvidia-smi dmon`: one row per GPU per sample — the tool for finding the GPU that holds the
others back (# F30) and for seeing whether the GPUs are waiting for data (# F28).

Columns are taken from the "# gpu pwr gtemp ..." header by name and rows are split on
whitespace: header and data widths differ between drivers (6- vs 7-character columns), extra
column groups come and go (-s pucvmet), and "-" marks an unsupported value.
"""

from __future__ import annotations

from advisor.hwimport.reading import Reading

_SAMPLE_COLUMNS = {"sm": "sm_util", "mem": "mem_util", "enc": "enc_util", "pwr": "power_w",
                   "gtemp": "temp_c", "temp": "temp_c", "pclk": "pclk_mhz"}


def _num(token: str) -> float | None:
    try:
        value = float(token)
    except ValueError:
        return None
    return value if value == value and abs(value) < 1e9 else None


def _is_number(token: str) -> bool:
    return token == "-" or _num(token) is not None or ":" in token


def parse_dmon(lines: list[str]) -> Reading:
    reading = Reading(kind="dmon")
    header: list[str] | None = None
    gpu_at = 0
    rows_by_gpu: dict[str, list[list[str]]] = {}
    headers_by_gpu: dict[str, list[str]] = {}
    skipped = 0
    unsupported = False
    for line in lines:
        s = line.strip()
        if not s:
            continue
        if s[0] == "#":
            body = s[1:].split()
            if not body:
                continue
            first = body[0].lower()
            if first in ("gpu", "date", "time") and len(body) >= 2 and "gpu" in \
                    (names := [t.lower() for t in body]):
                header = names
                gpu_at = header.index("gpu")
                reading.recognised = True
                continue
            if first == "idx" or header is None or len(body) != len(header) \
                    or not all(_is_number(t) for t in body):
                continue  # the units row, or a comment
            row = body  # a data row the poster commented out
        else:
            if header is None:
                if "not supported" in s.lower():
                    unsupported = True
                continue
            row = s.split()
            if len(row) != len(header):
                if s not in ("...", "…"):
                    skipped += 1
                    unsupported = unsupported or "not supported" in s.lower()
                continue
        index = row[gpu_at]
        if not index.isdigit() or len(index) > 4:
            skipped += 1
            continue
        if headers_by_gpu.setdefault(index, header) is not header and \
                headers_by_gpu[index] != header:
            _add_rows(reading, index, headers_by_gpu[index], rows_by_gpu.pop(index))
            headers_by_gpu[index] = header
        rows_by_gpu.setdefault(index, []).append(row)
    for index, rows in rows_by_gpu.items():
        _add_rows(reading, index, headers_by_gpu[index], rows)
    reading.gpus.sort(key=lambda g: g.index if g.index is not None else -1)
    if unsupported:
        reading.warn("dmon said some metrics are not supported on these GPUs",
                     "dmon 提示部分指标在这些显卡上不受支持")
    if skipped:
        reading.warn(f"{skipped} dmon line(s) did not match the header and were skipped",
                     f"{skipped} 行 dmon 数据与表头不符，已跳过")
    if header is not None and not reading.gpus:
        reading.warn("the dmon output has a header but no samples",
                     "dmon 输出只有表头，没有采样数据")
    return reading


def _column(rows: list[list[str]], pos: int) -> list[float]:
    """One column as numbers, "-" (unsupported) left out; bulk first, cell by cell on junk."""
    try:
        return [float(r[pos]) for r in rows if r[pos] != "-"]
    except ValueError:
        return [v for v in (_num(r[pos]) for r in rows) if v is not None]


def _add_rows(reading: Reading, index: str, header: list[str], rows: list[list[str]]) -> None:
    gpu = reading.gpu_at(int(index))
    for pos, name in enumerate(header):
        target = _SAMPLE_COLUMNS.get(name)
        if target is not None:
            getattr(gpu, target).extend(_column(rows, pos))
        elif name == "fb":
            used = _column(rows, pos)
            if used:
                gpu.memory_used_mib = int(used[-1])
        elif name in ("pviol", "tviol") and any(_column(rows, pos)):
            # % of time held back by the power / thermal limit
            gpu.throttle.add("power_violation" if name == "pviol" else "thermal_violation")
