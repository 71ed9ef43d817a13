"""Merged readings → the public ``HardwareDescription`` (aggregates, links, observations)."""

from __future__ import annotations

import dataclasses
import itertools
from statistics import median

from advisor.hwimport.links import intra_link, topo_links
from advisor.hwimport.merge import Merged
from advisor.hwimport.model import GpuFacts, HardwareDescription
from advisor.hwimport.observations import BUSY_PCT, observe, width_downgraded
from advisor.hwimport.reading import GpuReading
from advisor.text.i18n import Text

_VIRT_RANK = ("host_vgpu", "vgpu", "passthrough", "none")


def busy_mean(samples: list[float], busy_pct: float = BUSY_PCT,
              breaks: list[int] | None = None) -> float | None:
    """Mean utilisation while the GPU was working: samples before the ramp-up and after the
    ramp-down (below half the peak) are dropped, idle gaps in between (a GPU waiting for data)
    are kept. ``breaks``: where separate recordings start (each has its own ramp-up). None if
    the GPU never got busy. # F28"""
    if not samples:
        return None
    peak = max(samples)
    if peak < busy_pct:
        return None
    level = max(busy_pct, peak / 2)
    edges = [0, *sorted(b for b in (breaks or []) if 0 < b < len(samples)), len(samples)]
    window: list[float] = []
    for lo, hi in itertools.pairwise(edges):
        run = samples[lo:hi]
        busy = [i for i, v in enumerate(run) if v >= level]
        if busy:
            window += run[busy[0]:busy[-1] + 1]
    return round(sum(window) / len(window), 2)


# What a GPU can report (review 4: a mangled log's "1e+40 °C", "1e40 %" and "-46068 MiB"
# were shown and read as evidence by the diagnosis): readings outside are left out as
# unreadable, and a warning says which.
SERIES_BOUNDS = {"sm_util": (0.0, 100.0), "mem_util": (0.0, 100.0), "enc_util": (0.0, 100.0),
                 "temp_c": (-40.0, 150.0), "power_w": (0.0, 3000.0), "pclk_mhz": (0.0, 5000.0)}
SCALAR_BOUNDS = {"memory_total_mib": (1, 1 << 21), "memory_used_mib": (0, 1 << 21),
                 "power_limit_w": (1.0, 3000.0), "slowdown_temp_c": (0.0, 150.0)}


READING_NAMES = {
    "sm_util": Text(en="GPU utilisation", zh="显卡利用率"),
    "mem_util": Text(en="memory utilisation", zh="显存带宽利用率"),
    "enc_util": Text(en="encoder utilisation", zh="编码器利用率"),
    "temp_c": Text(en="temperature", zh="温度"),
    "slowdown_temp_c": Text(en="slowdown temperature", zh="降频温度"),
    "power_w": Text(en="power draw", zh="功耗"),
    "power_limit_w": Text(en="power limit", zh="功耗上限"),
    "pclk_mhz": Text(en="clock", zh="频率"),
    "memory_total_mib": Text(en="memory size", zh="显存容量"),
    "memory_used_mib": Text(en="memory used", zh="已用显存"),
}


def plausible(g: GpuReading) -> tuple[GpuReading, list[str]]:
    """``g`` without the readings no GPU reports (a copy), and the names of those left out."""
    changes: dict[str, object] = {}
    dropped: list[str] = []
    for name, (lo, hi) in SERIES_BOUNDS.items():
        values = getattr(g, name)
        keep = [i for i, v in enumerate(values) if lo <= v <= hi]
        if len(keep) == len(values):
            continue
        dropped.append(name)
        changes[name] = [values[i] for i in keep]
        if name == "sm_util":  # a new recording starts where as many kept samples precede it
            changes["util_breaks"] = sorted({sum(1 for i in keep if i < b)
                                             for b in g.util_breaks} - {0})
    for name, (lo, hi) in SCALAR_BOUNDS.items():
        value = getattr(g, name)
        if value is not None and not lo <= value <= hi:
            dropped.append(name)
            changes[name] = None
    return (dataclasses.replace(g, **changes) if changes else g), dropped


def _facts(g: GpuReading) -> GpuFacts:
    util = g.sm_util
    return GpuFacts(
        index=g.index, name=g.name, bus_id=g.bus_id, uuid=g.uuid,
        memory_total_mib=g.memory_total_mib, memory_used_mib=g.memory_used_mib,
        sm_util_pct=round(sum(util) / len(util), 2) if util else None,
        busy_util_pct=busy_mean(util, breaks=g.util_breaks), util_samples=len(util),
        mem_util_pct=round(sum(g.mem_util) / len(g.mem_util), 2) if g.mem_util else None,
        temp_c=max(g.temp_c) if g.temp_c else None, slowdown_temp_c=g.slowdown_temp_c,
        power_draw_w=max(g.power_w) if g.power_w else None, power_limit_w=g.power_limit_w,
        pstate=g.pstate, sm_clock_mhz=float(median(g.pclk_mhz)) if g.pclk_mhz else None,
        throttle_active=sorted(g.throttle) if g.throttle_shown or g.throttle else None,
        pcie_gen_current=g.pcie_gen_current,
        pcie_gen_max=g.pcie_gen_max, pcie_width_current=g.pcie_width_current,
        pcie_width_max=g.pcie_width_max, virtualization=g.virtualization, vgpus=g.vgpus,
        mig_devices=g.mig_devices, mig_enabled=g.mig_enabled, fabric_state=g.fabric_state,
        encoder_util_pct=round(sum(g.enc_util) / len(g.enc_util), 2) if g.enc_util else None)


def _throttle(gpus: list[GpuFacts]) -> list[str] | None:
    """Reasons active on any GPU; None when no output showed any GPU's reasons."""
    shown = [g.throttle_active for g in gpus if g.throttle_active is not None]
    return sorted({t for reasons in shown for t in reasons}) if shown else None


def describe(merged: Merged) -> HardwareDescription:
    checked = [plausible(g) for g in merged.gpus]
    gpus = [_facts(g) for g, _ in checked]
    gpu_count = max(merged.counts) if merged.counts else None
    warnings = list(merged.warnings)
    odd = [READING_NAMES[n] for n in READING_NAMES
           if any(n in dropped for _, dropped in checked)]
    if odd:
        warnings.append(Text(
            en="left out, as no GPU can report such values: "
               + ", ".join(t.en for t in odd),
            zh="已略去显卡不可能给出的读数：" + "、".join(t.zh for t in odd)))
    notes: list[tuple[str, str]] = []
    links = topo_links(merged.topo, gpu_count or 0, notes) if merged.topo is not None \
        else None
    # the readings kept: a size no card has (a 320-digit MiB count) never reaches the names
    link = intra_link(links, [g for g, _ in checked], gpu_count, notes)
    warnings += [Text(en=en, zh=zh) for en, zh in notes if Text(en=en, zh=zh) not in warnings]
    if merged.topo is not None and merged.topo.pcie_only_view and (gpu_count or 0) != 1:
        warnings.append(Text(en="`topo -mp` shows PCIe paths only: it cannot tell whether the "
                                "GPUs have NVLink (use `topo -m`)",
                             zh="`topo -mp` 只显示 PCIe 路径，无法判断是否有 NVLink"
                                "（请用 `topo -m`）"))
    elif merged.topo is not None and not merged.topo.mode_known and links and \
            links.nvlink == "none":
        warnings.append(Text(en="no legend or command line: read as `topo -m` (if this was "
                                "`topo -mp`, NVLink is unknown)",
                             zh="没有图例或命令行：按 `topo -m` 解读（若为 `topo -mp`，"
                                "则无法判断 NVLink）"))
    temps = [g.temp_c for g in gpus if g.temp_c is not None]
    utils = [g.sm_util_pct for g in gpus if g.sm_util_pct is not None]
    virt = {g.virtualization for g in gpus if g.virtualization}
    widths = [w for w in (width_downgraded(g) for g in gpus) if w is not None]
    gen_max = [g.pcie_gen_max for g in gpus if g.pcie_gen_max]
    width_max = [g.pcie_width_max for g in gpus if g.pcie_width_max]
    width_cur = [g.pcie_width_current for g in gpus if g.pcie_width_current]
    kinds = merged.kinds
    desc = HardwareDescription(
        kind=kinds[0] if len(kinds) == 1 else "merged", kinds=kinds, sources=merged.sources,
        driver_version=merged.driver_version, cuda_version=merged.cuda_version,
        gpu_count=gpu_count,
        gpus_not_shown=max(0, gpu_count - len(gpus)) if gpu_count is not None else None,
        gpu_names=[g.name for g in gpus if g.name],
        gpu_memory_mib=[g.memory_total_mib for g in gpus if g.memory_total_mib is not None],
        gpus=gpus,
        nvlink=links.nvlink if links else None,
        nvlink_pairs=links.nvlink_pairs if links else None,
        max_nv_links=links.max_nv_links if links else None,
        rdma_nics=list(merged.topo.nics)
        if merged.topo is not None and (merged.topo.nics_shown or merged.topo.nics) else None,
        numa_nodes=len(merged.topo.numa_affinities) or None if merged.topo else None,
        worst_pcie_path=links.worst_pcie_path if links else None,
        worst_nic_path=links.worst_nic_path if links else None,
        intra_link=link,
        virtualization=next((v for v in _VIRT_RANK if v in virt), None),
        throttle_active=_throttle(gpus),
        max_gpu_temp_c=max(temps) if temps else None,
        pcie_width_downgraded=any(widths) if widths else None,
        pcie_gen_max=min(gen_max) if gen_max else None,
        pcie_width_max=min(width_max) if width_max else None,
        pcie_width_current=min(width_cur) if width_cur else None,
        mean_sm_util=round(sum(utils) / len(utils), 2) if utils else None,
        sm_util_per_gpu=[g.sm_util_pct for g in gpus],
        warnings=warnings)
    if desc.gpus_not_shown and desc.gpu_names:
        shown = len(gpus)
        desc.warnings.append(Text(
            en=f"the GPU model and memory are those of the {shown} GPU(s) shown; the other "
               f"{desc.gpus_not_shown} of {gpu_count} were counted but not shown (paste the "
               "full output to see them)",
            zh=f"显卡型号和显存只来自显示出的 {shown} 张卡；其余 {desc.gpus_not_shown} 张"
               f"（共 {gpu_count} 张）只被计数而未显示（请粘贴完整输出）"))
    mig = [g for g in gpus if g.mig_devices]
    if mig:
        desc.warnings.append(Text(
            en="MIG splits " + ", ".join(f"GPU {g.index} into {g.mig_devices}" for g in mig) +
               " devices: each MIG device is a fraction of one GPU",
            zh="MIG 将 " + "，".join(f"GPU {g.index} 切分为 {g.mig_devices} 个" for g in mig) +
               "设备：每个 MIG 设备只是一张卡的一部分"))
    desc.observations = observe(desc)
    return desc
