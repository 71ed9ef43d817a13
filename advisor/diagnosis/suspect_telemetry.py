"""Clues from GPU logs taken during the run: direct observations of each GPU (F27, F28, F30).

Utilisation, temperature, clocks and the driver's throttle reasons are things seen, so they
enter the board as *direct* clues (``advisor.diagnosis.evidence``) and outrank what the
speed-up curve suggests. The one inference here — busy GPUs that scale poorly are waiting
in NCCL kernels — is an inferred clue, and is dropped when one GPU is seen lagging: then
the others' busy time is spent waiting for that GPU, not for the link.
"""

from __future__ import annotations

import statistics

from advisor.diagnosis.evidence import Board
from advisor.diagnosis.telemetry import GpuSummary, RunTelemetry

STARVED_UTIL_PCT = 80.0  # F28: below 80 % utilisation, look at the data pipeline first
THROTTLE_TEMP_C = 84.0  # F27: most GPUs slow down above 84 °C
LAGGING_CLOCK_RATIO = 0.9  # a GPU clocked 10 % below its peers holds every step back
LAGGING_UTIL_GAP_PCT = 20.0
LAGGING_WEIGHT = 0.85 # seen in a log: above evidence.INFERRED_CAP
BUSY_BUT_SLOW_UTIL_PCT = 90.0
BUSY_AGAINST_STARVATION = 0.6  # busy GPUs are not waiting for data (F28 read the other way)


def _lagging(board: Board, gpus: list[GpuSummary], hot: set[int], capped: set[int]) -> bool:
    """One GPU unlike the others (F30): clocked lower, or busier / idler than its peers. The
    slow GPU of a synchronous job is often the *busiest*: the others wait for it. A laggard
    that is also hot (or power-capped) is evidence for that cause, not a separate suspect."""
    found = False
    for attr, unit in (("clock_median_mhz", "MHz"), ("util_pct", "%")):
        values = {g.index: getattr(g, attr) for g in gpus if getattr(g, attr) is not None}
        if len(values) < 3 and not (len(values) == 2 and attr == "clock_median_mhz"):
            continue
        odd = []
        for index, v in values.items():
            others = [o for i, o in values.items() if i != index]
            ref = statistics.median(others)
            if attr == "clock_median_mhz":
                deviant = v < LAGGING_CLOCK_RATIO * ref
                tight = max(others) - min(others) < (1 - LAGGING_CLOCK_RATIO) * ref
            else:
                deviant = abs(v - ref) >= LAGGING_UTIL_GAP_PCT
                tight = max(others) - min(others) < LAGGING_UTIL_GAP_PCT / 2
            if deviant and tight:
                odd.append((index, v, ref))
        if len(odd) == 1:  # exactly one GPU stands out
            index, v, ref = odd[0]
            what_en = "clocks at" if unit == "MHz" else "averages"
            what_zh = "频率" if unit == "MHz" else "利用率"
            en = (f"GPU {index} {what_en} {v:.0f} {unit} while the others run at {ref:.0f} {unit}:"
                  " every step waits for the slowest GPU (F30).")
            zh = (f"GPU {index} {what_zh}为 {v:.0f} {unit}，其他卡为 {ref:.0f} {unit}：每一步都要等"
                  "最慢的那张卡（F30）。")
            if index in hot:
                board.add("thermal_throttling", 0.5, en + " It is the hot one.",
                          zh + "它正是过热的那张。", direct=True)
            elif index in capped:
                board.add("power_throttling", 0.5, en + " It is the power-capped one.",
                          zh + "它正是被功耗上限压住的那张。", direct=True)
            else:
                board.add("lagging_gpu", LAGGING_WEIGHT, en, zh, direct=True)
            found = True
    return found


def telemetry_clues(board: Board, run: RunTelemetry) -> None:
    """Add the clues of one run's GPU logs to ``board``."""
    gpus = list(run.gpus)
    flagged: set[str] = set()
    hot_ids: set[int] = set()
    capped_ids: set[int] = set()
    utils = [g.util_pct for g in gpus if g.util_pct is not None]
    if utils:
        median_util = statistics.median(utils)
        low = sum(u < STARVED_UTIL_PCT for u in utils)
        if median_util < STARVED_UTIL_PCT and low > len(utils) / 2:
            board.add("input_pipeline", 0.75 + (STARVED_UTIL_PCT - median_util) / 400,
                      f"GPU utilisation is {median_util:.0f} % while working (below 80 %) on "
                      f"{low} of {len(utils)} GPUs: they wait for data (F28).",
                      f"{len(utils)} 张卡中有 {low} 张工作时利用率仅 {median_util:.0f}%（低于 80%）："
                      "在等数据（F28）。", direct=True)
            flagged.add("input_pipeline")
    for g in gpus:
        hot = g.temp_max_c is not None and g.temp_max_c >= THROTTLE_TEMP_C
        thermal_reason = any("thermal" in r for r in g.throttle_reasons)
        if hot or thermal_reason:
            why = f"{g.temp_max_c:.0f} °C" if g.temp_max_c is not None else "thermal slowdown"
            board.add("thermal_throttling", 0.75, f"GPU {g.index} reaches {why} (most GPUs "
                      "throttle above 84 °C) (F27).", f"GPU {g.index} 达到 {why}（多数显卡超过 "
                      "84 °C 会降频）（F27）。", direct=True)
            flagged.add("thermal_throttling")
            hot_ids.add(g.index)
        # a power cap on an idle GPU (P8) slows nothing down; count it only under load
        reasons = [r for r in g.throttle_reasons if "power" in r] if g.util_pct else []
        if reasons:  # the driver says the power limit (or the PSU's brake) slows it down
            board.add("power_throttling", 0.6, f"GPU {g.index} is slowed by "
                      f"{', '.join(reasons)}.", f"GPU {g.index} 因 {', '.join(reasons)} 降速。",
                      direct=True)
        elif g.power_limit_w and g.power_w and g.power_w >= 0.97 * g.power_limit_w:
            # at the limit is common under load; a clue, not proof
            board.add("power_throttling", 0.3, f"GPU {g.index} draws {g.power_w:.0f} W of its "
                      f"{g.power_limit_w:.0f} W limit.",
                      f"GPU {g.index} 功耗 {g.power_w:.0f} W，上限 {g.power_limit_w:.0f} W。",
                      direct=True)
        if reasons or (g.power_limit_w and g.power_w and g.power_w >= 0.97 * g.power_limit_w):
            flagged.add("power_throttling")
            capped_ids.add(g.index)
    if utils and statistics.median(utils) >= BUSY_BUT_SLOW_UTIL_PCT:
        busy = statistics.median(utils)
        board.contradict("input_pipeline", BUSY_AGAINST_STARVATION,
                         f"Against it: the GPU logs show the GPUs {busy:.0f} % busy while working;"
                         " GPUs waiting for data would idle (F28).",
                         f"反证：显卡日志显示工作时利用率为 {busy:.0f}%；等数据的显卡会空闲（F28）。")
    if _lagging(board, gpus, hot_ids, capped_ids):
        flagged.add("lagging_gpu")
    elif utils and statistics.median(utils) >= BUSY_BUT_SLOW_UTIL_PCT:
        # An inference, and only without a laggard: with one, the busy time of the others is
        # spent waiting for it, not for the link.
        median_util = statistics.median(utils)
        board.add("interconnect", 0.2, f"GPUs report {median_util:.0f} % utilisation yet scale"
                  " poorly: NCCL kernels waiting on the link count as busy (F07).",
                  f"显卡利用率 {median_util:.0f}% 但加速比低：等待链路的 NCCL 内核也算作忙碌（F07）。")
    # The importer's own findings count only where the numbers above said nothing (one clue,
    # not two copies of it).
    for obs in run.observations:
        if obs in _OBSERVATIONS and _OBSERVATIONS[obs][0] not in flagged:
            sid, w, en, zh = _OBSERVATIONS[obs]
            board.add(sid, w, en, zh, direct=True)


_OBSERVATIONS = {
    "data_starvation": ("input_pipeline", 0.5, "The GPU log shows utilisation below 80 % while "
                        "working (F28).", "显卡日志显示工作时利用率低于 80%（F28）。"),
    "thermal_throttling": ("thermal_throttling", 0.6, "The GPU log shows thermal slowdown (F27).",
                           "显卡日志显示过热降频（F27）。"),
    "laggard_gpu": ("lagging_gpu", 0.5, "The GPU log shows one GPU behaving unlike the others "
                    "(F30).", "显卡日志显示有一张卡与其他卡表现不同（F30）。"),
    "power_capped": ("power_throttling", 0.5, "The GPU log shows the power limit holding the "
                     "GPUs back.", "显卡日志显示功耗上限压住了显卡。"),
    "vgpu_sharing": ("vgpu_sharing", 0.7, "The GPU log shows NVIDIA vGPU (shared cards) (F29).",
                     "显卡日志显示为 NVIDIA vGPU（共享显卡）（F29）。"),
    "pcie_link_downgraded": ("interconnect", 0.4, "A GPU's PCIe link runs narrower or slower "
                             "than it can (slot, riser or BIOS setting) (F25).",
                             "有显卡的 PCIe 链路宽度或速率低于其能力（插槽、延长线或 BIOS 设置）（F25）。"),
    "no_nvlink": ("interconnect", 0.15, "No NVLink between the GPUs: gradients cross PCIe "
                  "(F25).", "显卡之间没有 NVLink：梯度经 PCIe 传输（F25）。"),
}
