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
    marks = [i for i, line in enumerate(lines) if "#" in line and line.lstrip()[:1] == "#"]
    header: list[str] | None = None
    rows_by_gpu: dict[tuple[str, tuple[str, ...]], list[list[str]]] = {}
    skipped = 0
    unsupported = any("not supported" in line.lower() for line in lines[:marks[0]]) \
        if marks else False
    seen_headers: dict[str, list[str]] = {}
    for n, at in enumerate(marks):
        end = marks[n + 1] if n + 1 < len(marks) else len(lines)
        line = lines[at]
        if line in seen_headers:  # the same header again (dmon repeats it; pastes repeat it)
            header = seen_headers[line]
            body = []
        else:
            body = line.strip()[1:].split()
        first = body[0].lower() if body else ""
        if first in ("gpu", "date", "time") and len(body) >= 2 and "gpu" in \
                (names := [t.lower() for t in body]):
            header = seen_headers[line] = names
            reading.recognised = True
            if "pid" in names:
                reading.warn("this is `nvidia-smi pmon` (per process): each process's SM % was "
                             "read as a sample of its GPU",
                             "这是 `nvidia-smi pmon`（按进程）：每个进程的 SM% 被当作其显卡的一个采样")
        elif first != "idx" and header is not None and len(body) == len(header) and \
                all(_is_number(t) for t in body):
            _group(rows_by_gpu, header, [body])  # a data row the poster commented out
        if header is None or at + 1 >= end:
            continue
        chunk = [line.split() for line in lines[at + 1:end]]
        width = len(header)
        good = [row for row in chunk if len(row) == width]
        bad = [row for row in chunk if row and len(row) != width and row[0] not in ("...", "…")]
        skipped += len(bad)
        if bad and any("not supported" in " ".join(r).lower() for r in bad):
            unsupported = True
        skipped += _group(rows_by_gpu, header, good)
    for (index, names), rows in rows_by_gpu.items():
        _add_rows(reading, index, list(names), rows)
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


def _group(groups: dict, header: list[str], rows: list[list[str]]) -> int:
    """File rows under (GPU index, header); returns how many had no usable GPU index."""
    at = header.index("gpu")
    key = tuple(header)
    indices = {row[at] for row in rows}
    bad = 0
    for index in indices:
        if not index.isdigit() or len(index) > 4:
            bad += sum(1 for row in rows if row[at] == index)
            continue
        mine = rows if len(indices) == 1 else [row for row in rows if row[at] == index]
        groups.setdefault((index, key), []).extend(mine)
    return bad


def _column(rows: list[list[str]], pos: int) -> list[float]:
    """One column as numbers, "-" (unsupported) left out; bulk first, cell by cell on junk."""
    try:
        return [float(r[pos]) for r in rows if r[pos] != "-"]
    except ValueError:
        return [v for v in (_num(r[pos]) for r in rows) if v is not None]


def _add_rows(reading: Reading, index: str, header: list[str], rows: list[list[str]]) -> None:
    gpu = reading.gpu_at(int(index))  # the same GPU under two headers is one GPU
    for pos, name in enumerate(header):
        target = _SAMPLE_COLUMNS.get(name)
        if target is not None:
            getattr(gpu, target).extend(_column(rows, pos))
        elif name == "fb":  # frame buffer in use: the latest sample
            used = _column(rows[-1:], pos)
            if used:
                gpu.memory_used_mib = int(used[-1])
        elif name in ("pviol", "tviol") and any(_column(rows, pos)):
            # % of time held back by the power / thermal limit
            gpu.throttle.add("power_violation" if name == "pviol" else "thermal_violation")
