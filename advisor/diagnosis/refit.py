"""Refit the projection's own free parameters to one user's measurements and extrapolate.

The model is ``advisor.scaling.physics.speedup`` — the same step-time model the projection
uses (compute + exposed ring all-reduce + input stall + straggler wait, # F07, # F28) with
the user's hardware as inputs. Two of its fitted parameters are refitted per user by
least squares on the measured speed-up ratios:

* ``busbw_efficiency`` — the share of the link's bus bandwidth the all-reduce achieves: a
  cost that appears from the second GPU and levels off (ring traffic → 2× the gradients);
* ``pipeline_stall`` — the input-pipeline stall per doubling of GPUs (the projection's
  ``pipeline_stall_tuned/typical/starved``, whichever the profile's pipeline selects): a
  cost that keeps growing with N (# F28).

Two shapes, two parameters: 1/2/4-GPU measurements give two ratios, which pin both; the
prior (the shipped values) only matters when fewer points are given. Both stay physical: the
all-reduce never beats the link (``busbw_efficiency`` ≤ 1), the stall may vanish.

A run can scale better than the profile's terms allow even at full bandwidth and no stall
(near-linear data on a big model or a packed open-air machine: the projection's exchange,
stragglers, coordination and clock throttling are fixed). When the pair misses by more than
``CHEAP_MISFIT_LOG``, two scales are freed as well, each down to ~0: ``exchange_scale`` (bytes
exchanged per step as a share of the profile's: fp16 gradients, gradient accumulation, frozen
layers) and ``overhead_scale`` (stragglers, coordination and throttling, # F27). Kept when it
at least halves the misfit; near-linear data are then fitted by cheap communication.

When that pair cannot follow the measurements (misfit above ``PLATEAU_MISFIT_LOG``), the
speed-up is levelling off, which only a fixed-capacity stage explains: the projection's
``loader_capacity`` (the most work one machine's input pipeline can feed, in single-GPU
steps, # F28) replaces ``straggler_cv`` if it at least halves the misfit. When even that misses
and the profile carries assumed penalties (a GAN's alternating training, vGPU sharing, clock
throttling), those are freed too; if nothing follows the data, the curve is moved through the
measured points and the diagnosis says so (``advisor.diagnosis.assumptions``, F30). Amdahl's
law (F03) has one shape only, a serial fraction, and is fitted the same way for comparison.

The 80 % band: two parameters through two ratios fit exactly, so the residuals say nothing
about how well the parameters are known. Beyond the largest measured count the band adds,
to the Laplace (delta-method) spread, the jackknife spread of refits that each leave one
measured ratio out, and a model-error floor per doubling calibrated on published series.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from advisor.diagnosis.assumptions import (
    ANCHOR_MISFIT_LOG,
    ASSUMED_BOUNDS,
    ASSUMED_PRIOR_LOG_SD,
    anchor_shift,
    assumed_names,
    assumed_starts,
)
from advisor.diagnosis.least_squares import (
    FitOutcome,
    FreeParameter,
    fit,
    log_ratio,
    predictive_log_sd,
    refit_from,
)
from advisor.diagnosis.measurements import MeasuredSeries
from advisor.diagnosis.refit_model import (
    INPUT_FIELDS,
    SCALES,
    cap_machines,
    speedup_model,
    step_shares,
)
from advisor.files.records import record
from advisor.profile.bounds import SUPERLINEAR_ALLOWANCE
from advisor.scaling.parameters import ScalingParams
from advisor.scaling.physics import DataParallelInputs

FREE = ("busbw_efficiency", "pipeline_stall")
# When the run scales better than the profile's exchange and overheads allow (near-linear
# data on a big model or a packed open-air machine), two more scales may shrink those terms
# down to zero: fewer bytes exchanged per step than the profile implies (fp16 gradients,
# gradient accumulation, frozen layers) and smaller stragglers / coordination / throttling.
FREE_CHEAP = ("busbw_efficiency", "pipeline_stall", "exchange_scale", "overhead_scale")
FREE_PLATEAU = ("busbw_efficiency", "loader_capacity")
CHEAP_MISFIT_LOG = 0.01  # rms log misfit of FREE above which FREE_CHEAP is tried
CHEAP_PRIOR_WIDEN = 4.0
PLATEAU_MISFIT_LOG = 0.05  # rms log misfit above which a capacity cap is tried
# Prior widths in log space (a factor e ≈ 2.7 for bandwidth, 4.5 for stall and capacity):
# loose, so the data decide whenever there are two or more ratios.
PRIOR_LOG_SD = {"busbw_efficiency": 1.0, "pipeline_stall": 1.5, "loader_capacity": 1.5,
                "exchange_scale": 2.0, "overhead_scale": 2.0, **ASSUMED_PRIOR_LOG_SD}
# Physical ranges: an all-reduce never beats the link's bus bandwidth (efficiency <= 1);
# stall, exchange and overheads may vanish (lower bounds ~0), never turn into gains.
BOUNDS = {"busbw_efficiency": (0.01, 1.0), "pipeline_stall": (1e-6, 2.0),
          "loader_capacity": (1.0, 1000.0), "exchange_scale": (1e-4, 1.0),
          "overhead_scale": (1e-4, 1.0), **ASSUMED_BOUNDS}
# The stall prior's centre when the profile's stall is ~0 (the projection fits a tuned
# loader's stall at 0 on published series): half a percent of the step per doubling, the
# order of the tuned stall fitted before (0.004-0.007), so two or more ratios decide.
STALL_PRIOR_FLOOR = 0.005
CAPACITY_PRIOR = 16.0  # single-GPU steps per machine: far from binding unless the data say so
MEASUREMENT_LOG_SD = 0.02  # repeat runs of one training job differ by about 2 %
# Model error of an extrapolation, in log speed-up per doubling beyond the largest measured
# count, set from the out-of-sample errors of benchmarks/diagnosis_extrapolation.py (it
# reports the band's coverage at 8 and 16 GPUs). With two or more measured ratios the
# leave-one-out spread adds each series' own parameter uncertainty on top of this floor;
# with a single ratio (1 and 4 GPUs only) nothing can be left out, so the floor is wider.
EXTRAPOLATION_LOG_SD_PER_DOUBLING = 0.04
EXTRAPOLATION_LOG_SD_ONE_RATIO = 0.06
BAND_Z = 1.2816  # two-sided 80 % band
LEAVE_ONE_OUT_SCALE = 1.0


@record
class ScalingFit:
    """The refitted model: parameters and the speed-up (over one GPU) at each count."""

    parameters: dict[str, float]
    shipped: dict[str, float]
    gpus: list[int]
    speedup: list[float]
    speedup_low: list[float]
    speedup_high: list[float]
    rms_log_residual: float
    plateau: bool  # True when the capacity cap (FREE_PLATEAU) explained the data better
    released: tuple[str, ...]  # profile assumptions the measurements overruled (lowered)
    anchored: bool  # the model could not follow the data: the curve goes through them
    comm_share: float  # exposed communication share of the step at the largest measured N
    stall_share: float
    sync_share: float

    def at(self, n: int) -> float:
        return self.speedup[self.gpus.index(n)]


def _shipped(name: str, inputs: DataParallelInputs, params: ScalingParams) -> float:
    """The projection's value for this run: a parameter, or the profile-derived input."""
    if name == "loader_capacity":
        return CAPACITY_PRIOR
    if name in SCALES:  # the profile's own terms, unscaled
        return 1.0
    source = inputs if name in INPUT_FIELDS else params
    if name == "pipeline_stall":  # a log prior needs a positive centre (a tuned loader's
        # fitted stall can be 0: then the data must be free to find one)
        return max(float(getattr(source, name)), STALL_PRIOR_FLOOR)
    return float(getattr(source, name))


def _free_parameters(names: tuple[str, ...], inputs: DataParallelInputs,
                     params: ScalingParams, widen: float = 1.0) -> tuple[FreeParameter, ...]:
    out = []
    for name in names:
        lo, hi = BOUNDS[name]
        prior = min(max(_shipped(name, inputs, params), lo * 1.01), hi * 0.99)
        out.append(FreeParameter(name, prior, widen * PRIOR_LOG_SD[name], lo, hi, "log"))
    return tuple(out)


def _observed(series: MeasuredSeries) -> tuple[np.ndarray, np.ndarray]:
    base = series.throughput[0]
    gpus = np.array(series.gpus[1:], dtype=float)
    ratios = np.log(np.array(series.throughput[1:]) / base)
    return gpus, ratios


def extrapolation_counts(series: MeasuredSeries, up_to: int | None = None) -> list[int]:
    """Measured counts, every power of two from the baseline up to ``up_to`` (default
    max(16, 2× the largest measured count)), and ``up_to`` itself. Nothing below the
    baseline: its speed-up over one GPU is an assumption (ideal), not a measurement."""
    top = up_to or max(16, 2 * series.gpus[-1])
    powers = [1 << k for k in range(top.bit_length())
              if series.baseline_gpus <= (1 << k) <= top]
    return sorted(set(series.gpus) | set(powers) | {top})


def _staged_fit(fn, inputs: DataParallelInputs, params: ScalingParams, gpus: np.ndarray,
                ratios: np.ndarray, n0: int):
    """``FREE``, then wider sets while the misfit stays large; each kept only when it at
    least halves the misfit. Returns (free parameters, outcome, plateau, released names)."""
    free = _free_parameters(FREE, inputs, params)
    outcome: FitOutcome = fit(fn, free, gpus, ratios, n0, MEASUREMENT_LOG_SD)
    if outcome.rms_log_residual > CHEAP_MISFIT_LOG:  # scales better than the profile allows?
        # the data already disagree with the profile: priors that only break ties
        cheap = _free_parameters(FREE_CHEAP, inputs, params, CHEAP_PRIOR_WIDEN)
        starts = [{**outcome.values, "exchange_scale": 0.3, "overhead_scale": 0.3},
                  {**outcome.values, "exchange_scale": 0.01, "overhead_scale": 0.01,
                   "pipeline_stall": 1e-4}]
        # from the pair's optimum and from cheap terms: the prior start adds nothing here
        alt = fit(fn, cheap, gpus, ratios, n0, MEASUREMENT_LOG_SD, starts=starts,
                  from_prior=False)
        if alt.rms_log_residual < outcome.rms_log_residual / 2:
            free, outcome = cheap, alt
    if outcome.rms_log_residual <= PLATEAU_MISFIT_LOG:
        return free, outcome, False, ()
    plateau = False
    top = float(np.exp(ratios.max())) * n0  # start the cap at the best measured speed-up
    capped = _free_parameters(FREE_PLATEAU, inputs, params)
    starts = [{"loader_capacity": top}, {"loader_capacity": 1.3 * top}]
    alt = fit(fn, capped, gpus, ratios, n0, MEASUREMENT_LOG_SD, starts=starts)
    if alt.rms_log_residual < outcome.rms_log_residual / 2:
        free, outcome, plateau = capped, alt, True
    assumed = assumed_names(inputs)
    if outcome.rms_log_residual <= PLATEAU_MISFIT_LOG or not assumed:
        return free, outcome, plateau, ()
    # F30: the profile's penalties are guesses, the measurements are not (see assumptions.py).
    # One descent per start, the levelling-off set first; done once one follows the data.
    best = None
    for capped, start in assumed_starts(assumed, outcome.values, top):
        names = tuple(dict.fromkeys((FREE_PLATEAU if capped else FREE) + assumed))
        wide = _free_parameters(names, inputs, params)
        alt = fit(fn, wide, gpus, ratios, n0, MEASUREMENT_LOG_SD,
                  starts=[{k: v for k, v in start.items() if k in names}], from_prior=False)
        if best is None or alt.rms_log_residual < best[1].rms_log_residual:
            best = (wide, alt, capped)
        if best[1].rms_log_residual <= CHEAP_MISFIT_LOG:
            break
    if best is None or best[1].rms_log_residual >= outcome.rms_log_residual / 2:
        return free, outcome, plateau, ()
    free, outcome, plateau = best
    released = tuple(n for n in assumed
                     if outcome.values[n] < 0.95 * _shipped(n, inputs, params))
    return free, outcome, plateau, released


def refit(series: MeasuredSeries, inputs: DataParallelInputs, params: ScalingParams,
          counts: list[int]) -> ScalingFit:
    """Least-squares refit of ``FREE`` on ``series``; speed-up with an 80 % band at ``counts``."""
    n0 = series.baseline_gpus
    gpus, ratios = _observed(series)
    if inputs.loader_capacity is not None:  # the profile already caps the loader
        inputs = replace(inputs, loader_capacity=None)
    fn = speedup_model(inputs, params, series.scaling, n0)
    free, outcome, plateau, released = _staged_fit(fn, inputs, params, gpus, ratios, n0)
    out = np.array(counts, dtype=float)
    misfit = outcome.rms_log_residual
    # the model cannot produce the measured curve: move it through the measured points (F30)
    anchored = misfit > ANCHOR_MISFIT_LOG
    shift = anchor_shift(out, series.gpus, ratios - log_ratio(fn, gpus, n0, outcome.values)) \
        if anchored else 0.0
    speed = n0 * np.exp(log_ratio(fn, out, n0, outcome.values) + shift)
    # never above N: only a measured count may be super-linear, within the allowance the
    # measurements are held to (advisor.profile.bounds); the fit never extrapolates above it
    measured = np.isin(out, np.array(series.gpus))
    speed = np.minimum(speed, np.where(measured, out * (1.0 + SUPERLINEAR_ALLOWANCE), out))
    param_sd = predictive_log_sd(fn, free, outcome, out, n0)
    beyond = np.maximum(np.log2(out / series.gpus[-1]), 0.0)
    # a misfit is noise at the measured counts; once the model's shape is in doubt, beyond too
    noise = np.where(np.isin(out, np.array(series.gpus)) | (anchored & (beyond > 0)), misfit,
                     0.0)
    loo_sd = np.where(beyond > 0, _leave_one_out_sd(fn, free, outcome, gpus, ratios, n0, out),
                      0.0)
    floor = EXTRAPOLATION_LOG_SD_PER_DOUBLING if len(gpus) >= 2 \
        else EXTRAPOLATION_LOG_SD_ONE_RATIO
    sd = np.sqrt(param_sd ** 2 + loo_sd ** 2 + noise ** 2 + (floor * beyond) ** 2)
    # what is unknown at 8 GPUs is still unknown at 16: the relative band never narrows
    # beyond the data (``out`` is ascending)
    sd = np.where(beyond > 0, np.maximum.accumulate(sd), sd)
    sd = np.where(out == n0, 0.0, sd)  # the baseline is the measurement itself
    low = speed * np.exp(-BAND_Z * sd)
    high = np.minimum(speed * np.exp(BAND_Z * sd), np.maximum(out, speed))
    high = cap_machines(out, speed, high, series.gpus[-1], inputs.gpus_per_node)
    return ScalingFit(
        parameters={k: float(f"{v:.6g}") for k, v in outcome.values.items()},
        shipped={name: _shipped(name, inputs, params)
                 for name in dict.fromkeys(FREE + tuple(outcome.values))},
        gpus=[int(n) for n in counts],
        speedup=[round(float(v), 4) for v in speed],
        speedup_low=[round(float(v), 4) for v in low],
        speedup_high=[round(float(v), 4) for v in high],
        rms_log_residual=round(misfit, 6),
        plateau=plateau,
        released=released,
        anchored=anchored,
        **step_shares(inputs, params, outcome.values, series),
    )


def _leave_one_out_sd(fn, free: tuple[FreeParameter, ...], outcome: FitOutcome,
                      gpus: np.ndarray, ratios: np.ndarray, n0: int,
                      out: np.ndarray) -> np.ndarray:
    """Jackknife spread of the extrapolation when the fit has at most one degree of freedom.

    With as many measured ratios as free parameters the fit is exact (rms ≈ 0) and the
    Laplace covariance only knows the assumed measurement noise: it says nothing about how
    much the curve beyond the data hangs on each point. Refit without each ratio in turn and
    take the jackknife spread of log S(N): (k−1)/k · Σ (pred₋ᵢ − pred)²."""
    k = len(gpus)
    if k < 2 or k > len(free) + 1:
        return np.zeros(len(out))
    full = log_ratio(fn, out, n0, outcome.values)
    spread = np.zeros(len(out))
    for i in range(k):
        keep = np.arange(k) != i
        # one descent from the full fit's optimum: the subset's optimum is near it
        alt = refit_from(fn, free, gpus[keep], ratios[keep], n0, MEASUREMENT_LOG_SD,
                         outcome.values)
        pred = log_ratio(fn, out, n0, alt.values)
        spread += np.where(np.isfinite(pred), pred - full, 0.0) ** 2
    return LEAVE_ONE_OUT_SCALE * np.sqrt((k - 1) / k * spread)


def fit_amdahl(series: MeasuredSeries) -> float:
    """Amdahl's serial fraction (F03) fitted by least squares on the same log ratios."""
    gpus, ratios = _observed(series)
    n0 = series.baseline_gpus
    # plain least squares: a prior so wide it never counts
    free = (FreeParameter("serial_fraction", 0.05, 1e3, 1e-6, 1.0, "log"),)
    outcome = fit(amdahl_curve, free, gpus, ratios, n0, MEASUREMENT_LOG_SD)
    return outcome.values["serial_fraction"]


def amdahl_curve(gpus: np.ndarray, values: dict[str, float]) -> np.ndarray:
    s = values["serial_fraction"]
    n = np.asarray(gpus, dtype=float)
    return n / (1.0 + s * (n - 1.0))
