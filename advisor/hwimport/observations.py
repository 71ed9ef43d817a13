"""Findings worth acting on, from the merged facts; the rule base turns their ids into pitfalls.

Thresholds are the article's: most GPUs slow down above 84 °C (# F27); utilisation below 80 %
means check the data pipeline first (# F28); vGPU can make "8 GPUs" run like 2 (# F29); watch
each GPU with dmon to find the one holding the others back (# F30); NVLink vs PCIe (# F25).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter

from advisor.hwimport.display import pcie_path_label, reasons_text, virtualization_label
from advisor.hwimport.model import GpuFacts, HardwareDescription, Observation
from advisor.hwimport.throttle import THERMAL_REASONS
from advisor.text.i18n import Text

HOT_C = 84.0  # F27
STARVED_BELOW_PCT = 80.0  # F28
BUSY_PCT = 20.0  # below this a sample is idle, not starved
LAGGARD_GAP_PCT = 15.0
LAGGARD_CLOCK_RATIO = 0.85
MIN_SAMPLES_TO_COMPARE = 3
# Boards whose GPUs sit behind an on-board switch with a narrower link by design.
NARROW_BY_DESIGN = ("A16",)


def _label(g: GpuFacts) -> str:
    where = f"GPU {g.index}" if g.index is not None else "GPU"
    return f"{where} ({g.bus_id})" if g.bus_id else where


def reasons(g: GpuFacts) -> set[str]:
    """The GPU's active clocks-event reasons (empty when the output did not show them)."""
    return set(g.throttle_active or ())


def is_loaded(g: GpuFacts) -> bool:
    """Was the GPU working when the output was taken? (a power cap at idle means nothing)"""
    if g.sm_util_pct is not None:
        return g.busy_util_pct is not None
    if "gpu_idle" in reasons(g):
        return False
    return g.pstate in ("P0", "P1", "P2") and g.mig_enabled is not True


def width_downgraded(g: GpuFacts) -> bool | None:
    if g.pcie_width_current is None or g.pcie_width_max is None:
        return None
    if g.name and any(re.search(rf"\b{tag}\b", g.name) for tag in NARROW_BY_DESIGN):
        return False
    return g.pcie_width_current < g.pcie_width_max


# One evidence item: the raw string the JSON keeps (ids and values as read) and the sentence
# a person reads, with human labels, in both languages.
Evidence = tuple[str, Text]


def _ev(raw: str, en: str, zh: str) -> Evidence:
    return raw, Text(en=en, zh=zh)


def _obs(id_: str, severity: str, en: str, zh: str, evidence: list[Evidence],
         facts: list[str]) -> Observation:
    return Observation.with_evidence(id_, severity, Text(en=en, zh=zh), evidence, facts)


def _temp(g: GpuFacts) -> str:
    return f"{g.temp_c:g} °C"


def _thermal(g: GpuFacts) -> Evidence:
    slow = sorted(THERMAL_REASONS & reasons(g))
    words = reasons_text(slow)
    raw = f"{_label(g)}: {', '.join(slow)}" + (f", {g.temp_c:g} C" if g.temp_c is not None
                                               else "")
    temp = f", {_temp(g)}" if g.temp_c is not None else ""
    temp_zh = f"，{_temp(g)}" if g.temp_c is not None else ""
    return _ev(raw, f"{_label(g)}: {words.en}{temp}", f"{_label(g)}：{words.zh}{temp_zh}")


def _power(g: GpuFacts, reason: str, under_load: bool) -> Evidence:
    words = reasons_text([reason])
    if not under_load:
        return _ev(f"{_label(g)}: {reason}", f"{_label(g)}: {words.en}",
                   f"{_label(g)}：{words.zh}")
    state = f" ({g.pstate})" if g.pstate else ""
    return _ev(f"{_label(g)}: {reason} under load{state}",
               f"{_label(g)}: {words.en} under load{state}",
               f"{_label(g)}：满载时{words.zh}" + (f"（{g.pstate}）" if g.pstate else ""))


def observe(d: HardwareDescription) -> list[Observation]:
    found: list[Observation] = []
    gpus = d.gpus
    hot = [g for g in gpus if THERMAL_REASONS & reasons(g)]
    warm = [g for g in gpus if g.temp_c is not None and g.temp_c >= HOT_C and g not in hot]
    if hot or warm:
        ev = [_thermal(g) for g in hot]
        ev += [_ev(f"{_label(g)}: {g.temp_c:g} C", f"{_label(g)}: {_temp(g)}",
                   f"{_label(g)}：{_temp(g)}") for g in warm]
        found.append(_obs(
            "thermal_throttling", "critical" if hot else "warning",
            "GPUs are slowing down for heat (most GPUs throttle above 84 °C): improve airflow or "
            "cooling, and run a heat-soak test.",
            "显卡因过热降频（多数显卡在 84 °C 以上降频）：改善风道或散热，并做一次满载烤机测试。",
            ev, ["F27"]))
    brake = [g for g in gpus if "hw_power_brake_slowdown" in reasons(g)
             or "power_violation" in reasons(g)]
    capped = [g for g in gpus if "sw_power_cap" in reasons(g) and is_loaded(g)
              and g not in brake]
    if brake or capped:
        ev = [_power(g, "hw_power_brake_slowdown", False) for g in brake
              if "hw_power_brake_slowdown" in reasons(g)]
        ev += [_power(g, "power_violation", False) for g in brake
               if "power_violation" in reasons(g)]
        ev += [_power(g, "sw_power_cap", True) for g in capped]
        # Under full load a GPU often sits at its power limit by design (info); the
        # hardware power brake is the chassis or power supply cutting clocks (critical).
        found.append(_obs(
            "power_capped", "critical" if brake else "info",
            "GPUs are held back by their power limit (or the power supply's brake signal): "
            "clocks drop below their rated speed; check the power limit, supply and cooling.",
            "显卡受功率上限（或电源的降频信号）限制，频率低于额定值；"
            "请检查功率上限、电源和散热。", ev, ["F27"]))
    found.extend(_utilisation(gpus))
    if d.virtualization in ("vgpu", "host_vgpu"):
        ev = [_ev(f"{_label(g)}: {g.virtualization}" + (f", {g.vgpus} vGPUs" if g.vgpus else ""),
                  f"{_label(g)}: {virtualization_label(g.virtualization, 'en')}"
                  + (f", {g.vgpus} vGPUs" if g.vgpus else ""),
                  f"{_label(g)}：{virtualization_label(g.virtualization, 'zh')}"
                  + (f"，{g.vgpus} 个 vGPU" if g.vgpus else ""))
              for g in gpus if g.virtualization in ("vgpu", "host_vgpu")]
        found.append(_obs(
            "vgpu_sharing", "warning",
            "These GPUs are NVIDIA vGPU (time-sliced, shared): several virtual GPUs can be one "
            "physical card, so \"8 GPUs\" may run at the speed of 2. Ask for full pass-through.",
            "这些显卡是 NVIDIA vGPU（分时共享）：多个虚拟卡可能是同一张物理卡，"
            "“8 卡”可能只有 2 卡的速度。请要求整卡直通。", ev, ["F29"]))
    down = [g for g in gpus if width_downgraded(g)]
    slow_gen = [g for g in gpus if g.pcie_gen_current and g.pcie_gen_max and
                g.pcie_gen_current < g.pcie_gen_max and is_loaded(g)]
    if down or slow_gen:
        ev = [_ev(f"{_label(g)}: x{g.pcie_width_current} of x{g.pcie_width_max}",
                  f"{_label(g)}: x{g.pcie_width_current} of x{g.pcie_width_max}",
                  f"{_label(g)}：x{g.pcie_width_max} 的链路只用了 x{g.pcie_width_current}")
              for g in down]
        ev += [_ev(f"{_label(g)}: PCIe gen {g.pcie_gen_current} of {g.pcie_gen_max} under load",
                   f"{_label(g)}: PCIe gen {g.pcie_gen_current} of {g.pcie_gen_max} under load",
                   f"{_label(g)}：满载时只跑 PCIe {g.pcie_gen_current} 代"
                   f"（最高 {g.pcie_gen_max} 代）")
               for g in slow_gen]
        found.append(_obs(
            "pcie_link_downgraded", "warning",
            "A GPU's PCIe link runs narrower or slower than it can (slot, riser or BIOS "
            "setting): transfers between GPUs and to the host are slower.",
            "显卡的 PCIe 链路宽度或速率低于其能力（插槽、延长线或 BIOS 设置）："
            "显卡之间以及与主机之间的传输会变慢。", ev, ["F25"]))
    if d.nvlink == "none" and (d.gpu_count or 0) >= 2:
        found.append(_obs(
            "no_nvlink", "info",
            "No NVLink between these GPUs: gradients travel over PCIe, which can cost from 30 % "
            "up to half of the multi-GPU speed-up.",
            "这些显卡之间没有 NVLink：梯度经 PCIe 传输，多卡加速比可能因此少 30% 到一半。",
            [_ev(f"worst GPU-GPU path: {d.worst_pcie_path}",
                 f"worst GPU-GPU path: {pcie_path_label(d.worst_pcie_path, 'en')}",
                 f"最差的 GPU 间路径：{pcie_path_label(d.worst_pcie_path, 'zh')}")]
            if d.worst_pcie_path else [],
            ["F25"]))
    return found


def _utilisation(gpus: list[GpuFacts]) -> list[Observation]:
    found: list[Observation] = []
    busy = [g for g in gpus if g.busy_util_pct is not None]
    if busy:
        mean_busy = sum(g.busy_util_pct for g in busy) / len(busy)  # type: ignore[misc]
        if mean_busy < STARVED_BELOW_PCT:
            ev = [_ev(f"{_label(g)}: {g.busy_util_pct:.0f} % while busy "
                      f"({g.util_samples} samples)",
                      f"{_label(g)}: {g.busy_util_pct:.0f} % while busy "
                      f"({g.util_samples} samples)",
                      f"{_label(g)}：工作时利用率 {g.busy_util_pct:.0f}%"
                      f"（{g.util_samples} 个采样）")
                  for g in busy]
            found.append(_obs(
                "data_starvation", "warning",
                f"GPU utilisation is {mean_busy:.0f} % while working (below 80 %): check the data "
                "pipeline (loader workers, storage, preprocessing) before adding GPUs.",
                f"显卡工作时利用率仅 {mean_busy:.0f}%（低于 80%）：加卡之前先检查数据管线"
                "（数据加载进程数、存储、预处理）。", ev, ["F28"]))
    lag = _laggards(busy)
    if lag:
        found.append(_obs(
            "laggard_gpu", "warning",
            "One GPU behaves differently from the others; in synchronous training every step "
            "waits for the slowest GPU. Watch each with `nvidia-smi dmon` and fix that one.",
            "有一张显卡与其他卡表现不同；同步训练中每一步都要等最慢的那张卡。"
            "用 `nvidia-smi dmon` 逐卡观察并先解决这张卡。", lag, ["F30"]))
    return found


def _median_without(ordered: list[float], value: float) -> float:
    """The median of ``ordered`` (sorted) less one occurrence of ``value``: each GPU is
    compared with the others in constant time, not by sorting the others again (quadratic
    for thousands of GPUs)."""
    at = bisect_left(ordered, value)
    m = len(ordered) - 1

    def kth(k: int) -> float:
        return ordered[k if k < at else k + 1]

    return kth(m // 2) if m % 2 else (kth(m // 2 - 1) + kth(m // 2)) / 2


def _laggards(busy: list[GpuFacts]) -> list[Evidence]:
    if len(busy) < 2:
        return []
    evidence: list[Evidence] = []
    utils = sorted(o.busy_util_pct for o in busy)  # type: ignore[type-var]
    all_clocks = sorted(o.sm_clock_mhz for o in busy if o.sm_clock_mhz)  # type: ignore[type-var]
    shown = Counter(frozenset(reasons(o)) for o in busy if o.throttle_active is not None)
    for g in busy:
        util_others = _median_without(utils, g.busy_util_pct)  # type: ignore[arg-type]
        # one snapshot (table, -q) is too noisy to compare utilisation; dmon/CSV loops are not
        if g.util_samples >= MIN_SAMPLES_TO_COMPARE and \
                abs(g.busy_util_pct - util_others) >= LAGGARD_GAP_PCT:  # type: ignore[operator]
            raw = f"{_label(g)}: {g.busy_util_pct:.0f} % vs {util_others:.0f} % on the others"
            evidence.append(_ev(raw, raw, f"{_label(g)}：利用率 {g.busy_util_pct:.0f}%，"
                                          f"其他卡 {util_others:.0f}%"))
        if g.sm_clock_mhz and len(all_clocks) > 1:
            clock_others = _median_without(all_clocks, g.sm_clock_mhz)
            if g.sm_clock_mhz < LAGGARD_CLOCK_RATIO * clock_others:
                raw = (f"{_label(g)}: SM clock {g.sm_clock_mhz:.0f} MHz vs "
                       f"{clock_others:.0f} MHz on the others")
                evidence.append(_ev(raw, raw, f"{_label(g)}：SM 频率 {g.sm_clock_mhz:.0f} MHz，"
                                              f"其他卡 {clock_others:.0f} MHz"))
        slow = sorted(reasons(g) & (THERMAL_REASONS | {"sw_power_cap", "hw_slowdown",
                                                        "hw_power_brake_slowdown"}))
        # compared only with GPUs whose reasons were shown (unknown is not "not on the others");
        # by distinct reason sets, which are few, not GPU by GPU
        own = frozenset(reasons(g)) if g.throttle_active is not None else None
        if slow and any(not (kind & set(slow)) and count - (kind == own) > 0
                        for kind, count in shown.items()):
            words = reasons_text(slow)
            evidence.append(_ev(f"{_label(g)}: {', '.join(slow)} (not on the others)",
                                f"{_label(g)}: {words.en} (not on the others)",
                                f"{_label(g)}：{words.zh}（其他卡没有）"))
    return evidence
