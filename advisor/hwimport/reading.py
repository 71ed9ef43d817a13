"""The parsers' working notes: raw facts per GPU before merging and summarising.

Parsers fill ``Reading``; ``merge.merge_readings`` joins several; ``summary.describe`` turns the
result into the public ``HardwareDescription``. Kept as plain dataclasses so a 1 MB paste stays
fast (no validation per sample).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

from advisor.hwimport.pair_links import PairLinks
from advisor.text.i18n import Text

_BUS_RE = re.compile(r"([0-9A-Fa-f]{4,8}):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2})\.([0-9A-Fa-f])")


@lru_cache(maxsize=4096)
def norm_bus_id(text: str | None) -> str | None:
    """``00000000:1B:00.0`` and ``0000:1b:00.0`` name the same device: keep bus:dev.fn."""
    if not text:
        return None
    m = _BUS_RE.search(text)
    if not m:
        return None
    return f"{int(m.group(1), 16):04X}:{m.group(2).upper()}:{m.group(3).upper()}.{m.group(4)}"


_SERIES = ("sm_util", "mem_util", "enc_util", "temp_c", "power_w", "pclk_mhz")
_SCALARS = ("index", "bus_id", "uuid", "memory_total_mib", "memory_used_mib", "pstate",
            "power_limit_w", "slowdown_temp_c", "pcie_gen_current", "pcie_gen_max",
            "pcie_width_current", "pcie_width_max", "virtualization", "vgpus", "mig_devices",
            "mig_enabled", "fabric_state", "multi_gpu_board")


@dataclass
class GpuReading:
    index: int | None = None
    name: str | None = None
    bus_id: str | None = None
    uuid: str | None = None
    memory_total_mib: int | None = None
    memory_used_mib: int | None = None
    pstate: str | None = None
    power_limit_w: float | None = None
    slowdown_temp_c: float | None = None
    sm_util: list[float] = field(default_factory=list)
    # Where a new time series starts in sm_util (another file: a -q snapshot joined to a dmon
    # log is not one run; its samples must not hide the log's ramp-up).
    util_breaks: list[int] = field(default_factory=list)
    mem_util: list[float] = field(default_factory=list)
    enc_util: list[float] = field(default_factory=list)
    temp_c: list[float] = field(default_factory=list)
    power_w: list[float] = field(default_factory=list)
    pclk_mhz: list[float] = field(default_factory=list)
    throttle: set[str] = field(default_factory=set)
    throttle_shown: bool = False  # the output has a clocks-event-reasons view of this GPU
    pcie_gen_current: int | None = None
    pcie_gen_max: int | None = None
    pcie_width_current: int | None = None
    pcie_width_max: int | None = None
    virtualization: str | None = None
    vgpus: int | None = None
    mig_devices: int | None = None
    mig_enabled: bool | None = None
    fabric_state: str | None = None
    multi_gpu_board: bool | None = None

    def absorb(self, other: GpuReading, new_series: bool = False) -> None:
        """Add another view of the same GPU: samples join, scalars fill gaps. ``new_series``:
        the other view is another recording (another file), not the continuation of this one."""
        start = len(self.sm_util)
        if start and other.sm_util:
            if new_series:
                self.util_breaks.append(start)
            self.util_breaks += [start + b for b in other.util_breaks]
        mine, theirs = self.__dict__, other.__dict__  # plain dicts: no getattr per field
        for name in _SERIES:
            mine[name].extend(theirs[name])
        self.throttle |= other.throttle
        self.throttle_shown = self.throttle_shown or other.throttle_shown
        for name in _SCALARS:
            if mine[name] is None and theirs[name] is not None:
                mine[name] = theirs[name]
        self.name = better_name(self.name, other.name)


def better_name(a: str | None, b: str | None) -> str | None:
    """The more complete of two names for one GPU (tables cut names to ``GeForce RTX 208...``)."""
    if not a:
        return b
    if not b:
        return a
    a_cut, b_cut = a.endswith("..."), b.endswith("...")
    if a_cut != b_cut:
        return b if a_cut else a
    return a if len(a) >= len(b) else b


@dataclass
class TopoReading:
    """`nvidia-smi topo -m` (or `-mp`): links between GPUs and to NICs."""

    gpu_columns: int = 0
    gpu_rows: set[int] = field(default_factory=set)
    links: PairLinks = field(default_factory=PairLinks)  # (i, j), i < j -> token
    nic_paths: dict[int, str] = field(default_factory=dict)  # GPU -> path to its nearest NIC
    nics: list[str] = field(default_factory=list)
    nics_shown: bool = True  # NVML sees no NICs: an empty list there means "not known"
    pcie_only_view: bool = False  # -mp: NVLink not shown
    mode_known: bool = False  # -m/-mp told by a prompt or the legend
    switch_known: bool = False  # NVML saw the NVLinks end at an NVSwitch
    numa_affinities: set[str] = field(default_factory=set)


# A machine has a few GPUs, a cluster's pasted outputs some thousands: more GPU indices than
# this in one output is not a machine, and would make every later step slow.
MAX_GPUS = 4096


@dataclass
class Reading:
    kind: str
    gpus: list[GpuReading] = field(default_factory=list)
    declared_gpu_count: int | None = None  # "Attached GPUs", topo header columns
    count_is_fragment: bool = False  # a grep'd piece: the GPU count cannot be known
    driver_version: str | None = None
    cuda_version: str | None = None
    topo: TopoReading | None = None
    warnings: list[Text] = field(default_factory=list)
    recognised: bool = False  # the text was nvidia-smi output of this kind
    source: str | None = None

    def warn(self, en: str, zh: str) -> None:
        text = Text(en=en, zh=zh)
        if text not in self.warnings:
            self.warnings.append(text)

    def gpu_at(self, index: int) -> GpuReading:
        """The GPU of ``index``, added when new (found by a dict, not a scan: a -q of
        thousands of GPUs stays linear). Past ``MAX_GPUS`` a new index gets a GPU that is not
        kept, and a warning."""
        table = self.__dict__.setdefault("_by_index", {})
        done = self.__dict__.get("_indexed", 0)
        for gpu in self.gpus[done:]:
            if gpu.index is not None:
                table.setdefault(gpu.index, gpu)
        self.__dict__["_indexed"] = len(self.gpus)
        found = table.get(index)
        if found is not None and found.index == index:
            return found
        if found is not None:  # an index changed since: look again the slow way
            for gpu in self.gpus:
                if gpu.index == index:
                    return gpu
        gpu = GpuReading(index=index)
        if len(self.gpus) >= MAX_GPUS:
            self.warn(f"more than {MAX_GPUS:,} GPUs in one output; the others were not read",
                      f"一份输出中超过 {MAX_GPUS:,} 张显卡；其余未读取")
            return gpu
        self.gpus.append(gpu)
        table[index] = gpu
        self.__dict__["_indexed"] = len(self.gpus)
        return gpu


def to_float(text: str | None) -> float | None:
    """The number in a cell such as ``77 C``, ``700.00 W``, ``99 %``; None for N/A or junk."""
    if not text:
        return None
    s = text.strip().strip("[]")
    if not s or s[0] not in "+-.0123456789":
        return None
    end = 0
    for ch in s:
        if ch in "+-.0123456789":
            end += 1
        else:
            break
    try:
        value = float(s[:end])
    except ValueError:
        return None
    # 400 nines read as a float are infinite: no cell of nvidia-smi output is (a number guard
    # for every parser; int() of it would raise and lose the whole output)
    return value if math.isfinite(value) else None


def to_int(text: str | None) -> int | None:
    return as_int(to_float(text))


def as_int(value: float | None) -> int | None:
    """A number read by ``to_float`` as an int; None for none, NaN or absurd sizes."""
    if value is None or value != value or abs(value) > 1e12:
        return None
    return int(value)
