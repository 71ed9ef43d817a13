"""Rank the likely causes of poor scaling from the measurements, the refit, the profile and the
GPU logs. Clues accumulate on a board (``advisor.diagnosis.evidence``): what the curve and
the refit suggest is *inferred* and capped; what a log shows or the profile states is
*direct*. GPU-log clues live in ``advisor.diagnosis.suspect_telemetry``.

How the curve's shape is read (F07, F28): a Karp–Flatt fraction that rises while the
throughput stops growing is a fixed-capacity stage — the input pipeline — not the link,
whose cost per GPU levels off (ring all-reduce traffic approaches 2× the gradients). The
link is blamed first only on physical grounds: a gradient exchange that is long next to
the compute on the user's link (PCIe without peer-to-peer, F25) or a refit that needs far
less bandwidth than the link should give.
"""

from __future__ import annotations

import statistics

from advisor.catalog.cooling import fitted_cooling
from advisor.catalog.gpus import resolve_gpu
from advisor.diagnosis.evidence import Board, Suspect
from advisor.diagnosis.grading import thresholds
from advisor.diagnosis.metrics import ScalingMetrics
from advisor.diagnosis.remedies import INTERCONNECT_ON_NVLINK
from advisor.diagnosis.suspect_telemetry import THROTTLE_TEMP_C, telemetry_clues
from advisor.diagnosis.telemetry import RunTelemetry
from advisor.diagnosis.wording import label
from advisor.files.errors import InputError
from advisor.files.records import record
from advisor.profile import Profile
from advisor.scaling.task_defaults import takes_turns
from advisor.text.i18n import Text
from advisor.text.numbers import count_text

__all__ = ["FitSignals", "Suspect", "rank_suspects"]

NEAR_LINEAR_EFFICIENCY = 0.9  # every measured count this close to linear: no link suspect
LONG_EXCHANGE_RATIO = 0.25  # exposed all-reduce / compute above which the link is a suspect


@record
class FitSignals:
    """What the refitted projection says, relative to its shipped parameters."""

    bandwidth_ratio: float | None = None  # fitted / shipped achievable bus bandwidth
    comm_share: float | None = None  # exposed communication share of the step at the largest N
    stall_share: float | None = None  # input-pipeline stall share of the step at the largest N
    plateau_speedup: float | None = None  # fitted capacity cap per machine, when levelling off
    hardware_known: bool = True  # False: the refit assumed the default machine (no profile)
    # The shipped projection on the user's hardware, at the largest measured count: exposed
    # all-reduce time over compute time, and what goes into it (for the evidence text).
    exchange_ratio: float | None = None
    gradient_mb: float | None = None
    exchange_ms: float | None = None
    compute_ms: float | None = None
    link: Text | None = None  # e.g. "PCIe 4.0"
    peer_to_peer: bool = True  # False: GeForce cards on PCIe exchange through host memory


def _from_measurements(board: Board, m: ScalingMetrics, plateau: bool) -> None:
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
    if m.trend == "rising" and plateau:
        (a, sa), (b, sb) = pairs[-2], pairs[-1]
        gain = 100 * (sb / sa - 1)
        board.add("input_pipeline", 0.4, f"The Karp–Flatt serial fraction climbs from {kf[0]:.2f}"
                  f" to {kf[-1]:.2f} while throughput grows only {gain:.0f} % from {a} to {b} "
                  "GPUs: a stage with a fixed capacity, which the link is not — its cost per GPU"
                  " levels off (F07, F28).",
                  f"Karp–Flatt 串行比例从 {kf[0]:.2f} 升到 {kf[-1]:.2f}，而从 {a} 卡到 {b} 卡吞吐只"
                  f"增加 {gain:.0f}%：这是一个容量固定的环节；链路不是——它的每卡开销会趋于平稳"
                  "（F07、F28）。")
        board.add("interconnect", 0.15, "A rising serial fraction can also come from "
                  "communication, though the link's cost per GPU levels off rather than "
                  "capping throughput (F07).",
                  "串行比例上升也可能来自通信，但链路的每卡开销会趋于平稳，不会封顶吞吐（F07）。")
    elif m.trend == "rising":
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


def _near_linear(m: ScalingMetrics) -> bool:
    """Every measured count within 10 % of linear: the link is not what holds the run back."""
    return all(e >= NEAR_LINEAR_EFFICIENCY for n, e in zip(m.gpus, m.efficiency, strict=True)
               if n > 1)


def _from_fit(board: Board, f: FitSignals, near_linear: bool = False) -> None:
    if f.plateau_speedup is not None:
        cap = f.plateau_speedup
        board.add("input_pipeline", 0.45, f"Within one machine the speed-up levels off near "
                  f"{cap:.1f}×: a stage with fixed capacity feeds all of that machine's GPUs — "
                  "usually data loading; each machine added brings its own (F28).",
                  f"在一台机器内，加速比在约 {cap:.1f} 倍处趋平：有一个容量固定的环节在供给这台机器"
                  "的所有显卡——通常是数据加载；每多一台机器就多一套自己的数据加载（F28）。")
        board.add("vgpu_sharing", 0.25, f"A ceiling near {cap:.1f}× also fits \"GPUs\" that share "
                  "fewer physical cards (F29).", f"约 {cap:.1f} 倍的上限也符合多个“GPU”共享更少"
                  "物理卡的情况（F29）。")
    trust = 1.0 if f.hardware_known else 0.5  # shares of an assumed machine are guesses
    if f.bandwidth_ratio is not None and f.bandwidth_ratio < 0.5:
        # With a capacity cap in the fit, the bandwidth rests on the 2-GPU point alone.
        weight = 0.2 if f.plateau_speedup is not None else 0.45
        board.add("interconnect", weight * trust, "Refitted to your measurements, the "
                  f"all-reduce runs at {100 * f.bandwidth_ratio:.0f} % of the bandwidth expected"
                  " for this link.",
                  f"按实测数据重新拟合后，All-Reduce 只达到该链路预期带宽的 "
                  f"{100 * f.bandwidth_ratio:.0f}%。")
    link_clue = f.hardware_known and f.exchange_ratio is not None and not near_linear \
        and f.exchange_ratio >= LONG_EXCHANGE_RATIO and f.link is not None
    if link_clue:
        p2p = "" if f.peer_to_peer else " (no peer-to-peer on these cards: via host memory)"
        p2p_zh = "" if f.peer_to_peer else "（这些卡不支持点对点，经主机内存中转）"
        board.add("interconnect", min(0.2 + f.exchange_ratio, 0.6),
                  f"Each step exchanges {f.gradient_mb:.0f} MB of gradients over "
                  f"{f.link.en}{p2p}: about {f.exchange_ms:.0f} ms not hidden behind "
                  f"{f.compute_ms:.0f} ms of compute (F07, F25).",
                  f"每步要经 {f.link.zh}{p2p_zh} 交换 {f.gradient_mb:.0f} MB 梯度：约 "
                  f"{f.exchange_ms:.0f} ms 无法被 {f.compute_ms:.0f} ms 的计算掩盖（F07、F25）。")
    if f.comm_share is not None and f.comm_share > 0.25:
        # a big gradient on a slow link is the link's fault before the model's size (F20, F25)
        top = 0.55 if link_clue else 0.7
        board.add("small_model_communication", min(0.2 + f.comm_share, top) * trust,
                  f"In the refitted model, exposed communication takes {100 * f.comm_share:.0f} %"
                  " of each step at the largest count measured (F20).",
                  f"重新拟合的模型中，在实测最大卡数下未被掩盖的通信占每步 {100 * f.comm_share:.0f}%"
                  "（F20）。")
    if f.stall_share is not None and f.stall_share > 0.15 and f.plateau_speedup is None:
        board.add("input_pipeline", min(0.2 + f.stall_share, 0.6) * trust,
                  f"In the refitted model, waiting for data takes {100 * f.stall_share:.0f} % of "
                  "each step at the largest count measured (F28).",
                  f"重新拟合的模型中，等数据占每步 {100 * f.stall_share:.0f}%（F28）。")


def _from_profile(board: Board, p: Profile, m: ScalingMetrics, f: FitSignals | None) -> None:
    t, h = p.training, p.hardware
    if t.input_pipeline.value == "starved":
        board.add("input_pipeline", 0.5, "The profile says the input pipeline reads on one "
                  "thread (starved) (F28).", "配置中数据加载为单线程（starved）（F28）。",
                  direct=True)
    if t.dataloader_workers is not None and t.dataloader_workers < 2:
        workers = count_text(t.dataloader_workers, "data-loader worker")  # "1 … worker"
        board.add("input_pipeline", 0.3, f"{workers} per GPU; 2–4 per GPU is usual (F13).",
                  f"每卡 {t.dataloader_workers} 个数据加载进程；通常每卡 2–4 个（F13）。",
                  direct=True)
    if t.storage is not None and t.storage.value in ("hdd", "network"):
        where = label(t.storage)
        board.add("input_pipeline", 0.25, f"Training data is read from {where.en} storage.",
                  f"训练数据从{where.zh}存储读取。", direct=True)
    if h.virtualization.value == "vgpu":
        board.add("vgpu_sharing", 0.6, "The profile says the GPUs are NVIDIA vGPUs (F29).",
                  "配置中显卡为 NVIDIA vGPU（F29）。", direct=True)
        _more_than_one_card(board, m)
    # near-linear measurements clear the link, whatever it is (F30: well tuned)
    if h.intra_link.value.startswith("pcie") and max(m.gpus) > 2 and not _near_linear(m):
        link = label(h.intra_link)
        no_p2p = f is not None and not f.peer_to_peer
        board.add("interconnect", 0.2 if no_p2p else 0.15,
                  f"GPUs talk over {link.en} without NVLink"
                  + (", and these cards have no PCIe peer-to-peer" if no_p2p else "")
                  + " (F25).",
                  f"显卡之间走 {link.zh}，没有 NVLink" + ("，且这些卡不支持 PCIe 点对点" if no_p2p
                                                       else "") + "（F25）。")
    if h.max_gpu_temp_c is not None and h.max_gpu_temp_c >= THROTTLE_TEMP_C:
        board.add("thermal_throttling", 0.55, f"A GPU reached {h.max_gpu_temp_c:.0f} °C under "
                  "load (≥ 84 °C) (F27).", f"有显卡满载时达到 {h.max_gpu_temp_c:.0f} °C（≥ 84 °C）（F27）。",
                  direct=True)
    if _cooling(p) == "open_air" and h.gpus_per_node >= 4:
        board.add("thermal_throttling", 0.15, "Open-air cards packed four or more to a case "
                  "heat each other (F27).", "四张及以上开放式散热显卡挤在一起会互相加热（F27）。")
    if takes_turns(p):
        task = label(p.task)
        board.add("alternating_training", 0.6, f"The task is {task.en}: sub-networks train in "
                  "turn (F21).", f"任务是{task.zh}：子网络轮流训练（F21）。", direct=True)
    elif p.task.value in ("gan", "reinforcement_learning"):  # together on every GPU: a clue only
        task = label(p.task)
        board.add("alternating_training", 0.2, f"The task is {task.en}: if its sub-networks "
                  "take turns on separate GPUs, the others wait (F21).",
                  f"任务是{task.zh}：若子网络分在不同的卡上轮流训练，其余的卡会等待（F21）。")


def _cooling(p: Profile) -> str:
    """The profile's cooling, the card's usual one where open-air is not sold for it (F27)."""
    try:
        return fitted_cooling(resolve_gpu(p.hardware.gpu), p.hardware.cooling.value)
    except InputError:
        return p.hardware.cooling.value


def _more_than_one_card(board: Board, m: ScalingMetrics) -> None:
    """Two vGPUs on one card can never beat one GPU (F29): a measured 2-GPU speed-up well
    above 1 shows two physical cards at work, so sharing explains little of the rest."""
    if 2 in m.gpus and m.speedup[m.gpus.index(2)] >= 1.15:
        s = m.speedup[m.gpus.index(2)]
        board.contradict("vgpu_sharing", 0.6,
                         f"2 GPUs measured {s:.2f}×: two vGPUs on one card cannot beat one GPU, "
                         "so these run on separate cards (F29).",
                         f"2 卡实测 {s:.2f} 倍：同一张卡上的两个 vGPU 不可能比单卡快，"
                         "所以它们在不同的物理卡上（F29）。")


def rank_suspects(metrics: ScalingMetrics, *, fit: FitSignals | None = None,
                  profile: Profile | None = None,
                  telemetry: RunTelemetry | None = None) -> list[Suspect]:
    """Suspects with at least one clue, most likely first."""
    board = Board()
    _from_measurements(board, metrics, fit is not None and fit.plateau_speedup is not None)
    if fit is not None:
        _from_fit(board, fit, _near_linear(metrics))
    if profile is not None:
        _from_profile(board, profile, metrics, fit)
    if telemetry is not None:
        telemetry_clues(board, telemetry)
    if profile is not None and profile.hardware.virtualization.value in ("bare_metal",
                                                                          "passthrough"):
        # whole physical GPUs: a curve's shape cannot make them shared vGPUs (F29)
        board.rule_out("vgpu_sharing")
    if profile is not None and "interconnect" in board.by_id and \
            not profile.hardware.intra_link.value.startswith("pcie"):
        board.by_id["interconnect"].remedy = INTERCONNECT_ON_NVLINK
    return board.ranked()
