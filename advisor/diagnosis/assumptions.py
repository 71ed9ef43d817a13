"""Profile assumptions a measurement may overrule, and the fallback when nothing can follow it.

The projection builds some penalties from what the profile *says*, not from anything measured:

* ``alternating_fraction`` — a GAN or RL job trains sub-networks in turn, taken as a fixed
  serial share of 0.65 (# F21); with it 2 GPUs can never beat 1.21× nor 4 GPUs 1.36×;
* ``vgpus_per_physical`` — "vGPU" without a count is taken as two vGPUs per physical card
  (# F29); with it 2 GPUs can never beat 1.0×;
* clock throttling from a reported temperature (# F27), scaled by ``overhead_scale``.

They are guesses about the user's run; the user's measurements of that run are facts (F30).
When the refit misses the measurements by more than ``PLATEAU_MISFIT_LOG`` and the profile
carries such a penalty, the refit frees the penalties as well (each may shrink towards none;
the alternating share may also grow) and keeps that fit when it at least halves the misfit.

If even that cannot follow the measurements (rms misfit above ``ANCHOR_MISFIT_LOG``), the model
physically cannot produce the measured curve. The diagnosis says so, and the curve it reports
is the model's curve moved through the measured points: the log misfit at each measured count,
interpolated on log N in between and held at the largest count's value beyond it. Measured
counts then read the measurements, and the extrapolation keeps the model's shape.
"""

from __future__ import annotations

import numpy as np

from advisor.scaling.physics import DataParallelInputs
from advisor.text.i18n import Text

# (lower, upper) and prior width in log space: loose, the data already disagree with the
# profile; the upper bound of the vGPU count is far above any real instance.
ASSUMED_BOUNDS = {"alternating_fraction": (1e-3, 0.95), "vgpus_per_physical": (1.0, 16.0)}
ASSUMED_PRIOR_LOG_SD = {"alternating_fraction": 1.0, "vgpus_per_physical": 1.0}
# rms log misfit above which the model is said not to follow the measurements (5 %, against
# the ~2 % that repeat runs of one job differ by): the curve is then moved through them
ANCHOR_MISFIT_LOG = 0.05

NOTE_RELEASED = Text(
    en="The measurements scale better than the profile's assumptions allow ({names}); the refit "
       "took those from the measurements instead (F30).",
    zh="实测的扩展比配置中的假设允许的更好（{names}）；重新拟合改用实测数据确定这些值（F30）。")
RELEASED_NAME = {
    "alternating_fraction": Text(en="alternating training of a GAN or RL job, F21",
                                 zh="GAN/强化学习的轮流训练，F21"),
    "vgpus_per_physical": Text(en="vGPUs sharing a physical card, F29",
                               zh="多个 vGPU 共用一张物理卡，F29"),
    "overhead_scale": Text(en="clock throttling from the reported temperature, F27",
                           zh="按报告温度估计的降频，F27"),
}
NOTE_ANCHORED = Text(
    en="The projection's model cannot follow these measurements (rms misfit {misfit:.1f} %, "
       "above {limit:.0f} %): the fitted column passes through the measured points and, beyond "
       "them, keeps the model's shape scaled by the misfit at {last} GPUs. Measured counts show "
       "the measurements (F30); read the extrapolation with care.",
    zh="预测模型无法贴合这些实测值（均方根偏差 {misfit:.1f}%，超过 {limit:.0f}%）：拟合值一列穿过"
       "实测点，超出实测范围后沿用模型的形状，并按 {last} 卡处的偏差缩放。实测卡数显示实测值"
       "（F30）；外推结果请谨慎参考。")


def assumed_names(inputs: DataParallelInputs) -> tuple[str, ...]:
    """The profile-derived penalties present in ``inputs`` that a refit may free."""
    names = []
    if inputs.alternating_fraction > 0:
        names.append("alternating_fraction")
    if inputs.vgpus_per_physical > 1:
        names.append("vgpus_per_physical")
    if inputs.throttle_fixed > 0 or inputs.throttle_per_card > 0:
        names.append("overhead_scale")
    return tuple(names)


# (with a capacity cap?, cap over the best measured speed-up, penalties kept): descents from
# the current optimum that reach the data on the reviewer's GAN-on-vGPU series and on
# synthetic levelling-off ones; the cap's kink leaves local minima, hence several
_STARTS = ((True, 1.0, 0.2), (True, 1.0, 0.05), (True, 1.3, 0.2), (False, None, 0.5),
           (False, None, 0.05))


def assumed_starts(names: tuple[str, ...], values: dict[str, float],
                   top: float) -> list[tuple[bool, dict[str, float]]]:
    """(with a capacity cap?, start values) for the freed fit, in order: the current optimum
    with the penalties cut to a share of the profile's and, with a cap, the cap near the best
    measured speed-up ``top``."""
    out = []
    for capped, cap, share in _STARTS:
        start = dict(values)
        if "alternating_fraction" in names:
            start["alternating_fraction"] = max(share * values.get("alternating_fraction", 0.65),
                                                2e-3)
        if "vgpus_per_physical" in names:
            start["vgpus_per_physical"] = 1.0 + share
        if "overhead_scale" in names:
            start["overhead_scale"] = share
        if capped:
            start["loader_capacity"] = cap * top
        out.append((capped, start))
    return out


def released_note(names: tuple[str, ...]) -> Text:
    parts = [RELEASED_NAME[n] for n in names if n in RELEASED_NAME]
    return Text(en=NOTE_RELEASED.en.format(names="; ".join(p.en for p in parts)),
                zh=NOTE_RELEASED.zh.format(names="；".join(p.zh for p in parts)))


def anchored_note(misfit_log: float, last: int) -> Text:
    values = {"misfit": 100 * misfit_log, "limit": 100 * ANCHOR_MISFIT_LOG, "last": last}
    return Text(en=NOTE_ANCHORED.en.format(**values), zh=NOTE_ANCHORED.zh.format(**values))


def anchor_shift(out: np.ndarray, measured: tuple[int, ...] | list[int],
                 log_residual: np.ndarray) -> np.ndarray:
    """Log correction that moves the model's curve through the measured points.

    ``log_residual`` is log(measured / model) at ``measured[1:]`` (the baseline is exact);
    the correction is interpolated on log N between measured counts, 0 below the baseline and
    the largest count's value beyond it (``np.interp`` holds the end values)."""
    xs = np.log(np.asarray(measured, dtype=float))
    ys = np.concatenate(([0.0], np.asarray(log_residual, dtype=float)))
    shift = np.interp(np.log(np.asarray(out, dtype=float)), xs, ys)
    return np.where(np.asarray(out) < measured[0], 0.0, shift)
