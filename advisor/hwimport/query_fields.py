"""What each `nvidia-smi -q` key sets on a GPU, by section (the parser's field table).

``field_handler(section, key)`` is asked once per (section, key) pair of a paste, not once per
line: a -q of 8 GPUs repeats the same few dozen pairs in every GPU block, and the parser keeps
the answer (the chain below used to be walked for every key line of every block).
"""

from __future__ import annotations

from collections.abc import Callable

from advisor.hwimport.reading import GpuReading, as_int, norm_bus_id

_POWER_SECTIONS = frozenset({"power readings", "gpu power readings"})
VIRT_MODES = {"none": "none", "pass-through": "passthrough", "passthrough": "passthrough",
              "vgpu": "vgpu", "host vgpu": "host_vgpu", "host_vgpu": "host_vgpu"}

# (GPU, value text, ``to_float`` of it worked out once per distinct line) → sets a field
Handler = Callable[[GpuReading, str, "float | None"], None]


def _assign(attr: str, convert: Callable[[str], object] = str) -> Handler:
    return lambda gpu, value, number: setattr(gpu, attr, convert(value))


def _number(attr: str, integer: bool = False) -> Handler:
    if integer:
        return lambda gpu, value, number: setattr(gpu, attr, as_int(number))
    return lambda gpu, value, number: setattr(gpu, attr, number)


def _fill(attr: str, number: bool = False) -> Handler:
    """Keep the first reading: a later section repeats the key with another meaning."""
    if number:
        return lambda gpu, value, n: setattr(gpu, attr, getattr(gpu, attr) or n)
    return lambda gpu, value, n: setattr(gpu, attr, getattr(gpu, attr) or norm_bus_id(value))


def _append(attr: str) -> Handler:
    def handler(gpu: GpuReading, value: str, number: float | None) -> None:
        if number is not None:
            getattr(gpu, attr).append(number)
    return handler


def _pstate(value: str) -> str | None:
    return value.upper() if value.upper().startswith("P") else None


def field_handler(parent: str, key: str) -> Handler | None:
    """What a wanted key under ``parent`` sets on the GPU (None: nothing). Decided once per
    (section, key) pair instead of walking this chain for every line of every GPU block."""
    if key == "product name":
        return _assign("name") if not parent else None  # not "vGPU Software ... / Product Name"
    if key == "bus id" and parent == "pci":
        return _fill("bus_id")
    if key == "gpu uuid":
        return _assign("uuid")
    if parent == "fb memory usage":
        return {"total": _number("memory_total_mib", integer=True),
                "used": _number("memory_used_mib", integer=True)}.get(key)
    if parent == "utilization":
        return {"gpu": _append("sm_util"), "memory": _append("mem_util"),
                "encoder": _append("enc_util")}.get(key)
    if key == "performance state":
        return _assign("pstate", _pstate)
    if parent == "temperature":
        return {"gpu current temp": _append("temp_c"),
                "gpu slowdown temp": _number("slowdown_temp_c")}.get(key)
    if parent in _POWER_SECTIONS:
        if key in ("power draw", "average power draw"):
            return _append("power_w")
        if key in ("enforced power limit", "current power limit", "power limit"):
            return _fill("power_limit_w", number=True)
        return None
    if parent in ("pcie generation", "link width"):
        what = "gen" if parent == "pcie generation" else "width"
        return {"max": _number(f"pcie_{what}_max", integer=True),
                "current": _number(f"pcie_{what}_current", integer=True)}.get(key)
    if key == "virtualization mode":
        return _assign("virtualization", lambda v: VIRT_MODES.get(v.lower()))
    if parent == "mig mode" and key == "current":
        return _assign("mig_enabled", lambda v: {"enabled": True, "disabled": False}.get(v.lower()))
    if key == "multigpu board":
        return _assign("multi_gpu_board", lambda v: v.lower() == "yes")
    if parent == "fabric" and key == "state":
        return _assign("fabric_state", lambda v: None if v.upper() == "N/A" else v)
    if parent == "clocks" and key == "sm":
        return _append("pclk_mhz")
    if key == "active vgpus":
        return _number("vgpus", integer=True)
    return None
