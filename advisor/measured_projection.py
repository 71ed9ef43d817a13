"""A projection whose speed-ups come from the user's own measurements (F30).

When a profile has a ``measured`` section, the recommendation must not contradict it: the
speed-ups (with their band) at every projected GPU count are replaced by the diagnosis' refit to
the measured points (measured counts, and the refitted model in between and beyond). Memory,
fits, bottleneck and split stay the projection's: measurements of throughput say nothing
about them.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from advisor.diagnosis.result import FittedScaling
from advisor.profile import Profile
from advisor.scaling.result import Projection

NOTE = ("Speed-ups come from your measurements ({points}), refitted by the diagnosis; memory "
        "and fit are the projection's.")
NOTE_ZH = "加速比来自你的实测（{points}），经诊断模块重新拟合；显存与能否放下仍按预测。"


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
    fit = _measured_fit(profile.model_dump_json(), max(projection.gpus))
    if fit is None:
        return projection
    scaling = profile.measured.scaling
    at = projection.gpus
    speed = _interpolated(at, fit.gpus, fit.speedup)
    low = _interpolated(at, fit.gpus, fit.speedup_low)
    high = _interpolated(at, fit.gpus, fit.speedup_high)
    low = [min(lo, s) for lo, s in zip(low, speed, strict=True)]
    high = [max(hi, s) for hi, s in zip(high, speed, strict=True)]
    base_hours, base_step = projection.run_hours[0] * projection.speedup[0], \
        projection.step_time_s[0]
    weak = str(getattr(scaling, "value", scaling)) == "weak"
    measured = [(n, s) for n, s, m in zip(fit.gpus, fit.speedup, fit.measured, strict=True)
                if m and n > 1]
    points = ", ".join(f"{n} GPUs {s:.2f}x" for n, s in measured)
    points_zh = "，".join(f"{n} 卡 {s:.2f} 倍" for n, s in measured)
    return projection.model_copy(update={
        "speedup": speed, "speedup_low": low, "speedup_high": high,
        "efficiency": [round(s / n, 4) for s, n in zip(speed, at, strict=True)],
        "run_hours": [base_hours / s for s in speed],
        # weak scaling keeps the batch per GPU: a step does N GPUs' work in N/S of the time
        "step_time_s": [base_step * (n / s if weak else 1.0 / s)
                        for s, n in zip(speed, at, strict=True)],
        "notes": [*projection.notes, NOTE.format(points=points)],
        "notes_zh": [*projection.notes_zh, NOTE_ZH.format(points=points_zh)],
    })


@lru_cache(maxsize=16)
def _measured_fit(profile_json: str, up_to: int) -> FittedScaling | None:
    """The diagnosis' refit for a profile (by its JSON): a least-squares fit costs about 100 ms,
    and the wizard and the report ask again for the same profile."""
    from advisor.diagnosis import diagnose
    from advisor.diagnosis.measurements import from_measured_spec

    profile = Profile.model_validate_json(profile_json)
    assert profile.measured is not None
    return diagnose(from_measured_spec(profile.measured), profile, up_to=up_to).fit
