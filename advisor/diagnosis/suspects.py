"""Rank the likely causes of poor scaling from the measurements, the refit, the profile and the
GPU logs. Each clue adds evidence with a weight in (0, 1]; a suspect's score is the noisy-OR
of its clues, 1 − Π(1 − w), so independent clues reinforce each other and one strong clue
is enough. Direct observation of a GPU (a log) weighs more than an inference from the curve.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from advisor.diagnosis.grading import thresholds
from advisor.diagnosis.metrics import ScalingMetrics
from advisor.diagnosis.remedies import SUSPECTS
from advisor.diagnosis.telemetry import GpuSummary, RunTelemetry
from advisor.i18n import Text
from advisor.profile import Profile

STARVED_UTIL_PCT = 80.0  # F28: below 80 % utilisation, look at the data pipeline first
THROTTLE_TEMP_C = 84.0  # F27: most GPUs slow down above 84 °C
LAGGING_CLOCK_RATIO = 0.9  # a GPU clocked 10 % below its peers holds every step back
LAGGING_UTIL_GAP_PCT = 20.0


@dataclass(frozen=True)
class FitSignals:
    """What the refitted projection says, relative to its shipped parameters."""

    bandwidth_ratio: float | None = None  # fitted / shipped achievable bus bandwidth
    comm_share: float | None = None  # exposed communication share of the step at the largest N
    stall_share: float | None = None  # input-pipeline stall share of the step at the largest N
    plateau_speedup: float | None = None  # fitted capacity cap per machine, when levelling off
    hardware_known: bool = True  # False: the refit assumed the default machine (no profile)


@dataclass
class Suspect:
    id: str
    score: float = 0.0
    evidence: list[Text] = field(default_factory=list)
    remedy: Text | None = None
    title: Text | None = None
    sources: list[str] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)  # one per evidence item

    def add(self, weight: float, text: Text) -> None:
        weight = min(max(weight, 0.0), 0.99)
        self.score = 1.0 - (1.0 - self.score) * (1.0 - weight)
        # strongest clue first (stable for equal weights)
        at = next((i for i, w in enumerate(self.weights) if w < weight), len(self.weights))
        self.weights.insert(at, weight)
        self.evidence.insert(at, text)


class _Board:
    def __init__(self) -> None:
        self.by_id: dict[str, Suspect] = {}

    def add(self, suspect_id: str, weight: float, en: str, zh: str) -> None:
        kind = SUSPECTS[suspect_id]
        s = self.by_id.setdefault(suspect_id, Suspect(suspect_id, remedy=kind.remedy,
                                                      title=kind.title,
                                                      sources=list(kind.sources)))
        s.add(weight, Text(en=en, zh=zh))

    def ranked(self) -> list[Suspect]:
        return sorted(self.by_id.values(), key=lambda s: (-s.score, s.id))


def _from_measurements(board: _Board, m: ScalingMetrics) -> None:
    for n, s in zip(m.gpus, m.speedup, strict=True):
        poor, _normal, _well = thresholds(n)
        if n == 4 and s < poor:  # F30
            for sid in ("interconnect", "input_pipeline"):
                board.add(sid, 0.3, f"4 GPUs give only {s:.2f}× (< 2×): the article says check "
                          "communication and data loading (F30).",
                          f"4 卡只有 {s:.2f} 倍（< 2 倍）：文章建议检查通信和数据加载（F30）。")
        if n >= 8 and s < poor:  # F30
            board.add("lagging_gpu", 0.35, f"{n} GPUs give only {s:.2f}× (< {poor:.1f}×): F30 "
                      "says find the GPU holding the others back.",
                      f"{n} 卡只有 {s:.2f} 倍（< {poor:.1f} 倍）：F30 建议找出拖后腿的卡。")
    pairs = list(zip(m.gpus, m.speedup, strict=True))
    drops = [(a, b) for (a, sa), (b, sb) in zip(pairs, pairs[1:], strict=False)
             if sb < sa * 0.98]
    if drops:
        a, b = drops[0]
        board.add("vgpu_sharing", 0.3, f"Throughput falls from {a} to {b} GPUs: more GPUs that "
                  "are not more hardware (F29).", f"从 {a} 卡到 {b} 卡吞吐反而下降：加的“卡”"
                  "可能不是真的硬件（F29）。")
        board.add("interconnect", 0.3, f"Throughput falls from {a} to {b} GPUs: communication "
                  "grows faster than compute shrinks (F07, F08).", f"从 {a} 卡到 {b} 卡吞吐下降："
                  "通信增长快于计算减少（F07、F08）。")
    kf = [e for e in m.karp_flatt if e is not None]
    if not kf:
        return
    mean_e = statistics.fmean(kf)
    if m.trend == "rising":
        board.add("interconnect", 0.4, "The Karp–Flatt serial fraction rises with the GPU "
                  "count: a cost that grows with N — communication and synchronisation (F07).",
                  "Karp–Flatt 串行比例随卡数上升：有随卡数增长的开销——通信和同步（F07）。")
        board.add("lagging_gpu", 0.15, "A rising serial fraction also fits waiting for the "
                  "slowest GPU, which gets worse with every GPU added.",
                  "串行比例上升也符合“等最慢的卡”，卡越多越严重。")
    elif m.trend == "flat" and mean_e > 0.03:
        board.add("serial_code", 0.35, f"The Karp–Flatt serial fraction stays near {mean_e:.3f}: "
                  "a fixed serial part, as in Amdahl's law (F03).",
                  f"Karp–Flatt 串行比例稳定在 {mean_e:.3f} 左右：固定的串行部分，符合阿姆达尔定律（F03）。")
        board.add("input_pipeline", 0.25, "A flat serial fraction also fits a data loader that "
                  "cannot go faster however many GPUs wait for it (F28).",
                  "串行比例不变也符合数据加载速度固定、卡再多也得等它（F28）。")
    elif m.trend == "falling" and mean_e > 0.03:
        board.add("interconnect", 0.3, "The Karp–Flatt serial fraction falls with the GPU count: "
                  "a cost paid from the second GPU on that then levels off — the gradient "
                  "all-reduce, whose traffic per GPU approaches 2× the gradients (F07).",
                  "Karp–Flatt 串行比例随卡数下降：从第二张卡开始出现、随后趋于平稳的开销——梯度 "
                  "All-Reduce，每卡通信量趋近梯度的 2 倍（F07）。")


def _from_fit(board: _Board, f: FitSignals) -> None:
    if f.plateau_speedup is not None:
        cap = f.plateau_speedup
        board.add("input_pipeline", 0.45, f"The speed-up levels off near {cap:.1f}× per machine: "
                  "a stage with fixed capacity feeds all GPUs — usually data loading (F28).",
                  f"加速比在每台机器约 {cap:.1f} 倍处趋平：有一个容量固定的环节在供给所有显卡——"
                  "通常是数据加载（F28）。")
        board.add("vgpu_sharing", 0.25, f"A ceiling near {cap:.1f}× also fits \"GPUs\" that share "
                  "fewer physical cards (F29).", f"约 {cap:.1f} 倍的上限也符合多个“GPU”共享更少"
                  "物理卡的情况（F29）。")
    trust = 1.0 if f.hardware_known else 0.5  # shares of an assumed machine are guesses
    if f.bandwidth_ratio is not None and f.bandwidth_ratio < 0.5:
        board.add("interconnect", 0.45 * trust, "Refitted to your measurements, the all-reduce "
                  f"runs at {100 * f.bandwidth_ratio:.0f} % of the bandwidth expected for this "
                  "link.",
                  f"按实测数据重新拟合后，All-Reduce 只达到该链路预期带宽的 "
                  f"{100 * f.bandwidth_ratio:.0f}%。")
    if f.comm_share is not None and f.comm_share > 0.25:
        board.add("small_model_communication", min(0.2 + f.comm_share, 0.7) * trust,
                  f"In the refitted model, exposed communication takes {100 * f.comm_share:.0f} %"
                  " of each step at the largest count measured (F20).",
                  f"重新拟合的模型中，在实测最大卡数下未被掩盖的通信占每步 {100 * f.comm_share:.0f}%"
                  "（F20）。")
    if f.stall_share is not None and f.stall_share > 0.15 and f.plateau_speedup is None:
        board.add("input_pipeline", min(0.2 + f.stall_share, 0.6) * trust,
                  f"In the refitted model, waiting for data takes {100 * f.stall_share:.0f} % of "
                  "each step at the largest count measured (F28).",
                  f"重新拟合的模型中，等数据占每步 {100 * f.stall_share:.0f}%（F28）。")


def _from_profile(board: _Board, p: Profile, m: ScalingMetrics) -> None:
    t, h = p.training, p.hardware
    if t.input_pipeline.value == "starved":
        board.add("input_pipeline", 0.5, "The profile says the input pipeline reads on one "
                  "thread (starved) (F28).", "配置中数据加载为单线程（starved）（F28）。")
    if t.dataloader_workers is not None and t.dataloader_workers < 2:
        board.add("input_pipeline", 0.3, f"{t.dataloader_workers} data-loader worker(s) per GPU;"
                  " 2–4 per GPU is usual (F13).",
                  f"每卡 {t.dataloader_workers} 个数据加载 worker；通常每卡 2–4 个（F13）。")
    if t.storage is not None and t.storage.value in ("hdd", "network"):
        board.add("input_pipeline", 0.25, f"Training data is read from {t.storage.value} storage.",
                  f"训练数据从 {t.storage.value} 存储读取。")
    if h.virtualization.value == "vgpu":
        board.add("vgpu_sharing", 0.6, "The profile says the GPUs are NVIDIA vGPUs (F29).",
                  "配置中显卡为 NVIDIA vGPU（F29）。")
    if h.intra_link.value.startswith("pcie") and max(m.gpus) > 2:
        board.add("interconnect", 0.15, f"GPUs talk over {h.intra_link.value.upper()} without "
                  "NVLink (F25).", f"显卡之间走 {h.intra_link.value.upper()}，没有 NVLink（F25）。")
    if h.max_gpu_temp_c is not None and h.max_gpu_temp_c >= THROTTLE_TEMP_C:
        board.add("thermal_throttling", 0.55, f"A GPU reached {h.max_gpu_temp_c:.0f} °C under "
                  "load (≥ 84 °C) (F27).", f"有显卡满载时达到 {h.max_gpu_temp_c:.0f} °C（≥ 84 °C）（F27）。")
    if h.cooling.value == "open_air" and h.gpus_per_node >= 4:
        board.add("thermal_throttling", 0.15, "Open-air cards packed four or more to a case "
                  "heat each other (F27).", "四张及以上开放式散热显卡挤在一起会互相加热（F27）。")
    if p.task.value in ("gan", "reinforcement_learning"):
        board.add("alternating_training", 0.6, f"Task is {p.task.value}: sub-networks train in "
                  "turn (F21).", f"任务是 {p.task.value}：子网络轮流训练（F21）。")


def _lagging(board: _Board, gpus: list[GpuSummary], hot: set[int], capped: set[int]) -> bool:
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
                          zh + "它正是过热的那张。")
            elif index in capped:
                board.add("power_throttling", 0.5, en + " It is the power-capped one.",
                          zh + "它正是被功耗上限压住的那张。")
            else:
                board.add("lagging_gpu", 0.7, en, zh)
            found = True
    return found


def _from_telemetry(board: _Board, run: RunTelemetry) -> None:
    gpus = list(run.gpus)
    flagged: set[str] = set()
    hot_ids: set[int] = set()
    capped_ids: set[int] = set()
    utils = [g.util_pct for g in gpus if g.util_pct is not None]
    if utils:
        median_util = statistics.median(utils)
        low = sum(u < STARVED_UTIL_PCT for u in utils)
        if median_util < STARVED_UTIL_PCT and low > len(utils) / 2:
            board.add("input_pipeline", 0.6 + (STARVED_UTIL_PCT - median_util) / 200,
                      f"GPU utilisation is {median_util:.0f} % while working (below 80 %) on "
                      f"{low} of {len(utils)} GPUs: they wait for data (F28).",
                      f"{len(utils)} 张卡中有 {low} 张工作时利用率仅 {median_util:.0f}%（低于 80%）："
                      "在等数据（F28）。")
            flagged.add("input_pipeline")
        elif median_util >= 90:
            board.add("interconnect", 0.2, f"GPUs report {median_util:.0f} % utilisation yet scale"
                      " poorly: NCCL kernels waiting on the link count as busy (F07).",
                      f"显卡利用率 {median_util:.0f}% 但加速比低：等待链路的 NCCL 内核也算作忙碌（F07）。")
    for g in gpus:
        hot = g.temp_max_c is not None and g.temp_max_c >= THROTTLE_TEMP_C
        thermal_reason = any("thermal" in r for r in g.throttle_reasons)
        if hot or thermal_reason:
            why = f"{g.temp_max_c:.0f} °C" if g.temp_max_c is not None else "thermal slowdown"
            board.add("thermal_throttling", 0.75, f"GPU {g.index} reaches {why} (most GPUs "
                      "throttle above 84 °C) (F27).", f"GPU {g.index} 达到 {why}（多数显卡超过 "
                      "84 °C 会降频）（F27）。")
            flagged.add("thermal_throttling")
            hot_ids.add(g.index)
        # a power cap on an idle GPU (P8) slows nothing down; count it only under load
        reasons = [r for r in g.throttle_reasons if "power" in r] if g.util_pct else []
        if reasons:  # the driver says the power limit (or the PSU's brake) slows it down
            board.add("power_throttling", 0.6, f"GPU {g.index} is slowed by "
                      f"{', '.join(reasons)}.", f"GPU {g.index} 因 {', '.join(reasons)} 降速。")
        elif g.power_limit_w and g.power_w and g.power_w >= 0.97 * g.power_limit_w:
            # at the limit is common under load; a clue, not proof
            board.add("power_throttling", 0.3, f"GPU {g.index} draws {g.power_w:.0f} W of its "
                      f"{g.power_limit_w:.0f} W limit.",
                      f"GPU {g.index} 功耗 {g.power_w:.0f} W，上限 {g.power_limit_w:.0f} W。")
        if reasons or (g.power_limit_w and g.power_w and g.power_w >= 0.97 * g.power_limit_w):
            flagged.add("power_throttling")
            capped_ids.add(g.index)
    if _lagging(board, gpus, hot_ids, capped_ids):
        flagged.add("lagging_gpu")
    # The importer's own findings count only where the numbers above said nothing (one clue,
    # not two copies of it).
    for obs in run.observations:
        if obs in _OBSERVATIONS and _OBSERVATIONS[obs][0] not in flagged:
            sid, w, en, zh = _OBSERVATIONS[obs]
            board.add(sid, w, en, zh)


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


def rank_suspects(metrics: ScalingMetrics, *, fit: FitSignals | None = None,
                  profile: Profile | None = None,
                  telemetry: RunTelemetry | None = None) -> list[Suspect]:
    """Suspects with at least one clue, most likely first."""
    board = _Board()
    _from_measurements(board, metrics)
    if fit is not None:
        _from_fit(board, fit)
    if profile is not None:
        _from_profile(board, profile, metrics)
    if telemetry is not None:
        _from_telemetry(board, telemetry)
    return board.ranked()
