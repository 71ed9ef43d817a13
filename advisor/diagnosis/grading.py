"""Grade a measured speed-up against the article's FAQ (F30) and its typical ranges (F01, F04).

F30 gives the thresholds at 4 GPUs (< 2× check communication and data loading, 2.5× normal,
3× well tuned) and one at 8 GPUs (< 4×: find the lagging GPU with ``nvidia-smi dmon``); F04
and F01 give the 8-GPU norm (data parallel ≈ 5–5.5×, most jobs 4–6×). Other counts are
graded by the Amdahl serial fraction (F03) each threshold implies, interpolated in log N
between 4 and 8 and held outside, so "normal at 4" and "normal at 2" mean the same
serial fraction rather than the same efficiency.
"""

from __future__ import annotations

import math
from typing import Literal

from advisor.files.records import record
from advisor.text.i18n import Text

Level = Literal["poor", "below_normal", "normal", "well_tuned", "superlinear"]
LEVELS: tuple[Level, ...] = ("poor", "below_normal", "normal", "well_tuned", "superlinear")

# speed-up thresholds at the article's two counts: (poor below, normal from, well tuned from)
THRESHOLDS_4 = (2.0, 2.5, 3.0)  # F30
THRESHOLDS_8 = (4.0, 5.0, 6.0)  # F30 (< 4), F04 (5–5.5 typical data parallel), F01 (4–6)
SUPERLINEAR_EFFICIENCY = 1.05  # above this the baseline is suspect (cache effects, slow 1-GPU run)


def _serial_fraction(speedup: float, n: int) -> float:
    """The Amdahl serial fraction that gives ``speedup`` on ``n`` GPUs."""
    return (n / speedup - 1.0) / (n - 1.0)


def thresholds(n: int) -> tuple[float, float, float]:
    """Speed-up thresholds (poor below, normal from, well tuned from) at ``n`` GPUs."""
    if n <= 1:
        return (1.0, 1.0, 1.0)
    s4 = [_serial_fraction(t, 4) for t in THRESHOLDS_4]
    s8 = [_serial_fraction(t, 8) for t in THRESHOLDS_8]
    w = min(max(math.log2(n) - 2.0, 0.0), 1.0)  # 0 at ≤ 4 GPUs, 1 at ≥ 8
    fractions = [math.exp((1 - w) * math.log(a) + w * math.log(b)) for a, b in zip(s4, s8,
                                                                                   strict=True)]
    return tuple(n / (1.0 + s * (n - 1)) for s in fractions)  # type: ignore[return-value]


@record
class Grade:
    gpus: int
    speedup: float
    level: Level
    message: Text
    sources: tuple[str, ...]


_MESSAGES: dict[Level, Text] = {
    "poor": Text(en="{speedup:.2f}× on {gpus} GPUs is poor (below {poor:.1f}×): check "
                    "communication and data loading first.",
                 zh="{gpus} 卡 {speedup:.2f} 倍偏低（低于 {poor:.1f} 倍）：先检查通信和数据加载。"),
    "below_normal": Text(en="{speedup:.2f}× on {gpus} GPUs is below the usual {normal:.1f}×: "
                            "there is room to tune.",
                         zh="{gpus} 卡 {speedup:.2f} 倍低于常见的 {normal:.1f} 倍：还有调优空间。"),
    "normal": Text(en="{speedup:.2f}× on {gpus} GPUs is normal (no task scales linearly).",
                   zh="{gpus} 卡 {speedup:.2f} 倍属于正常（没有任务是线性加速的）。"),
    "well_tuned": Text(en="{speedup:.2f}× on {gpus} GPUs is well tuned (≥ {well:.1f}×).",
                       zh="{gpus} 卡 {speedup:.2f} 倍，调得很好（≥ {well:.1f} 倍）。"),
    "superlinear": Text(en="{speedup:.2f}× on {gpus} GPUs is more than linear: the one-GPU "
                           "baseline was probably slowed by something else (memory, cache, a "
                           "different batch) — check that the runs are comparable.",
                        zh="{gpus} 卡 {speedup:.2f} 倍超过线性：单卡基线可能被其他因素拖慢（显存、"
                           "缓存、批大小不同），请确认几次测量可比。"),
}
_LAGGING_GPU = Text(en=" Below {poor:.1f}× on {gpus} GPUs: watch each GPU with `nvidia-smi dmon` "
                       "and find the one holding the others back.",
                    zh=" {gpus} 卡低于 {poor:.1f} 倍：用 `nvidia-smi dmon` 逐卡观察，找出拖后腿的那张卡。")


def grade(gpus: int, speedup: float) -> Grade:
    """The F30 grade of one measured speed-up over one GPU."""
    poor, normal, well = thresholds(gpus)
    if speedup > SUPERLINEAR_EFFICIENCY * gpus and gpus > 1:
        level: Level = "superlinear"
    elif speedup < poor:
        level = "poor"
    elif speedup < normal:
        level = "below_normal"
    elif speedup < well:
        level = "normal"
    else:
        level = "well_tuned"
    values = {"gpus": gpus, "speedup": speedup, "poor": poor, "normal": normal, "well": well}
    message = _MESSAGES[level].format(**values)
    sources: tuple[str, ...] = ("F30",)
    if level == "poor" and gpus >= 8:
        extra = _LAGGING_GPU.format(**values)
        message = Text(en=message.en + extra.en, zh=message.zh + extra.zh)
    if gpus >= 8 and level in ("below_normal", "normal"):
        sources = ("F30", "F04", "F01")
    return Grade(gpus, speedup, level, message, sources)


def headline_index(gpus: tuple[int, ...]) -> int | None:
    """Which measured count to headline: 4 GPUs (F30's example), else 8, else the largest."""
    for preferred in (4, 8):
        if preferred in gpus:
            return gpus.index(preferred)
    multi = [i for i, n in enumerate(gpus) if n > 1]
    return multi[-1] if multi else None
