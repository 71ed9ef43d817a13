"""Regularised least squares for a handful of named parameters (numpy only, no scipy at run time).

The residuals are relative (log) errors of the speed-up ratio between measured counts, so a
fit does not care about the throughput unit. Each parameter lives in an unbounded space
(log for positive scales, logit for fractions) and carries a Gaussian prior there, centred
on the projection's shipped value: with the two ratios that 1/2/4-GPU measurements give,
two free parameters are determined by the data and the prior only breaks ties; with fewer
points the prior keeps the fit physical instead of exploding.

The model is evaluated for many parameter vectors at once: the finite-difference Jacobian's
2k perturbed vectors in one call, and the up to 20 damped Levenberg–Marquardt steps of an
iteration in another (the first that lowers the cost is taken, as when they are tried one by
one). The model takes each parameter as a column (one row per vector) and broadcasts it over
the GPU counts, so a call costs about what one vector did; every row is computed by the same
operations on the same numbers as a single evaluation, so the fit is bit for bit the one the
vectors give one at a time (``scripts/diagnose_outputs.py`` compares two commits' results).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from advisor.files.records import record

Transform = Literal["log", "logit"]


@record
class FreeParameter:
    name: str
    prior: float  # centre of the prior, in the parameter's own units
    prior_sigma: float  # standard deviation of the prior in the transformed space
    lower: float
    upper: float
    transform: Transform = "log"

    def to_free(self, value: float) -> float:
        v = min(max(value, self.lower), self.upper)
        if self.transform == "logit":
            v = min(max(v, 1e-6), 1 - 1e-6)
            return float(np.log(v / (1 - v)))
        return float(np.log(max(v, 1e-12)))

    def from_free(self, u: float) -> float:
        v = 1.0 / (1.0 + np.exp(-u)) if self.transform == "logit" else float(np.exp(u))
        return float(min(max(v, self.lower), self.upper))


@record
class FitOutcome:
    values: dict[str, float]
    free: np.ndarray  # transformed parameter vector at the optimum
    covariance: np.ndarray  # of ``free`` (Laplace approximation)
    rms_log_residual: float  # of the data residuals only
    converged: bool
    cost: float  # sum of squared residuals, data and prior


REFIT_MAX_ITER = 12
DAMPING_TRIES = 20  # damped steps per iteration before the fit counts as converged
# Jacobians evaluated ahead at the least damped steps: the step taken is nearly always the
# first or the second (the damping falls tenfold after a step and rises tenfold per miss)
JACOBIANS_AHEAD = 2
# S(N) for the GPU counts N; given each value as a column (m, 1), one row per column entry
SpeedupFn = Callable[[np.ndarray, dict[str, float]], np.ndarray]


def _values(params: tuple[FreeParameter, ...], u: np.ndarray) -> dict[str, float]:
    return {p.name: p.from_free(float(x)) for p, x in zip(params, u, strict=True)}


def _value_columns(params: tuple[FreeParameter, ...], rows: np.ndarray) -> dict[str, np.ndarray]:
    """``_values`` of each row of ``rows`` (transformed vectors), each parameter as a column
    of shape (m, 1) for the model to broadcast over the GPU counts. The same operations as
    ``FreeParameter.from_free`` element by element (numpy's exp gives an array's elements
    what it gives each one alone), so row i holds exactly ``_values(params, rows[i])``."""
    out = {}
    with np.errstate(over="ignore"):
        for i, p in enumerate(params):
            u = rows[:, i]
            v = 1.0 / (1.0 + np.exp(-u)) if p.transform == "logit" else np.exp(u)
            out[p.name] = np.minimum(np.maximum(v, p.lower), p.upper)[:, None]
    return out


def log_ratio(fn: SpeedupFn, gpus: np.ndarray, baseline: int,
              values: dict[str, float]) -> np.ndarray:
    """log(S(N) / S(N0)) of the model for each N; with ``values`` as columns
    (``_value_columns``), one row per parameter vector."""
    with np.errstate(all="ignore"):
        s = fn(np.concatenate(([float(baseline)], gpus)), values)
        if s.ndim == 2:
            return np.log(np.maximum(s[:, 1:], 1e-12)) - np.log(np.maximum(s[:, :1], 1e-12))
        return np.log(np.maximum(s[1:], 1e-12)) - np.log(max(float(s[0]), 1e-12))


def _log_ratio_rows(fn: SpeedupFn, params: tuple[FreeParameter, ...], rows: np.ndarray,
                    gpus: np.ndarray, baseline: int) -> np.ndarray:
    """``log_ratio`` for each row of ``rows``: shape (rows, counts), also for a model that
    does not depend on its parameters (it returns one curve)."""
    model = log_ratio(fn, gpus, baseline, _value_columns(params, rows))
    return np.broadcast_to(model, (len(rows), len(gpus)))


def _central_rows(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows u + h_i e_i and u - h_i e_i (interleaved: up, down for each i) and the steps h."""
    k = len(u)
    h = np.array([1e-4 * max(1.0, abs(x)) for x in u])
    rows = np.tile(u, (2 * k, 1))
    idx = np.arange(k)
    rows[2 * idx, idx] += h
    rows[2 * idx + 1, idx] -= h
    return rows, h


def _central_difference(values: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Columns (f(u + h_i) - f(u - h_i)) / 2h_i from ``_central_rows``' evaluations, laid
    out (C order) as the per-parameter columns stacked side by side."""
    return np.ascontiguousarray(((values[0::2] - values[1::2]) / (2 * h)[:, None]).T)


def fit(fn: SpeedupFn, params: tuple[FreeParameter, ...], gpus: np.ndarray,
        log_speedup_ratio: np.ndarray, baseline: int, noise_log: float,
        starts: list[dict[str, float]] | None = None, from_prior: bool = True) -> FitOutcome:
    """Levenberg–Marquardt from the prior (unless ``from_prior`` is False) and any extra
    ``starts``, the descents side by side; the best optimum wins (the first of equals)."""
    begin = [None, *(starts or [])] if from_prior else list(starts or [])
    best: FitOutcome | None = None
    for outcome in _descend(fn, params, gpus, log_speedup_ratio, baseline, noise_log, begin):
        if best is None or outcome.cost < best.cost:
            best = outcome
    assert best is not None
    return best


def refit_from(fn: SpeedupFn, params: tuple[FreeParameter, ...], gpus: np.ndarray,
               log_speedup_ratio: np.ndarray, baseline: int, noise_log: float,
               start: dict[str, float]) -> FitOutcome:
    """One short Levenberg–Marquardt descent from ``start`` (a nearby optimum), no other
    starts: near an optimum a few steps get within the noise, and a flat direction (more
    free parameters than ratios) would otherwise crawl for the full iteration budget."""
    return _descend(fn, params, gpus, log_speedup_ratio, baseline, noise_log, [start],
                    max_iter=REFIT_MAX_ITER)[0]


@dataclass
class _Descent:
    """One Levenberg–Marquardt descent's state; ``jac``: the Jacobian at ``u`` (None: not
    yet evaluated)."""

    u: np.ndarray
    r: np.ndarray
    cost: float
    jac: np.ndarray | None = None
    damping: float = 1e-3
    converged: bool = False
    done: bool = False


def _descend(fn: SpeedupFn, params: tuple[FreeParameter, ...], gpus: np.ndarray,
             log_speedup_ratio: np.ndarray, baseline: int, noise_log: float,
             starts: list[dict[str, float] | None], max_iter: int = 60) -> list[FitOutcome]:
    """A Levenberg–Marquardt descent from each start (None: the prior), in lockstep: one
    model call per iteration evaluates every unfinished descent's damped steps and, ahead,
    the Jacobians at its least damped ones (``JACOBIANS_AHEAD``: one of them is nearly always
    taken; when another is, its Jacobian costs one more call). Each descent takes exactly the steps it would alone."""
    u0 = np.array([p.to_free(p.prior) for p in params], dtype=float)
    sigma = np.array([p.prior_sigma for p in params], dtype=float)
    lo = np.array([p.to_free(p.lower) for p in params])
    hi = np.array([p.to_free(p.upper) for p in params])

    def evaluate(blocks: list[np.ndarray]) -> list[np.ndarray]:
        """Residuals of each block of rows, all blocks in one model call."""
        values = _log_ratio_rows(fn, params, np.concatenate(blocks), gpus, baseline)
        data = np.where(np.isfinite(values), (values - log_speedup_ratio) / noise_log, 1e3)
        res = np.concatenate((data, (np.concatenate(blocks) - u0) / sigma), axis=1)
        out, at = [], 0
        for block in blocks:
            out.append(res[at:at + len(block)])
            at += len(block)
        return out

    def with_jacobians(runs: list[_Descent]) -> None:
        if not runs:
            return
        central = [_central_rows(d.u) for d in runs]
        for d, (_, h), values in zip(runs, central, evaluate([rows for rows, _ in central]),
                                     strict=True):
            d.jac = _central_difference(values, h)

    first = [u0.copy() if start is None else np.array(
        [p.to_free(start.get(p.name, p.prior)) for p in params], dtype=float)
        for start in starts]
    central = [_central_rows(u) for u in first]
    values = evaluate([u[None, :] for u in first] + [rows for rows, _ in central])
    runs = [_Descent(u, values[i][0], float(values[i][0] @ values[i][0]),
                     _central_difference(values[len(first) + i], central[i][1]))
            for i, u in enumerate(first)]
    for _ in range(max_iter):
        active = [d for d in runs if not d.done]
        if not active:
            break
        with_jacobians([d for d in active if d.jac is None])
        blocks, tried = [], []
        for d in active:
            jtj = d.jac.T @ d.jac
            grad = d.jac.T @ d.r
            # the damped steps tried in turn (damping x10 each), all evaluated at once
            dampings = [d.damping]
            for _ in range(DAMPING_TRIES - 1):
                dampings.append(dampings[-1] * 10.0)
            trials = np.clip(d.u + _damped_steps(jtj, grad, dampings), lo, hi)
            ahead = [_central_rows(trial) for trial in trials[:JACOBIANS_AHEAD]]
            blocks += [trials, *(rows for rows, _ in ahead)]
            tried.append((dampings, trials, [h for _, h in ahead]))
        values = evaluate(blocks)
        at = 0
        for d, (dampings, trials, steps) in zip(active, tried, strict=True):
            taken = _advance(d, trials, values[at], dampings)
            if taken is not None:
                d.jac = _central_difference(values[at + 1 + taken], steps[taken]) \
                    if taken < len(steps) else None
            at += 1 + len(steps)
    with_jacobians([d for d in runs if d.jac is None])
    out = []
    for d in runs:
        try:
            covariance = np.linalg.pinv(d.jac.T @ d.jac)
        except np.linalg.LinAlgError:  # a degenerate model at the optimum: the prior
            covariance = np.diag(sigma ** 2)
        n_data = len(gpus)
        data_res = d.r[:n_data] * noise_log
        rms = float(np.sqrt(np.mean(data_res ** 2))) if n_data else 0.0
        out.append(FitOutcome(_values(params, d.u), d.u, covariance, rms, d.converged, d.cost))
    return out


def _advance(d: _Descent, trials: np.ndarray, r_trials: np.ndarray,
             dampings: list[float]) -> int | None:
    """Take the first damped step that lowers the cost (returns its index); none: converged
    (returns None)."""
    for j in range(len(r_trials)):
        r_trial = r_trials[j]
        cost_trial = float(r_trial @ r_trial)
        if cost_trial < d.cost:
            break
    else:
        d.converged = d.done = True
        return None
    # the cost is in units of the noise: a gain of 1e-6 moves nothing that is reported
    done = d.cost - cost_trial < 1e-6 * max(d.cost, 1.0)
    d.u, d.r, d.cost = trials[j], r_trial, cost_trial
    d.damping = max(dampings[j] / 10.0, 1e-9)
    if done:
        d.converged = d.done = True
    return j


def _damped_steps(jtj: np.ndarray, grad: np.ndarray, dampings: list[float]) -> np.ndarray:
    """The Levenberg–Marquardt step for each damping, one row each."""
    scaled = np.diag(np.diag(jtj) + 1e-9)
    systems = np.stack([jtj + d * scaled for d in dampings])
    rhs = np.broadcast_to(-grad, (len(dampings), len(grad)))[..., None]
    try:
        return np.linalg.solve(systems, rhs)[..., 0]
    except np.linalg.LinAlgError:  # one singular system: that step is not taken (NaN)
        steps = np.full((len(dampings), len(grad)), np.nan)
        for j, system in enumerate(systems):
            try:
                steps[j] = np.linalg.solve(system, -grad)
            except np.linalg.LinAlgError:
                continue
        return steps


def predictive_log_sd(fn: SpeedupFn, params: tuple[FreeParameter, ...], outcome: FitOutcome,
                      gpus: np.ndarray, baseline: int) -> np.ndarray:
    """Standard deviation of log S(N) from the parameters' uncertainty (delta method)."""
    rows, h = _central_rows(outcome.free)
    grad = _central_difference(_log_ratio_rows(fn, params, rows, gpus, baseline), h)
    var = np.einsum("ij,jk,ik->i", grad, outcome.covariance, grad)
    return np.sqrt(np.maximum(var, 0.0))
