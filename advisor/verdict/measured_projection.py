"""A projection whose speed-ups come from the user's own measurements (F30).

When a profile has a ``measured`` section, the recommendation must not contradict it: the
speed-ups (with their band) at every projected GPU count are replaced by the measured points
at the measured counts, and by the diagnosis' refit in between and beyond (F30: a measurement
wins over any model). When the refit cannot follow the measurements the diagnosis moves its
curve through them (``advisor.diagnosis.assumptions``) and the note here says so. Memory,
fits, bottleneck and split stay the projection's: measurements of throughput say nothing
about them.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from advisor.diagnosis.result import Diagnosis
from advisor.profile import Profile
from advisor.profile.bounds import MIN_SPEEDUP_RATIO, SUPERLINEAR_ALLOWANCE, clamp
from advisor.scaling.project import NOTE_SLOWER
from advisor.scaling.result import Projection

NOTE = ("Speed-ups come from your measurements ({points}), refitted by the diagnosis; memory "
        "and fit are the projection's.")
NOTE_ZH = "加速比来自你的实测（{points}），经诊断模块重新拟合；显存与能否放下仍按预测。"
NOTE_ANCHORED = ("The projection's model cannot follow your measurements (misfit {misfit:.0f} %): "
                 "other counts keep its shape through the measured points; read them with care.")
NOTE_ANCHORED_ZH = "预测模型无法贴合你的实测（偏差 {misfit:.0f}%）：其他卡数沿用模型形状并穿过实测点，请谨慎参考。"


def _interpolated(at: list[int], gpus: list[int], values: list[float]) -> list[float]:
    """Values at ``at`` on a log-log line through (``gpus``, ``values``); one GPU is 1.0."""
    known = dict(zip(gpus, values, strict=True))
    known.setdefault(1, 1.0)
    xs = sorted(known)
    log_x = np.log(np.array(xs, dtype=float))
    log_y = np.log(np.maximum(np.array([known[x] for x in xs], dtype=float), 1e-6))
    out = np.exp(np.interp(np.log(np.array(at, dtype=float)), log_x, log_y))
    return [round(float(v), 4) for v in out]


def with_measured_speedups(profile: Profile, projection: Projection) -> Projection:
    """``projection`` with the measured (refitted) speed-ups; unchanged without measurements
    or when the measurements cannot be fitted."""
    if profile.measured is None:
        return projection
    diagnosis = _measured_fit(profile.model_dump_json(), max(projection.gpus))
    fit = diagnosis.fit
    if fit is None:
        return projection
    scaling = profile.measured.scaling
    at = projection.gpus
    # F30: at a measured count the measurement itself, not the refit's value there
    measured_at = dict(zip(diagnosis.measured.gpus, diagnosis.measured.speedup, strict=True))
    curve = [measured_at.get(n, s) for n, s in zip(fit.gpus, fit.speedup, strict=True)]
    speed = _interpolated(at, fit.gpus, curve)
    low = _interpolated(at, fit.gpus, fit.speedup_low)
    high = _interpolated(at, fit.gpus, fit.speedup_high)
    # F30 and the bounds: a count that was not measured is never above N, a measured one
    # within the super-linear allowance; never below a thousandth (no run hours divided by 0)
    ceiling = [n * (1.0 + SUPERLINEAR_ALLOWANCE) if n in measured_at else float(n) for n in at]
    speed = [clamp(s, MIN_SPEEDUP_RATIO, c) for s, c in zip(speed, ceiling, strict=True)]
    low = [clamp(min(lo, s), MIN_SPEEDUP_RATIO, s) for lo, s in zip(low, speed, strict=True)]
    high = [clamp(max(hi, s), s, c) for hi, s, c in zip(high, speed, ceiling, strict=True)]
    base_hours, base_step = projection.run_hours[0] * projection.speedup[0], \
        projection.step_time_s[0]
    weak = str(getattr(scaling, "value", scaling)) == "weak"
    measured = [(n, s) for n, s in measured_at.items() if n > 1]
    points = ", ".join(f"{n} GPUs {s:.2f}x" for n, s in measured)
    points_zh = "，".join(f"{n} 卡 {s:.2f} 倍" for n, s in measured)
    notes, notes_zh = [NOTE.format(points=points)], [NOTE_ZH.format(points=points_zh)]
    if fit.anchored:
        notes.append(NOTE_ANCHORED.format(misfit=100 * fit.rms_log_residual))
        notes_zh.append(NOTE_ANCHORED_ZH.format(misfit=100 * fit.rms_log_residual))
    return projection.model_copy(update={
        "speedup": speed, "speedup_low": low, "speedup_high": high,
        "efficiency": [round(s / n, 4) for s, n in zip(speed, at, strict=True)],
        "run_hours": [base_hours / s for s in speed],
        # weak scaling keeps the batch per GPU: a step does N GPUs' work in N/S of the time
        "step_time_s": [base_step * (n / s if weak else 1.0 / s)
                        for s, n in zip(speed, at, strict=True)],
        "notes": [*_kept(projection.notes, at, speed, "en"), *notes],
        "notes_zh": [*_kept(projection.notes_zh, at, speed, "zh"), *notes_zh],
    })


def _kept(notes: list[str], at: list[int], speed: list[float], lang: str) -> list[str]:
    """The projection's notes less "slower on N GPUs than on one" where the measurements
    say otherwise."""
    head = NOTE_SLOWER.en.split(":")[0] if lang == "en" else NOTE_SLOWER.zh.split("：")[0]
    wrong = tuple(head.format(n=n) for n, s in zip(at, speed, strict=True) if s >= 1.0)
    return [note for note in notes if not note.startswith(wrong)] if wrong else list(notes)


@lru_cache(maxsize=16)
def _measured_fit(profile_json: str, up_to: int) -> Diagnosis:
    """The diagnosis of a profile's measurements (by its JSON): a least-squares fit costs about
    100 ms, and the wizard and the report ask again for the same profile."""
    from advisor.diagnosis import diagnose
    from advisor.diagnosis.measurements import from_measured_spec

    profile = Profile.model_validate_json(profile_json)
    assert profile.measured is not None
    return diagnose(from_measured_spec(profile.measured), profile, up_to=up_to)
