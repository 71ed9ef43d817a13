"""`nvidia-smi -q` (and `-a`, `-q -d ...`, grep'd pieces of it).

Nesting is read from indentation, never from the column of the colon: the key column is 36,
42 or 55 characters wide depending on the driver, and pasted fragments are often de-indented.
Keys are matched under their section, with the renames across drivers ("Clocks Throttle
Reasons" → "Clocks Event Reasons", "Power Readings" → "GPU Power Readings", "Gpu" → "GPU").
"""

from __future__ import annotations

import re

from advisor.hwimport.reading import GpuReading, Reading, norm_bus_id, to_float, to_int
from advisor.hwimport.throttle import is_active, reason_name

_GPU_BLOCK = re.compile(r"^GPU ([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f])\s*$")
_INDEX_FLAG = re.compile(r"(?:\s-i\s*|--id[= ])(\d+)\b")
_REASON_SECTIONS = frozenset({"clocks throttle reasons", "clocks event reasons",
                              "clocks_throttle_reasons", "clocks_event_reasons"})
_POWER_SECTIONS = frozenset({"power readings", "gpu power readings"})
_VIRT = {"none": "none", "pass-through": "passthrough", "passthrough": "passthrough",
         "vgpu": "vgpu", "host vgpu": "host_vgpu", "host_vgpu": "host_vgpu"}
# Keys and headings only `nvidia-smi -q` prints: one of them makes a text recognisably -q.
_SIGNATURE = frozenset({
    "nvsmi log", "attached gpus", "driver version", "cuda version", "product name",
    "product brand", "product architecture", "persistence mode", "gpu uuid", "vbios version",
    "performance state", "clocks throttle reasons", "clocks event reasons", "sw power cap",
    "hw slowdown", "hw thermal slowdown", "hw power brake slowdown", "sw thermal slowdown",
    "fb memory usage", "bar1 memory usage", "gpu current temp", "gpu shutdown temp",
    "gpu slowdown temp", "gpu t.limit temp", "power readings", "gpu power readings",
    "average power draw", "instantaneous power draw", "power draw", "current power limit",
    "enforced power limit", "gpu link info", "pcie generation", "link width",
    "gpu virtualization mode", "virtualization mode", "host vgpu mode", "compute mode",
    "ecc mode", "retired pages", "remapped rows", "max clocks", "applications clocks",
    "multigpu board", "minor number", "gsp firmware version", "accounting mode",
})


# Keys `_apply` reads; any other key line is skipped without tracking its section.
_WANTED = frozenset({
    "product name", "bus id", "gpu uuid", "total", "used", "gpu", "memory", "encoder",
    "performance state", "gpu current temp", "gpu slowdown temp", "power draw",
    "average power draw", "enforced power limit", "current power limit", "power limit", "max",
    "current", "virtualization mode", "multigpu board", "state", "sm", "active vgpus",
    "driver version", "cuda version", "attached gpus", "attached vgpus",
})


def parse_query(lines: list[str]) -> Reading:
    reading = Reading(kind="query")
    stack: list[tuple[int, str]] = []
    gpu: GpuReading | None = None
    implicit_seen: set[tuple[str, str]] | None = None  # keys of a GPU with no header line
    index_flag: int | None = None
    reasons_at = -1  # indentation of the open "Clocks ... Reasons" heading
    # GPU blocks repeat most lines verbatim: each distinct line is split once
    split_of = {line: _split(line) for line in dict.fromkeys(lines)}
    for entry in map(split_of.__getitem__, lines):
        if entry is None or (entry[5] and reasons_at < 0):
            continue
        indent, s, key, sep, value, _ = entry
        if reasons_at >= 0:
            if indent > reasons_at and sep:
                if gpu is None:
                    gpu = _implicit_gpu(reading)
                    implicit_seen = {("reasons", "")}
                active = is_active(value)
                if active is not None:
                    gpu.throttle_shown = True
                if active:
                    gpu.throttle.add(reason_name(key))
                continue
            reasons_at = -1
        if not sep:
            if s[0] == "G" and (m := _GPU_BLOCK.match(s)):
                gpu = GpuReading(bus_id=norm_bus_id(m.group(1)))
                reading.gpus.append(gpu)
                implicit_seen, stack = None, []
                reading.recognised = True
                continue
            if "nvidia-smi" in s:
                if m := _INDEX_FLAG.search(s):
                    index_flag = int(m.group(1))
                continue
            heading = key
            if heading in _SIGNATURE or heading.strip("= ") == "nvsmi log":
                reading.recognised = True
            while stack and stack[-1][0] >= indent:
                stack.pop()
            stack.append((indent, heading))
            if heading in _REASON_SECTIONS:
                reasons_at = indent
                if gpu is not None and implicit_seen is not None and \
                        ("reasons", "") in implicit_seen:
                    gpu = None  # a second reasons block in a fragment: the next GPU
                if gpu is not None and implicit_seen is not None:
                    implicit_seen.add(("reasons", ""))
            continue
        if key not in _WANTED:  # most lines: skipped after one set lookup
            if key in _SIGNATURE:
                reading.recognised = True
            continue
        if key in _SIGNATURE:
            reading.recognised = True
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else ""
        if key == "driver version" and not parent:
            reading.driver_version = value or None
            continue
        if key == "cuda version" and not parent:
            reading.cuda_version = value if value and value[0].isdigit() else None
            continue
        if key in ("attached gpus", "attached vgpus"):
            reading.declared_gpu_count = to_int(value)
            continue
        if not value:
            continue
        if gpu is None or implicit_seen is not None and (parent, key) in implicit_seen:
            # a GPU with no "GPU 0000:..." line exists only in fragments; after the
            # "Attached GPUs" header, wait for the real block
            if reading.declared_gpu_count is not None or not _is_gpu_key(parent, key):
                continue
            gpu = _implicit_gpu(reading)
            implicit_seen = set()
        if implicit_seen is not None:
            implicit_seen.add((parent, key))
        _apply(gpu, parent, key, value)
    _finish(reading, index_flag)
    return reading


def _split(line: str) -> tuple[int, str, str, str, str, bool] | None:
    """(indentation, stripped line, lower-case key (the whole line if no " :"), " :" or "",
    stripped value, unread); None for lines to skip. ``unread``: a "key : value" line that
    matters only inside a "Clocks ... Reasons" section (most lines of `-q`)."""
    s = line.lstrip()
    if not s:
        return None
    indent = len(line) - len(s)
    s = s.rstrip()
    if s[0] == "#" or s in ("--", "...", "…"):
        return None
    if "\t" in s:  # tab-padded keys in some pastes
        s = s.replace("\t", " ")
    key, sep, value = s.partition(" :")
    key = key.rstrip().lower()
    unread = bool(sep) and key not in _WANTED and key not in _SIGNATURE
    return indent, s, key, sep, value.strip(), unread


def _implicit_gpu(reading: Reading) -> GpuReading:
    gpu = GpuReading()
    reading.gpus.append(gpu)
    return gpu


def _is_gpu_key(parent: str, key: str) -> bool:
    if parent in ("vgpu driver capability", "") and key not in _SIGNATURE:
        return False
    return True


def _apply(gpu: GpuReading, parent: str, key: str, value: str) -> None:
    if key == "product name":
        if not parent:  # not "vGPU Software Licensed Product / Product Name"
            gpu.name = value
    elif key == "bus id" and parent == "pci":
        gpu.bus_id = gpu.bus_id or norm_bus_id(value)
    elif key == "gpu uuid":
        gpu.uuid = value
    elif parent == "fb memory usage":
        if key == "total":
            gpu.memory_total_mib = to_int(value)
        elif key == "used":
            gpu.memory_used_mib = to_int(value)
    elif parent == "utilization":
        number = to_float(value)
        if number is not None:
            if key == "gpu":
                gpu.sm_util.append(number)
            elif key == "memory":
                gpu.mem_util.append(number)
            elif key == "encoder":
                gpu.enc_util.append(number)
    elif key == "performance state":
        gpu.pstate = value.upper() if value.upper().startswith("P") else None
    elif parent == "temperature":
        if key == "gpu current temp":
            number = to_float(value)
            if number is not None:
                gpu.temp_c.append(number)
        elif key == "gpu slowdown temp":
            gpu.slowdown_temp_c = to_float(value)
    elif parent in _POWER_SECTIONS:
        if key in ("power draw", "average power draw"):
            number = to_float(value)
            if number is not None:
                gpu.power_w.append(number)
        elif key in ("enforced power limit", "current power limit", "power limit"):
            gpu.power_limit_w = gpu.power_limit_w or to_float(value)
    elif parent == "pcie generation":
        if key == "max":
            gpu.pcie_gen_max = to_int(value)
        elif key == "current":
            gpu.pcie_gen_current = to_int(value)
    elif parent == "link width":
        if key == "max":
            gpu.pcie_width_max = to_int(value)
        elif key == "current":
            gpu.pcie_width_current = to_int(value)
    elif key == "virtualization mode":
        gpu.virtualization = _VIRT.get(value.lower())
    elif parent == "mig mode" and key == "current":
        gpu.mig_enabled = {"enabled": True, "disabled": False}.get(value.lower())
    elif key == "multigpu board":
        gpu.multi_gpu_board = value.lower() == "yes"
    elif parent == "fabric" and key == "state":
        gpu.fabric_state = None if value.upper() == "N/A" else value
    elif parent == "clocks" and key == "sm":
        number = to_float(value)
        if number is not None:
            gpu.pclk_mhz.append(number)
    elif key == "active vgpus":
        gpu.vgpus = to_int(value)


def _finish(reading: Reading, index_flag: int | None) -> None:
    by_bus: dict[str, GpuReading] = {}
    unique: list[GpuReading] = []
    for gpu in reading.gpus:  # the same -q pasted twice shows each GPU twice
        if gpu.bus_id is not None and gpu.bus_id in by_bus:
            by_bus[gpu.bus_id].absorb(gpu)
            continue
        if gpu.bus_id is not None:
            by_bus[gpu.bus_id] = gpu
        unique.append(gpu)
    reading.gpus = unique
    explicit = [g for g in reading.gpus if g.bus_id is not None]
    declared = reading.declared_gpu_count
    if not reading.gpus:
        return
    if len(explicit) == len(reading.gpus) and (declared is None or declared == len(explicit)):
        for i, gpu in enumerate(reading.gpus):  # -q lists GPUs in index (PCI bus) order
            gpu.index = i
    elif len(reading.gpus) == 1 and index_flag is not None:
        reading.gpus[0].index = index_flag
    if declared is None and not explicit:
        reading.count_is_fragment = True
        reading.warn("a fragment of `nvidia-smi -q` without the GPU header: the number of GPUs "
                     "is not known from it",
                     "这是 `nvidia-smi -q` 的片段，缺少 GPU 标题行：无法据此得知显卡数量")
    elif declared is not None and len(reading.gpus) < declared:
        reading.warn(f"`nvidia-smi -q` shows {len(reading.gpus)} of {declared} attached GPUs "
                     "(run with -i, or cut short)",
                     f"`nvidia-smi -q` 只显示了 {declared} 张显卡中的 {len(reading.gpus)} 张"
                     "（使用了 -i 或输出被截断）")
