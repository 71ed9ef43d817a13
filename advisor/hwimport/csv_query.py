"""`nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]` (also looped with -l).

The header names the fields ("utilization.gpu [%]"); without one, the field list is taken
from the command line if it was pasted, else from what the values look like (a GPU name,
"81559 MiB", "99 %") — only self-describing columns are read then.
"""

from __future__ import annotations

import re
from operator import itemgetter

from advisor.hwimport.query_fields import VIRT_MODES
from advisor.hwimport.reading import (
    MAX_GPUS,
    GpuReading,
    Reading,
    as_int,
    norm_bus_id,
    to_float,
    to_int,
)
from advisor.hwimport.throttle import is_active, parse_mask, reason_name, reasons_from_mask

_FIELDS = {
    "index": "index", "name": "name", "gpu_name": "name", "uuid": "uuid", "gpu_uuid": "uuid",
    "pci.bus_id": "bus_id", "gpu_bus_id": "bus_id", "driver_version": "driver",
    "pstate": "pstate", "temperature.gpu": "temp", "utilization.gpu": "util",
    "utilization.memory": "mem_util", "memory.total": "mem_total", "memory.used": "mem_used",
    "power.draw": "power", "power.draw.average": "power", "power.draw.instant": "power",
    "power.limit": "power_limit", "enforced.power.limit": "power_limit",
    "clocks.sm": "pclk", "clocks.current.sm": "pclk", "pcie.link.gen.current": "gen_cur",
    "pcie.link.gen.gpucurrent": "gen_cur", "pcie.link.gen.max": "gen_max",
    "pcie.link.width.current": "width_cur", "pcie.link.width.max": "width_max",
    "virtualization_mode": "virt", "mig.mode.current": "mig", "count": "count",
    "timestamp": "timestamp", "clocks_throttle_reasons.active": "mask",
    "clocks_event_reasons.active": "mask", "utilization.encoder": "enc",
}
_REASON_PREFIXES = ("clocks_throttle_reasons.", "clocks_event_reasons.")
_FIELD_NAME = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*$")
_QUERY_FLAG = re.compile(r"--query-gpu[= ]([A-Za-z0-9_.,]+)")
_GPU_NAME = re.compile(r"^(?:NVIDIA|Tesla|GeForce|Quadro|TITAN|RTX|GRID|A\d+|H\d+|L\d+|T4)\b")
_BUS = re.compile(r"^[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]$")


def field_of(header_cell: str) -> str | None:
    """``"memory.total [MiB]"`` → ``mem_total``; reasons → ``reason:<name>``; None if unknown."""
    name = header_cell.split("[", 1)[0].strip().lower()
    if name in _FIELDS:
        return _FIELDS[name]
    for prefix in _REASON_PREFIXES:
        if name.startswith(prefix) and name != prefix + "supported":
            return "reason:" + reason_name(name[len(prefix):])
    return "other" if _FIELD_NAME.match(name) else None


def _header_fields(cells: list[str]) -> list[str | None] | None:
    fields = [field_of(c) for c in cells]
    known = sum(1 for f in fields if f not in (None, "other"))
    if known and all(f is not None for f in fields):
        return fields
    return None


def _guess_fields(rows: list[list[str]]) -> list[str | None]:
    """Column roles from value shapes, for CSV printed with noheader."""
    first = rows[0]
    fields: list[str | None] = []
    seen: set[str] = set()
    for col, cell in enumerate(first):
        role: str | None = None
        if col == 0 and cell.isdigit():
            role = "index"
        elif _GPU_NAME.match(cell):
            role = "name"
        elif cell.startswith("GPU-"):
            role = "uuid"
        elif _BUS.match(cell):
            role = "bus_id"
        elif re.match(r"^P\d{1,2}$", cell):
            role = "pstate"
        elif re.match(r"^\d{3}\.\d{2,3}\.\d{2}$", cell):
            # Only the three-part form (580.159.04): a two-part one (418.67) cannot be told
            # from a power reading without units (700.00).
            role = "driver"
        elif cell.endswith("%"):
            role = "util" if "util" not in seen else "mem_util"
        elif cell.endswith("MiB"):  # memory.total is the largest MiB column
            values = [to_float(c) or 0 for c in first if c.endswith("MiB")]
            role = "mem_total" if to_float(cell) == max(values) and "mem_total" not in seen \
                else None
        if role is not None:
            seen.add(role)
        fields.append(role)
    return fields


def parse_csv(lines: list[str]) -> Reading:
    reading = Reading(kind="csv")
    fields: list[str | None] | None = None
    rows: list[list[str]] = []
    flag_fields: list[str | None] | None = None
    bad = 0
    width = -1  # len(fields): rows of that width starting with a digit are data rows
    for line in lines:
        if width > 0:  # fast path for the rows under a header (a -l loop logs thousands)
            cells = line.rstrip().split(", ")
            if len(cells) == width and cells[0][:1].isdigit() and ",," not in line \
                    and " ," not in line:
                rows.append(cells)
                continue
        s = line.strip()
        if not s:
            continue
        if "nvidia-smi" in s:
            if m := _QUERY_FLAG.search(s):
                flag_fields = [field_of(f) or "other" for f in m.group(1).split(",") if f]
            continue
        # nvidia-smi separates with ", "; anything else (hand edits) is stripped cell by cell
        cells = s.split(", ") if ", " in s and ",," not in s and " ," not in s else \
            [c.strip() for c in s.split(",")]
        if len(cells) < 2:
            continue
        if fields is None or not cells[0][:1].isdigit():  # a data row starts with a number
            header = _header_fields(cells)
            if header is not None:  # a new query (pastes join several): finish the last one
                if flag_fields is not None and len(flag_fields) == len(header):
                    # a cell the paste damaged ("nme"): the command line names that column
                    header = [h if h not in (None, "other") else f
                              for h, f in zip(header, flag_fields, strict=True)]
                _flush(reading, fields, rows)
                fields, rows, width = header, [], len(header)
                reading.recognised = True
                continue
        if not cells[0][:1].isdigit() and _garbled_header(cells):
            # a header garbled beyond reading ("index, >  name, ...", "nme, memory.total
            # [MiB], ..."): never data; the command line's fields stand in for it
            if fields is None and flag_fields is not None and len(cells) == len(flag_fields):
                fields, width = flag_fields, len(flag_fields)
                reading.recognised = True
            else:
                bad += 1
            continue
        if fields is None and flag_fields is not None and len(cells) == len(flag_fields):
            fields, width = flag_fields, len(flag_fields)
        if fields is not None:
            if len(cells) == len(fields):
                rows.append(cells)
            else:
                bad += 1
        else:
            rows.append(cells)
    _flush(reading, fields, rows)
    if bad:
        reading.warn(f"{bad} CSV row(s) had the wrong number of columns and were skipped",
                     f"{bad} 行 CSV 列数不对，已跳过")
    return reading


def _garbled_header(cells: list[str]) -> bool:
    """A header line nvidia-smi printed and the paste damaged: its first cell is a field name,
    or at least half its cells look like field names or carry a unit in brackets."""
    if field_of(cells[0]) not in (None, "other"):
        return True
    named = sum(1 for c in cells if field_of(c) is not None or ("[" in c and c.endswith("]")))
    return named * 2 >= len(cells)


def _flush(reading: Reading, fields: list[str | None] | None, rows: list[list[str]]) -> None:
    """Turn the rows under one header (or none) into GPUs."""
    if not rows:
        return
    if fields is None:
        width = len(rows[0])
        rows = [r for r in rows if len(r) == width]
        fields = _guess_fields(rows)
        if "name" not in fields and "uuid" not in fields and "bus_id" not in fields:
            return
        reading.warn("CSV without a header: only self-describing columns (name, UUID, MiB, %) "
                     "were read", "CSV 没有表头：只读取了能自我说明的列（名称、UUID、MiB、%）")
    _rows_to_gpus(reading, fields, rows)
    reading.recognised = reading.recognised or bool(reading.gpus)


_SAMPLES = {"temp": "temp_c", "util": "sm_util", "mem_util": "mem_util", "power": "power_w",
            "pclk": "pclk_mhz", "enc": "enc_util"}


def _rows_to_gpus(reading: Reading, fields: list[str | None], rows: list[list[str]]) -> None:
    # A garbled header kept among the rows (a pasted command line before it) has another
    # width: only rows as wide as the header are data (the columns below index by position).
    rows = [r for r in rows if len(r) == len(fields)]
    if not rows:
        return
    groups: dict[str, list[list[str]]] = {}
    per_stamp: dict[str, int] = {}
    id_at = next((fields.index(f) for f in ("index", "uuid", "bus_id") if f in fields), None)
    stamp_at = fields.index("timestamp") if "timestamp" in fields else None
    looped = id_at is None and stamp_at is None and len(rows) > 16
    if looped:  # a -l loop without index/timestamp: rows of all GPUs, all samples, mixed
        reading.count_is_fragment = True
        reading.warn("the CSV has no index, UUID, bus id or timestamp column and many rows: "
                     "GPUs cannot be told apart, so the GPU count is unknown",
                     "CSV 没有 index、UUID、总线号或时间戳列且行数很多：无法区分各张显卡，"
                     "显卡数量未知")
    if id_at is not None:  # by GPU (index, UUID or bus id)
        ids = list(map(itemgetter(id_at), rows))
        keys = dict.fromkeys(ids)
        if len(keys) == 1:
            groups[ids[0]] = rows
        else:  # one pass (a pass per GPU was quadratic: 100,000 indices ran for minutes)
            for key, row in zip(ids, rows, strict=True):
                group = groups.get(key)
                if group is None:
                    if len(groups) >= MAX_GPUS:
                        continue
                    group = groups[key] = []
                group.append(row)
            if len(keys) > MAX_GPUS:
                reading.warn(f"the CSV names {len(keys):,} GPUs; only the first {MAX_GPUS:,} "
                             "were read", f"CSV 中有 {len(keys):,} 张显卡；只读取了前 "
                             f"{MAX_GPUS:,} 张")
    for n, row in enumerate(rows if id_at is None else ()):
        if stamp_at is not None:  # position of the row within one sample
            stamp = row[stamp_at]
            per_stamp[stamp] = per_stamp.get(stamp, -1) + 1
            key = str(per_stamp[stamp])
        else:
            key = "all" if looped else str(n)
        group = groups.get(key)
        if group is None:
            group = groups[key] = []
        group.append(row)
    used = [(i, f) for i, f in enumerate(fields) if f and f not in ("other", "timestamp")]
    earlier = list(reading.gpus)
    fresh: list[GpuReading] = []
    for group in groups.values():
        gpu = GpuReading()
        fresh.append(gpu)
        columns = list(zip(*group, strict=True))  # rows are all len(fields) wide
        for i, field in used:
            if field in _SAMPLES:  # every sample, converted column-wise
                getattr(gpu, _SAMPLES[field]).extend(_column(columns[i]))
            elif field == "mask" or field.startswith("reason:"):
                for cell in dict.fromkeys(columns[i]):  # each distinct value once
                    if _has_value(cell):
                        _apply(reading, gpu, field, cell)
            else:  # a scalar: the latest row that shows it
                cell = next((c for c in reversed(columns[i]) if _has_value(c)), None)
                if cell is not None:
                    _apply(reading, gpu, field, cell)
    if id_at is None:
        for i, gpu in enumerate(fresh):
            gpu.index = i
    # a second query of the same GPUs (index, UUID or bus id) adds to them: found by key,
    # not by a scan of the earlier GPUs for each new one
    by_key: dict[tuple[str, object], GpuReading] = {}
    for g in reversed(earlier):  # the first match wins, as a scan in order would find
        for key in (("i", g.index), ("u", g.uuid), ("b", g.bus_id)):
            if key[1] is not None and key[1] != "":
                by_key[key] = g
    for gpu in fresh:
        same = next((by_key[k] for k in (("i", gpu.index), ("u", gpu.uuid or None),
                                         ("b", gpu.bus_id or None))
                     if k[1] is not None and k in by_key), None)
        if same is None:
            reading.gpus.append(gpu)
        else:
            same.absorb(gpu)


def _has_value(cell: str) -> bool:
    return bool(cell) and cell[0] != "[" and cell != "N/A"


def _column(cells: tuple[str, ...]) -> list[float]:
    """``"99 %"``, ``"81559 MiB"``, ``"700.00 W"`` cells as numbers; N/A left out. A looped
    log repeats few distinct values per column: each is parsed once, then looked up."""
    parsed = {c: _cell_number(c) for c in set(cells)}
    if None in parsed.values():
        cells = tuple(c for c in cells if parsed[c] is not None)
    return list(map(parsed.__getitem__, cells))  # type: ignore[arg-type]


def _cell_number(cell: str) -> float | None:
    if not _has_value(cell):
        return None
    value = to_float(cell)
    return value if value is not None and abs(value) < 1e12 else None


def _apply(reading: Reading, gpu: GpuReading, field: str, cell: str) -> None:
    if field == "index":
        gpu.index = to_int(cell)
    elif field == "name":
        gpu.name = cell
    elif field == "uuid":
        gpu.uuid = cell
    elif field == "bus_id":
        gpu.bus_id = norm_bus_id(cell)
    elif field == "driver":
        reading.driver_version = cell
    elif field == "pstate":
        gpu.pstate = cell.upper()
    elif field == "count":
        reading.declared_gpu_count = to_int(cell)
    elif field == "virt":
        gpu.virtualization = VIRT_MODES.get(cell.lower())
    elif field == "mig":
        gpu.mig_enabled = {"enabled": True, "disabled": False}.get(cell.lower())
    elif field == "mask":
        mask = parse_mask(cell)
        if mask is not None:
            gpu.throttle |= reasons_from_mask(mask)
            gpu.throttle_shown = True
    elif field.startswith("reason:"):
        active = is_active(cell)
        if active is not None:
            gpu.throttle_shown = True
        if active:
            gpu.throttle.add(field[7:])
    else:
        _apply_number(gpu, field, to_float(cell))


def _apply_number(gpu: GpuReading, field: str, value: float | None) -> None:
    if value is None:
        return
    samples = {"temp": gpu.temp_c, "util": gpu.sm_util, "mem_util": gpu.mem_util,
               "power": gpu.power_w, "pclk": gpu.pclk_mhz, "enc": gpu.enc_util}
    if field in samples:
        samples[field].append(value)
    elif field == "mem_total":
        gpu.memory_total_mib = as_int(value)
    elif field == "mem_used":
        gpu.memory_used_mib = as_int(value)
    elif field == "power_limit":
        gpu.power_limit_w = value
    elif field in ("gen_cur", "gen_max", "width_cur", "width_max"):
        attr = {"gen_cur": "pcie_gen_current", "gen_max": "pcie_gen_max",
                "width_cur": "pcie_width_current", "width_max": "pcie_width_max"}[field]
        setattr(gpu, attr, as_int(value))
