"""Regularised least squares for a handful of named parameters (numpy only, no scipy at run time).

The residuals are relative (log) errors of the speed-up ratio between measured counts, so a
fit does not care about the throughput unit. Each parameter lives in an unbounded space
(log for positive scales, logit for fractions) and carries a Gaussian prior there, centred
on the projection's shipped value: with the two ratios that 1/2/4-GPU measurements give,
two free parameters are determined by the data and the prior only breaks ties; with fewer
points the prior keeps the fit physical instead of exploding.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

Transform = Literal["log", "logit"]


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class FitOutcome:
    values: dict[str, float]
    free: np.ndarray  # transformed parameter vector at the optimum
    covariance: np.ndarray  # of ``free`` (Laplace approximation)
    rms_log_residual: float  # of the data residuals only
    converged: bool
    cost: float  # sum of squared residuals, data and prior


REFIT_MAX_ITER = 12
SpeedupFn = Callable[[np.ndarray, dict[str, float]], np.ndarray]


def _values(params: tuple[FreeParameter, ...], u: np.ndarray) -> dict[str, float]:
    return {p.name: p.from_free(float(x)) for p, x in zip(params, u, strict=True)}


def log_ratio(fn: SpeedupFn, gpus: np.ndarray, baseline: int,
              values: dict[str, float]) -> np.ndarray:
    """log(S(N) / S(N0)) of the model for each N."""
    with np.errstate(all="ignore"):
        s = fn(np.concatenate(([float(baseline)], gpus)), values)
        return np.log(np.maximum(s[1:], 1e-12)) - np.log(max(float(s[0]), 1e-12))


def fit(fn: SpeedupFn, params: tuple[FreeParameter, ...], gpus: np.ndarray,
        log_speedup_ratio: np.ndarray, baseline: int, noise_log: float,
        starts: list[dict[str, float]] | None = None, from_prior: bool = True) -> FitOutcome:
    """Levenberg–Marquardt from the prior (unless ``from_prior`` is False) and any extra
    ``starts``; the best optimum wins."""
    best: FitOutcome | None = None
    for start in [None, *(starts or [])] if from_prior else list(starts or []):
        outcome = _fit_from(fn, params, gpus, log_speedup_ratio, baseline, noise_log, start)
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
    return _fit_from(fn, params, gpus, log_speedup_ratio, baseline, noise_log, start,
                     max_iter=REFIT_MAX_ITER)


def _fit_from(fn: SpeedupFn, params: tuple[FreeParameter, ...], gpus: np.ndarray,
              log_speedup_ratio: np.ndarray, baseline: int, noise_log: float,
              start: dict[str, float] | None, max_iter: int = 60) -> FitOutcome:
    u0 = np.array([p.to_free(p.prior) for p in params], dtype=float)
    sigma = np.array([p.prior_sigma for p in params], dtype=float)
    lo = np.array([p.to_free(p.lower) for p in params])
    hi = np.array([p.to_free(p.upper) for p in params])

    def residuals(u: np.ndarray) -> np.ndarray:
        model = log_ratio(fn, gpus, baseline, _values(params, u))
        data = np.where(np.isfinite(model), (model - log_speedup_ratio) / noise_log, 1e3)
        return np.concatenate((data, (u - u0) / sigma))

    def jacobian(u: np.ndarray) -> np.ndarray:
        cols = []
        for i in range(len(u)):
            h = 1e-4 * max(1.0, abs(u[i]))
            up, dn = u.copy(), u.copy()
            up[i] += h
            dn[i] -= h
            cols.append((residuals(up) - residuals(dn)) / (2 * h))
        return np.stack(cols, axis=1)

    u = u0.copy() if start is None else np.array(
        [p.to_free(start.get(p.name, p.prior)) for p in params], dtype=float)
    r = residuals(u)
    cost = float(r @ r)
    damping = 1e-3
    converged = False
    for _ in range(max_iter):
        jac = jacobian(u)
        jtj = jac.T @ jac
        grad = jac.T @ r
        improved = False
        for _ in range(20):
            step = np.linalg.solve(jtj + damping * np.diag(np.diag(jtj) + 1e-9), -grad)
            trial = np.clip(u + step, lo, hi)
            r_trial = residuals(trial)
            cost_trial = float(r_trial @ r_trial)
            if cost_trial < cost:
                improved = True
                break
            damping *= 10.0
        if not improved:
            converged = True
            break
        # the cost is in units of the noise: a gain of 1e-6 moves nothing that is reported
        done = cost - cost_trial < 1e-6 * max(cost, 1.0)
        u, r, cost = trial, r_trial, cost_trial
        damping = max(damping / 10.0, 1e-9)
        if done:
            converged = True
            break
    jac = jacobian(u)
    try:
        covariance = np.linalg.pinv(jac.T @ jac)
    except np.linalg.LinAlgError:  # a degenerate model at the optimum: fall back on the prior
        covariance = np.diag(sigma ** 2)
    n_data = len(gpus)
    data_res = r[:n_data] * noise_log
    rms = float(np.sqrt(np.mean(data_res ** 2))) if n_data else 0.0
    return FitOutcome(_values(params, u), u, covariance, rms, converged, cost)


def predictive_log_sd(fn: SpeedupFn, params: tuple[FreeParameter, ...], outcome: FitOutcome,
                      gpus: np.ndarray, baseline: int) -> np.ndarray:
    """Standard deviation of log S(N) from the parameters' uncertainty (delta method)."""
    u = outcome.free
    cols = []
    for i in range(len(u)):
        h = 1e-4 * max(1.0, abs(u[i]))
        up, dn = u.copy(), u.copy()
        up[i] += h
        dn[i] -= h
        cols.append((log_ratio(fn, gpus, baseline, _values(params, up))
                     - log_ratio(fn, gpus, baseline, _values(params, dn))) / (2 * h))
    grad = np.stack(cols, axis=1)
    var = np.einsum("ij,jk,ik->i", grad, outcome.covariance, grad)
    return np.sqrt(np.maximum(var, 0.0))
