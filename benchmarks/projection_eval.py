"""Predict published speed-ups with the projection and with three baselines; fit parameters.

Shared by ``fit_projection.py`` (writes resources/scaling/parameters.yaml) and
``projection_accuracy.py`` (the report). scipy is used here only, never at runtime.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import least_squares, minimize_scalar

from advisor.scaling.parameters import FITTED, ScalingParams
from advisor.scaling.physics import DataParallelInputs, breakdown
from benchmarks.scaling_series import Points

BOUNDS = {"overlap_fraction": (0.0, 1.0), "busbw_efficiency": (0.05, 1.0),
          "sample_time_cv": (0.0, 1.0), "fixed_step_fraction": (0.0, 0.9),
          "pipeline_stall_tuned": (0.0, 0.2), "sync_latency_s": (0.0, 0.05)}


def predict(points: Points, params: ScalingParams) -> np.ndarray:
    """Projected speed-up of every point over its series' baseline GPU count."""
    f = points.fields

    def at(gpus: np.ndarray, scale: np.ndarray, accumulation: np.ndarray) -> np.ndarray:
        x = DataParallelInputs(
            params_millions=f["params_m"], grad_bytes_per_param=f["grad_bytes"],
            step_compute_s=f["step_compute_s"], gpus_per_node=f["gpus_per_node"],
            busbw_intra_gbs=f["busbw_intra"], busbw_pair_gbs=f["busbw_pair"],
            busbw_inter_gbs=f["busbw_inter"], latency_intra_s=f["lat_intra"],
            latency_inter_s=f["lat_inter"], multi_socket_pcie=f["multi_socket"].astype(bool),
            pipeline_stall=params.pipeline_stall_tuned, batch_scale=scale,
            batch_per_gpu=f["batch0"], accumulation_steps=accumulation)
        return breakdown(gpus, x, params).speedup

    ones = np.ones_like(points.gpus)
    return (at(points.gpus, points.batch_scale, f["accumulation"])
            / at(points.baseline, ones, f["accumulation0"]))


# Weak priors (centre, width in log) on the two parameters the speed-ups alone barely
# separate: more overlap with less bandwidth fits about as well as the reverse, and folds of
# the cross-validation flipped between the two (0.52/0.95 vs 0.80/0.53). Each prior is one
# pseudo-observation with residual log(value / centre) / width, next to ~1,000 real ones.
# Centres (assumptions, not fitted to these rows): 25 MB buckets reach about 85 % of the
# large-message nccl-tests busbw (busbw curves approach their plateau at tens of MB); about
# 60 % of a bucketed all-reduce hides behind the backward pass (middle of 0.4-0.8). The
# cross-validated MAPE moves by < 0.1 point for centres 0.75-0.9 / 0.5-0.7 or doubled widths.
PRIORS = {"busbw_efficiency": (0.85, 0.5), "overlap_fraction": (0.6, 0.67)}


def fit(points: Points, start: ScalingParams | None = None) -> ScalingParams:
    """Least squares on log speed-up ratios over the FITTED parameters, with weak priors."""
    start = start or ScalingParams()
    lo = [BOUNDS[n][0] for n in FITTED]
    hi = [BOUNDS[n][1] for n in FITTED]
    x0 = np.clip(start.vector(), lo, hi)
    log_actual = np.log(points.actual)
    prior_idx = [FITTED.index(name) for name in PRIORS]
    centre = np.log([c for c, _ in PRIORS.values()])
    width = np.array([w for _, w in PRIORS.values()])

    def residuals(theta: np.ndarray) -> np.ndarray:
        params = start.with_values(**dict(zip(FITTED, theta, strict=True)))
        prior = (np.log(np.maximum(theta[prior_idx], 1e-6)) - centre) / width
        return np.concatenate([np.log(predict(points, params)) - log_actual, prior])

    result = least_squares(residuals, x0, bounds=(lo, hi), loss="soft_l1", f_scale=0.05)
    return start.with_values(**dict(zip(FITTED, map(float, result.x), strict=True)))


# ---- baselines -------------------------------------------------------------------------

def linear(points: Points) -> np.ndarray:
    return points.gpus / points.baseline


_TABLE_N = np.log2([1, 4, 8, 16])
_TABLE_S = np.log2([1.0, 3.05, 5.25, 5.25 * 1.15])  # F04; F08: 8->16 adds < 20 % (15 % used)


def article_table(gpus: np.ndarray) -> np.ndarray:
    """The article's fixed curve: 4 -> 3.05, 8 -> 5.25 (F04), +15 % per doubling after 8."""
    x = np.log2(gpus)
    inside = np.interp(x, _TABLE_N, _TABLE_S)
    beyond = _TABLE_S[-1] + (x - _TABLE_N[-1]) * np.log2(1.15)
    return 2.0 ** np.where(x > _TABLE_N[-1], beyond, inside)


def article(points: Points) -> np.ndarray:
    return article_table(points.gpus) / article_table(points.baseline)


def amdahl_curve(gpus: np.ndarray, serial: float) -> np.ndarray:
    return gpus / (1.0 + serial * (gpus - 1.0))  # F03


def amdahl(points: Points, serial: float) -> np.ndarray:
    return amdahl_curve(points.gpus, serial) / amdahl_curve(points.baseline, serial)


def fit_amdahl(points: Points) -> float:
    log_actual = np.log(points.actual)
    res = minimize_scalar(lambda s: float(np.sum((np.log(amdahl(points, s)) - log_actual) ** 2)),
                          bounds=(0.0, 0.5), method="bounded")
    return float(res.x)


def subset(points: Points, mask: np.ndarray) -> Points:
    return Points(series=points.series[mask], gpus=points.gpus[mask],
                  baseline=points.baseline[mask], actual=points.actual[mask],
                  fields={k: v[mask] for k, v in points.fields.items()},
                  batch_scale=points.batch_scale[mask])
