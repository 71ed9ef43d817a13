"""`nvidia-smi -L` / `--list-gpus`: "GPU 0: NAME (UUID: GPU-...)" with MIG children indented.

Logs from several machines repeat indices with other UUIDs: each restart at GPU 0 with a new
UUID is another machine, and the count is per machine (what the profile's gpus_per_node wants).
"""

from __future__ import annotations

import re

from advisor.hwimport.reading import MAX_GPUS, GpuReading, Reading

_MIG = re.compile(r"^MIG\s+(\S+)\s+Device\s+(\d+)\s*:")


def parse_list(lines: list[str]) -> Reading:
    reading = Reading(kind="list")
    machines: list[list[GpuReading]] = [[]]
    seen_uuids: set[str] = set()
    current: GpuReading | None = None
    seen_lines: set[str] = set()
    listed = [0]  # GPU lines of each machine (past MAX_GPUS counted, not kept)
    for line in lines:
        s = line.strip()
        if not s:
            continue
        if s in seen_lines:  # the same line pasted again: the same GPU
            current = None
            continue
        if s.startswith("GPU ") and (parsed := _gpu_line(s)):
            seen_lines.add(s)
            index, name, uuid = parsed
            if "UUID" not in s and not _looks_like_gpu_name(name):
                continue
            if uuid and uuid in seen_uuids and not uuid.upper().startswith("GPU-XXXX"):
                current = None  # the same command pasted twice
                continue
            if uuid:
                seen_uuids.add(uuid)
            group = machines[-1]
            if group and (group[-1].index is None or index <= group[-1].index):
                group = []
                machines.append(group)
                listed.append(0)
            listed[-1] += 1
            if len(group) >= MAX_GPUS:  # issue 35: 100,000 GPUs were cut to 10,000 unsaid
                current = None
                reading.recognised = True
                continue
            current = GpuReading(index=index, name=name, uuid=uuid or None)
            group.append(current)
            reading.recognised = True
        elif s.startswith("MIG ") and _MIG.match(s) and current is not None:
            current.mig_devices = (current.mig_devices or 0) + 1
            current.mig_enabled = True
    reading.gpus = max(machines, key=len)
    if max(listed) > MAX_GPUS:
        reading.warn(f"the list names {max(listed):,} GPUs of one machine; only the first "
                     f"{MAX_GPUS:,} were read",
                     f"列表中一台机器有 {max(listed):,} 张显卡；只读取了前 {MAX_GPUS:,} 张")
    if len(machines) > 1:
        reading.warn(f"the list repeats GPU indices: it looks like {len(machines)} machines; "
                     "GPUs were counted per machine",
                     f"列表中显卡编号重复：看起来是 {len(machines)} 台机器的输出；按单台机器计数")
    return reading


def _gpu_line(s: str) -> tuple[int, str, str] | None:
    """``GPU 0: NAME (UUID: GPU-...)`` → (0, NAME, GPU-...), by string splitting (fast)."""
    number, sep, rest = s[4:].partition(": ")
    if not sep or not number.isdigit() or len(number) > 9:
        return None
    name, paren, tail = rest.partition(" (")
    uuid = ""
    if paren:
        label, colon, value = tail.partition(":")
        if colon and label.strip() in ("UUID", "S/N"):
            uuid = value.strip().rstrip(")").strip()
    name = name.strip()
    return (int(number), name, uuid) if name else None


def _looks_like_gpu_name(name: str) -> bool:
    return bool(re.match(r"(?:NVIDIA|Tesla|GeForce|Quadro|TITAN|GRID|RTX|[AHLTVBK]\d)", name))
