""""Detect this machine": the same facts through NVML (nvidia-ml-py, ``import pynvml``).

pynvml is imported only when asked, so the advisor runs where there is no NVIDIA driver; then
``NvmlUnavailable`` says so plainly. Every query is guarded: older drivers and pynvml versions
lack some calls (e.g. "clocks event reasons", NVLink remote device type), and one missing value
must not lose the rest.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from typing import Any

from advisor.hwimport.merge import merge_readings
from advisor.hwimport.model import HardwareDescription
from advisor.hwimport.reading import MAX_GPUS, GpuReading, Reading, TopoReading, norm_bus_id
from advisor.hwimport.summary import describe
from advisor.hwimport.throttle import reasons_from_mask
from advisor.text.i18n import Text

# NVML_TOPOLOGY_* levels → the tokens `nvidia-smi topo -m` prints.
_TOPOLOGY = {0: "PIX", 10: "PIX", 20: "PXB", 30: "PHB", 40: "NODE", 50: "SYS"}
_VIRT = {0: "none", 1: "passthrough", 2: "vgpu", 3: "host_vgpu", 4: "host_vgpu"}
_NVLINK_DEVICE_SWITCH = 2


class NvmlUnavailable(Exception):
    """No NVIDIA driver / NVML on this machine (or pynvml is not installed)."""

    def __init__(self, message: Text, detail: str = "") -> None:
        super().__init__(message.en + (f" ({detail})" if detail else ""))
        self.message = message
        self.detail = detail


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _load() -> Any:
    try:
        return importlib.import_module("pynvml")
    except ImportError as exc:
        raise NvmlUnavailable(Text(
            en="cannot read this machine: the nvidia-ml-py package (pynvml) is not installed",
            zh="无法读取本机：未安装 nvidia-ml-py（pynvml）"), str(exc)) from exc


def detect_machine() -> HardwareDescription:
    """Read this machine's GPUs through NVML. Raises ``NvmlUnavailable`` without a driver."""
    nvml = _load()
    try:
        nvml.nvmlInit()
    except Exception as exc:  # noqa: BLE001 - NVMLError_LibraryNotFound, DriverNotLoaded, ...
        raise NvmlUnavailable(Text(
            en="no NVIDIA driver found on this machine (NVML could not start), so there is "
               "nothing to detect; paste nvidia-smi output from the GPU server instead",
            zh="本机没有可用的 NVIDIA 驱动（NVML 无法启动），无法检测；"
               "请改为粘贴 GPU 服务器上的 nvidia-smi 输出"), _text(exc)) from exc
    try:
        reading = _read(nvml)
    finally:
        try:
            nvml.nvmlShutdown()
        except Exception:  # noqa: BLE001 - shutting down cannot change what was read
            pass
    return describe(merge_readings([reading]))


def _try(call: Callable[..., Any], *args: Any) -> Any:
    try:
        return call(*args)
    except Exception:  # noqa: BLE001 - NVMLError_NotSupported and friends: value unknown
        return None


def _read(nvml: Any) -> Reading:
    reading = Reading(kind="nvml", recognised=True, source="NVML")
    reading.driver_version = _opt(_try(nvml.nvmlSystemGetDriverVersion))
    cuda = _try(getattr(nvml, "nvmlSystemGetCudaDriverVersion", lambda: None))
    if isinstance(cuda, int) and cuda > 0:
        reading.cuda_version = f"{cuda // 1000}.{cuda % 1000 // 10}"
    declared = _whole(_try(nvml.nvmlDeviceGetCount))
    if declared is None:
        reading.warn("NVML gave no usable GPU count", "NVML 没有给出可用的显卡数量")
        declared = 0
    count = min(declared, MAX_GPUS)  # issue 35: a driver's 10^9 is not read one by one
    if declared > MAX_GPUS:
        reading.warn(f"NVML reports {declared:,} GPUs; only the first {MAX_GPUS:,} were read",
                     f"NVML 报告 {declared:,} 张显卡；只读取了前 {MAX_GPUS:,} 张")
    reading.declared_gpu_count = count
    handles = []
    for i in range(count):
        handle = _try(nvml.nvmlDeviceGetHandleByIndex, i)
        if handle is None:
            reading.warn(f"NVML could not open GPU {i}", f"NVML 无法打开 GPU {i}")
            continue
        handles.append((i, handle))
        reading.gpus.append(_gpu(nvml, i, handle))
    reading.topo = _topology(nvml, handles, reading.gpus)
    return reading


def _whole(value: Any) -> int | None:
    """A non-negative whole number NVML gave (None: none, or not one: NaN, text, 2.5)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value) or value < 0 or value != int(value):
        return None
    return int(value)


def _number(value: Any) -> float | None:
    """A finite number NVML gave (None: none, NaN, infinite or not a number)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _opt(value: Any) -> str | None:
    return _text(value) if value is not None else None


def _gpu(nvml: Any, index: int, h: Any) -> GpuReading:
    g = GpuReading(index=index, name=_opt(_try(nvml.nvmlDeviceGetName, h)),
                   uuid=_opt(_try(nvml.nvmlDeviceGetUUID, h)))
    pci = _try(nvml.nvmlDeviceGetPciInfo, h)
    g.bus_id = norm_bus_id(_text(getattr(pci, "busId", ""))) if pci is not None else None
    # every value as NVML gave it, used only when it is a finite number (issue 35: a NaN
    # memory size or a text count from a broken driver or shim)
    memory = _try(nvml.nvmlDeviceGetMemoryInfo, h)
    if memory is not None:
        total, used = _whole(getattr(memory, "total", None)), \
            _whole(getattr(memory, "used", None))
        g.memory_total_mib = total // (1024 * 1024) if total is not None else None
        g.memory_used_mib = used // (1024 * 1024) if used is not None else None
    util = _try(nvml.nvmlDeviceGetUtilizationRates, h)
    if util is not None:
        sm, mem = _number(getattr(util, "gpu", None)), _number(getattr(util, "memory", None))
        if sm is not None:
            g.sm_util.append(sm)
        if mem is not None:
            g.mem_util.append(mem)
    temp = _number(_try(nvml.nvmlDeviceGetTemperature, h,
                        getattr(nvml, "NVML_TEMPERATURE_GPU", 0)))
    if temp is not None:
        g.temp_c.append(temp)
    power = _number(_try(nvml.nvmlDeviceGetPowerUsage, h))
    if power is not None:
        g.power_w.append(power / 1000.0)
    limit = _number(_try(nvml.nvmlDeviceGetEnforcedPowerLimit, h))
    g.power_limit_w = limit / 1000.0 if limit is not None else None
    pstate = _try(nvml.nvmlDeviceGetPerformanceState, h)
    g.pstate = f"P{pstate}" if isinstance(pstate, int) and 0 <= pstate < 32 else None
    clock = _number(_try(nvml.nvmlDeviceGetClockInfo, h, getattr(nvml, "NVML_CLOCK_SM", 1)))
    if clock is not None:
        g.pclk_mhz.append(clock)
    reasons = getattr(nvml, "nvmlDeviceGetCurrentClocksEventReasons", None) or \
        getattr(nvml, "nvmlDeviceGetCurrentClocksThrottleReasons", None)
    mask = _try(reasons, h) if reasons else None
    if isinstance(mask, int):
        g.throttle = reasons_from_mask(mask)
        g.throttle_shown = True
    g.pcie_gen_current = _whole(_try(nvml.nvmlDeviceGetCurrPcieLinkGeneration, h))
    g.pcie_gen_max = _whole(_try(nvml.nvmlDeviceGetMaxPcieLinkGeneration, h))
    g.pcie_width_current = _whole(_try(nvml.nvmlDeviceGetCurrPcieLinkWidth, h))
    g.pcie_width_max = _whole(_try(nvml.nvmlDeviceGetMaxPcieLinkWidth, h))
    virt = _try(getattr(nvml, "nvmlDeviceGetVirtualizationMode", lambda _h: None), h)
    g.virtualization = _VIRT.get(virt) if isinstance(virt, int) else None
    mig = _try(getattr(nvml, "nvmlDeviceGetMigMode", lambda _h: None), h)
    if isinstance(mig, list | tuple) and mig:
        g.mig_enabled = bool(mig[0])
    return g


def _topology(nvml: Any, handles: list[tuple[int, Any]], gpus: list[GpuReading]) -> TopoReading:
    topo = TopoReading(gpu_columns=len(handles), gpu_rows={i for i, _ in handles},
                       mode_known=True, nics_shown=False)
    by_bus = {g.bus_id: g.index for g in gpus if g.bus_id}
    max_links = getattr(nvml, "NVML_NVLINK_MAX_LINKS", 18)
    nv_pairs: dict[tuple[int, int], int] = {}
    switch_links: dict[int, int] = {}
    for i, h in handles:
        for link in range(max_links):
            if _try(nvml.nvmlDeviceGetNvLinkState, h, link) != 1:
                continue
            kind = _try(getattr(nvml, "nvmlDeviceGetNvLinkRemoteDeviceType", lambda *_: None),
                        h, link)
            remote = _try(nvml.nvmlDeviceGetNvLinkRemotePciInfo, h, link)
            peer = by_bus.get(norm_bus_id(_text(getattr(remote, "busId", ""))) or "")
            if kind == _NVLINK_DEVICE_SWITCH or (peer is None and remote is not None):
                switch_links[i] = switch_links.get(i, 0) + 1
            elif peer is not None and peer != i:
                pair = (min(i, peer), max(i, peer))
                nv_pairs[pair] = nv_pairs.get(pair, 0) + 1
    for a_pos, (i, ha) in enumerate(handles):
        for j, hb in handles[a_pos + 1:]:
            pair = (min(i, j), max(i, j))
            if i in switch_links and j in switch_links:
                topo.links[pair] = f"NV{min(switch_links[i], switch_links[j])}"
                topo.switch_known = True
            elif pair in nv_pairs:
                # each end counted the shared links once
                topo.links[pair] = f"NV{max(1, nv_pairs[pair] // 2)}"
            else:
                level = _try(nvml.nvmlDeviceGetTopologyCommonAncestor, ha, hb)
                if level in _TOPOLOGY:
                    topo.links[pair] = _TOPOLOGY[level]
    return topo
