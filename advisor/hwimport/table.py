"""The plain `nvidia-smi` table (and the `nvidia-smi vgpu` host table).

Read by cells between "|" and by what each cell holds, not by character columns: the table is
79, 89 or 91 characters wide depending on the driver, has 2 lines per GPU before driver 450
and 3 after, shows "Driver-Model/WDDM" on Windows, and arrives with doubled pipes, tabs and
cut-off rows. Sections (GPUs, MIG devices, processes) are told apart by their headings so a
process row is never read as a GPU.
"""

from __future__ import annotations

import re
from functools import lru_cache

from advisor.hwimport.reading import GpuReading, Reading, norm_bus_id

_DRIVER = re.compile(r"Driver Version:\s*([0-9][0-9.]*)")
_CUDA = re.compile(r"CUDA Version:\s*([0-9][0-9.]*)")
_ROW_START = re.compile(r"^\s*(\d{1,3})\s+(\S.*?)\s*$")
_VGPU_ROW = re.compile(r"^\s*(\d{5,})\s+\S")
_TEMP = re.compile(r"(-?\d+)C\b")
_PSTATE = re.compile(r"\b(P\d{1,2})\b")
_POWER = re.compile(r"(\d+)W\s*/\s*(\d+)W")
_MEMORY = re.compile(r"(\d+)MiB\s*/\s*(\d+)MiB")
_UTIL = re.compile(r"^\s*(\d{1,3})%")
_PERSISTENCE = frozenset({"On", "Off", "WDDM", "TCC", "MCDM", "N/A"})


def _cells(s: str) -> list[str]:
    body = s[1:] if s.startswith("|") else s
    if body.endswith("|"):
        body = body[:-1]
    return body.split("|")


def parse_table(lines: list[str]) -> Reading:
    reading = Reading(kind="table")
    state = "pre"
    vgpu_table = False
    gpu: GpuReading | None = None
    gpu_line = 0
    pending_mig: list[int] = []
    info = {line: _line_info(line) for line in dict.fromkeys(lines)}  # tables repeat lines
    end = len(lines)
    while end and not lines[end - 1].strip():  # the text's last newline ends no section
        end -= 1
    for what, payload in map(info.__getitem__, lines[:end]):
        if what is _OTHER:
            continue
        if what is _BLANK:
            if state == "gpus":
                state = "after"
            continue
        if what is _SMI:
            reading.recognised = True
            driver, cuda = payload
            reading.driver_version = driver or reading.driver_version
            reading.cuda_version = cuda or reading.cuda_version
            state, gpu = "pre", None
            continue
        if what is _BORDER:
            gpu_line = 0
            continue
        if what is _RULE:
            state = {"hdr": "gpus", "mig_hdr": "mig", "proc_hdr": "procs"}.get(state, state)
            gpu_line = 0
            continue
        if what is _HEADER:
            state, vgpu_table = "hdr", vgpu_table or payload
            reading.recognised = True
            continue
        if what is _VGPU:
            vgpu_table = True
            continue
        if what is _MIG_HEADER:
            state = "mig_hdr"
            continue
        if what is _PROC_HEADER:
            state = "proc_hdr"
            continue
        cells = payload
        if state in ("pre", "hdr", "after") and _looks_like_gpu_row(cells):
            state = "gpus"
        if state == "gpus":
            gpu, gpu_line = _gpu_line(reading, cells, gpu, gpu_line, vgpu_table, pending_mig)
        elif state == "mig":
            m = re.match(r"^\s*(\d{1,3})\s+\d+\s+\d+\s+\d+\s*$", cells[0])
            if m:
                target = reading.gpu_at(int(m.group(1)))
                target.mig_devices = (target.mig_devices or 0) + 1
                target.mig_enabled = True
    if vgpu_table:
        for g in reading.gpus:
            g.virtualization = "host_vgpu"  # `nvidia-smi vgpu` answers only on a vGPU host
    if pending_mig:
        reading.warn("a MIG mode change is pending on GPU " + ", ".join(map(str, pending_mig)) +
                     " (shown with *): it takes effect after a GPU reset",
                     "GPU " + ", ".join(map(str, pending_mig)) +
                     " 的 MIG 模式变更尚未生效（带 * 号）：需重置显卡后才生效")
    if reading.recognised and not reading.gpus:
        reading.warn("the table shows no GPU rows (cut or elided)",
                     "表格中没有显卡行（被截断或省略）")
    last = info[lines[end - 1]][0] if end else _BLANK  # a closing border ends a whole table
    _short_count(reading, ended_in_rows=state == "gpus" and last == _CELLS,
                 last_gpu=gpu.index if gpu is not None else None)
    return reading


def _short_count(reading: Reading, *, ended_in_rows: bool, last_gpu: int | None) -> None:
    """Warnings where the GPU count read may be short (a user review: an 8-GPU table cut mid-row
    read "GPUs 3", one with a GPU's rows deleted "GPUs 7", neither said): indices that skip
    some, or a table that ends inside a GPU's rows (its text stops before the row's border)."""
    indices = sorted({g.index for g in reading.gpus if g.index is not None})
    if not indices:
        return
    missing = sorted(set(range(indices[-1] + 1)) - set(indices))
    if missing:
        shown = ", ".join(map(str, missing[:8])) + (" …" if len(missing) > 8 else "")
        reading.warn(f"the table skips GPU {shown}: rows may be missing, and the GPU count "
                     f"({len(indices)}) may be short",
                     f"表格跳过了 GPU {shown}：可能缺了几行，读到的卡数（{len(indices)}）可能偏少")
    elif ended_in_rows:
        at = indices[-1] if last_gpu is None else last_gpu
        reading.warn(f"the table stops inside GPU {at}'s rows: it may be cut off, and the GPU "
                     f"count ({len(indices)}) may be short",
                     f"表格在 GPU {at} 的行中间结束：可能被截断，读到的卡数（{len(indices)}）可能偏少")


_BLANK, _OTHER, _SMI, _BORDER, _RULE, _HEADER, _VGPU, _MIG_HEADER, _PROC_HEADER, _CELLS = (
    "blank", "other", "smi", "border", "rule", "header", "vgpu", "mig", "processes", "cells")


def _line_info(line: str) -> tuple[str, object]:
    """What one table line is, with what the parser needs from it; worked out once per
    distinct line (a watch log repeats borders, headers and most GPU rows)."""
    s = line.strip()
    if not s:
        return _BLANK, None
    if s[0] not in "|+":
        return _OTHER, None
    if "NVIDIA-SMI" in s:
        driver, cuda = _DRIVER.search(s), _CUDA.search(s)
        return _SMI, (driver.group(1) if driver else None, cuda.group(1) if cuda else None)
    if s[0] == "+" or s.startswith("|-"):
        return _BORDER, None
    if "=====" in s:
        return _RULE, None
    if "GPU  Name" in s or "GPU Name" in s:
        return _HEADER, "vGPU" in s
    if "vGPU ID" in s or "vGPU-Util" in s:
        return _VGPU, None
    if "MIG devices" in s:
        return _MIG_HEADER, None
    if "Processes:" in s:
        return _PROC_HEADER, None
    return _CELLS, _cells(s)


def _looks_like_gpu_row(cells: list[str]) -> bool:
    return len(cells) >= 2 and bool(_ROW_START.match(cells[0])) and norm_bus_id(cells[1]) is not None


@lru_cache(maxsize=2048)
def _stats(first: str, memory: str, util: str) -> tuple:
    """The second line of a GPU row: temperature, P-state, power, memory, utilisation.
    Cached: in a log of repeated tables most of these lines repeat exactly."""
    t, p, w = _TEMP.search(first), _PSTATE.search(first), _POWER.search(first)
    mem, u = _MEMORY.search(memory), _UTIL.match(util)
    return (float(t.group(1)) if t else None, p.group(1) if p else None,
            (float(w.group(1)), float(w.group(2))) if w else None,
            (int(mem.group(1)), int(mem.group(2))) if mem else None,
            float(u.group(1)) if u else None)


@lru_cache(maxsize=2048)
def _first_line(first: str, second: str) -> tuple[int, str, str | None] | None:
    """The first line of a GPU row: (index, name, bus id), or None."""
    m = _ROW_START.match(first)
    if not m or _TEMP.search(first):
        return None
    name = m.group(2)
    parts = name.rsplit(None, 1)
    if len(parts) == 2 and parts[1] in _PERSISTENCE:
        name = parts[0]
    return int(m.group(1)), name.strip(), norm_bus_id(second) if second else None


def _gpu_line(reading: Reading, cells: list[str], gpu: GpuReading | None, gpu_line: int,
              vgpu_table: bool, pending_mig: list[int]) -> tuple[GpuReading | None, int]:
    first = cells[0]
    if vgpu_table and _VGPU_ROW.match(first):
        if gpu is not None:
            gpu.vgpus = (gpu.vgpus or 0) + 1
        return gpu, gpu_line
    row = _first_line(first, cells[1] if len(cells) > 1 else "") if gpu_line == 0 else None
    if row is not None:
        index, name, bus_id = row
        gpu = reading.gpu_at(index)
        gpu.name = name or gpu.name
        gpu.bus_id = gpu.bus_id or bus_id
        if vgpu_table and len(cells) > 2 and (u := _UTIL.match(cells[2])):
            gpu.sm_util.append(float(u.group(1)))
        return gpu, 1
    if gpu is None:
        return gpu, gpu_line
    if gpu_line == 1:
        temp, pstate, power, memory, util = _stats(
            first, cells[1] if len(cells) > 1 else "", cells[2] if len(cells) > 2 else "")
        if temp is not None:
            gpu.temp_c.append(temp)
        gpu.pstate = pstate or gpu.pstate
        if power is not None:
            gpu.power_w.append(power[0])
            gpu.power_limit_w = power[1]
        if memory is not None:
            gpu.memory_used_mib, gpu.memory_total_mib = memory
        if util is not None:
            gpu.sm_util.append(util)
        return gpu, 2
    if gpu_line == 2 and len(cells) > 2:
        mig = cells[-1].strip()
        if mig.endswith("*"):
            pending_mig.append(gpu.index if gpu.index is not None else -1)
        elif mig in ("Enabled", "Disabled"):
            gpu.mig_enabled = mig == "Enabled"
        return gpu, 3
    return gpu, gpu_line
